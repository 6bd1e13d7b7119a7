import { z } from "zod";
import { parseDate, shiftDate } from "~/report/day";
import { QUICK_RANGE_PARAM, quickDaysOf } from "~/report/quick-ranges";
import { idNumber } from "./fields";

/**
 * The date range of the print reports (both dates required, else 'Please Select The Date'), one
 * schema for the report pages' GET form, their PDF routes and the `/api/` report calls. Messages
 * are keys of the `reports` namespace.
 *
 * This checks presence and form only: the range rules (order, no future end, 3-14 days for CGM,
 * at most 90 days for the others) depend on the patient's time zone and "now", and are checked
 * by app/report/report-range.ts `checkReportRange` (which the builders call).
 */
const dateText = z
  .string({ required_error: "common.selectDate", invalid_type_error: "common.selectDate" })
  .trim()
  .min(1, "common.selectDate")
  .max(40, "common.invalidDate")
  .transform((value, ctx) => {
    const date = parseDate(value);
    if (date === null) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "common.invalidDate" });
      return z.NEVER;
    }
    return date;
  });

/** start and end, both required ('Please Select The Date'), YYYY/MM/DD or YYYY-MM-DD; output ISO dates. */
export const reportRangeSchema = z.object({ start: dateText, end: dateText });
export type ReportRange = z.output<typeof reportRangeSchema>;

const pid = idNumber("common.pid");

/** The body of `POST /api/patient-data/sugarDevicePdf` (and the other report calls): pid, start, end. */
export const reportApiSchema = reportRangeSchema.extend({ pid });

/** The CGM and AGP reports' default length, ending today in the patient's zone. */
export const CGM_DEFAULT_DAYS = 14;

/** The pump/BG report's default length, ending today in the patient's zone. */
export const PUMP_DEFAULT_DAYS = 15;

/** The statistics report's default length, ending today in the patient's zone. */
export const STATISTICS_DEFAULT_DAYS = 15;

/** The blood tests report's default length, ending today in the patient's zone. */
export const BLOOD_TESTS_DEFAULT_DAYS = 15;

/** What the report page's query asks for. */
export type ReportQuery =
  | { readonly kind: "default"; readonly print: boolean }
  | { readonly kind: "quick"; readonly days: number; readonly print: boolean }
  | {
      readonly kind: "range";
      readonly range: ReportRange;
      readonly typed: Typed;
      readonly print: boolean;
    }
  | {
      readonly kind: "problem";
      readonly message: string;
      readonly typed: Typed;
      readonly print: boolean;
    };

export type Typed = { readonly start: string; readonly end: string };

const text = (value: string | null) => (value ?? "").trim().slice(0, 40);

/**
 * Reads the report page's query: `start`, `end`, and `days` (a quick-range button: the last that
 * many days ending today, app/report/quick-ranges.ts; the typed dates are then ignored). No dates
 * at all is the default range; a missing date is 'Please Select The Date', except a missing end
 * with `missingEndDays` (the pump report), which makes the end the start + that many days.
 */
export function parseReportQuery(
  search: URLSearchParams,
  quickDays: readonly number[],
  options: { missingEndDays?: number } = {},
): ReportQuery {
  const print = search.get("print") === "1";
  const typed = { start: text(search.get("start")), end: text(search.get("end")) };
  const days = quickDaysOf(search.get(QUICK_RANGE_PARAM), quickDays);
  if (days !== null) return { kind: "quick", days, print };
  if (!search.has("start") && !search.has("end")) return { kind: "default", print };
  if (options.missingEndDays !== undefined && typed.start !== "" && typed.end === "") {
    // A start alone (the pump report): the end is the start + missingEndDays.
    const start = parseDate(typed.start);
    if (start === null) return { kind: "problem", message: "common.invalidDate", typed, print };
    const end = shiftDate(start, options.missingEndDays);
    return {
      kind: "range",
      range: { start, end },
      typed: { start: typed.start, end: end.replaceAll("-", "/") },
      print,
    };
  }
  const parsed = reportRangeSchema.safeParse(typed);
  if (!parsed.success)
    return {
      kind: "problem",
      message: parsed.error.issues[0]?.message ?? "common.selectDate",
      typed,
      print,
    };
  return { kind: "range", range: parsed.data, typed, print };
}
