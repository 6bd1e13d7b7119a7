/**
 * The CGM print report model (`/{id}/cgmsprint`, `POST /api/patient-data/sugarDevicePdf`, which
 * answers it under the names of app/wire/reports.ts): the CGM report (unit, target range, highest
 * and lowest value with their times, count, average, percent above, within and below the goal,
 * and the readings) over 3 to 14 local days, plus the per-day CGMS day models (cgm-day.ts
 * `buildCgmDay`) for the daily trace pages.
 *
 * Readings are cleaned as everywhere (app/metrics readings.ts `normalizeReadings`, through
 * `buildCgmDay`: invalid values dropped, same-instant readings merged into their mean), so the
 * summary equals the day models taken together and `computeAll`'s mean / min / max on the same
 * readings. Glucose stays mg/dL; `glucoseUnit` tells the page which unit to show.
 *
 * Decisions (DiaCare's):
 * - highest / lowest: the first occurrence in time; their times as local "YYYY/MM/DD HH:mm"
 *   (the app's date form) in the patient's zone; on the 25-h day the repeated hour shows the
 *   same clock text twice (the instants `highestAt` / `lowestAt` tell them apart).
 * - abovePercent / belowPercent / withinPercent: percent (0-100, unrounded) of the readings above
 *   the patient's high limit, below the low limit, and within both limits inclusive, classified
 *   on the unrounded mg/dL (units.ts `classify`); the three add up to 100.
 * - rows: one per cleaned reading in time order; `id` = the input id of the (first) reading
 *   at that instant, or null; `mgdl` = the merged mean when several readings shared an instant.
 */
import { assertLimits, type GlucoseLimits } from "../metrics/alarm";
import type { Reading } from "../metrics/types";
import { ZoneOffsets, localDayToIsoDate } from "../metrics/timezone";
import { buildCgmDay, type CgmDayModel } from "./cgm-day";
import { clockOf, dayWindow, displayDate, type IsoDate } from "./day";
import { checkReportRange, type InvalidRange } from "./report-range";
import type { GlucoseUnit } from "../domain/glucose-unit";
import { isAboveRange, isBelowRange, unitCode, type UnitCode } from "./units";

/** A CGM reading with the stored record's id (a row's `id`). */
export interface CgmReportReading extends Reading {
  readonly id?: string | number;
}

export interface CgmReportRow {
  readonly id: string | number | null;
  /** Local "YYYY/MM/DD HH:mm". */
  readonly localTime: string;
  /** Epoch ms. */
  readonly time: number;
  readonly mgdl: number;
}

export interface CgmReport {
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly timeZone: string;
  readonly start: number;
  readonly end: number;
  readonly hasData: boolean;
  /** The display unit setting (0 mmol/L, 1 mg/dL) and its code; values below stay mg/dL. */
  readonly glucoseUnit: GlucoseUnit;
  readonly glucoseUnitCode: UnitCode;
  /** The patient's range, mg/dL. */
  readonly limits: GlucoseLimits;
  /** mg/dL; null without readings (also the fields below). */
  readonly highest: number | null;
  readonly lowest: number | null;
  /** Local "YYYY/MM/DD HH:mm" of the highest / lowest value. */
  readonly highestLocalTime: string | null;
  readonly lowestLocalTime: string | null;
  /** Epoch ms of the highest / lowest value. */
  readonly highestAt: number | null;
  readonly lowestAt: number | null;
  readonly readingCount: number;
  /** Mean, mg/dL, unrounded. */
  readonly mean: number | null;
  /** Percent 0-100, unrounded. */
  readonly abovePercent: number | null;
  readonly belowPercent: number | null;
  readonly withinPercent: number | null;
  /** The counts behind the percentages. */
  readonly goalCounts: { readonly above: number; readonly within: number; readonly below: number };
  readonly rows: readonly CgmReportRow[];
  /** One CGMS day model per date of the range (daily trace pages). */
  readonly days: readonly CgmDayModel[];
}

export interface CgmReportInput {
  /** First day (inclusive); the range is 3 to 14 days. */
  readonly from: string;
  readonly to: string;
  readonly timeZone: string;
  /** Now, epoch ms (no future dates). */
  readonly now: number;
  /** CGM readings, mg/dL; any order, readings outside the range are ignored. */
  readonly readings: readonly CgmReportReading[];
  readonly limits: GlucoseLimits;
  readonly unit: GlucoseUnit;
}

export type CgmReportResult = { readonly status: "ok"; readonly report: CgmReport } | InvalidRange;

/** Local "YYYY/MM/DD HH:mm" of an instant (`dates` caches the date text per local day). */
export function localDateTimeText(
  ms: number,
  zone: ZoneOffsets,
  dates: Map<number, string> = new Map(),
): string {
  const day = zone.localDay(ms);
  let date = dates.get(day);
  if (date === undefined) {
    date = displayDate(localDayToIsoDate(day));
    dates.set(day, date);
  }
  return `${date} ${clockOf(ms, zone)}`;
}

/** Lead-in before each day that `buildCgmDay` uses for the trend (20 min). */
const TREND_LEAD_MS = 20 * 60_000;

/** Builds the CGM print report (see the file comment); a refused range is answered, not thrown. */
export function buildCgmReport(input: CgmReportInput): CgmReportResult {
  const checked = checkReportRange(input.from, input.to, "cgm", {
    timeZone: input.timeZone,
    now: input.now,
  });
  if (!checked.ok) return checked.invalid;
  assertLimits(input.limits);
  const { from, to, dates } = checked;
  const tz = input.timeZone;
  const windows = dates.map((d) => dayWindow(d, tz));
  const start = windows[0]!.start;
  const end = windows[windows.length - 1]!.end;
  const zone = new ZoneOffsets(tz, start - 86_400_000, end + 86_400_000);

  const inRange = input.readings
    .filter((r) => r.time >= start - TREND_LEAD_MS && r.time < end)
    .sort((a, b) => a.time - b.time);
  const idAt = new Map<number, string | number>();
  for (const r of inRange) if (r.id !== undefined && !idAt.has(r.time)) idAt.set(r.time, r.id);

  // Each day gets its own readings plus the 20 min before it (two pointers over sorted readings).
  const days: CgmDayModel[] = [];
  let lo = 0;
  let hi = 0;
  for (const w of windows) {
    while (lo < inRange.length && inRange[lo]!.time < w.start - TREND_LEAD_MS) lo++;
    while (hi < inRange.length && inRange[hi]!.time < w.end) hi++;
    days.push(
      buildCgmDay({
        date: w.date,
        timeZone: tz,
        readings: inRange.slice(lo, hi),
        limits: input.limits,
      }),
    );
  }

  const rows: CgmReportRow[] = [];
  const dateTexts = new Map<number, string>();
  let sum = 0;
  let above = 0;
  let below = 0;
  let hiPoint: { time: number; mgdl: number } | null = null;
  let loPoint: { time: number; mgdl: number } | null = null;
  for (const day of days) {
    for (const p of day.points) {
      rows.push({
        id: idAt.get(p.time) ?? null,
        localTime: localDateTimeText(p.time, zone, dateTexts),
        time: p.time,
        mgdl: p.mgdl,
      });
      sum += p.mgdl;
      if (isAboveRange(p.class)) above++;
      if (isBelowRange(p.class)) below++;
      if (hiPoint === null || p.mgdl > hiPoint.mgdl) hiPoint = p;
      if (loPoint === null || p.mgdl < loPoint.mgdl) loPoint = p;
    }
  }
  const n = rows.length;
  const within = n - above - below;
  const pct = (c: number) => (n > 0 ? (c / n) * 100 : null);
  return {
    status: "ok",
    report: {
      from,
      to,
      timeZone: tz,
      start,
      end,
      hasData: n > 0,
      glucoseUnit: input.unit,
      glucoseUnitCode: unitCode(input.unit),
      limits: { low: input.limits.low, high: input.limits.high },
      highest: hiPoint?.mgdl ?? null,
      lowest: loPoint?.mgdl ?? null,
      highestLocalTime: hiPoint ? localDateTimeText(hiPoint.time, zone) : null,
      lowestLocalTime: loPoint ? localDateTimeText(loPoint.time, zone) : null,
      highestAt: hiPoint?.time ?? null,
      lowestAt: loPoint?.time ?? null,
      readingCount: n,
      mean: n > 0 ? sum / n : null,
      abovePercent: pct(above),
      belowPercent: pct(below),
      withinPercent: pct(within),
      goalCounts: { above, within, below },
      rows,
      days,
    },
  };
}
