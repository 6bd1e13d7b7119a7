import { describe, expect, it } from "vitest";
import { checkImage, isRasterImageType, sniffImageType } from "./image-type";

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(
    parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)),
  );

describe("sniffImageType", () => {
  it("reads PNG, JPEG, GIF (87a and 89a) and WebP from their first bytes", () => {
    expect(
      sniffImageType(bytes([0x89], "PNG", [0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], "IHDR")),
    ).toBe("image/png");
    expect(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], "JFIF"))).toBe("image/jpeg");
    expect(sniffImageType(bytes("GIF87a", [1, 0, 1, 0]))).toBe("image/gif");
    expect(sniffImageType(bytes("GIF89a", [1, 0, 1, 0]))).toBe("image/gif");
    expect(sniffImageType(bytes("RIFF", [0x24, 0, 0, 0], "WEBPVP8 "))).toBe("image/webp");
  });

  it("refuses SVG, text, other RIFF files, truncated signatures and empty input", () => {
    expect(
      sniffImageType(
        bytes('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      ),
    ).toBeNull();
    expect(sniffImageType(bytes('<?xml version="1.0"?><svg/>'))).toBeNull();
    expect(sniffImageType(bytes("just some text"))).toBeNull();
    expect(sniffImageType(bytes("RIFF", [0x24, 0, 0, 0], "WAVEfmt "))).toBeNull();
    expect(sniffImageType(bytes("GIF88a"))).toBeNull();
    expect(sniffImageType(bytes([0x89], "PNG", [0x0d, 0x0a]))).toBeNull();
    expect(sniffImageType(bytes([0xff, 0xd8]))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });

  it("knows which declared types are raster images", () => {
    expect(isRasterImageType("image/webp")).toBe(true);
    expect(isRasterImageType("image/svg+xml")).toBe(false);
    expect(isRasterImageType("text/html")).toBe(false);
  });
});

describe("checkImage", () => {
  // A PNG's 8-byte signature followed by zeros: 16 bytes.
  const png = new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...new Array(8).fill(0),
  ]);

  it("takes an image of at most the limit by the type its bytes show", () => {
    expect(checkImage(png, 16)).toEqual({ ok: true, type: "image/png" });
  });

  it("refuses one byte over the limit, and bytes of no raster type", () => {
    expect(checkImage(png, 15)).toEqual({ ok: false, problem: "tooLarge" });
    expect(checkImage(new TextEncoder().encode("<svg></svg>"), 100)).toEqual({
      ok: false,
      problem: "notImage",
    });
  });
});
