import { describe, expect, it } from "vitest";
import {
  checkDateRange,
  checkReportRange,
  CGM_REPORT_MAX_DAYS,
  CGM_REPORT_MIN_DAYS,
  RANGE_RULES,
  REPORT_MAX_DAYS,
} from "./report-range";

const o = { timeZone: "Europe/Warsaw", now: Date.UTC(2026, 9, 25, 12) };

describe("checkReportRange", () => {
  it("long ranges: at most 90 days with both ends counted, dates normalised", () => {
    expect(REPORT_MAX_DAYS).toBe(90);
    // 2026-07-28 .. 2026-10-25: 4 + 31 + 30 + 25 = 90 days.
    const r = checkReportRange("2026/07/28", "2026-10-25", "long", o);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.from).toBe("2026-07-28");
      expect(r.dates).toHaveLength(90);
      expect(r.dates[89]).toBe("2026-10-25");
    }
    expect(checkReportRange("2026-07-27", "2026-10-25", "long", o)).toEqual({
      ok: false,
      invalid: {
        status: "invalidRange",
        problem: "tooLong",
        from: "2026-07-27",
        to: "2026-10-25",
        minDays: null,
        maxDays: 90,
      },
    });
  });

  it("one day, and the data API's CGM readings: 1 to 14 days", () => {
    expect(checkDateRange("2026-10-25", "2026-10-25", RANGE_RULES.day, o).ok).toBe(true);
    const twoDays = checkDateRange("2026-10-24", "2026-10-25", RANGE_RULES.day, o);
    expect(twoDays.ok ? null : twoDays.invalid.problem).toBe("tooLong");
    expect(checkDateRange("2026-10-25", "2026-10-25", RANGE_RULES.cgmReadings, o).ok).toBe(true);
    const fifteen = checkDateRange("2026-10-11", "2026-10-25", RANGE_RULES.cgmReadings, o);
    expect(fifteen.ok ? null : fifteen.invalid).toMatchObject({ problem: "tooLong", maxDays: 14 });
    const future = checkDateRange("2026-10-26", "2026-10-26", RANGE_RULES.day, o);
    expect(future.ok ? null : future.invalid.problem).toBe("future");
  });

  it("CGM ranges: 3 to 14 days inclusive", () => {
    expect([CGM_REPORT_MIN_DAYS, CGM_REPORT_MAX_DAYS]).toEqual([3, 14]);
    const problem = (from: string, to: string) => {
      const r = checkReportRange(from, to, "cgm", o);
      return r.ok ? r.dates.length : r.invalid.problem;
    };
    expect(problem("2026-10-23", "2026-10-25")).toBe(3);
    expect(problem("2026-10-24", "2026-10-25")).toBe("tooShort");
    expect(problem("2026-10-12", "2026-10-25")).toBe(14);
    expect(problem("2026-10-11", "2026-10-25")).toBe("tooLong");
    expect(problem("2026-10-24", "2026-10-26")).toBe("future");
    expect(problem("2026-10-25", "2026-10-23")).toBe("order");
  });

  it("text that is not a date is a problem, not an exception", () => {
    const r = checkReportRange("2026-02-30", "2026-03-05", "cgm", o);
    expect(r.ok ? null : r.invalid).toMatchObject({
      problem: "invalidDate",
      minDays: 3,
      maxDays: 14,
    });
    expect(checkReportRange("", "2026-03-05", "long", o).ok).toBe(false);
  });
});
