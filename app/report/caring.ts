/**
 * Remote caring's glucose status of a cared-for person: the newest CGM reading with its trend
 * arrow and alarm, how long ago it was taken, and today's time in range. Pure: the caring pages'
 * loaders build it from the readings the access gateway let them read.
 *
 * - Trend: the CGMS view's rule (app/metrics/trend.ts `glucoseTrend`): the least-squares rate of
 *   change of the readings of the 20 minutes up to the newest one, in seven levels at
 *   ±0.06 / ±0.11 / ±0.17 mmol/L per minute (about 1, 2 and 3 mg/dL per minute); fewer than 4
 *   readings in that window give no trend.
 * - Alarm: the newest value against the person's own target range (app/metrics/alarm.ts
 *   `classifyAlarm`): very low below 54 mg/dL (3.0 mmol/L), low below the range's low limit,
 *   high above its high limit, else none. A value equal to a limit is in range.
 * - Age: whole minutes under an hour, whole hours under two days, whole days beyond; a reading
 *   stamped after `now` (a device clock ahead) is 0 minutes old.
 * - Today's time in range: percent of today's readings within 70-180 mg/dL (3.9-10.0 mmol/L, the
 *   consensus range of the CGMS view's time in ranges).
 */
import { classifyAlarm, type AlarmClass, type GlucoseLimits } from "../metrics/alarm";
import { timeInRangesOf } from "../metrics/ranges";
import { normalizeReadings } from "../metrics/readings";
import { glucoseTrend, type TrendLevel } from "../metrics/trend";
import type { Reading } from "../metrics/types";

export interface CurrentGlucose {
  /** The newest reading's instant, epoch ms. */
  readonly time: number;
  readonly mgdl: number;
  /** null: fewer than 4 readings in the 20 minutes up to the newest one. */
  readonly trend: TrendLevel | null;
  readonly alarm: AlarmClass;
}

/**
 * The newest reading of `readings` (any order; invalid values dropped, same-instant readings
 * merged), its trend from the readings before it and its alarm against `limits` (mg/dL); null
 * without a valid reading.
 */
export function currentGlucose(
  readings: readonly Reading[],
  limits: GlucoseLimits,
): CurrentGlucose | null {
  const { series } = normalizeReadings(readings);
  if (series.length === 0) return null;
  const last = series.length - 1;
  const mgdl = series.mgdl[last]!;
  return {
    time: series.time[last]!,
    mgdl,
    trend: glucoseTrend(series).value?.level ?? null,
    alarm: classifyAlarm(mgdl, limits),
  };
}

export type AgeUnit = "minute" | "hour" | "day";
export interface ReadingAge {
  readonly value: number;
  readonly unit: AgeUnit;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** How long before `now` an instant was (rule in the file comment). */
export function readingAge(time: number, now: number): ReadingAge {
  const ms = Math.max(0, now - time);
  if (ms < HOUR_MS) return { value: Math.floor(ms / MINUTE_MS), unit: "minute" };
  if (ms < 2 * DAY_MS) return { value: Math.floor(ms / HOUR_MS), unit: "hour" };
  return { value: Math.floor(ms / DAY_MS), unit: "day" };
}

/**
 * An age in words of the language ("12 minutes ago", "vor 3 Stunden"), with the language's own
 * plural forms (Intl.RelativeTimeFormat). Made on the server, so that the document and the
 * hydrated page read the same.
 */
export function formatReadingAge(age: ReadingAge, locale: string): string {
  return new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(-age.value, age.unit);
}

/** Percent (0-100) of `mgdl` values within 70-180 mg/dL; null without values. */
export function timeInRangePercent(mgdl: ArrayLike<number>): number | null {
  return timeInRangesOf(mgdl)?.range70to180 ?? null;
}
