/**
 * Quick ranges of every date-range control (the report pages, the BG view, the CGM overlay, the
 * CSV export): "the last N days" always ends today in the patient's time zone and counts both
 * ends, so the 30-day range is today and the 29 days before it. A quick range never depends on a
 * date typed in the form, so it can never end in the future.
 *
 * Each control offers the lengths its range rule allows (app/report/report-range.ts): the
 * 7-, 15- and 30-day ranges, and 90 days where a range may cover 90 days (pump and blood tests
 * reports, BG view, CSV export); the CGM and AGP reports (3 to 14 days) offer 7 and 14 days; the statistics report starts at 14 days, the minimum for
 * CGM metrics (Battelino T, et al. Diabetes Care 2019;42:1593-1603).
 */
import { OVERLAY_DAYS } from "./cgm-day";
import { shiftDate, todayIn, type IsoDate } from "./day";

/** The query parameter a quick-range button submits: the number of days. */
export const QUICK_RANGE_PARAM = "days";

/** Quick ranges offered by each control, in days (both ends counted). */
export const QUICK_DAYS = {
  /** Pump and BG report: at most 90 days. */
  pumpReport: [7, 15, 30, 90],
  /** CGM and AGP reports: 3 to 14 days. */
  cgmReport: [7, 14],
  /** Statistics report: at least 14 days of data, at most 90. */
  statisticsReport: [14, 30, 90],
  /** Blood tests report (the meter logbook): at most 90 days. */
  bloodTestsReport: [7, 15, 30, 90],
  /** The BG view's meter readings: at most 90 days. */
  bgView: [7, 15, 30, 90],
  /** The CGM overlay: always its 14 days. */
  cgmOverlay: [OVERLAY_DAYS],
  /** The CSV export: at most a year. */
  export: [7, 15, 30, 90],
  /** The staff Excel export: at most 90 days. */
  excelExport: [7, 15, 30, 90],
} as const satisfies Record<string, readonly number[]>;

export type QuickRangeControl = keyof typeof QUICK_DAYS;

/** Every length some control offers (each has its own label, `common:quickRanges.d<N>`). */
export const QUICK_RANGE_LENGTHS = [...new Set(Object.values(QUICK_DAYS).flat())].sort(
  (a, b) => a - b,
);

/** The translation key (namespace `common`) of a quick range's button. */
export function quickRangeLabelKey(days: number): string {
  return `common:quickRanges.d${days}`;
}

/** The last `days` days ending today in `timeZone` at instant `now` (epoch ms), both ends counted. */
export function quickRange(
  days: number,
  timeZone: string,
  now: number,
): { readonly start: IsoDate; readonly end: IsoDate } {
  if (!Number.isInteger(days) || days < 1)
    throw new RangeError(`a quick range is a whole number of days, got ${days}`);
  const end = todayIn(timeZone, now);
  return { start: shiftDate(end, -(days - 1)), end };
}

/**
 * The quick range a request asks for: the `days` parameter's text when it is one of `offered`,
 * else null (an unknown length is ignored, and the dates of the form apply).
 */
export function quickDaysOf(
  raw: string | null | undefined,
  offered: readonly number[],
): number | null {
  const text = (raw ?? "").trim();
  if (!/^\d{1,3}$/.test(text)) return null;
  const days = Number(text);
  return offered.includes(days) ? days : null;
}
