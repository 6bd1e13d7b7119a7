import { describe, expect, it } from "vitest";
import { currentGlucose, formatReadingAge, readingAge, timeInRangePercent } from "./caring";

const T0 = Date.parse("2026-11-26T08:00:00Z");
const MIN = 60_000;
const limits = { low: 70, high: 180 };
/** Readings every 5 minutes ending at T0, oldest first. */
const every5 = (values: number[]) =>
  values.map((mgdl, i) => ({ time: T0 - (values.length - 1 - i) * 5 * MIN, mgdl }));

describe("the current glucose of a cared-for person", () => {
  it("none without a valid reading", () => {
    expect(currentGlucose([], limits)).toBeNull();
    expect(currentGlucose([{ time: T0, mgdl: 0 }], limits)).toBeNull();
  });

  it("the newest reading, whatever the order given", () => {
    const readings = every5([100, 110, 120, 130]).reverse();
    expect(currentGlucose(readings, limits)).toMatchObject({ time: T0, mgdl: 130 });
  });

  it("trend from the rate of the last 20 minutes: +2 mg/dL/min (0.111 mmol/L/min) is rising", () => {
    // 100, 110, 120, 130 every 5 minutes: slope 10 / 5 = 2 mg/dL per minute = 0.1111 mmol/L/min,
    // above 0.11 and not above 0.17.
    expect(currentGlucose(every5([100, 110, 120, 130]), limits)?.trend).toBe("rising");
  });

  it("a flat trace is steady; -1.5 mg/dL/min (0.083 mmol/L/min) is slowly falling; -4 is rapidly falling", () => {
    expect(currentGlucose(every5([120, 120, 120, 120]), limits)?.trend).toBe("steady");
    // 150, 142.5, 135, 127.5: -7.5 per 5 minutes = -1.5 mg/dL/min = -0.0833 mmol/L/min.
    expect(currentGlucose(every5([150, 142.5, 135, 127.5]), limits)?.trend).toBe("slowlyFalling");
    // -20 per 5 minutes = -4 mg/dL/min = -0.222 mmol/L/min, below -0.17.
    expect(currentGlucose(every5([200, 180, 160, 140]), limits)?.trend).toBe("rapidlyFalling");
  });

  it("no trend from fewer than 4 readings in the 20 minutes", () => {
    expect(currentGlucose(every5([100, 110, 120]), limits)?.trend).toBeNull();
    // Four readings, but the first 25 minutes before the newest: three in the window.
    const gap = [
      { time: T0 - 25 * MIN, mgdl: 100 },
      { time: T0 - 10 * MIN, mgdl: 110 },
      { time: T0 - 5 * MIN, mgdl: 120 },
      { time: T0, mgdl: 130 },
    ];
    expect(currentGlucose(gap, limits)?.trend).toBeNull();
  });

  it("alarm against the person's own range: very low under 54, low under the low limit, high over the high limit", () => {
    const alarm = (mgdl: number, range = limits) =>
      currentGlucose([{ time: T0, mgdl }], range)?.alarm;
    expect(alarm(53.9)).toBe("veryLow");
    expect(alarm(54)).toBe("low");
    expect(alarm(69.9)).toBe("low");
    expect(alarm(70)).toBe("none");
    expect(alarm(180)).toBe("none");
    expect(alarm(180.1)).toBe("high");
    // A range of 90-140 mg/dL (5.0-7.8 mmol/L): 85 is low, 150 is high.
    expect(alarm(85, { low: 90, high: 140 })).toBe("low");
    expect(alarm(150, { low: 90, high: 140 })).toBe("high");
    expect(alarm(53, { low: 90, high: 140 })).toBe("veryLow");
  });
});

describe("how old a reading is", () => {
  it("whole minutes under an hour, whole hours under two days, whole days beyond", () => {
    expect(readingAge(T0, T0)).toEqual({ value: 0, unit: "minute" });
    expect(readingAge(T0 - 59_999, T0)).toEqual({ value: 0, unit: "minute" });
    expect(readingAge(T0 - 12 * MIN, T0)).toEqual({ value: 12, unit: "minute" });
    expect(readingAge(T0 - 59 * MIN - 59_000, T0)).toEqual({ value: 59, unit: "minute" });
    expect(readingAge(T0 - 60 * MIN, T0)).toEqual({ value: 1, unit: "hour" });
    expect(readingAge(T0 - 47 * 60 * MIN - 59 * MIN, T0)).toEqual({ value: 47, unit: "hour" });
    expect(readingAge(T0 - 48 * 60 * MIN, T0)).toEqual({ value: 2, unit: "day" });
    expect(readingAge(T0 - 10 * 24 * 60 * MIN - 5 * MIN, T0)).toEqual({ value: 10, unit: "day" });
  });

  it("a reading stamped after now is 0 minutes old", () => {
    expect(readingAge(T0 + 3 * MIN, T0)).toEqual({ value: 0, unit: "minute" });
  });

  it("in words of the language, with its plural forms", () => {
    expect(formatReadingAge({ value: 12, unit: "minute" }, "en")).toBe("12 minutes ago");
    expect(formatReadingAge({ value: 1, unit: "hour" }, "en")).toBe("1 hour ago");
    expect(formatReadingAge({ value: 3, unit: "day" }, "en")).toBe("3 days ago");
    expect(formatReadingAge({ value: 5, unit: "minute" }, "ru")).toBe("5 минут назад");
    expect(formatReadingAge({ value: 2, unit: "hour" }, "pl")).toBe("2 godziny temu");
    expect(formatReadingAge({ value: 3, unit: "day" }, "it")).toBe("3 giorni fa");
    expect(formatReadingAge({ value: 5, unit: "minute" }, "ro")).toBe("acum 5 minute");
  });
});

describe("today's time in range", () => {
  it("percent of values within 70-180 mg/dL, both ends in", () => {
    // 70 and 180 in, 69 and 181 out: 2 of 4.
    expect(timeInRangePercent([69, 70, 180, 181])).toBe(50);
    expect(timeInRangePercent([100, 120, 140])).toBe(100);
    expect(timeInRangePercent([])).toBeNull();
  });
});
