import { describe, expect, it } from "vitest";
import { decodeCsvBytes, detectDelimiter } from "./decode";

describe("decodeCsvBytes", () => {
  it.each([
    ["UTF-8 without BOM", [0x61, 0xc3, 0xab, 0x2c, 0x31], "aë,1", "utf-8"],
    ["UTF-8 with BOM", [0xef, 0xbb, 0xbf, 0x61, 0x2c, 0x31], "a,1", "utf-8"],
    ["UTF-16 LE with BOM", [0xff, 0xfe, 0x61, 0x00, 0xeb, 0x00, 0x2c, 0x00], "aë,", "utf-16le"],
    ["UTF-16 BE with BOM", [0xfe, 0xff, 0x00, 0x61, 0x00, 0xeb, 0x00, 0x2c], "aë,", "utf-16be"],
    ["UTF-16 LE with a surrogate pair", [0xff, 0xfe, 0x3d, 0xd8, 0x00, 0xde], "😀", "utf-16le"],
  ])("decodes %s", (_name, bytes, text, encoding) => {
    expect(decodeCsvBytes(Uint8Array.from(bytes))).toEqual({ ok: true, text, encoding });
  });

  it.each([
    ["no bytes", [], "errors.empty"],
    ["a lone continuation byte", [0x61, 0x80], "errors.encoding"],
    ["a truncated sequence", [0x61, 0xe2, 0x82], "errors.encoding"],
    ["an overlong encoding", [0xc0, 0xaf], "errors.encoding"],
    ["a UTF-16 file of odd length", [0xff, 0xfe, 0x61, 0x00, 0x62], "errors.encoding"],
    ["a lone surrogate in UTF-16", [0xff, 0xfe, 0x3d, 0xd8, 0x61, 0x00], "errors.encoding"],
    ["a NUL in UTF-8", [0x61, 0x00, 0x62], "errors.binary"],
    ["a NUL in UTF-16", [0xff, 0xfe, 0x00, 0x00], "errors.binary"],
  ])("refuses %s", (_name, bytes, key) => {
    expect(decodeCsvBytes(Uint8Array.from(bytes))).toEqual({ ok: false, key });
  });
});

describe("detectDelimiter", () => {
  it.each([
    ["time,glucose\n", ","],
    ["time;glucose\n", ";"],
    ["time\tglucose\n", "\t"],
    ["\n\n  \ntime;glucose\n", ";"],
    ["2026-01-05 08:00;5,6\n", ";"],
    ['"a;b",c,d\n', ","],
    ["a,b;c;d\n", ";"],
    ["a\tb,c\n", "\t"],
    ["just text\n", ","],
    ["", ","],
  ])("%j is delimited by %j", (text, delimiter) => {
    expect(detectDelimiter(text)).toBe(delimiter);
  });
});
