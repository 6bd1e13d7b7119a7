import { describe, expect, it } from "vitest";
import { parseDecimal, toMgdl, unitIn } from "./values";

describe("parseDecimal", () => {
  it.each([
    ["106", false, { value: 106, decimals: 0 }],
    [" 5.4 ", false, { value: 5.4, decimals: 1 }],
    ["5,4", true, { value: 5.4, decimals: 1 }],
    ["-1", false, { value: -1, decimals: 0 }],
    ["0.125", true, { value: 0.125, decimals: 3 }],
  ])("reads %j (decimal comma %s)", (text, comma, decimal) => {
    expect(parseDecimal(text, comma)).toEqual(decimal);
  });

  it.each([
    ["5,4", false],
    ["1,234.5", true],
    ["1e3", true],
    ["5.", true],
    [".5", true],
    ["", true],
    ["5 4", true],
    ["Low", true],
    ["NaN", true],
    ["Infinity", true],
  ])("refuses %j (decimal comma %s)", (text, comma) => {
    expect(parseDecimal(text, comma)).toBeNull();
  });
});

describe("toMgdl", () => {
  it.each([
    [{ value: 7.8, decimals: 1 }, 140.4],
    [{ value: 5.55, decimals: 2 }, 99.9],
    [{ value: 3.9, decimals: 1 }, 70.2],
    [{ value: 13.2, decimals: 1 }, 237.6],
    [{ value: 0.1, decimals: 1 }, 1.8],
    [{ value: 10, decimals: 0 }, 180],
  ])("converts %j mmol/L to %s mg/dL", (decimal, mgdl) => {
    expect(toMgdl(decimal, "mmol/L")).toBe(mgdl);
  });

  it("leaves mg/dL as written", () => {
    expect(toMgdl({ value: 106.2, decimals: 1 }, "mg/dL")).toBe(106.2);
  });
});

describe("unitIn", () => {
  it.each([
    ["Glucose Value (mmol/L)", "mmol/L"],
    ["MMOL/L", "mmol/L"],
    ["Historic Glucose mg/dL", "mg/dL"],
    ["mgdl", "mg/dL"],
    ["glucose", null],
    ["mg", null],
  ])("%j names %s", (text, unit) => {
    expect(unitIn(text)).toBe(unit);
  });
});
