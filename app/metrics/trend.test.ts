import { describe, expect, it } from "vitest";
import { normalizeReadings } from "./readings";
import { readingsAt, MIN } from "./test-utils";
import { glucoseTrend, trendLevelOf } from "./trend";

const T = Date.UTC(2024, 0, 1, 8);
const seriesOf = (values: number[], stepMin = 5) =>
  normalizeReadings(readingsAt(values, T, stepMin)).series;

describe("trend levels (mmol/L per minute)", () => {
  it("thresholds 0.06 / 0.11 / 0.17, symmetric", () => {
    const cases: Array<[number, string]> = [
      [0.2, "rapidlyRising"],
      [0.1700001, "rapidlyRising"],
      [0.17, "rising"],
      [0.12, "rising"],
      [0.11, "slowlyRising"],
      [0.0600001, "slowlyRising"],
      [0.06, "steady"],
      [0, "steady"],
      [-0.06, "steady"],
      [-0.0600001, "slowlyFalling"],
      [-0.11, "slowlyFalling"],
      [-0.12, "falling"],
      [-0.17, "falling"],
      [-0.1700001, "rapidlyFalling"],
    ];
    for (const [rate, level] of cases) expect(trendLevelOf(rate), `rate ${rate}`).toBe(level);
  });
});

describe("glucoseTrend", () => {
  it("least-squares slope of the last 20 minutes", () => {
    // +9 mg/dL per 5 min = 1.8 mg/dL/min = 0.1 mmol/L/min: slowly rising.
    const r = glucoseTrend(seriesOf([100, 109, 118, 127, 136]));
    expect(r.sufficient).toBe(true);
    expect(r.value!.mgdlPerMin).toBeCloseTo(1.8, 12);
    expect(r.value!.mmolPerMin).toBeCloseTo(0.1, 12);
    expect(r.value!.level).toBe("slowlyRising");
    expect(r.value!.readings).toBe(5);
    // Falling 3.6 mg/dL/min = 0.2 mmol/L/min.
    expect(glucoseTrend(seriesOf([250, 232, 214, 196])).value!.level).toBe("rapidlyFalling");
    // Old readings outside the window do not count: a rise long ago, then flat.
    expect(glucoseTrend(seriesOf([40, 80, 120, 160, 200, 200, 200, 200, 200])).value!.level).toBe(
      "steady",
    );
  });

  it("a boundary rate in exact arithmetic is classified by the table", () => {
    // 1.08 mg/dL/min = 0.06 mmol/L/min exactly: steady.
    const r = glucoseTrend(seriesOf([100, 105.4, 110.8, 116.2]));
    expect(r.value!.mmolPerMin).toBeCloseTo(0.06, 12);
    expect(r.value!.level).toBe("steady");
  });

  it("needs 4 readings within 2-25 mmol/L in the window", () => {
    expect(glucoseTrend(seriesOf([100, 110, 120]))).toEqual({ value: null, sufficient: false });
    // 30 mg/dL (1.7 mmol/L) and 460 mg/dL (25.6 mmol/L) do not count.
    expect(glucoseTrend(seriesOf([30, 100, 110, 120])).value).toBeNull();
    expect(glucoseTrend(seriesOf([100, 110, 120, 460])).value).toBeNull();
    expect(glucoseTrend(seriesOf([36, 100, 110, 450])).value).not.toBeNull();
    // 10-minute readings: only 3 in 20 minutes.
    expect(glucoseTrend(seriesOf([100, 110, 120, 130, 140], 10)).value).toBeNull();
    expect(glucoseTrend(seriesOf([]))).toEqual({ value: null, sufficient: false });
  });

  it("can be evaluated at an earlier time", () => {
    const s = seriesOf([100, 118, 136, 154, 172, 172, 172, 172, 172, 172]);
    expect(glucoseTrend(s).value!.level).toBe("steady");
    // At the 5th reading: +18 mg/dL per 5 min = 3.6 mg/dL/min = 0.2 mmol/L/min.
    expect(glucoseTrend(s, { at: T + 20 * MIN }).value!.level).toBe("rapidlyRising");
  });
});
