import { describe, expect, it } from "vitest";
import { consensusTargetsOf, gri, griOf, timeInRanges, timeInRangesOf } from "./ranges";
import { ctxOf } from "./test-utils";

describe("time in ranges", () => {
  it("boundaries: below strict, above strict, in range inclusive", () => {
    // 20 values chosen on and around every boundary.
    const g = [
      40, 53.9, 54, 62.9, 63, 69.9, 70, 100, 140, 140.1, 150, 180, 180.1, 200, 250, 250.1, 300, 90,
      120, 160,
    ];
    const t = timeInRangesOf(g)!;
    const pct = (k: number) => (k / 20) * 100;
    expect(t.below54).toBe(pct(2)); // 40, 53.9
    expect(t.below70).toBe(pct(6)); // + 54, 62.9, 63, 69.9
    expect(t.range54to69).toBe(pct(4));
    expect(t.range70to180).toBe(pct(9)); // 70, 100, 140, 140.1, 150, 180, 90, 120, 160
    expect(t.above180).toBe(pct(5)); // 180.1, 200, 250, 250.1, 300
    expect(t.range181to250).toBe(pct(3)); // 180.1, 200, 250
    expect(t.above250).toBe(pct(2));
    expect(t.above140).toBe(pct(9)); // 140.1, 150, 180, 180.1, 200, 250, 250.1, 300, 160
    expect(t.range63to140).toBe(pct(7)); // 63, 69.9, 70, 100, 140, 90, 120
    expect(t.range70to140).toBe(pct(5)); // 70, 100, 140, 90, 120
    // The five consensus bands partition the data.
    expect(t.below54 + t.range54to69 + t.range70to180 + t.range181to250 + t.above250).toBeCloseTo(
      100,
      12,
    );
  });

  it("no readings: null", () => {
    expect(timeInRanges(ctxOf([]))).toEqual({ value: null, sufficient: false });
  });
});

describe("GRI", () => {
  it("3.0 VLow + 2.4 Low + 1.6 VHigh + 0.8 High, capped at 100", () => {
    // 10% < 54, 10% 54-69, 60% in range, 10% 181-250, 10% > 250.
    const g = [50, 60, 100, 100, 100, 100, 100, 100, 200, 300];
    expect(gri(ctxOf(g)).value).toBeCloseTo(3 * 10 + 2.4 * 10 + 1.6 * 10 + 0.8 * 10, 12);
    expect(griOf(timeInRangesOf([40, 45, 50])!)).toBe(100);
    expect(griOf(timeInRangesOf([100])!)).toBe(0);
  });
});

describe("consensus targets (Battelino 2019)", () => {
  const t = timeInRangesOf([
    ...new Array(72).fill(120),
    ...new Array(3).fill(65),
    ...new Array(20).fill(200),
    ...new Array(5).fill(260),
  ])!;
  it("standard adult targets", () => {
    // TIR 72% > 70; <70 3% < 4; <54 0% < 1; >180 25% (not < 25); >250 5% (not < 5).
    const r = consensusTargetsOf(t, 30);
    expect(r).toMatchObject({
      tir: true,
      below70: true,
      below54: true,
      above180: false,
      above250: false,
      cv: true,
      all: false,
    });
    expect(consensusTargetsOf(t, 36.5).cv).toBe(false);
  });
  it("older / high-risk targets", () => {
    const r = consensusTargetsOf(t, 30, "olderHighRisk");
    // TIR > 50; <70 3% (not < 1); >250 5% < 10.
    expect(r).toMatchObject({ tir: true, below70: false, above250: true, all: false });
  });
});
