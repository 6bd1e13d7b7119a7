import { describe, expect, it } from "vitest";
import {
  cvGlucose,
  iqrGlucose,
  lageGlucose,
  meanGlucose,
  medianGlucose,
  quantileGlucose,
  sdGlucose,
} from "./basic";
import { ctxOf } from "./test-utils";

describe("descriptive statistics", () => {
  it("odd vector 100, 120, 140, 160, 180", () => {
    const ctx = ctxOf([140, 100, 180, 120, 160]);
    expect(meanGlucose(ctx).value).toBe(140);
    expect(medianGlucose(ctx).value).toBe(140);
    // Squared deviations 1600 + 400 + 0 + 400 + 1600 = 4000; SD = sqrt(4000 / 4).
    expect(sdGlucose(ctx).value).toBeCloseTo(Math.sqrt(1000), 12);
    expect(cvGlucose(ctx).value).toBeCloseTo((100 * Math.sqrt(1000)) / 140, 12);
    // Type 7: Q25 at position 1 + 4 * .25 = 2 -> 120; Q75 at 4 -> 160.
    expect(iqrGlucose(ctx).value).toBe(40);
    expect(lageGlucose(ctx).value).toBe(80);
    expect(quantileGlucose(ctx, 0).value).toBe(100);
    expect(quantileGlucose(ctx, 1).value).toBe(180);
  });

  it("even vector 90, 100, 130, 200", () => {
    const ctx = ctxOf([90, 100, 130, 200]);
    expect(medianGlucose(ctx).value).toBe(115);
    // Q25 at 1.75: 0.25 * 90 + 0.75 * 100 = 97.5; Q75 at 3.25: 0.75 * 130 + 0.25 * 200 = 147.5.
    expect(quantileGlucose(ctx, 0.25).value).toBeCloseTo(97.5, 12);
    expect(quantileGlucose(ctx, 0.75).value).toBeCloseTo(147.5, 12);
    expect(iqrGlucose(ctx).value).toBeCloseTo(50, 12);
  });

  it("a few minutes of data is computed but not sufficient", () => {
    const r = meanGlucose(ctxOf([100, 110]));
    expect(r).toEqual({ value: 105, sufficient: false });
  });

  it("one reading: mean and median, but no SD / CV", () => {
    const ctx = ctxOf([123]);
    expect(meanGlucose(ctx).value).toBe(123);
    expect(medianGlucose(ctx).value).toBe(123);
    expect(lageGlucose(ctx).value).toBe(0);
    expect(sdGlucose(ctx)).toEqual({ value: null, sufficient: false });
    expect(cvGlucose(ctx)).toEqual({ value: null, sufficient: false });
  });

  it("no readings: every value is null, never NaN", () => {
    const ctx = ctxOf([]);
    for (const r of [
      meanGlucose(ctx),
      medianGlucose(ctx),
      sdGlucose(ctx),
      cvGlucose(ctx),
      iqrGlucose(ctx),
      lageGlucose(ctx),
    ]) {
      expect(r).toEqual({ value: null, sufficient: false });
    }
  });

  it("14 days of full 5-minute CGM is sufficient", () => {
    const values = Array.from({ length: 14 * 288 }, (_, i) => 100 + (i % 50));
    expect(meanGlucose(ctxOf(values)).sufficient).toBe(true);
  });
});
