/**
 * Local calendar days in the patient's IANA time zone: every day boundary is computed in the
 * patient's zone (docs/decisions/004-patient-day.md).
 *
 * A day is the half-open instant range [local midnight, next local midnight). Instants are
 * epoch milliseconds. Dates are ISO "YYYY-MM-DD" strings (the display form YYYY/MM/DD is
 * accepted by {@link parseDate} and produced by {@link displayDate}). Zone arithmetic uses
 * temporal-polyfill; per-instant look-ups in bulk go through `ZoneOffsets` of app/metrics.
 *
 * On a daylight-saving day the window is 23 or 25 hours long (Europe/Warsaw 2026-03-29: 23 h,
 * 2026-10-25: 25 h). When a zone skips midnight itself, the day starts at the first instant of
 * that date (Temporal's `startOfDay`).
 */
import { Temporal } from "temporal-polyfill";
import { z } from "zod";
import { assertTimeZone, type ZoneOffsets } from "../metrics/timezone";
import { DAY_MS } from "../metrics/types";

/** An ISO calendar date, "YYYY-MM-DD". */
export type IsoDate = string;

/** One local day: [start, end) in epoch ms, and its length in hours (23, 24 or 25 with DST). */
export interface DayWindow {
  readonly date: IsoDate;
  readonly timeZone: string;
  /** Epoch ms of local midnight starting the day (inclusive). */
  readonly start: number;
  /** Epoch ms of the next local midnight (exclusive). */
  readonly end: number;
  /** (end - start) / 1 h: 24 on most days, 23 or 25 on DST days (23.5 / 24.5 in a few zones). */
  readonly hours: number;
}

const HOUR_MS = 3_600_000;

/**
 * Remembers the answers of a pure function, at most `size` of them (the oldest goes first);
 * `key` names the arguments. Date parsing and zone arithmetic in temporal-polyfill cost 0.1-2 ms
 * a call, and one request asks for the same few dates and day windows many times. A call that
 * throws is not remembered.
 */
function memo<A extends unknown[], T>(
  size: number,
  key: (...args: A) => string,
  compute: (...args: A) => T,
): (...args: A) => T {
  const kept = new Map<string, T>();
  return (...args) => {
    const k = key(...args);
    if (kept.has(k)) return kept.get(k)!;
    const value = compute(...args);
    if (kept.size >= size) kept.delete(kept.keys().next().value!);
    kept.set(k, value);
    return value;
  };
}

const DATE_RE = /^(\d{4})([-/])(\d{1,2})\2(\d{1,2})$/;

/**
 * Parses "YYYY-MM-DD" or the display form "YYYY/MM/DD" (one-digit month and day allowed, the
 * same separator twice, surrounding spaces ignored) into a canonical ISO date; null when the
 * text is not a real calendar date (e.g. 2026-02-30) or the year is outside 1900-2999.
 */
export function parseDate(input: string): IsoDate | null {
  return parsedDates(input);
}

const parsedDates = memo(
  4096,
  (input: string) => input,
  (input: string): IsoDate | null => {
    const m = DATE_RE.exec(input.trim());
    if (!m) return null;
    const year = Number(m[1]);
    const month = Number(m[3]);
    const day = Number(m[4]);
    if (year < 1900 || year > 2999) return null;
    try {
      return Temporal.PlainDate.from({ year, month, day }, { overflow: "reject" }).toString();
    } catch {
      return null;
    }
  },
);

/** True when `input` is already a canonical, valid "YYYY-MM-DD". */
export function isIsoDate(input: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(input) && parseDate(input) === input;
}

/** zod schema for a date parameter: accepts both forms, outputs the canonical ISO date. */
export const dateParamSchema = z.string().transform((value, ctx) => {
  const date = parseDate(value);
  if (date === null) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "invalid date" });
    return z.NEVER;
  }
  return date;
});

/** Canonical ISO date or a RangeError (for internal callers that require a valid date). */
export function requireDate(input: string): IsoDate {
  const date = parseDate(input);
  if (date === null)
    throw new RangeError(`not a valid date (YYYY-MM-DD or YYYY/MM/DD): ${JSON.stringify(input)}`);
  return date;
}

/**
 * The fixed form of an ISO date in a date field, a link and the API: "YYYY/MM/DD". Text for
 * reading writes dates in the reader's language (locale-format.ts).
 */
export function displayDate(date: IsoDate): string {
  return requireDate(date).replaceAll("-", "/");
}

/** The local-day window of `date` in `timeZone` (throws RangeError on a bad date or zone). */
export function dayWindow(date: string, timeZone: string): DayWindow {
  return dayWindows(date, timeZone);
}

const dayWindows = memo(
  4096,
  (date: string, timeZone: string) => JSON.stringify([date, timeZone]),
  (date: string, timeZone: string): DayWindow => {
    const iso = requireDate(date);
    assertTimeZone(timeZone);
    const day = Temporal.PlainDate.from(iso);
    const start = day.toZonedDateTime({ timeZone }).epochMilliseconds;
    const end = day.add({ days: 1 }).toZonedDateTime({ timeZone }).epochMilliseconds;
    return Object.freeze({ date: iso, timeZone, start, end, hours: (end - start) / HOUR_MS });
  },
);

/**
 * The instant window of a range of whole local days, `from` to `to` inclusive:
 * [start of `from`, start of the day after `to`). Throws when `to` is before `from`.
 */
export function rangeWindow(
  from: string,
  to: string,
  timeZone: string,
): { start: number; end: number; days: IsoDate[] } {
  const a = requireDate(from);
  const b = requireDate(to);
  if (compareDates(b, a) < 0) throw new RangeError(`range end ${b} is before its start ${a}`);
  const days = datesBetween(a, b);
  return { start: dayWindow(a, timeZone).start, end: dayWindow(b, timeZone).end, days };
}

/** The local date (ISO) of instant `ms` in `timeZone`. */
export function localDate(ms: number, timeZone: string): IsoDate {
  return Temporal.Instant.fromEpochMilliseconds(Math.floor(ms))
    .toZonedDateTimeISO(timeZone)
    .toPlainDate()
    .toString();
}

/** `date` plus `days` calendar days (negative: earlier). */
export function shiftDate(date: string, days: number): IsoDate {
  if (!Number.isInteger(days)) throw new RangeError(`days must be an integer, got ${days}`);
  return shiftedDates(requireDate(date), days);
}

const shiftedDates = memo(
  4096,
  (date: IsoDate, days: number) => `${date} ${days}`,
  (date: IsoDate, days: number): IsoDate => Temporal.PlainDate.from(date).add({ days }).toString(),
);

/** Negative, 0 or positive as `a` is before, equal to or after `b` (both ISO dates). */
export function compareDates(a: IsoDate, b: IsoDate): number {
  return a < b ? -1 : a > b ? 1 : 0; // canonical ISO dates sort as text
}

/** Calendar days from `a` to `b` (positive when `b` is later). */
export function daysBetween(a: string, b: string): number {
  return daysApart(requireDate(a), requireDate(b));
}

const daysApart = memo(
  4096,
  (a: IsoDate, b: IsoDate) => `${a} ${b}`,
  (a: IsoDate, b: IsoDate): number =>
    Temporal.PlainDate.from(a).until(Temporal.PlainDate.from(b), { largestUnit: "days" }).days,
);

/** Every date from `a` to `b` inclusive (empty when `b` is before `a`). */
export function datesBetween(a: string, b: string): IsoDate[] {
  const first = requireDate(a);
  const n = daysBetween(first, b);
  const out: IsoDate[] = [];
  for (let i = 0; i <= n; i++) out.push(shiftDate(first, i));
  return out;
}

/** Today's local date in `timeZone` at instant `now` (epoch ms). */
export function todayIn(timeZone: string, now: number): IsoDate {
  return localDate(now, timeZone);
}

/** True when `date` is after today's local date in `timeZone` (the picker allows no future dates). */
export function isFuture(date: string, timeZone: string, now: number): boolean {
  return compareDates(requireDate(date), todayIn(timeZone, now)) > 0;
}

/** Why a date range is refused by the date pickers' rules; null when it is acceptable. */
export type RangeProblem = "order" | "future" | "tooLong" | "tooShort";

/**
 * Checks a range of whole days: no future end, the end on or after the start, and at most
 * `maxDays` (default 90) and at least `minDays` days, both ends counted (a 90-day range ends
 * on start + 89 days).
 */
export function checkRange(
  from: string,
  to: string,
  options: { timeZone: string; now: number; maxDays?: number; minDays?: number },
): RangeProblem | null {
  const { timeZone, now, ...limits } = options;
  return checkRangeOn(from, to, { ...limits, today: todayIn(timeZone, now) });
}

/**
 * {@link checkRange} against a given today (an ISO date): the same rules in the same order, for a
 * caller that knows the patient's today but not the zone's clock (the browser's date pickers,
 * which are given the server's today).
 */
export function checkRangeOn(
  from: string,
  to: string,
  options: { today: string; maxDays?: number; minDays?: number },
): RangeProblem | null {
  const a = requireDate(from);
  const b = requireDate(to);
  if (compareDates(b, a) < 0) return "order";
  if (compareDates(b, requireDate(options.today)) > 0) return "future";
  const days = daysBetween(a, b) + 1;
  if (days > (options.maxDays ?? 90)) return "tooLong";
  if (options.minDays !== undefined && days < options.minDays) return "tooShort";
  return null;
}

/**
 * The day with data closest to `date` (for the empty state), before or after; `date` itself
 * when it has data; null when `days` holds no valid date. Equal distance: the earlier day wins
 * (the past is where a reader usually goes next). Invalid entries are ignored.
 */
export function nearestDayWithData(days: readonly string[], date: string): IsoDate | null {
  const target = requireDate(date);
  const t = Temporal.PlainDate.from(target);
  let best: IsoDate | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const raw of days) {
    const d = parseDate(raw);
    if (d === null) continue;
    const distance = Math.abs(t.until(Temporal.PlainDate.from(d), { largestUnit: "days" }).days);
    if (
      distance < bestDistance ||
      (distance === bestDistance && best !== null && compareDates(d, best) < 0)
    ) {
      best = d;
      bestDistance = distance;
    }
  }
  return best;
}

/** A labelled time-axis tick: instant and local wall-clock label "HH:mm". */
export interface TimeTick {
  readonly time: number;
  readonly label: string;
}

/**
 * Axis ticks at local wall-clock hours 0, step, 2*step, ... of a day window (DST-safe: on a
 * spring-forward day an hour that does not exist gets no tick; on a fall-back day each label
 * appears once, at its first occurrence).
 */
export function hourTicks(window: DayWindow, stepHours = 3): TimeTick[] {
  if (!Number.isInteger(stepHours) || stepHours < 1 || stepHours > 24)
    throw new RangeError(`stepHours must be 1-24, got ${stepHours}`);
  const key = `${window.date}|${window.timeZone}|${stepHours}`;
  let ticks = tickCache.get(key);
  if (!ticks) {
    ticks = computeHourTicks(window, stepHours);
    if (tickCache.size >= TICK_CACHE_SIZE) tickCache.delete(tickCache.keys().next().value!);
    tickCache.set(key, ticks);
  }
  return ticks.slice();
}

/** Tick lists are pure functions of (date, zone, step) and cost Temporal work on every chart: kept. */
const TICK_CACHE_SIZE = 512;
const tickCache = new Map<string, TimeTick[]>();

function computeHourTicks(window: DayWindow, stepHours: number): TimeTick[] {
  const day = Temporal.PlainDate.from(window.date);
  const ticks: TimeTick[] = [];
  for (let hour = 0; hour < 24; hour += stepHours) {
    const zdt = day
      .toPlainDateTime({ hour })
      .toZonedDateTime(window.timeZone, { disambiguation: "compatible" });
    if (zdt.hour !== hour) continue; // a wall-clock hour skipped by a DST change
    ticks.push({ time: zdt.epochMilliseconds, label: `${pad2(hour)}:00` });
  }
  return ticks;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** Seconds after local midnight on the wall clock (0 <= s < 86400) of instant `ms`. */
export function wallSeconds(ms: number, zone: ZoneOffsets): number {
  const local = ms + zone.offsetAt(ms);
  return Math.floor((local - Math.floor(local / DAY_MS) * DAY_MS) / 1000);
}

/** Local wall-clock time "HH:mm" of instant `ms` (fast path through ZoneOffsets). */
export function clockOf(ms: number, zone: ZoneOffsets): string {
  const s = wallSeconds(ms, zone);
  return `${pad2(Math.floor(s / 3600))}:${pad2(Math.floor((s % 3600) / 60))}`;
}
