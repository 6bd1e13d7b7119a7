/**
 * Raster image types a report logo may have. SVG is never one of them: it can carry script, and
 * the logo is served from our own origin.
 */
export const RASTER_IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export type RasterImageType = (typeof RASTER_IMAGE_TYPES)[number];

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Each format's signature: the bytes expected at given offsets of the file. */
const SIGNATURES: { type: RasterImageType; parts: { offset: number; bytes: number[] }[] }[] = [
  {
    type: "image/png",
    parts: [{ offset: 0, bytes: [0x89, ...ascii("PNG"), 0x0d, 0x0a, 0x1a, 0x0a] }],
  },
  { type: "image/jpeg", parts: [{ offset: 0, bytes: [0xff, 0xd8, 0xff] }] },
  { type: "image/gif", parts: [{ offset: 0, bytes: ascii("GIF87a") }] },
  { type: "image/gif", parts: [{ offset: 0, bytes: ascii("GIF89a") }] },
  {
    type: "image/webp",
    parts: [
      { offset: 0, bytes: ascii("RIFF") },
      { offset: 8, bytes: ascii("WEBP") },
    ],
  },
];

function hasBytes(data: Uint8Array, offset: number, bytes: number[]): boolean {
  return data.length >= offset + bytes.length && bytes.every((b, i) => data[offset + i] === b);
}

/**
 * The raster type of an image read from its first bytes (its "magic number"), or null for
 * anything else, whatever name or declared type the file came with.
 */
export function sniffImageType(data: Uint8Array): RasterImageType | null {
  const found = SIGNATURES.find(({ parts }) =>
    parts.every((p) => hasBytes(data, p.offset, p.bytes)),
  );
  return found?.type ?? null;
}

export function isRasterImageType(type: string): type is RasterImageType {
  return (RASTER_IMAGE_TYPES as readonly string[]).includes(type);
}

/**
 * An uploaded image's check before it is stored: at most `maxBytes`, and a PNG, JPEG, GIF or WebP
 * by its bytes (the type stored is the one the bytes show, not the one the upload declared).
 */
export function checkImage(
  bytes: Uint8Array,
  maxBytes: number,
): { ok: true; type: RasterImageType } | { ok: false; problem: "tooLarge" | "notImage" } {
  if (bytes.byteLength > maxBytes) return { ok: false, problem: "tooLarge" };
  const type = sniffImageType(bytes);
  return type ? { ok: true, type } : { ok: false, problem: "notImage" };
}
