import { describe, expect, it } from "vitest";
import { mage, mageMaDirections, mageNaive } from "./mage";
import { ctxOf, readingsAt, MIN } from "./test-utils";
import { createContext } from "./context";

/** Triangle wave on the 5-minute grid: `periods` rises lo -> hi and falls back, 24 steps each. */
function zigzag(periods: number, lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let i = 0; i <= periods * 48; i++) {
    const p = i % 48;
    out.push(p <= 24 ? lo + (p * (hi - lo)) / 24 : hi - ((p - 24) * (hi - lo)) / 24);
  }
  return out;
}

/** Start at 00:05 so that every reading is a grid point. */
const START = Date.UTC(2024, 0, 1, 0, 5);

describe("MAGE, iglu moving-average algorithm", () => {
  it("triangle wave 100 <-> 200: every rise and fall is 100 mg/dL", () => {
    const ctx = ctxOf(zigzag(6, 100, 200), { start: START });
    const d = mageMaDirections(ctx.grid.values, 5);
    expect(d.plus).toBeCloseTo(100, 10);
    expect(d.minus).toBeCloseTo(100, 10);
    expect(d.avg).toBeCloseTo(100, 10);
    expect(d.max).toBeCloseTo(100, 10);
    expect(d.service).toBeCloseTo(100, 10);
    // One day of data: computed, but the 14-day consensus is not met.
    expect(mage(ctx)).toEqual({ value: d.avg, sufficient: false });
  });

  it("excursions smaller than one SD do not count", () => {
    // A 100 mg/dL wave with a 10 mg/dL ripple on every sample: SD ~ 29 mg/dL, so only the big
    // excursions count, and their amplitude is 100 +- the ripple.
    const values = zigzag(6, 100, 200).map((v, i) => v + (i % 2 === 0 ? 5 : -5));
    const d = mageMaDirections(ctxOf(values, { start: START }).grid.values, 5);
    expect(d.avg).not.toBeNull();
    expect(Math.abs(d.avg! - 100)).toBeLessThanOrEqual(10);
  });

  it("segments split at gaps over 180 min are weighted by their duration", () => {
    // Segment A: 4 periods of 100 <-> 200 (193 points, 192 steps); a 4 h gap; segment B:
    // 3 periods of 100 <-> 120 (145 points, 144 steps). Each segment uses its own SD (A ~29,
    // B ~6), so B's 20 mg/dL excursions count: avg = (100*192*2 + 20*144*2) / 672.
    const a = readingsAt(zigzag(4, 100, 200), START);
    const b = readingsAt(zigzag(3, 100, 120), a[a.length - 1]!.time + 240 * MIN);
    const d = mageMaDirections(createContext([...a, ...b]).grid.values, 5);
    expect(d.avg).toBeCloseTo((100 * 192 * 2 + 20 * 144 * 2) / 672, 9);
    expect(d.plus).toBeCloseTo((100 * 192 + 20 * 144) / 336, 9);
    expect(d.minus).toBeCloseTo((100 * 192 + 20 * 144) / 336, 9);
    // A 185 min gap leaves 36 empty grid points = 180 min, not over 180: one segment with one SD
    // (~30), in which B's 20 mg/dL excursions do not count.
    const c = readingsAt(zigzag(3, 100, 120), a[a.length - 1]!.time + 185 * MIN);
    const one = mageMaDirections(createContext([...a, ...c]).grid.values, 5);
    expect(one.avg).toBeCloseTo(100, 9);
  });

  it("flat or short traces have no MAGE", () => {
    expect(
      mageMaDirections(ctxOf(new Array(200).fill(120), { start: START }).grid.values, 5).avg,
    ).toBeNull();
    expect(
      mageMaDirections(ctxOf(zigzag(6, 100, 100.5), { start: START }).grid.values, 5).avg,
    ).toBeNull(); // SD < 1
    expect(
      mageMaDirections(
        ctxOf([100, 150, 100, 150, 100, 150, 100, 150, 100, 150], { start: START }).grid.values,
        5,
      ).avg,
    ).toBeNull();
    expect(mage(ctxOf([]))).toEqual({ value: null, sufficient: false });
  });
});

describe("MAGE naive", () => {
  it("mean of |g - mean| over readings deviating by more than one SD", () => {
    // mean 140, SD 31.62: only 100 and 180 deviate by more (40 each).
    expect(mageNaive(ctxOf([100, 120, 140, 160, 180])).value).toBe(40);
    // All equal: SD 0, no deviation > 0.
    expect(mageNaive(ctxOf([100, 100, 100])).value).toBeNull();
    expect(mageNaive(ctxOf([100])).value).toBeNull();
  });
});
