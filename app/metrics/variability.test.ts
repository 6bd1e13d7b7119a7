import { describe, expect, it } from "vitest";
import { conga, mag, magValue, meanAbsLagDiff, modd, sdLagDiff } from "./variability";
import { ctxOf } from "./test-utils";

const NaN_ = Number.NaN;
const START = Date.UTC(2024, 0, 1, 0, 5); // readings on grid points

describe("lag kernels", () => {
  it("mean |x[k+lag] - x[k]| skips pairs with an empty side", () => {
    // lag 2: (1,2) -> 1, (5,NaN) skipped, (2,4) -> 2: mean 1.5.
    expect(meanAbsLagDiff(Float64Array.from([1, 5, 2, NaN_, 4]), 2)).toBe(1.5);
    expect(Number.isNaN(meanAbsLagDiff(Float64Array.from([1, 2]), 2))).toBe(true);
  });

  it("sample SD of lagged differences", () => {
    // lag 1 of 1,2,4,7,11: differences 1,2,3,4 -> mean 2.5, SD sqrt(5/3).
    expect(sdLagDiff(Float64Array.from([1, 2, 4, 7, 11]), 1)).toBeCloseTo(Math.sqrt(5 / 3), 14);
    // With a gap: pairs (4,7), (7,11) -> 3, 4 -> SD sqrt(0.5).
    expect(sdLagDiff(Float64Array.from([1, NaN_, 4, 7, 11]), 1)).toBeCloseTo(Math.SQRT1_2, 14);
    expect(Number.isNaN(sdLagDiff(Float64Array.from([1, 2]), 1))).toBe(true);
  });

  it("MAG: total absolute change per hour of pairs with both values", () => {
    // 100,110,100,NaN,130,120: |10| + |10| + |10| over 3 pairs of 5 min = 30 / 0.25 h = 120.
    const x = Float64Array.from([100, 110, 100, NaN_, 130, 120]);
    expect(magValue(x, 5)).toBeCloseTo(120, 12);
    // Every 10 min from the first point: 100, 100, 130 -> 0 + 30 over 2 pairs of 10 min = 90.
    expect(magValue(x, 5, 10)).toBeCloseTo(90, 12);
    expect(() => magValue(x, 5, 7)).toThrow(RangeError);
  });
});

describe("grid metrics on readings", () => {
  it("MODD: day 2 is 30 mg/dL above day 1 at every time", () => {
    const values = [...new Array(288).fill(100), ...new Array(288).fill(130)];
    expect(modd(ctxOf(values, { start: START })).value).toBeCloseTo(30, 12);
  });

  it("CONGA1 and CONGA4: SD of the 1 h / 4 h differences", () => {
    // A steady rise of 1 mg/dL per 5 min: every 1 h difference is 12, SD 0.
    const ramp = Array.from({ length: 6 * 12 + 1 }, (_, i) => 100 + i);
    const c = ctxOf(ramp, { start: START });
    expect(conga(c, 1).value).toBe(0);
    expect(conga(c, 4).value).toBe(0);
    // 100 for 1 h then 160 for 1 h 55 min: 1 h differences 60 (12 of them, from 00:05..01:00 to
    // 01:05..02:00) and 0 (11 of them). Mean 60*12/23, SD from the two groups.
    const step = [...new Array(12).fill(100), ...new Array(23).fill(160)];
    const diffs = [...new Array(12).fill(60), ...new Array(11).fill(0)];
    const m = diffs.reduce((a, b) => a + b, 0) / diffs.length;
    const sd = Math.sqrt(diffs.reduce((a, d) => a + (d - m) ** 2, 0) / (diffs.length - 1));
    expect(conga(ctxOf(step, { start: START }), 1).value).toBeCloseTo(sd, 12);
    // Fewer than two 4 h pairs: null.
    expect(conga(ctxOf(step, { start: START }), 4).value).toBeNull();
  });

  it("MAG of a zigzag: 10 mg/dL every 5 min = 120 mg/dL/h", () => {
    const values = Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? 100 : 110));
    expect(mag(ctxOf(values, { start: START })).value).toBeCloseTo(120, 12);
  });

  it("one day of data is not sufficient; no data gives null", () => {
    const values = Array.from({ length: 600 }, (_, i) => 100 + (i % 7));
    expect(modd(ctxOf(values, { start: START })).sufficient).toBe(false);
    expect(modd(ctxOf([]))).toEqual({ value: null, sufficient: false });
    expect(conga(ctxOf([]), 1)).toEqual({ value: null, sufficient: false });
    expect(mag(ctxOf([]))).toEqual({ value: null, sufficient: false });
  });
});
