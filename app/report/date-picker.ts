/**
 * The rules the browser's date pickers apply before a form is sent, written with the server's own
 * checks (day.ts `checkRangeOn`, report-kinds.ts `rangeProblemKey`) so that a picker refuses a
 * range with the very message the server would give. The server still checks every range it
 * receives: these only spare a round trip.
 *
 * Dates travel as text: YYYY/MM/DD in the text fields (JavaScript off), YYYY-MM-DD in the
 * pickers' hidden inputs; the server reads both (day.ts `parseDate`).
 */
import { CalendarDate } from "@internationalized/date";
import { checkRangeOn, compareDates, parseDate, type IsoDate } from "./day";
import { rangeProblemKey } from "./report-kinds";
import { RANGE_RULES, type DateRangeRule } from "./report-range";

/** A date field's text (YYYY/MM/DD or YYYY-MM-DD) as a calendar date; null when it is no date. */
export function calendarDateOf(text: string): CalendarDate | null {
  const iso = parseDate(text);
  if (iso === null) return null;
  const [year, month, day] = iso.split("-").map(Number) as [number, number, number];
  return new CalendarDate(year, month, day);
}

/** A calendar date as the ISO date the server reads, "YYYY-MM-DD". */
export function isoOfCalendarDate(date: { year: number; month: number; day: number }): IsoDate {
  const pad = (n: number, width: number) => String(n).padStart(width, "0");
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

/** A translation key (any namespace) and its values. */
export interface Message {
  readonly key: string;
  readonly values?: Readonly<Record<string, number>>;
}

/** The limits of a range rule as the picker describes them: "3 to 14 days" or "at most 90 days", none in the future. */
export function rangeLimits(rule: DateRangeRule): Message {
  return rule.minDays === null
    ? { key: "common:dateFields.atMost", values: { count: rule.maxDays } }
    : { key: "common:dateFields.between", values: { min: rule.minDays, count: rule.maxDays } };
}

/** The limit of a one-day picker: today or earlier. */
export const DAY_LIMITS: Message = { key: "common:dateFields.noFuture" };

/**
 * A report range's refusal under its rule, as the report page gives it (app/report/report-range.ts
 * `checkReportRange`): a date the server does not take (before 1900 or after 2999, as a
 * half-typed year is), then end before start, a future end, too long, too short; null when the
 * range is acceptable. `today` is the patient's today.
 */
export function reportRangeProblem(
  start: IsoDate,
  end: IsoDate,
  rule: DateRangeRule,
  today: IsoDate,
): string | null {
  if (parseDate(start) === null || parseDate(end) === null) return "reports:common.invalidDate";
  const problem = checkRangeOn(start, end, {
    today,
    maxDays: rule.maxDays,
    ...(rule.minDays === null ? {} : { minDays: rule.minDays }),
  });
  return problem === null ? null : rangeProblemKey(problem, rule);
}

/**
 * The BG view's refusal of a range, as app/services/patient-view.server.ts `bgView` gives it: a
 * date it does not take, a future date (either end), then the rules of a 90-day range; null when
 * acceptable.
 */
export function viewRangeProblem(from: IsoDate, to: IsoDate, today: IsoDate): string | null {
  if (parseDate(from) === null || parseDate(to) === null) return "views:problems.invalid";
  if (compareDates(from, today) > 0 || compareDates(to, today) > 0) return "views:problems.future";
  return reportRangeProblem(from, to, RANGE_RULES.long, today);
}

/** A one-day view's refusal of a day: a date it does not take, or a day after today. */
export function dayProblem(date: IsoDate, today: IsoDate): string | null {
  if (parseDate(date) === null) return "views:problems.invalid";
  return compareDates(date, today) > 0 ? "views:problems.future" : null;
}
