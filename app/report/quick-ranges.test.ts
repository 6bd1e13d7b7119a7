import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  QUICK_DAYS,
  QUICK_RANGE_LENGTHS,
  quickDaysOf,
  quickRange,
  quickRangeLabelKey,
} from "./quick-ranges";
import { checkDateRange, RANGE_RULES, type DateRangeRule } from "./report-range";

const WAW = "Europe/Warsaw";
const NY = "America/New_York";

describe("quickRange: the last N days ending today in the patient's zone", () => {
  it("ends today and counts both ends (hand-counted dates)", () => {
    // 2026-03-29 12:00 in Warsaw (CEST, +02:00).
    const now = Date.UTC(2026, 2, 29, 10);
    expect(quickRange(7, WAW, now)).toEqual({ start: "2026-03-23", end: "2026-03-29" });
    expect(quickRange(15, WAW, now)).toEqual({ start: "2026-03-15", end: "2026-03-29" });
    // March 1-29 is 29 days, plus 28 February.
    expect(quickRange(30, WAW, now)).toEqual({ start: "2026-02-28", end: "2026-03-29" });
    // 30 + 31 December 2025, 31 days of January, 28 of February, 29 of March: 90.
    expect(quickRange(90, WAW, now)).toEqual({ start: "2025-12-30", end: "2026-03-29" });
    expect(quickRange(1, WAW, now)).toEqual({ start: "2026-03-29", end: "2026-03-29" });
  });

  it("takes today from the patient's zone on a DST day, not from UTC", () => {
    // 2026-03-28 23:30 UTC is 00:30 on 2026-03-29 in Warsaw, the 23-hour day clocks go forward.
    expect(quickRange(7, WAW, Date.UTC(2026, 2, 28, 23, 30))).toEqual({
      start: "2026-03-23",
      end: "2026-03-29",
    });
    // 2026-03-29 00:30 UTC: 01:30 CET, half an hour before the change; still the same day.
    expect(quickRange(30, WAW, Date.UTC(2026, 2, 29, 0, 30))).toEqual({
      start: "2026-02-28",
      end: "2026-03-29",
    });
    // 2026-11-01 03:30 UTC is 23:30 EDT on 31 October in New York, hours before clocks go back.
    expect(quickRange(30, NY, Date.UTC(2026, 10, 1, 3, 30))).toEqual({
      start: "2026-10-02",
      end: "2026-10-31",
    });
    // 2026-11-01 05:30 UTC is 01:30 EDT on 1 November, the 25-hour day.
    expect(quickRange(7, NY, Date.UTC(2026, 10, 1, 5, 30))).toEqual({
      start: "2026-10-26",
      end: "2026-11-01",
    });
  });

  it("refuses a length that is not a whole number of days", () => {
    expect(() => quickRange(0, WAW, 0)).toThrow(RangeError);
    expect(() => quickRange(1.5, WAW, 0)).toThrow(RangeError);
  });
});

describe("the quick ranges each control offers", () => {
  const rules: Record<keyof typeof QUICK_DAYS, DateRangeRule> = {
    pumpReport: RANGE_RULES.long,
    statisticsReport: RANGE_RULES.long,
    bloodTestsReport: RANGE_RULES.long,
    cgmReport: RANGE_RULES.cgm,
    bgView: RANGE_RULES.long,
    cgmOverlay: RANGE_RULES.cgmReadings,
    export: RANGE_RULES.export,
    excelExport: RANGE_RULES.long,
  };

  it("are 7, 15, 30 days (and 90 where a range may be that long), 7 and 14 for the CGM reports", () => {
    expect(QUICK_DAYS).toEqual({
      pumpReport: [7, 15, 30, 90],
      cgmReport: [7, 14],
      statisticsReport: [14, 30, 90],
      bloodTestsReport: [7, 15, 30, 90],
      bgView: [7, 15, 30, 90],
      cgmOverlay: [14],
      export: [7, 15, 30, 90],
      excelExport: [7, 15, 30, 90],
    });
  });

  it("each fits its control's range rule on any day, so pressing one never answers a range error", () => {
    for (const now of [
      Date.UTC(2026, 2, 28, 23, 30),
      Date.UTC(2026, 9, 25, 0, 30),
      Date.UTC(2028, 1, 29, 12),
    ]) {
      for (const [control, lengths] of Object.entries(QUICK_DAYS) as [
        keyof typeof QUICK_DAYS,
        readonly number[],
      ][]) {
        for (const days of lengths) {
          const range = quickRange(days, WAW, now);
          const checked = checkDateRange(range.start, range.end, rules[control], {
            timeZone: WAW,
            now,
          });
          expect([control, days, checked.ok, checked.ok ? checked.dates.length : null]).toEqual([
            control,
            days,
            true,
            days,
          ]);
        }
      }
    }
  });

  it("each length has a button label in English (the locale test keeps the other languages in step)", () => {
    const en = JSON.parse(readFileSync("locales/en/common.json", "utf8")) as {
      quickRanges: Record<string, string>;
    };
    expect(QUICK_RANGE_LENGTHS).toEqual([7, 14, 15, 30, 90]);
    for (const days of QUICK_RANGE_LENGTHS) {
      expect(quickRangeLabelKey(days)).toBe(`common:quickRanges.d${days}`);
      expect(en.quickRanges[`d${days}`]).toBe(`Last ${days} days`);
    }
  });
});

describe("quickDaysOf", () => {
  it("accepts only an offered length; anything else is no quick range", () => {
    const offered = QUICK_DAYS.pumpReport;
    expect(quickDaysOf("30", offered)).toBe(30);
    expect(quickDaysOf(" 90 ", offered)).toBe(90);
    expect(quickDaysOf("14", offered)).toBeNull();
    expect(quickDaysOf("30.0", offered)).toBeNull();
    expect(quickDaysOf("-7", offered)).toBeNull();
    expect(quickDaysOf("", offered)).toBeNull();
    expect(quickDaysOf(null, offered)).toBeNull();
    expect(quickDaysOf(undefined, offered)).toBeNull();
  });
});
