import type { LoaderFunctionArgs } from "@remix-run/node";
import { idParam } from "~/schemas/fields";
import type { VisiblePatient } from "~/models/access.server";
import type { DataKind } from "~/models/patient-data.server";
import { latestDataRange, reportContext } from "~/services/report.server";
import { daysBetween, displayDate, todayIn } from "~/report/day";
import { formatDate, formatDateTime } from "~/report/locale-format";
import {
  rangeProblemKey,
  REPORT_KINDS,
  reportPdfFileName,
  reportPageHref,
  reportPdfHref,
  reportPurpose,
  type ReportKind,
} from "~/report/report-kinds";
import { quickRange } from "~/report/quick-ranges";
import { RANGE_RULES, type ReportRangeProblem } from "~/report/report-range";
import { toGlucoseUnit, type GlucoseUnit } from "~/domain/glucose-unit";
import { parseReportQuery, type ReportRange } from "~/schemas/report";
import { getLocale } from "~/services/locale.server";
import { getFixedT } from "~/utils/i18n.server";
import { displayName } from "~/utils/names";
import { requireUser, type SessionUser } from "~/services/session.server";
import { readPatient } from "./patient-read.server";

export type ReportContext = Awaited<ReturnType<typeof reportContext>>;

/** What a report page's builder gets: who asks, for whom, which range, in which unit. */
export interface ReportBuildInput {
  readonly viewer: SessionUser;
  readonly patient: VisiblePatient;
  readonly range: ReportRange;
  readonly now: number;
  readonly unit: GlucoseUnit;
  readonly context: ReportContext;
}

/**
 * A builder's answer: its value, or the refused range's problem; `shown` is the range a PDF can be
 * made of; `empty` says that the range holds none of the report's data.
 */
export interface ReportBuilt<R> {
  readonly value: R | null;
  readonly problem: ReportRangeProblem | null;
  readonly shown: { readonly start: string; readonly end: string } | null;
  readonly empty: boolean;
}

export interface ReportPageDefinition<R> {
  /** The range shown when the query names none (it ends today). */
  defaultRange(patient: VisiblePatient, now: number): ReportRange;
  /** The data the report is made of, in the order an empty range looks for the latest day with data. */
  readonly dataKinds: readonly DataKind[];
  build(input: ReportBuildInput): Promise<ReportBuilt<R>>;
}

/** Everything around a report that every report page shows: header, range form, PDF link (serialisable). */
export interface ReportShell {
  readonly kind: ReportKind;
  readonly pid: number;
  readonly name: string;
  /** YYYY/MM/DD or null. */
  readonly birthDate: string | null;
  readonly timeZone: string;
  readonly generatedAt: string;
  readonly settings: {
    readonly nameStyle: ReportContext["nameStyle"];
    readonly paperSize: ReportContext["paperSize"];
    readonly orientation: ReportContext["orientation"];
    readonly splitLine: boolean;
    readonly logoSrc: string | null;
  };
  readonly unit: GlucoseUnit;
  /** The PDF renderer's request (`print=1`): no controls. */
  readonly print: boolean;
  /** The range fields: as typed when refused, else the range shown. */
  readonly form: { readonly start: string; readonly end: string };
  /** Today in the patient's zone (YYYY-MM-DD): the last day the range picker offers. */
  readonly today: string;
  /** A translation key (any namespace) of a refused range, or null. */
  readonly problem: string | null;
  /**
   * When the range shown holds no data: the last day with data and the range of the same length
   * ending on it (dates YYYY/MM/DD, and its page's address); null otherwise or without any data.
   */
  readonly latest: {
    readonly day: string;
    readonly start: string;
    readonly end: string;
    readonly href: string;
  } | null;
  readonly pdf: { readonly href: string; readonly fileName: string } | null;
  /**
   * The document's title, which the PDF renderer writes as the PDF's title: patient, report and
   * the range shown, in the reader's language (patient and report alone when no report is shown).
   */
  readonly documentTitle: string;
}

/**
 * The shared part of a report page's loader (docs/decisions/009-report-pages.md): the signed-in
 * viewer, the read through the access gateway (the patient, 404 when the viewer may not see them;
 * the range from the query or the report's default; the access log entry), the builder's answer
 * and the page's shell. A refused range shows its message with the header and no report.
 */
export async function loadReportPage<R>(
  { request, params }: LoaderFunctionArgs,
  kind: ReportKind,
  definition: ReportPageDefinition<R>,
) {
  const viewer = await requireUser(request);
  const pid = idParam.safeParse(params.id);
  if (!pid.success) throw new Response("Not Found", { status: 404 });
  const spec = REPORT_KINDS[kind];
  const search = new URL(request.url).searchParams;
  const query = parseReportQuery(
    search,
    spec.quickDays,
    spec.missingEndDays === undefined ? {} : { missingEndDays: spec.missingEndDays },
  );
  const ask = {
    viewer,
    pid: pid.data,
    purpose: reportPurpose(kind),
    channel: "page",
    detail: { print: query.print },
    renderToken: search.get("render"),
  } as const;
  const rule = RANGE_RULES[spec.rangeKind];
  const dates =
    query.kind === "range"
      ? query.range
      : query.kind === "quick"
        ? (patient: VisiblePatient, now: number) => quickRange(query.days, patient.timeZone, now)
        : query.kind === "default"
          ? (patient: VisiblePatient, now: number) => definition.defaultRange(patient, now)
          : null;
  let read = await readPatient(dates ? { ...ask, range: { rule, dates } } : ask);
  let refusedRange: ReportRangeProblem | null = null;
  if (!read.ok && read.refused === "range") {
    refusedRange = read.problem;
    read = await readPatient(ask);
  }
  if (!read.ok) throw new Response("Not Found", { status: 404 });
  const { patient, range, now } = read;
  const unit = toGlucoseUnit(viewer.setting?.unit);
  const [locale, context] = await Promise.all([
    getLocale(request),
    reportContext(viewer.id, patient),
  ]);
  const built = range
    ? await definition.build({ viewer, patient, range, now, unit, context })
    : null;
  const latest =
    built?.empty && range && !query.print
      ? await latestDataRange(
          viewer,
          patient,
          definition.dataKinds,
          daysBetween(range.start, range.end) + 1,
          now,
        )
      : null;
  const problem =
    query.kind === "problem"
      ? `reports:${query.message}`
      : refusedRange
        ? rangeProblemKey(refusedRange, rule)
        : built?.problem
          ? rangeProblemKey(built.problem, rule)
          : null;
  const typed = query.kind === "range" || query.kind === "problem" ? query.typed : null;
  const t = await getFixedT(locale, "reports");
  const name = displayName(patient.user);
  const reportName = t(spec.titleKey);
  const documentTitle = built?.shown
    ? t("reports:common.documentTitle", {
        patient: name,
        report: reportName,
        from: formatDate(built.shown.start, locale),
        to: formatDate(built.shown.end, locale),
      })
    : t("reports:common.documentTitleNoRange", { patient: name, report: reportName });
  const shell: ReportShell = {
    kind,
    pid: patient.id,
    name,
    birthDate: context.birthDate ? formatDate(context.birthDate, locale) : null,
    timeZone: patient.timeZone,
    generatedAt: formatDateTime(now, patient.timeZone, locale),
    settings: {
      nameStyle: context.nameStyle,
      paperSize: context.paperSize,
      orientation: context.orientation,
      splitLine: context.splitLine,
      logoSrc: context.logoSrc,
    },
    unit,
    print: query.print,
    form: {
      start:
        problem && typed ? typed.start : range ? displayDate(range.start) : (typed?.start ?? ""),
      end: problem && typed ? typed.end : range ? displayDate(range.end) : (typed?.end ?? ""),
    },
    today: todayIn(patient.timeZone, now),
    problem,
    latest: latest
      ? {
          day: formatDate(latest.last, locale),
          start: formatDate(latest.range.start, locale),
          end: formatDate(latest.range.end, locale),
          href: `${reportPageHref(kind, patient.id)}?${new URLSearchParams({ ...latest.range })}`,
        }
      : null,
    pdf: built?.shown
      ? {
          href: reportPdfHref(kind, patient.id, built.shown),
          fileName: reportPdfFileName(kind, patient.id, built.shown),
        }
      : null,
    documentTitle,
  };
  return { viewer, patient, now, unit, locale, value: built?.value ?? null, shell };
}
