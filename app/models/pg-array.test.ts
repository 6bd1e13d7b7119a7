import { describe, expect, it } from "vitest";
import { numberArray, textArray } from "./pg-array";

describe("PostgreSQL array literals", () => {
  it("writes numbers as they are and absent values as NULL", () => {
    expect(numberArray([1, -2, 2.5, null, undefined, 0])).toBe("{1,-2,2.5,NULL,NULL,0}");
    expect(numberArray([])).toBe("{}");
  });

  it("refuses a number the database could not read back", () => {
    expect(() => numberArray([Number.NaN])).toThrow(RangeError);
    expect(() => numberArray([Infinity])).toThrow(RangeError);
  });

  it("quotes every text element and escapes only the quote and the backslash", () => {
    expect(textArray(["2026-06-01 00:00:00", "", null])).toBe('{"2026-06-01 00:00:00","",NULL}');
    expect(textArray(['say "hi"', "a\\b", "x,{y}", "NULL"])).toBe(
      '{"say \\"hi\\"","a\\\\b","x,{y}","NULL"}',
    );
  });
});
