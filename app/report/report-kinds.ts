/**
 * The print reports, one entry each: the page route, its PDF route and file name, the range rule
 * and its refusal messages, the quick ranges and the support anchor. The report pages, their PDF
 * routes and the `/api/` report calls all read this table (docs/decisions/009-report-pages.md).
 */
import { PUMP_MISSING_END_DAYS } from "./report-range";
import { QUICK_DAYS } from "./quick-ranges";
import {
  CGM_REPORT_MAX_DAYS,
  EXPORT_MAX_DAYS,
  type DateRangeRule,
  type RangeKind,
  type ReportRangeProblem,
} from "./report-range";

export type ReportKind = "pump" | "cgm" | "agp" | "statistics" | "bloodTests";

type Range = { readonly start: string; readonly end: string };

export interface ReportKindSpec {
  /** The page is `/{pid}/<page>`, its PDF `/{pid}/<page>.pdf`. */
  readonly page: string;
  /** The PDF's download name: `<filePrefix>-<pid>-<start>-<end>.pdf`. */
  readonly filePrefix: string;
  /** The translation key of the report's name (its heading, and in the document title). */
  readonly titleKey: string;
  readonly rangeKind: RangeKind;
  /** Quick ranges offered (the last N days ending today, app/report/quick-ranges.ts). */
  readonly quickDays: readonly number[];
  /** A start alone means start + this many days (the pump report); unset: the end is required. */
  readonly missingEndDays?: number;
  /** The tips popover's link: /supports#printsettings (pump) or #cgmsprintsettings (CGM data). */
  readonly supportHref: string;
}

/** The translation key (any namespace) of a refused range's message under its rule. */
export function rangeProblemKey(problem: ReportRangeProblem, rule: DateRangeRule): string {
  if (problem === "invalidDate") return "reports:common.invalidDate";
  if (problem === "tooLong")
    return rule.maxDays === CGM_REPORT_MAX_DAYS
      ? "views:problems.tooLong14"
      : rule.maxDays === EXPORT_MAX_DAYS
        ? "views:problems.tooLongYear"
        : "views:problems.tooLong";
  return `views:problems.${problem}`;
}

export const REPORT_KINDS: Readonly<Record<ReportKind, ReportKindSpec>> = {
  pump: {
    page: "print",
    filePrefix: "pump-report",
    titleKey: "reports:pump.title",
    rangeKind: "long",
    quickDays: QUICK_DAYS.pumpReport,
    missingEndDays: PUMP_MISSING_END_DAYS,
    supportHref: "/supports#printsettings",
  },
  cgm: {
    page: "cgmsprint",
    filePrefix: "cgm-report",
    titleKey: "reports:cgm.title",
    rangeKind: "cgm",
    quickDays: QUICK_DAYS.cgmReport,
    supportHref: "/supports#cgmsprintsettings",
  },
  agp: {
    page: "agpprint",
    filePrefix: "glucose-profile",
    titleKey: "reports:agp.title",
    rangeKind: "cgm",
    quickDays: QUICK_DAYS.cgmReport,
    supportHref: "/supports#cgmsprintsettings",
  },
  statistics: {
    page: "statisticsprint",
    filePrefix: "statistics-report",
    titleKey: "reports:statistics.title",
    rangeKind: "long",
    quickDays: QUICK_DAYS.statisticsReport,
    supportHref: "/supports#cgmsprintsettings",
  },
  bloodTests: {
    page: "bloodtestsprint",
    filePrefix: "blood-tests-report",
    titleKey: "reports:bloodTests.title",
    rangeKind: "long",
    quickDays: QUICK_DAYS.bloodTestsReport,
    supportHref: "/supports#printsettings",
  },
};

/** The access log's name of reading a report. */
export function reportPurpose<K extends ReportKind>(kind: K): `${K}Report` {
  return `${kind}Report`;
}

/** The report page of a patient, e.g. `/12/cgmsprint`. */
export function reportPageHref(kind: ReportKind, pid: number): string {
  return `/${pid}/${REPORT_KINDS[kind].page}`;
}

/** The report's PDF route for a range (ISO dates). */
export function reportPdfHref(kind: ReportKind, pid: number, range: Range): string {
  return `${reportPageHref(kind, pid)}.pdf?${new URLSearchParams({ start: range.start, end: range.end })}`;
}

/** The PDF's download name, e.g. cgm-report-12-2026-11-01-2026-11-14.pdf. */
export function reportPdfFileName(kind: ReportKind, pid: number, range: Range): string {
  return `${REPORT_KINDS[kind].filePrefix}-${pid}-${range.start}-${range.end}.pdf`;
}
