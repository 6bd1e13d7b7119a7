import { describe, expect, it } from "vitest";
import { classifyAlarm, latestAlarm, VERY_LOW_MGDL } from "./alarm";
import { normalizeReadings } from "./readings";
import { readingsAt } from "./test-utils";

describe("alarm class", () => {
  const limits = { low: 70, high: 180 };
  it("very low below 54 mg/dL (3.0 mmol/L), low below the low limit, high above the high limit", () => {
    expect(VERY_LOW_MGDL).toBe(3.0 * 18);
    expect(classifyAlarm(53.9, limits)).toBe("veryLow");
    expect(classifyAlarm(54, limits)).toBe("low");
    expect(classifyAlarm(69.9, limits)).toBe("low");
    expect(classifyAlarm(70, limits)).toBe("none");
    expect(classifyAlarm(180, limits)).toBe("none");
    expect(classifyAlarm(180.1, limits)).toBe("high");
  });

  it("very low applies even when the low limit is below 54", () => {
    expect(classifyAlarm(53, { low: 50, high: 200 })).toBe("veryLow");
    expect(classifyAlarm(49, { low: 50, high: 200 })).toBe("veryLow");
    expect(classifyAlarm(55, { low: 50, high: 200 })).toBe("none");
  });

  it("rejects limits that are not low < high", () => {
    expect(() => classifyAlarm(100, { low: 180, high: 70 })).toThrow(RangeError);
    expect(() => classifyAlarm(100, { low: Number.NaN, high: 70 })).toThrow(RangeError);
  });

  it("latest reading of a series", () => {
    expect(latestAlarm(normalizeReadings(readingsAt([100, 250])).series, limits)).toEqual({
      value: "high",
      sufficient: true,
    });
    expect(latestAlarm(normalizeReadings([]).series, limits)).toEqual({
      value: null,
      sufficient: false,
    });
  });
});
