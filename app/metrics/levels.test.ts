import { describe, expect, it } from "vitest";
import { adrrRiskLevel, controlLevelOfGri, hbgiRiskLevel, lbgiRiskLevel, levelOf } from "./levels";

describe("control level from GRI zones (Klonoff 2023)", () => {
  it("zones A-E", () => {
    const cases: Array<[number, string]> = [
      [0, "ideal"],
      [20, "ideal"],
      [20.01, "good"],
      [40, "good"],
      [40.5, "fair"],
      [60, "fair"],
      [61, "poor"],
      [80, "poor"],
      [80.1, "lackOfControl"],
      [100, "lackOfControl"],
    ];
    for (const [gri, level] of cases) expect(controlLevelOfGri(gri), `GRI ${gri}`).toBe(level);
  });
});

describe("risk levels (Kovatchev)", () => {
  it("LBGI: <= 1.1 extremely low, <= 2.5 low, <= 5 moderate, > 5 high", () => {
    expect([0, 1.1, 1.2, 2.5, 2.6, 5, 5.1].map(lbgiRiskLevel)).toEqual([
      "extremelyLow",
      "extremelyLow",
      "low",
      "low",
      "moderate",
      "moderate",
      "high",
    ]);
  });
  it("HBGI: <= 4.5 low, <= 9 moderate, > 9 high", () => {
    expect([0, 4.5, 4.6, 9, 9.1].map(hbgiRiskLevel)).toEqual([
      "low",
      "low",
      "moderate",
      "moderate",
      "high",
    ]);
  });
  it("ADRR: < 20 low, 20 to < 40 moderate, >= 40 high", () => {
    expect([19.9, 20, 39.9, 40].map(adrrRiskLevel)).toEqual([
      "low",
      "moderate",
      "moderate",
      "high",
    ]);
  });
  it("levels keep the metric's sufficiency", () => {
    expect(levelOf({ value: 3, sufficient: false }, lbgiRiskLevel)).toEqual({
      value: "moderate",
      sufficient: false,
    });
    expect(levelOf({ value: null, sufficient: false }, lbgiRiskLevel)).toEqual({
      value: null,
      sufficient: false,
    });
  });
});
