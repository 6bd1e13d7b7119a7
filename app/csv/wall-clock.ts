import { DEVICE_YEAR_MAX, DEVICE_YEAR_MIN } from "~/ingest/device-time";
import type { Clock, DateOrder } from "./types";

/**
 * Wall-clock times as the files write them. The parsers keep the local time as written,
 * normalised to "YYYY-MM-DD HH:mm:ss", and never convert it: the caller resolves it in the zone the
 * user chooses. A time must be a real one (2026-02-30 and 24:00 are not) of the years 2000 to
 * 2099, the years the devices record.
 */

export type WallParts = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
};

const pad2 = (n: number) => String(n).padStart(2, "0");

/** "YYYY-MM-DD HH:mm:ss" of the parts, or null when they are not a real time of 2000-2099. */
export function formatWall(p: WallParts): string | null {
  if (p.year < DEVICE_YEAR_MIN || p.year > DEVICE_YEAR_MAX) return null;
  if (p.month < 1 || p.month > 12 || p.day < 1 || p.day > daysInMonth(p.year, p.month)) return null;
  if (p.hour > 23 || p.minute > 59 || p.second > 59) return null;
  return `${p.year}-${pad2(p.month)}-${pad2(p.day)} ${pad2(p.hour)}:${pad2(p.minute)}:${pad2(p.second)}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const ISO_WALL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?$/;

/**
 * An ISO 8601 local time without zone, "YYYY-MM-DD HH:mm", "YYYY-MM-DDTHH:mm:ss" (fractions of a
 * second are dropped), normalised; null when it is not one or not real. A time with a zone or an
 * offset ("Z", "+01:00") is not a wall clock and is refused.
 */
export function parseIsoWall(text: string): string | null {
  const m = ISO_WALL.exec(text.trim());
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1, 6).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  return formatWall({
    year,
    month,
    day,
    hour,
    minute,
    second: m[6] === undefined ? 0 : Number(m[6]),
  });
}

/**
 * A vendor time stamp split into its numbers before the day/month order is known: "25-03-2026
 * 14:05", "03/25/2026 02:05 PM", "25.03.2026 14:05:10", "2026-03-25 14:05". The two date
 * separators are the same one of `-`, `/` and `.`; the year has four digits and comes first or
 * last; the hour has one or two digits; an AM/PM marker (also "a.m."/"p.m.", any case) may follow.
 */
export type VendorStamp = {
  /** The two numbers before the year (day and month in some order), or month and day after it. */
  first: number;
  second: number;
  year: number;
  yearFirst: boolean;
  hour: number;
  minute: number;
  seconds: number;
  meridiem: "am" | "pm" | null;
};

const VENDOR_STAMP =
  /^(\d{1,4})([-/.])(\d{1,2})\2(\d{1,4})[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp])\.?\s*[Mm]\.?)?$/;

export function splitVendorStamp(text: string): VendorStamp | null {
  const m = VENDOR_STAMP.exec(text.trim());
  if (!m) return null;
  const [a, , b, c, h, mi, s, ap] = m.slice(1) as [
    string,
    string,
    string,
    string,
    string,
    string,
    string | undefined,
    string | undefined,
  ];
  const yearFirst = a.length === 4;
  if (yearFirst ? c.length > 2 : c.length !== 4 || a.length > 2) return null;
  const meridiem = ap === undefined ? null : ap.toLowerCase() === "a" ? "am" : "pm";
  return {
    first: Number(yearFirst ? b : a),
    second: Number(yearFirst ? c : b),
    year: Number(yearFirst ? a : c),
    yearFirst,
    hour: Number(h),
    minute: Number(mi),
    seconds: s === undefined ? 0 : Number(s),
    meridiem,
  };
}

/**
 * What a whole file's time stamps prove about how to read them. Day/month order rule: a first
 * number over 12 anywhere proves day-first (DMY); else a second number over 12 anywhere proves
 * month-first (MDY); a file with neither is ambiguous and is read month-first when it uses the
 * 12-hour clock (the US default of LibreView) and day-first when it uses the 24-hour clock. An
 * AM/PM marker anywhere makes the file's clock 12-hour. A file whose stamps all start with the year
 * is YMD.
 */
export class DateOrderEvidence {
  private firstOver12 = false;
  private secondOver12 = false;
  private twelveHour = false;
  private dayMonth = false;

  observe(stamp: VendorStamp): void {
    if (stamp.meridiem !== null) this.twelveHour = true;
    if (stamp.yearFirst) return;
    this.dayMonth = true;
    if (stamp.first > 12) this.firstOver12 = true;
    if (stamp.second > 12) this.secondOver12 = true;
  }

  /** The order and clock to read the file with; `forced` (the user's choice) wins. */
  decide(forced?: Exclude<DateOrder, "YMD">): { order: DateOrder; clock: Clock } {
    const clock: Clock = this.twelveHour ? "12h" : "24h";
    if (!this.dayMonth) return { order: "YMD", clock };
    if (forced) return { order: forced, clock };
    if (this.firstOver12) return { order: "DMY", clock };
    if (this.secondOver12) return { order: "MDY", clock };
    return { order: clock === "12h" ? "MDY" : "DMY", clock };
  }
}

/**
 * The wall clock of a stamp read with `order` (a year-first stamp is always year-month-day), or
 * null when it is not a real time. With AM/PM the hour is 1-12 (12 AM is 00, 12 PM is 12); without,
 * 0-23.
 */
export function vendorWall(stamp: VendorStamp, order: DateOrder): string | null {
  const dayFirst = !stamp.yearFirst && order === "DMY";
  const hour = hour24(stamp.hour, stamp.meridiem);
  if (hour === null) return null;
  return formatWall({
    year: stamp.year,
    month: dayFirst ? stamp.second : stamp.first,
    day: dayFirst ? stamp.first : stamp.second,
    hour,
    minute: stamp.minute,
    second: stamp.seconds,
  });
}

function hour24(hour: number, meridiem: "am" | "pm" | null): number | null {
  if (meridiem === null) return hour;
  if (hour < 1 || hour > 12) return null;
  if (meridiem === "am") return hour === 12 ? 0 : hour;
  return hour === 12 ? 12 : hour + 12;
}
