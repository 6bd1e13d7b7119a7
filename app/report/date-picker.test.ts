import { describe, expect, it } from "vitest";
import {
  calendarDateOf,
  dayProblem,
  DAY_LIMITS,
  isoOfCalendarDate,
  rangeLimits,
  reportRangeProblem,
  viewRangeProblem,
} from "./date-picker";
import { checkRange, checkRangeOn } from "./day";
import { RANGE_RULES } from "./report-range";

describe("date strings between the text fields, the pickers and the server", () => {
  it("reads YYYY/MM/DD and YYYY-MM-DD alike as a calendar date", () => {
    const slash = calendarDateOf("2026/03/05");
    expect(slash && [slash.year, slash.month, slash.day]).toEqual([2026, 3, 5]);
    const dash = calendarDateOf(" 2026-03-05 ");
    expect(dash && [dash.year, dash.month, dash.day]).toEqual([2026, 3, 5]);
  });

  it("refuses what is no calendar date", () => {
    expect(calendarDateOf("")).toBeNull();
    expect(calendarDateOf("2026/02/30")).toBeNull(); // February 2026 has 28 days
    expect(calendarDateOf("2026/13/01")).toBeNull();
    expect(calendarDateOf("05.03.2026")).toBeNull();
  });

  it("writes the ISO date the picker's hidden field sends, zero-padded", () => {
    expect(isoOfCalendarDate({ year: 2026, month: 3, day: 5 })).toBe("2026-03-05");
    expect(isoOfCalendarDate({ year: 2026, month: 12, day: 31 })).toBe("2026-12-31");
    const round = calendarDateOf("2024/02/29"); // a leap day
    expect(round && isoOfCalendarDate(round)).toBe("2024-02-29");
  });
});

describe("the limits a picker describes", () => {
  it("CGM and AGP: 3 to 14 days; the others: at most 90; a day: today or earlier", () => {
    expect(rangeLimits(RANGE_RULES.cgm)).toEqual({
      key: "common:dateFields.between",
      values: { min: 3, count: 14 },
    });
    expect(rangeLimits(RANGE_RULES.long)).toEqual({
      key: "common:dateFields.atMost",
      values: { count: 90 },
    });
    expect(DAY_LIMITS).toEqual({ key: "common:dateFields.noFuture" });
  });
});

describe("a picker refuses a range with the server's message", () => {
  const today = "2026-11-26";

  it("a report range: order, then future, then too long, then too short (both ends counted)", () => {
    const long = RANGE_RULES.long;
    const cgm = RANGE_RULES.cgm;
    expect(reportRangeProblem("2026-11-10", "2026-11-09", long, today)).toBe(
      "views:problems.order",
    );
    // A reversed range that ends in the future is "order" first, as on the server.
    expect(reportRangeProblem("2026-12-10", "2026-12-01", long, today)).toBe(
      "views:problems.order",
    );
    expect(reportRangeProblem("2026-11-20", "2026-11-27", long, today)).toBe(
      "views:problems.future",
    );
    // 90 days ending today start on 2026-08-29 (3 + 30 + 31 + 26 = 90 days, both ends counted).
    expect(reportRangeProblem("2026-08-29", today, long, today)).toBeNull();
    expect(reportRangeProblem("2026-08-28", today, long, today)).toBe("views:problems.tooLong");
    // CGM: 14 days are 2026-11-13 to 2026-11-26; 15 are too long, 2 too short, 3 enough.
    expect(reportRangeProblem("2026-11-13", today, cgm, today)).toBeNull();
    expect(reportRangeProblem("2026-11-12", today, cgm, today)).toBe("views:problems.tooLong14");
    expect(reportRangeProblem("2026-11-25", today, cgm, today)).toBe("views:problems.tooShort");
    expect(reportRangeProblem("2026-11-24", today, cgm, today)).toBeNull();
  });

  it("the BG view: a future end or start first, then the 90-day rules", () => {
    expect(viewRangeProblem("2026-11-27", "2026-11-20", today)).toBe("views:problems.future");
    expect(viewRangeProblem("2026-11-20", "2026-11-27", today)).toBe("views:problems.future");
    expect(viewRangeProblem("2026-11-21", "2026-11-20", today)).toBe("views:problems.order");
    expect(viewRangeProblem("2026-08-28", today, today)).toBe("views:problems.tooLong");
    expect(viewRangeProblem("2026-08-29", today, today)).toBeNull();
  });

  it("a year the server does not take (a half-typed one) is an invalid date, as on the server", () => {
    expect(reportRangeProblem("0202-11-20", today, RANGE_RULES.long, today)).toBe(
      "reports:common.invalidDate",
    );
    expect(reportRangeProblem("2026-11-20", "1899-12-31", RANGE_RULES.cgm, today)).toBe(
      "reports:common.invalidDate",
    );
    expect(viewRangeProblem("0002-11-20", today, today)).toBe("views:problems.invalid");
    expect(dayProblem("0020-11-20", today)).toBe("views:problems.invalid");
  });

  it("a day: none after today", () => {
    expect(dayProblem(today, today)).toBeNull();
    expect(dayProblem("2026-11-27", today)).toBe("views:problems.future");
    expect(dayProblem("2020-01-01", today)).toBeNull();
  });

  it("checkRangeOn with the zone's today answers as checkRange does", () => {
    // At 2026-11-26T19:00Z it is 00:30 on 2026-11-27 in Asia/Kolkata (UTC+05:30): checkRange
    // takes that day as today, and checkRangeOn given it answers alike.
    const now = Date.parse("2026-11-26T19:00:00Z");
    const options = { timeZone: "Asia/Kolkata", now, maxDays: 90 };
    expect(checkRange("2026-11-20", "2026-11-27", options)).toBeNull();
    expect(checkRangeOn("2026-11-20", "2026-11-27", { today: "2026-11-27", maxDays: 90 })).toBe(
      null,
    );
    expect(checkRangeOn("2026-11-20", "2026-11-27", { today: "2026-11-26", maxDays: 90 })).toBe(
      "future",
    );
  });
});
