/** Addresses, file names and message keys shared by the report pages, their PDF routes and the API. */
import type { ReportRangeProblem } from "./report-range";

type Range = { readonly start: string; readonly end: string };

/** The translation key (any namespace) of a refused report range. */
export const RANGE_PROBLEM_KEY: Record<ReportRangeProblem, string> = {
  invalidDate: "reports:common.invalidDate",
  order: "views:problems.order",
  future: "views:problems.future",
  tooLong: "views:problems.tooLong14",
  tooShort: "views:problems.tooShort",
};

/** The CGM report PDF route for a range (ISO dates). */
export function cgmPdfHref(pid: number, range: Range): string {
  return `/${pid}/cgmsprint.pdf?${new URLSearchParams({ start: range.start, end: range.end })}`;
}

/** The PDF's download name: cgm-report-<pid>-<start>-<end>.pdf. */
export function cgmPdfFileName(pid: number, range: Range): string {
  return `cgm-report-${pid}-${range.start}-${range.end}.pdf`;
}

/** The translation key of a refused pump/BG report range (at most 90 days, not 14). */
export const PUMP_RANGE_PROBLEM_KEY: Record<ReportRangeProblem, string> = { ...RANGE_PROBLEM_KEY, tooLong: "views:problems.tooLong" };

/** The pump/BG report PDF route for a range (ISO dates). */
export function pumpPdfHref(pid: number, range: Range): string {
  return `/${pid}/print.pdf?${new URLSearchParams({ start: range.start, end: range.end })}`;
}

/** The pump/BG PDF's download name: pump-report-<pid>-<start>-<end>.pdf. */
export function pumpPdfFileName(pid: number, range: Range): string {
  return `pump-report-${pid}-${range.start}-${range.end}.pdf`;
}

/** The AGP report PDF route for a range (ISO dates). */
export function agpPdfHref(pid: number, range: Range): string {
  return `/${pid}/agpprint.pdf?${new URLSearchParams({ start: range.start, end: range.end })}`;
}

/** The AGP PDF's download name: agp-report-<pid>-<start>-<end>.pdf. */
export function agpPdfFileName(pid: number, range: Range): string {
  return `agp-report-${pid}-${range.start}-${range.end}.pdf`;
}
