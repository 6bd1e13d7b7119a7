import { describe, expect, it } from "vitest";
import {
  CompensatedSum,
  mean,
  medianInPlace,
  medianSorted,
  quantileSorted,
  roundHalfEven,
  sampleSd,
  sampleSdNonNaN,
} from "./numeric";

describe("numeric kernels", () => {
  it("compensated sum keeps what naive summation loses", () => {
    const acc = new CompensatedSum();
    for (const x of [1e16, 1, -1e16]) acc.add(x);
    expect(acc.value).toBe(1);
    expect(1e16 + 1 - 1e16).toBe(0);
  });

  it("mean and sample SD (n - 1)", () => {
    // 2,4,4,4,5,5,7,9: mean 5, squared deviations sum 32, SD = sqrt(32 / 7).
    const x = [2, 4, 4, 4, 5, 5, 7, 9];
    expect(mean(x)).toBe(5);
    expect(sampleSd(x)).toBeCloseTo(Math.sqrt(32 / 7), 15);
    expect(Number.isNaN(sampleSd([3]))).toBe(true);
    expect(sampleSdNonNaN([2, Number.NaN, 4])).toBeCloseTo(Math.SQRT2, 15);
  });

  it("quantile type 7 as R: quantile(1:4) = 1, 1.75, 2.5, 3.25, 4", () => {
    const x = [1, 2, 3, 4];
    expect([0, 0.25, 0.5, 0.75, 1].map((p) => quantileSorted(x, p))).toEqual([
      1, 1.75, 2.5, 3.25, 4,
    ]);
    // quantile(c(90, 100, 130, 200), c(.05, .95)) = 91.5, 189.5
    expect(quantileSorted([90, 100, 130, 200], 0.05)).toBeCloseTo(91.5, 12);
    expect(quantileSorted([90, 100, 130, 200], 0.95)).toBeCloseTo(189.5, 12);
    expect(quantileSorted([42], 0.3)).toBe(42);
    expect(Number.isNaN(quantileSorted([], 0.5))).toBe(true);
    // Slice form.
    expect(quantileSorted([0, 10, 20, 30, 99], 0.5, 1, 4)).toBe(20);
  });

  it("median of sorted data and by selection agree", () => {
    expect(medianSorted([1, 3, 7])).toBe(3);
    expect(medianSorted([1, 3, 7, 8])).toBe(5);
    let seed = 7;
    const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let trial = 0; trial < 50; trial++) {
      const n = 1 + Math.floor(rand() * 40);
      const x = Float64Array.from({ length: n }, () => Math.floor(rand() * 10));
      const sorted = Float64Array.from(x).sort();
      expect(medianInPlace(Float64Array.from(x))).toBe(medianSorted(sorted));
    }
  });

  it("R's round: half to even", () => {
    expect([0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 2.4999, 7.5].map(roundHalfEven)).toEqual([
      0, 2, 2, 4, -0, -2, -2, 2, 8,
    ]);
  });
});
