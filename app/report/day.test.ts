import { describe, expect, it } from "vitest";
import { ZoneOffsets } from "../metrics/timezone";
import {
  checkRange,
  clockOf,
  compareDates,
  datesBetween,
  dateParamSchema,
  dayWindow,
  daysBetween,
  displayDate,
  hourTicks,
  isFuture,
  isIsoDate,
  localDate,
  nearestDayWithData,
  parseDate,
  rangeWindow,
  shiftDate,
  todayIn,
  wallSeconds,
} from "./day";

const H = 3_600_000;
const WAW = "Europe/Warsaw";

describe("parseDate", () => {
  it("accepts ISO and the display form YYYY/MM/DD, returns the canonical ISO date", () => {
    expect(parseDate("2026-03-29")).toBe("2026-03-29");
    expect(parseDate("2026/03/29")).toBe("2026-03-29");
    expect(parseDate(" 2026/3/9 ")).toBe("2026-03-09");
    expect(parseDate("2024-02-29")).toBe("2024-02-29");
  });

  it("rejects impossible dates, mixed separators and other text", () => {
    expect(parseDate("2026-02-29")).toBeNull();
    expect(parseDate("2026-13-01")).toBeNull();
    expect(parseDate("2026-04-31")).toBeNull();
    expect(parseDate("2026/03-29")).toBeNull();
    expect(parseDate("29.03.2026")).toBeNull();
    expect(parseDate("1899-12-31")).toBeNull();
    expect(parseDate("")).toBeNull();
  });

  it("isIsoDate only for canonical dates; displayDate uses slashes", () => {
    expect(isIsoDate("2026-03-29")).toBe(true);
    expect(isIsoDate("2026/03/29")).toBe(false);
    expect(isIsoDate("2026-3-29")).toBe(false);
    expect(displayDate("2026-03-09")).toBe("2026/03/09");
    expect(() => displayDate("nope")).toThrow(RangeError);
  });

  it("zod schema for loaders", () => {
    expect(dateParamSchema.parse("2026/10/25")).toBe("2026-10-25");
    expect(dateParamSchema.safeParse("2026-10-32").success).toBe(false);
  });
});

describe("dayWindow", () => {
  it("an ordinary summer day in Warsaw: 24 h from 22:00Z", () => {
    const w = dayWindow("2026-06-15", WAW);
    expect(w.start).toBe(Date.UTC(2026, 5, 14, 22));
    expect(w.end).toBe(Date.UTC(2026, 5, 15, 22));
    expect(w.hours).toBe(24);
  });

  it("spring forward, 2026-03-29 in Warsaw: 23 h (+01:00 midnight, +02:00 next midnight)", () => {
    const w = dayWindow("2026-03-29", WAW);
    expect(w).toEqual({
      date: "2026-03-29",
      timeZone: WAW,
      start: Date.UTC(2026, 2, 28, 23),
      end: Date.UTC(2026, 2, 29, 22),
      hours: 23,
    });
  });

  it("fall back, 2026-10-25 in Warsaw: 25 h", () => {
    const w = dayWindow("2026/10/25", WAW);
    expect(w.date).toBe("2026-10-25");
    expect(w.start).toBe(Date.UTC(2026, 9, 24, 22));
    expect(w.end).toBe(Date.UTC(2026, 9, 25, 23));
    expect(w.hours).toBe(25);
  });

  it("UTC and a fixed offset", () => {
    expect(dayWindow("2026-01-01", "UTC")).toMatchObject({
      start: Date.UTC(2026, 0, 1),
      end: Date.UTC(2026, 0, 2),
      hours: 24,
    });
    expect(dayWindow("2026-01-01", "-05:00").start).toBe(Date.UTC(2026, 0, 1, 5));
  });

  it("rejects a bad date or zone", () => {
    expect(() => dayWindow("2026-02-30", WAW)).toThrow(RangeError);
    expect(() => dayWindow("2026-02-03", "Mars/Olympus")).toThrow(RangeError);
  });
});

describe("localDate, shiftDate, daysBetween", () => {
  it("local date of an instant: 23:30Z is already the next day in Warsaw", () => {
    expect(localDate(Date.UTC(2026, 2, 28, 23, 30), WAW)).toBe("2026-03-29");
    expect(localDate(Date.UTC(2026, 2, 28, 22, 59, 59, 999), WAW)).toBe("2026-03-28");
    expect(localDate(Date.UTC(2026, 2, 28, 23), WAW)).toBe("2026-03-29"); // local midnight starts the day
    expect(localDate(Date.UTC(2026, 2, 28, 23, 30), "UTC")).toBe("2026-03-28");
  });

  it("shifts across month, year and leap day", () => {
    expect(shiftDate("2026-03-31", 1)).toBe("2026-04-01");
    expect(shiftDate("2026-01-01", -1)).toBe("2025-12-31");
    expect(shiftDate("2024-02-28", 1)).toBe("2024-02-29");
    expect(shiftDate("2026/03/29", 0)).toBe("2026-03-29");
    expect(() => shiftDate("2026-03-29", 0.5)).toThrow(RangeError);
  });

  it("days between and the dates of a range", () => {
    expect(daysBetween("2026-03-28", "2026-03-30")).toBe(2);
    expect(daysBetween("2026-03-30", "2026-03-28")).toBe(-2);
    expect(datesBetween("2026-02-27", "2026-03-02")).toEqual([
      "2026-02-27",
      "2026-02-28",
      "2026-03-01",
      "2026-03-02",
    ]);
    expect(datesBetween("2026-03-02", "2026-03-01")).toEqual([]);
    expect(compareDates("2026-03-02", "2026-10-01")).toBe(-1);
  });

  it("rangeWindow covers whole local days, DST included", () => {
    const r = rangeWindow("2026-03-28", "2026-03-29", WAW);
    expect(r.start).toBe(Date.UTC(2026, 2, 27, 23));
    expect(r.end).toBe(Date.UTC(2026, 2, 29, 22));
    expect((r.end - r.start) / H).toBe(47);
    expect(r.days).toEqual(["2026-03-28", "2026-03-29"]);
    expect(() => rangeWindow("2026-03-29", "2026-03-28", WAW)).toThrow(RangeError);
  });
});

describe("today, future and range checks", () => {
  const now = Date.UTC(2026, 9, 24, 22, 30); // 00:30 on 25 Oct in Warsaw, still the 24th in UTC
  it("today is local", () => {
    expect(todayIn(WAW, now)).toBe("2026-10-25");
    expect(todayIn("UTC", now)).toBe("2026-10-24");
  });

  it("isFuture: after the local today only", () => {
    expect(isFuture("2026-10-25", WAW, now)).toBe(false);
    expect(isFuture("2026-10-26", WAW, now)).toBe(true);
    expect(isFuture("2026-10-25", "UTC", now)).toBe(true);
  });

  it("checkRange: order, future, at most 90 days with both ends counted, CGM 3-14 days", () => {
    const o = { timeZone: WAW, now };
    expect(checkRange("2026-10-01", "2026-10-25", o)).toBeNull();
    expect(checkRange("2026-10-02", "2026-10-01", o)).toBe("order");
    expect(checkRange("2026-10-01", "2026-10-26", o)).toBe("future");
    expect(checkRange("2026-07-28", "2026-10-25", o)).toBeNull(); // 4 + 31 + 30 + 25 = 90 days
    expect(checkRange("2026-07-27", "2026-10-25", o)).toBe("tooLong"); // 91 days
    const cgm = { ...o, minDays: 3, maxDays: 14 };
    expect(checkRange("2026-10-23", "2026-10-25", cgm)).toBeNull(); // 3 days
    expect(checkRange("2026-10-24", "2026-10-25", cgm)).toBe("tooShort");
    expect(checkRange("2026-10-12", "2026-10-25", cgm)).toBeNull(); // 14 days
    expect(checkRange("2026-10-11", "2026-10-25", cgm)).toBe("tooLong");
  });
});

describe("nearestDayWithData", () => {
  const days = ["2026-03-01", "2026-03-10", "2026-03-20"];
  it("the closest day, before or after", () => {
    expect(nearestDayWithData(days, "2026-03-08")).toBe("2026-03-10");
    expect(nearestDayWithData(days, "2026-03-04")).toBe("2026-03-01");
    expect(nearestDayWithData(days, "2026-04-30")).toBe("2026-03-20");
    expect(nearestDayWithData(days, "2026-02-01")).toBe("2026-03-01");
  });

  it("the day itself when it has data; ties go to the earlier day; order and junk do not matter", () => {
    expect(nearestDayWithData(days, "2026-03-10")).toBe("2026-03-10");
    expect(nearestDayWithData(days, "2026-03-15")).toBe("2026-03-10");
    expect(nearestDayWithData(["2026-03-20", "bad", "2026-03-10"], "2026-03-15")).toBe(
      "2026-03-10",
    );
    expect(nearestDayWithData(["2026/03/20"], "2026-03-15")).toBe("2026-03-20");
  });

  it("null without days", () => {
    expect(nearestDayWithData([], "2026-03-15")).toBeNull();
    expect(nearestDayWithData(["x"], "2026-03-15")).toBeNull();
  });
});

describe("ticks and clock times", () => {
  it("3-hourly ticks of an ordinary day", () => {
    const t = hourTicks(dayWindow("2026-06-15", WAW));
    expect(t.map((x) => x.label)).toEqual([
      "00:00",
      "03:00",
      "06:00",
      "09:00",
      "12:00",
      "15:00",
      "18:00",
      "21:00",
    ]);
    expect(t[1]!.time).toBe(Date.UTC(2026, 5, 15, 1));
  });

  it("spring forward: no 02:00 tick; 03:00 is 2 h after midnight", () => {
    const w = dayWindow("2026-03-29", WAW);
    const t = hourTicks(w, 1);
    expect(t).toHaveLength(23);
    expect(t.map((x) => x.label)).not.toContain("02:00");
    expect(t.find((x) => x.label === "03:00")!.time).toBe(w.start + 2 * H);
  });

  it("fall back: 24 labels on a 25 h day, 03:00 is 4 h after midnight", () => {
    const w = dayWindow("2026-10-25", WAW);
    const t = hourTicks(w, 1);
    expect(t).toHaveLength(24);
    expect(t.find((x) => x.label === "02:00")!.time).toBe(w.start + 2 * H);
    expect(t.find((x) => x.label === "03:00")!.time).toBe(w.start + 4 * H);
    expect(() => hourTicks(w, 0)).toThrow(RangeError);
  });

  it("clockOf and wallSeconds read the local wall clock", () => {
    const zone = new ZoneOffsets(WAW, Date.UTC(2026, 9, 24), Date.UTC(2026, 9, 27));
    expect(clockOf(Date.UTC(2026, 9, 25, 0, 30), zone)).toBe("02:30"); // first 02:30 (+02:00)
    expect(clockOf(Date.UTC(2026, 9, 25, 1, 30), zone)).toBe("02:30"); // second 02:30 (+01:00)
    expect(clockOf(Date.UTC(2026, 9, 25, 22, 59), zone)).toBe("23:59");
    expect(wallSeconds(Date.UTC(2026, 9, 25, 5, 15, 7), zone)).toBe(6 * 3600 + 15 * 60 + 7);
    expect(wallSeconds(Date.UTC(2026, 9, 24, 22), zone)).toBe(0);
  });
});
