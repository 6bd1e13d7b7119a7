import { describe, expect, it } from "vitest";
import { activePercent, samplingIntervalMin } from "./active";
import { normalizeReadings } from "./readings";
import { readingsAt, MIN } from "./test-utils";

const T = Date.UTC(2024, 0, 1);

describe("sensor active percent (iglu active_percent)", () => {
  it("one missing reading out of twelve", () => {
    // Readings every 5 min over 55 min, the one at 25 min missing: theoretical 55/5 + 1 = 12,
    // one interval of 10 min -> missing round((10 - 5) / 5) = 1 -> 11/12.
    const rs = readingsAt(new Array(12).fill(100), T).filter((_, i) => i !== 5);
    const { series } = normalizeReadings(rs);
    expect(samplingIntervalMin(series)).toBe(5);
    expect(activePercent(series)).toEqual({ value: (11 / 12) * 100, sufficient: true });
  });

  it("a 1 h gap in 2 h of data", () => {
    // 0..60 min every 5 min (13 readings), then 120..180 (13): theoretical 37, missing
    // round((60 - 5) / 5) = 11 -> 26/37.
    const rs = [
      ...readingsAt(new Array(13).fill(100), T),
      ...readingsAt(new Array(13).fill(100), T + 120 * MIN),
    ];
    expect(activePercent(normalizeReadings(rs).series).value).toBeCloseTo((26 / 37) * 100, 12);
  });

  it("dt0 is R's round of the median interval (half to even)", () => {
    // Intervals 5, 10 -> median 7.5 -> 8.
    const rs = [
      { time: T, mgdl: 100 },
      { time: T + 5 * MIN, mgdl: 100 },
      { time: T + 15 * MIN, mgdl: 100 },
    ];
    expect(samplingIntervalMin(normalizeReadings(rs).series)).toBe(8);
  });

  it("needs two readings", () => {
    expect(activePercent(normalizeReadings([{ time: T, mgdl: 100 }]).series)).toEqual({
      value: null,
      sufficient: false,
    });
  });
});
