import { describe, expect, it } from "vitest";
import { isSafeText } from "./safe-text";

describe("isSafeText", () => {
  it("allows line breaks and tabs in a multi-line text only", () => {
    expect(isSafeText("first\r\nsecond\tthird", { multiline: true })).toBe(true);
    expect(isSafeText("first\r\nsecond", { multiline: false })).toBe(false);
    expect(isSafeText("nul\u0000", { multiline: true })).toBe(false);
    expect(isSafeText("\u202E", { multiline: true })).toBe(false);
  });
  it("refuses C1 controls and unpaired surrogates on one line", () => {
    expect(isSafeText("Anna Kowalska")).toBe(true);
    expect(isSafeText("a\u0085b")).toBe(false);
    expect(isSafeText("a\ud800b")).toBe(false);
  });
});
