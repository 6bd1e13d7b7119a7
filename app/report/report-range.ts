/**
 * Date-range rules of the reports and the data reads, and their check.
 *
 * A user-facing range error is an answer, not an exception: the check returns the problem so that
 * the page can show its message ("minimum of 3 days", "maximum of 14 days", "maximum time range
 * is 90 days", no future dates). Programmer errors (an unknown time zone) still throw.
 *
 * Every range counts both ends: a 90-day range ends on start + 89 days.
 * - pump, statistics and blood tests reports, meter readings: at most 90 days;
 * - CGM and AGP reports: 3 to 14 days;
 * - CGM readings of the data API: 1 to 14 days;
 * - one day of data: exactly one day.
 */
import { checkRange, datesBetween, parseDate, type IsoDate, type RangeProblem } from "./day";

/** Why a range is refused: day.ts's problems plus "invalidDate" (not a calendar date). */
export type ReportRangeProblem = RangeProblem | "invalidDate";

/** How many days a range may cover, both ends counted. */
export interface DateRangeRule {
  readonly minDays: number | null;
  readonly maxDays: number;
}

/** The answer of a builder when the range is refused. */
export interface InvalidRange extends DateRangeRule {
  readonly status: "invalidRange";
  readonly problem: ReportRangeProblem;
  /** The range as given (not normalised: it may not be a date). */
  readonly from: string;
  readonly to: string;
}

/** Range limit of the pump, statistics and blood tests reports and of the meter readings: 90 days. */
export const REPORT_MAX_DAYS = 90;
/** CGM and AGP report length. */
export const CGM_REPORT_MIN_DAYS = 3;
export const CGM_REPORT_MAX_DAYS = 14;

/** Range limit of the CSV export. */
export const EXPORT_MAX_DAYS = 366;

export const RANGE_RULES = {
  /** Pump, statistics and blood tests reports, meter readings. */
  long: { minDays: null, maxDays: REPORT_MAX_DAYS },
  /** CGM and AGP reports. */
  cgm: { minDays: CGM_REPORT_MIN_DAYS, maxDays: CGM_REPORT_MAX_DAYS },
  /** CGM readings of the data API. */
  cgmReadings: { minDays: null, maxDays: CGM_REPORT_MAX_DAYS },
  /** One day's data. */
  day: { minDays: null, maxDays: 1 },
  /** The CSV export: a year, both ends counted (366 days in a leap year). */
  export: { minDays: null, maxDays: EXPORT_MAX_DAYS },
} as const satisfies Record<string, DateRangeRule>;

export type RangeKind = keyof typeof RANGE_RULES;

export type CheckedRange =
  | {
      readonly ok: true;
      readonly from: IsoDate;
      readonly to: IsoDate;
      readonly dates: readonly IsoDate[];
    }
  | { readonly ok: false; readonly invalid: InvalidRange };

/**
 * Checks a range against a rule. Dates may be YYYY-MM-DD or YYYY/MM/DD; `now` (epoch ms) decides
 * what "future" means in `timeZone`.
 */
export function checkDateRange(
  from: string,
  to: string,
  rule: DateRangeRule,
  options: { timeZone: string; now: number },
): CheckedRange {
  const a = parseDate(from);
  const b = parseDate(to);
  const refuse = (problem: ReportRangeProblem): CheckedRange => ({
    ok: false,
    invalid: {
      status: "invalidRange",
      problem,
      from,
      to,
      minDays: rule.minDays,
      maxDays: rule.maxDays,
    },
  });
  if (a === null || b === null) return refuse("invalidDate");
  const problem = checkRange(a, b, {
    ...options,
    maxDays: rule.maxDays,
    ...(rule.minDays === null ? {} : { minDays: rule.minDays }),
  });
  if (problem !== null) return refuse(problem);
  return { ok: true, from: a, to: b, dates: datesBetween(a, b) };
}

/** Checks a report range by the rule of its kind. */
export function checkReportRange(
  from: string,
  to: string,
  kind: RangeKind,
  options: { timeZone: string; now: number },
): CheckedRange {
  return checkDateRange(from, to, RANGE_RULES[kind], options);
}

/** The pump/BG report's end when only a start is given: start + 1 day. */
export const PUMP_MISSING_END_DAYS = 1;
