/**
 * Range checking shared by the print-report builders (pump, CGM, AGP, statistics).
 *
 * A user-facing range error is an answer, not an exception: the builders return
 * `{ status: "invalidRange", problem }` so that the page can show the spec's message
 * (spec 2 section 5: "minimum of 3 days", "maximum of 14 days", "maximum time range is 90 days";
 * spec 1: no future dates). Programmer errors (an unknown time zone) still throw.
 *
 * Limits (spec 2 sections 5 and 9, the picker's rule in day.ts `checkRange`):
 * - pump / statistics / PDF reports: the end at most 90 days after the start (both ends
 *   inclusive, so up to 91 dates; the same rule as the date picker, which must never accept a
 *   range the report then refuses);
 * - CGM and AGP: 3 to 14 days counted inclusively.
 */
import { checkRange, datesBetween, parseDate, type IsoDate, type RangeProblem } from "./day";

/** Why a report range is refused: day.ts's problems plus "invalidDate" (not a calendar date). */
export type ReportRangeProblem = RangeProblem | "invalidDate";

/** The answer of a builder when the range is refused. */
export interface InvalidRange {
  readonly status: "invalidRange";
  readonly problem: ReportRangeProblem;
  /** The range as given (not normalised: it may not be a date). */
  readonly from: string;
  readonly to: string;
  /** The limits that applied, in days, so the message can name them. */
  readonly minDays: number | null;
  readonly maxDays: number;
}

/** Range limits of the pump and statistics reports: end at most 90 days after the start. */
export const REPORT_MAX_DAYS = 90;
/** CGM and AGP report length, days counted inclusively (spec 2 sections 5 and 9). */
export const CGM_REPORT_MIN_DAYS = 3;
export const CGM_REPORT_MAX_DAYS = 14;

export type RangeKind = "long" | "cgm";

export type CheckedRange =
  | { readonly ok: true; readonly from: IsoDate; readonly to: IsoDate; readonly dates: readonly IsoDate[] }
  | { readonly ok: false; readonly invalid: InvalidRange };

/**
 * Checks a report range: "long" = pump / statistics (end at most 90 days after the start),
 * "cgm" = CGM / AGP (3-14 days inclusive). Dates may be YYYY-MM-DD or YYYY/MM/DD.
 * `now` (epoch ms) decides what "future" means in `timeZone`.
 */
export function checkReportRange(from: string, to: string, kind: RangeKind, options: { timeZone: string; now: number }): CheckedRange {
  const minDays = kind === "cgm" ? CGM_REPORT_MIN_DAYS : null;
  const maxDays = kind === "cgm" ? CGM_REPORT_MAX_DAYS : REPORT_MAX_DAYS;
  const a = parseDate(from);
  const b = parseDate(to);
  const refuse = (problem: ReportRangeProblem): CheckedRange => ({
    ok: false,
    invalid: { status: "invalidRange", problem, from, to, minDays, maxDays },
  });
  if (a === null || b === null) return refuse("invalidDate");
  const problem =
    kind === "cgm"
      ? checkRange(a, b, { ...options, minDays: CGM_REPORT_MIN_DAYS, maxDays: CGM_REPORT_MAX_DAYS, countDays: true })
      : checkRange(a, b, { ...options, maxDays: REPORT_MAX_DAYS });
  if (problem !== null) return refuse(problem);
  return { ok: true, from: a, to: b, dates: datesBetween(a, b) };
}
