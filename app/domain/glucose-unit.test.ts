import { describe, expect, it } from "vitest";
import {
  fromUnit,
  GlucoseUnit,
  mgdlToMmol,
  mmolToMgdl,
  toGlucoseUnit,
  toUnit,
} from "./glucose-unit";

describe("unit setting", () => {
  it("is 0 for mmol/L and 1 for mg/dL, as Setting.unit stores it", () => {
    expect(GlucoseUnit).toEqual({ Mmol: 0, Mgdl: 1 });
  });

  it("reads 1 as mg/dL, anything else as mmol/L (the default)", () => {
    expect(toGlucoseUnit(1)).toBe(1);
    expect(toGlucoseUnit("1")).toBe(1);
    expect(toGlucoseUnit(0)).toBe(0);
    expect(toGlucoseUnit(2)).toBe(0);
    expect(toGlucoseUnit(undefined)).toBe(0);
  });
});

describe("conversion", () => {
  it("uses 18 mg/dL per mmol/L, both ways", () => {
    expect(mgdlToMmol(180)).toBe(10);
    expect(mgdlToMmol(99)).toBe(5.5);
    expect(mmolToMgdl(10)).toBe(180);
    expect(mmolToMgdl(3.9)).toBeCloseTo(70.2, 12);
  });

  it("converts to and from the display unit, leaving mg/dL alone", () => {
    expect(toUnit(180, 0)).toBe(10);
    expect(toUnit(180, 1)).toBe(180);
    expect(fromUnit(3.9, 0)).toBeCloseTo(70.2, 12);
    expect(fromUnit(10, 0)).toBe(180);
    expect(fromUnit(99, 1)).toBe(99);
  });
});
