import type { CsvFileError } from "./types";

/**
 * Bytes to text, and the field delimiter of the text.
 *
 * Encoding rule: a file starting with the UTF-16 byte-order mark (FF FE little-endian, FE FF
 * big-endian; spreadsheet programs save "Unicode text" so) is decoded as UTF-16; anything else must
 * be valid UTF-8, with or without its BOM (EF BB BF). Text holding a NUL character is not a CSV
 * file and is refused, as is a file that is not valid in its encoding. The BOM is not part of the
 * text returned.
 */

export type TextEncodingName = "utf-8" | "utf-16le" | "utf-16be";
export type Decoded = { ok: true; text: string; encoding: TextEncodingName };

export function decodeCsvBytes(bytes: Uint8Array): Decoded | CsvFileError {
  if (bytes.length === 0) return { ok: false, key: "errors.empty" };
  const encoding = encodingOf(bytes);
  const text = decodeStrict(bytes, encoding);
  if (text === null) return { ok: false, key: "errors.encoding" };
  if (text.includes("\0")) return { ok: false, key: "errors.binary" };
  return { ok: true, text, encoding };
}

function encodingOf(bytes: Uint8Array): TextEncodingName {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return "utf-8";
}

/** The text, without its BOM, or null when the bytes are not valid in `encoding`. */
function decodeStrict(bytes: Uint8Array, encoding: TextEncodingName): string | null {
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}

export type Delimiter = "," | ";" | "\t";

/**
 * The delimiter of a CSV text, read from its first non-blank line (the header line, or the title
 * line of a LibreView export): the one of comma, semicolon and tab found most often outside quotes
 * there; on a tie tab wins over semicolon and semicolon over comma (so a `;` line holding one
 * decimal comma, "2026-01-05 08:00;5,6", is `;`). A line with none of them is comma-delimited.
 */
export function detectDelimiter(text: string): Delimiter {
  const line = firstNonBlankLine(text);
  const counts = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "," || ch === ";" || ch === "\t")) counts[ch]++;
  }
  if (counts["\t"] > 0 && counts["\t"] >= counts[";"] && counts["\t"] >= counts[","]) return "\t";
  if (counts[";"] > 0 && counts[";"] >= counts[","]) return ";";
  return ",";
}

/** At most the first 64 KiB are looked at: a header line is never longer. */
function firstNonBlankLine(text: string): string {
  const head = text.slice(0, 65_536);
  for (const line of head.split(/\r\n|\n|\r/)) if (line.trim() !== "") return line;
  return "";
}
