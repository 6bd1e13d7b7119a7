import { describe, expect, it } from "vitest";
import { aac100, auc100, thresholdAreas } from "./area";
import { ctxOf } from "./test-utils";

const START = Date.UTC(2024, 0, 1, 0, 5);

describe("AUC100 / AAC100", () => {
  it("hand-computed: 90 -> 110 -> 130 on the 5-minute grid", () => {
    // Step 1 crosses 100 halfway: triangles of 2.5 min x 10 / 2 = 12.5 mg/dL min above and below.
    // Step 2: trapezoid (10 + 30) / 2 x 5 min = 100 mg/dL min above.
    // Covered 10 min: above = 112.5 mg/dL min / 10 min x 1440 min = 16200 mg/dL min per day
    // = 270 mg/dL h per day; below = 12.5 / 10 x 1440 / 60 = 30 mg/dL h per day.
    const r = thresholdAreas(Float64Array.from([90, 110, 130]), 5, 100)!;
    expect(r.above).toBeCloseTo(270, 12);
    expect(r.below).toBeCloseTo(30, 12);
    expect(r.coveredHours).toBeCloseTo(10 / 60, 12);
  });

  it("steady 150 mg/dL: 50 x 24 = 1200 mg/dL h per day above, nothing below", () => {
    const ctx = ctxOf(new Array(100).fill(150), { start: START });
    expect(auc100(ctx).value).toBeCloseTo(1200, 9);
    expect(aac100(ctx).value).toBe(0);
  });

  it("skips steps with an empty end and is null without any step", () => {
    const r = thresholdAreas(Float64Array.from([80, Number.NaN, 120, 120]), 5, 100)!;
    // Only 120 -> 120 counts: 20 mg/dL above for the whole covered time -> 480 per day.
    expect(r.above).toBeCloseTo(480, 12);
    expect(r.below).toBe(0);
    expect(thresholdAreas(Float64Array.from([80, Number.NaN]), 5, 100)).toBeNull();
    expect(auc100(ctxOf([]))).toEqual({ value: null, sufficient: false });
  });
});
