import { ZoneOffsets } from "~/metrics/timezone";
import { isTimeZone } from "~/utils/time-zones";

/**
 * Device clocks record local wall-clock time without a zone ("2026-03-29 02:30:00"). The upload
 * names the zone the clock was set to; this module turns the wall clock into a UTC instant.
 *
 * Daylight-saving rule (one rule for every upload):
 * - a time in a spring-forward gap does not exist; it is read with the offset in force before the
 *   change, which moves it forward by the length of the gap (02:30 on a one-hour gap -> 03:30);
 * - a time in an autumn overlap exists twice; it is the earlier instant, unless the record before
 *   it in the device's own order already lies at or after that instant, in which case it is the
 *   later one (the clock went round the repeated hour a second time).
 * Both cases are counted in the upload summary.
 */

/** Device years are stored as year - 2000 in one byte; the server accepts 2000 to 2099. */
export const DEVICE_YEAR_MIN = 2000;
export const DEVICE_YEAR_MAX = 2099;

const FIXED_OFFSET = /^([+-])(\d{2}):(\d{2})$/;

/**
 * Milliseconds of a device wall-clock text read as if it were UTC, or null when it is not a real
 * date and time of the years devices can record.
 */
export function parseWallClock(text: string): number | null {
  // "YYYY-MM-DD HH:mm:ss" (or with a T), read digit by digit: uploads and imports hold tens of thousands.
  if (
    text.length !== 19 ||
    text[4] !== "-" ||
    text[7] !== "-" ||
    (text[10] !== " " && text[10] !== "T") ||
    text[13] !== ":" ||
    text[16] !== ":"
  )
    return null;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (
    year < DEVICE_YEAR_MIN ||
    year > DEVICE_YEAR_MAX ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month)
  )
    return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

/** The number written by `length` digits at `from`, or -1 when one of them is not a digit. */
function digits(text: string, from: number, length: number): number {
  let n = 0;
  for (let i = from; i < from + length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days of a month of the Gregorian calendar (February 29 in leap years). */
function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : MONTH_DAYS[month - 1]!;
}

/** The offset in ms of a fixed-offset zone ("+08:00"), or null when `zone` is not one. */
function fixedOffsetMs(zone: string): number | null {
  const m = FIXED_OFFSET.exec(zone);
  if (!m || Number(m[3]) > 59 || Number(m[2]) > 14) return null;
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000;
}

/** Whether `zone` is a fixed offset ("+08:00") or an IANA zone this runtime knows. */
export function isKnownTimeZone(zone: string): boolean {
  return fixedOffsetMs(zone) !== null || isTimeZone(zone);
}

export type DstCase = "gap" | "overlap";
export type ResolvedTime = { instant: number; dst: DstCase | null };

const DAY_MS = 86_400_000;
const zoneTables = new Map<string, ZoneOffsets>();

/** The zone's offsets over the years devices can record, read once per zone and process. */
function zoneTable(zone: string): ZoneOffsets {
  let table = zoneTables.get(zone);
  if (!table) {
    table = new ZoneOffsets(
      zone,
      Date.UTC(DEVICE_YEAR_MIN - 1, 0, 1),
      Date.UTC(DEVICE_YEAR_MAX + 1, 11, 31),
    );
    zoneTables.set(zone, table);
  }
  return table;
}

/**
 * Resolves the wall-clock times of one device, in the device's order, under the rule above. One
 * resolver per device and upload: it remembers the previous record's instant.
 */
export class WallClockResolver {
  private readonly fixed: number | null;
  private readonly table: ZoneOffsets | null;
  private previous = Number.NEGATIVE_INFINITY;

  constructor(readonly zone: string) {
    this.fixed = fixedOffsetMs(zone);
    this.table = this.fixed === null ? zoneTable(zone) : null;
  }

  /** `wall` is the device time read as UTC (see {@link parseWallClock}). */
  resolve(wall: number): ResolvedTime {
    const result = this.place(wall);
    this.previous = result.instant;
    return result;
  }

  private place(wall: number): ResolvedTime {
    if (this.fixed !== null) return { instant: wall - this.fixed, dst: null };
    const table = this.table!;
    // Offset changes are months apart: the offsets a day either side are the only candidates.
    const before = table.offsetAt(wall - DAY_MS);
    const after = table.offsetAt(wall + DAY_MS);
    const withBefore = table.offsetAt(wall - before) === before;
    if (before === after)
      return withBefore
        ? { instant: wall - before, dst: null }
        : { instant: wall - before, dst: "gap" };
    const withAfter = table.offsetAt(wall - after) === after;
    if (withBefore && withAfter) {
      const earlier = Math.min(wall - before, wall - after);
      const later = Math.max(wall - before, wall - after);
      return { instant: this.previous >= earlier ? later : earlier, dst: "overlap" };
    }
    if (withBefore) return { instant: wall - before, dst: null };
    if (withAfter) return { instant: wall - after, dst: null };
    return { instant: wall - before, dst: "gap" };
  }
}

/**
 * The wall-clock text ("YYYY-MM-DD HH:mm:ss") of a UTC instant on the clock of `zone` (a fixed
 * offset or an IANA zone), from the zone's offset table: records that carry an instant (a
 * Nightscout upload's `date`) keep the patient's local time beside it as device records do.
 */
export function wallClockAt(instant: number, zone: string): string {
  const offset = fixedOffsetMs(zone) ?? zoneTable(zone).offsetAt(instant);
  return new Date(instant + offset).toISOString().slice(0, 19).replace("T", " ");
}
