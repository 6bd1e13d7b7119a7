import { z } from "zod";
import { parseDate } from "~/report/day";
import { QUICK_DAYS } from "~/report/quick-ranges";
import { blankToUndefined, flagNumber, idNumber, INT4_MAX } from "./fields";
import { reportRangeSchema } from "./report";

/**
 * The staff Excel export's input, shared by its page (`/excel/export`, a GET form), its file route
 * and the `/api/patient-data/preExport` and `exportReport` calls: which patients (`pids`, a list
 * of record ids, or `all`: every patient who shares with the caller), which local days (`start`
 * and `end`, or `days`: a quick range of the last N days ending today in each patient's zone) and
 * the glucose unit (`unit` 0 mmol/L, 1 mg/dL; absent: the caller's setting). Messages are keys of
 * the `excel` namespace (or name theirs).
 *
 * The range rules (order, no future end, at most 90 days) depend on each patient's zone and are
 * checked patient by patient (app/report/report-range.ts).
 */

/** The most patients one export names; more are exported with `all`. */
export const MAX_EXPORT_PATIENTS = 200;

const PID_LIST = /^\s*\d{1,10}(\s*,\s*\d{1,10})*\s*$/;

/** "12,15, 20" (a form's repeated `pids` fields joined with commas) as distinct ids, in order. */
const pidList = z
  .string({ invalid_type_error: "errors.pids" })
  .max(12 * MAX_EXPORT_PATIENTS, "errors.tooManyPatients")
  .regex(PID_LIST, "errors.pids")
  .transform((text, ctx) => {
    const ids = [...new Set(text.split(",").map((part) => Number(part.trim())))];
    if (ids.some((id) => id < 1 || id > INT4_MAX)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "errors.pids" });
      return z.NEVER;
    }
    if (ids.length > MAX_EXPORT_PATIENTS) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "errors.tooManyPatients" });
      return z.NEVER;
    }
    return ids;
  });

const yes = z
  .enum(["1", "true", "on", "0", "false"], { errorMap: () => ({ message: "errors.all" }) })
  .transform((v) => v === "1" || v === "true" || v === "on");

const dateText = z.preprocess(
  blankToUndefined,
  z.string({ invalid_type_error: "reports:common.invalidDate" }).max(40).optional(),
);

const exportInput = z.object({
  pids: z.preprocess(blankToUndefined, pidList.optional()),
  all: z.preprocess(blankToUndefined, yes.optional()),
  start: dateText,
  end: dateText,
  days: z.preprocess(
    blankToUndefined,
    z
      .string({ invalid_type_error: "errors.days" })
      .refine(
        (v) => (QUICK_DAYS.excelExport as readonly number[]).includes(Number(v)),
        "errors.days",
      )
      .transform(Number)
      .optional(),
  ),
  unit: flagNumber("errors.unit"),
});

export type ExportSelection = { readonly all: true } | { readonly pids: readonly number[] };
export type ExportDates =
  | { readonly kind: "quick"; readonly days: number }
  | { readonly kind: "dates"; readonly start: string; readonly end: string };

export interface ExportAsk {
  readonly selection: ExportSelection;
  readonly dates: ExportDates;
  readonly unit: 0 | 1 | undefined;
}

/**
 * The export's query: patients (`all` wins over a list), then the dates (a quick range wins over
 * typed dates, which are both required: 'Please Select The Date'), then the unit.
 */
export const exportAskSchema = exportInput.transform((input, ctx): ExportAsk => {
  let selection: ExportSelection;
  if (input.all === true) selection = { all: true };
  else if (input.pids && input.pids.length > 0) selection = { pids: input.pids };
  else {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "errors.noPatients", path: ["pids"] });
    return z.NEVER;
  }
  let dates: ExportDates;
  if (input.days !== undefined) dates = { kind: "quick", days: input.days };
  else {
    const range = reportRangeSchema.safeParse({ start: input.start, end: input.end });
    if (!range.success) {
      const message = range.error.issues[0]?.message ?? "common.selectDate";
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `reports:${message}`, path: ["start"] });
      return z.NEVER;
    }
    dates = { kind: "dates", ...range.data };
  }
  return { selection, dates, unit: input.unit as 0 | 1 | undefined };
});

/** The export's query from an address: `pids` may repeat (a form's checkboxes) or list ids with commas. */
export function exportAskOf(search: URLSearchParams) {
  const fields: Record<string, string> = Object.fromEntries(search);
  const pids = search.getAll("pids");
  if (pids.length > 1) fields.pids = pids.join(",");
  return exportAskSchema.safeParse(fields);
}

/** `GET /api/patient-data/getLatestDateFromReportAndAidex?pid=N`. */
export const latestDateSchema = z.object({ pid: idNumber("common.pid") });

/** `POST /api/patient-data/listExistInDateFromReport` (pid, start, end). */
export const daysWithDataSchema = reportRangeSchema.extend({ pid: idNumber("common.pid") });

/** A date typed on the export page, for showing it again in the form (an unreadable one as typed). */
export function typedDate(value: string | null): string {
  const text = (value ?? "").trim().slice(0, 40);
  return parseDate(text) ?? text;
}
