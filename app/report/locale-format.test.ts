import { describe, expect, it } from "vitest";
import {
  formatDate,
  formatDateClock,
  formatDateRange,
  formatDateTime,
  formatDayMonth,
  formatWeekday,
  formatMinutes,
  formatPeriod,
} from "./locale-format";

/** Any run of spaces (the runtime writes thin and no-break ones) as one plain space. */
const plain = (text: string) => text.replace(/\s+/g, " ");

describe("a calendar date in the page's language", () => {
  it("writes plain spaces only, as every runtime then writes the same text", () => {
    // Node writes thin spaces (U+2009) around an English range's dash, Chromium plain ones.
    expect(formatDateRange("2026-11-01", "2026-11-14", "en")).toBe("Nov 1 – 14, 2026");
    for (const locale of ["en", "pl", "ru", "it", "ro"])
      for (const text of [
        formatDateRange("2025-12-20", "2026-11-14", locale),
        formatDateTime(Date.parse("2026-11-25T15:04:05Z"), "Europe/Warsaw", locale),
        formatPeriod("2026-11-01", "2026-11-14", locale),
      ])
        expect(text, locale).not.toMatch(/[^\S ]/);
  });

  it("writes the medium form with the month's short name, in each language's order", () => {
    expect(formatDate("2026-11-25", "en")).toBe("Nov 25, 2026");
    expect(formatDate("2026-11-25", "pl")).toBe("25 lis 2026");
    expect(formatDate("2026-11-25", "ru")).toBe("25 нояб. 2026 г.");
    expect(formatDate("2026-11-25", "it")).toBe("25 nov 2026");
    expect(formatDate("2026-11-25", "ro")).toBe("25 nov. 2026");
  });

  it("keeps day and month apart where a numeric form would be ambiguous: 5 March, not 3 May", () => {
    expect(formatDate("2026-03-05", "en")).toBe("Mar 5, 2026");
    expect(formatDate("2026-03-05", "pl")).toBe("5 mar 2026");
    expect(formatDate("2026-03-05", "ru")).toBe("5 мар. 2026 г.");
    expect(formatDate("2026-03-05", "it")).toBe("5 mar 2026");
    expect(formatDate("2026-03-05", "ro")).toBe("5 mar. 2026");
  });

  it("writes the date itself in every zone of the runtime (the date is already the patient's day)", () => {
    expect(formatDate("2026-01-01", "en")).toBe("Jan 1, 2026");
    expect(formatDate("2025-12-31", "en")).toBe("Dec 31, 2025");
  });

  it("writes an unknown language as English and refuses a date that is not one", () => {
    expect(formatDate("2026-11-25", "xx-invalid-tag-!")).toBe("Nov 25, 2026");
    expect(() => formatDate("2026-13-01", "en")).toThrow(RangeError);
  });
});

describe("a range of dates", () => {
  it("writes what both ends share once", () => {
    expect(formatDateRange("2026-11-01", "2026-11-14", "en")).toBe("Nov 1 – 14, 2026");
    expect(formatDateRange("2026-11-01", "2026-11-14", "pl")).toBe("1–14 lis 2026");
    expect(formatDateRange("2026-11-01", "2026-11-14", "ru")).toBe("1–14 нояб. 2026 г.");
    expect(formatDateRange("2026-11-01", "2026-11-14", "ro")).toBe("1–14 nov. 2026");
    // Italian ranges write the first day with two digits.
    expect(formatDateRange("2026-11-01", "2026-11-14", "it")).toBe("01–14 nov 2026");
  });

  it("writes both months, and both years when they differ", () => {
    expect(formatDateRange("2026-02-24", "2026-03-09", "en")).toBe("Feb 24 – Mar 9, 2026");
    expect(formatDateRange("2026-02-24", "2026-03-09", "pl")).toBe("24 lut–9 mar 2026");
    expect(formatDateRange("2026-02-24", "2026-03-09", "ru")).toBe("24 февр. – 9 мар. 2026 г.");
    expect(formatDateRange("2026-02-24", "2026-03-09", "ro")).toBe("24 feb. – 9 mar. 2026");
    expect(formatDateRange("2025-12-20", "2026-11-14", "en")).toBe("Dec 20, 2025 – Nov 14, 2026");
    expect(formatDateRange("2025-12-20", "2026-11-14", "pl")).toBe("20 gru 2025–14 lis 2026");
  });

  it("writes a range of one day as that day", () => {
    expect(formatDateRange("2026-03-09", "2026-03-09", "en")).toBe("Mar 9, 2026");
    expect(formatDateRange("2026-03-09", "2026-03-09", "it")).toBe("9 mar 2026");
  });
});

describe("a day and month without the year", () => {
  it("writes the short month name in each language's order", () => {
    expect(formatDayMonth("2026-11-25", "en")).toBe("Nov 25");
    expect(formatDayMonth("2026-11-25", "pl")).toBe("25 lis");
    expect(formatDayMonth("2026-11-25", "ru")).toBe("25 нояб.");
    expect(formatDayMonth("2026-11-25", "it")).toBe("25 nov");
    expect(formatDayMonth("2026-11-25", "ro")).toBe("25 nov.");
  });
});

describe("a weekday", () => {
  it("writes the weekday's name of the date itself: 2026-11-25 is a Wednesday", () => {
    expect(formatWeekday("2026-11-25", "en")).toBe("Wednesday");
    expect(formatWeekday("2026-11-25", "pl")).toBe("środa");
    expect(formatWeekday("2026-11-25", "ru")).toBe("среда");
    expect(formatWeekday("2026-11-25", "it")).toBe("mercoledì");
    expect(formatWeekday("2026-11-25", "ro")).toBe("miercuri");
  });
});

describe("an instant on a zone's clock", () => {
  // 2026-11-25 15:04 UTC is 16:04 in Warsaw (UTC+1 in November).
  const at = Date.parse("2026-11-25T15:04:05Z");

  it("writes the medium date and the 24-hour time of the zone", () => {
    expect(formatDateTime(at, "Europe/Warsaw", "en")).toBe("Nov 25, 2026, 16:04");
    expect(formatDateTime(at, "Europe/Warsaw", "pl")).toBe("25 lis 2026, 16:04");
    expect(formatDateTime(at, "Europe/Warsaw", "ru")).toBe("25 нояб. 2026 г., 16:04");
    expect(formatDateTime(at, "Europe/Warsaw", "it")).toBe("25 nov 2026, 16:04");
    expect(formatDateTime(at, "Europe/Warsaw", "ro")).toBe("25 nov. 2026, 16:04");
  });

  it("writes seconds when asked, and an afternoon in English on the 24-hour clock too", () => {
    expect(formatDateTime(at, "UTC", "en", { seconds: true })).toBe("Nov 25, 2026, 15:04:05");
    expect(formatDateTime(at, "Europe/Warsaw", "pl", { seconds: true })).toBe(
      "25 lis 2026, 16:04:05",
    );
  });

  it("follows the zone's offset through the year and across midnight", () => {
    // New York: UTC-5 in January, UTC-4 in July.
    expect(formatDateTime(Date.parse("2030-01-15T12:34:56Z"), "America/New_York", "en")).toBe(
      "Jan 15, 2030, 07:34",
    );
    expect(formatDateTime(Date.parse("2030-07-15T12:34:56Z"), "America/New_York", "en")).toBe(
      "Jul 15, 2030, 08:34",
    );
    // 23:30 UTC on 31 December is already 1 January in Warsaw.
    expect(formatDateTime(Date.parse("2025-12-31T23:30:00Z"), "Europe/Warsaw", "en")).toBe(
      "Jan 1, 2026, 00:30",
    );
  });
});

describe("a date and a time already on the patient's clock", () => {
  it("writes them as an instant on that clock is written", () => {
    expect(formatDateClock("2026-11-25", "16:04", "en")).toBe("Nov 25, 2026, 16:04");
    expect(formatDateClock("2026-11-25", "07:05", "pl")).toBe("25 lis 2026, 07:05");
    expect(formatDateClock("2026-11-25", "23:59", "ru")).toBe("25 нояб. 2026 г., 23:59");
    expect(formatDateClock("2026-11-25", "00:00:30", "ro")).toBe("25 nov. 2026, 00:00:30");
    expect(() => formatDateClock("2026-11-25", "7:05", "en")).toThrow(RangeError);
  });
});

describe("the glucose profile's period and time-per-day texts", () => {
  it("writes the period's dates in the language's own order and month names", () => {
    expect(formatPeriod("2025-03-03", "2025-03-16", "en")).toBe("March 3 – 16, 2025");
    expect(formatPeriod("2025-03-03", "2025-03-16", "pl")).toBe("3–16 marca 2025");
    expect(formatPeriod("2025-03-03", "2025-03-16", "ro")).toBe("3–16 martie 2025");
    expect(formatPeriod("2025-02-24", "2025-03-09", "en")).toBe("February 24 – March 9, 2025");
  });

  it("writes minutes a day as hours and minutes: 4 % of 1440 is 57.6 -> 58 min", () => {
    expect(formatMinutes(0.04 * 1440, "en")).toBe("58 min");
    expect(formatMinutes(0, "en")).toBe("0 min");
    expect(formatMinutes(72, "en")).toBe("1 hr 12 min");
    expect(formatMinutes(120, "en")).toBe("2 hr");
    expect(plain(formatMinutes(72, "ru"))).toBe("1 ч 12 мин");
    expect(plain(formatMinutes(72, "pl"))).toBe("1 godz. 12 min");
  });
});
