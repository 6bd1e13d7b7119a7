import type { TFunction } from "i18next";
import type { GlucoseUnit } from "~/domain/glucose-unit";
import { viewerById, type Viewer } from "~/models/access.server";
import {
  recordCounts,
  sharingPatients,
  visiblePatientsAmong,
  type ExportPatient,
  type RecordCounts,
} from "~/models/export-data.server";
import { exportRecordPages, type Span } from "~/models/patient-data.server";
import type { Reading } from "~/metrics/types";
import { rangeWindow, type IsoDate } from "~/report/day";
import {
  MAX_SHEET_ROWS,
  numberFormat,
  PatientClock,
  RECORD_SHEETS,
  recordColumns,
  recordRow,
  sheetName,
  summaryColumns,
  summaryRow,
  type ColumnSpec,
  type PatientSummary,
  type RecordSheet,
  type RowTexts,
} from "~/report/excel-sheets";
import { quickRange } from "~/report/quick-ranges";
import { rangeProblemKey } from "~/report/report-kinds";
import { checkDateRange, RANGE_RULES } from "~/report/report-range";
import { buildStatisticsReport } from "~/report/statistics-report";
import { unitCode } from "~/report/units";
import { exportAskOf, type ExportAsk } from "~/schemas/excel-export";
import { glucoseUnitOf } from "~/models/setting.server";
import { getFixedT } from "~/utils/i18n.server";
import { apiFail, apiInvalid, apiOk, API_CODES, requireApiUserId } from "./api.server";
import { getLocale } from "./locale.server";
import { errorForLog, logger } from "~/utils/logger.server";
import { displayName } from "~/utils/names";
import { XlsxStream, type XlsxColumn } from "~/utils/xlsx-stream.server";
import { readPatient, type ReadChannel } from "./patient-read.server";

/**
 * The staff Excel export: one workbook of several patients' records over a range of local days
 * (each patient's days in the patient's own zone), a sheet per kind of record and a summary sheet
 * with the statistics report's metrics of each patient (app/report/excel-sheets.ts). For admins
 * and editors, of the patients they may read (the access rule of app/models/access.server.ts:
 * their own record and the records shared with them); every patient exported is one read in the
 * patient's access log. The workbook is streamed as it is made, a page of records at a time.
 */

/** The ranges an export may cover: at most 90 days, both ends counted, no future end. */
export const EXPORT_RANGE_RULE = RANGE_RULES.long;

/** Staff: the roles that may export (admin, editor). */
export function isStaff(viewer: Pick<Viewer, "role">): boolean {
  return viewer.role === "admin" || viewer.role === "editor";
}

/** A patient in an export, with the local days asked for and their instants. */
export interface PlannedPatient {
  readonly patient: ExportPatient;
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly window: Span;
}

export interface ExportPlan {
  readonly unit: GlucoseUnit;
  readonly now: number;
  readonly patients: readonly PlannedPatient[];
}

export type PlanAnswer =
  | { readonly ok: true; readonly plan: ExportPlan }
  /** Not admin or editor. */
  | { readonly ok: false; readonly refused: "notStaff" }
  /** A patient named who the caller may not read (or who does not exist). */
  | { readonly ok: false; readonly refused: "notVisible" }
  /** `all`, and nobody shares with the caller. */
  | { readonly ok: false; readonly refused: "noPatients" }
  /** The dates do not fit the rule in some patient's zone: the message key. */
  | { readonly ok: false; readonly refused: "range"; readonly msgKey: string };

/**
 * Checks an export before anything is read or logged: the caller is staff, may read every
 * patient named (else the whole export is refused, whichever patient it is), and the dates fit
 * the rule in each patient's zone. `unitSetting`: the caller's unit when the ask names none.
 */
export async function planExport(
  viewer: Viewer,
  ask: ExportAsk,
  unitSetting: GlucoseUnit,
  now: number = Date.now(),
): Promise<PlanAnswer> {
  if (!isStaff(viewer)) return { ok: false, refused: "notStaff" };
  let patients: ExportPatient[];
  if ("all" in ask.selection) {
    patients = await sharingPatients(viewer);
    if (patients.length === 0) return { ok: false, refused: "noPatients" };
  } else {
    patients = await visiblePatientsAmong(viewer, ask.selection.pids);
    if (patients.length !== ask.selection.pids.length) return { ok: false, refused: "notVisible" };
  }
  const planned: PlannedPatient[] = [];
  for (const patient of patients) {
    const dates =
      ask.dates.kind === "quick"
        ? quickRange(ask.dates.days, patient.timeZone, now)
        : { start: ask.dates.start, end: ask.dates.end };
    const checked = checkDateRange(dates.start, dates.end, EXPORT_RANGE_RULE, {
      timeZone: patient.timeZone,
      now,
    });
    if (!checked.ok)
      return {
        ok: false,
        refused: "range",
        msgKey: rangeProblemKey(checked.invalid.problem, EXPORT_RANGE_RULE),
      };
    const window = rangeWindow(checked.from, checked.to, patient.timeZone);
    planned.push({
      patient,
      from: checked.from,
      to: checked.to,
      window: { start: window.start, end: window.end },
    });
  }
  return { ok: true, plan: { unit: ask.unit ?? unitSetting, now, patients: planned } };
}

/**
 * Writes one access-log row per patient of the plan (through the access gateway, which checks
 * again that the caller may read each); false when one is refused meanwhile (a share withdrawn),
 * and the export must not go on.
 */
async function logReads(
  viewer: Viewer,
  plan: ExportPlan,
  purpose: "excelExport" | "exportPreview",
  channel: ReadChannel,
): Promise<boolean> {
  for (const { patient, from, to } of plan.patients) {
    const read = await readPatient({
      viewer,
      pid: patient.pid,
      purpose,
      channel,
      range: { rule: EXPORT_RANGE_RULE, dates: { start: from, end: to } },
      now: plan.now,
    });
    if (!read.ok) return false;
  }
  return true;
}

/** What an export would hold, patient by patient: the answer of `preExport`. */
export interface ExportPreview {
  readonly unit: GlucoseUnit;
  readonly patients: readonly {
    readonly pid: number;
    readonly name: string;
    readonly timeZone: string;
    readonly start: IsoDate;
    readonly end: IsoDate;
    readonly counts: RecordCounts;
  }[];
  readonly totals: RecordCounts;
}

/** The counts of each kind of record the export of a plan would write (each patient's read logged). */
export async function previewExport(
  viewer: Viewer,
  plan: ExportPlan,
  channel: ReadChannel,
): Promise<ExportPreview | null> {
  if (!(await logReads(viewer, plan, "exportPreview", channel))) return null;
  const patients = [];
  const totals = { cgm: 0, bg: 0, pump: 0, carbs: 0, insulin: 0 };
  for (const { patient, from, to, window } of plan.patients) {
    const counts = await recordCounts(viewer, patient.pid, window);
    for (const sheet of RECORD_SHEETS) totals[sheet] += counts[sheet];
    patients.push({
      pid: patient.pid,
      name: displayName(patient),
      timeZone: patient.timeZone,
      start: from,
      end: to,
      counts,
    });
  }
  return { unit: plan.unit, patients, totals };
}

/** The file name of an export: its dates when every patient has the same, else the day it was made. */
export function exportFileName(plan: ExportPlan): string {
  const first = plan.patients[0]!;
  const same = plan.patients.every((p) => p.from === first.from && p.to === first.to);
  return same
    ? `diacare-export-${first.from}-${first.to}.xlsx`
    : `diacare-export-${new Date(plan.now).toISOString().slice(0, 10)}.xlsx`;
}

/** The texts of the workbook in the caller's language (namespace `excel`, and the report's metric names). */
function workbookTexts(t: TFunction, unit: GlucoseUnit) {
  const unitText = unitCode(unit);
  const header = (spec: ColumnSpec) =>
    typeof spec.header === "string" ? spec.header : t(spec.header.key, spec.header.values ?? {});
  const columns = (specs: readonly ColumnSpec[]): XlsxColumn[] =>
    specs.map((spec) => ({
      header: header(spec),
      width: spec.width,
      numFmt: numberFormat(spec.format, unit),
    }));
  const rowTexts: RowTexts = {
    pumpEvent: (event) =>
      event.startsWith("alarm:")
        ? t(`views:daily.alarms.${event.slice("alarm:".length)}`)
        : t(`pumpEvents.${event}`),
    bgSource: (source) => t(`views:bg.sources.${source}`),
    insulinKind: (kind) => t(`insulinKinds.${kind}`),
  };
  const metricHeader = (key: string, unitKind: string) => {
    const name = t(`reports:statistics.metrics.${key}.name`);
    const unitName = t(`reports:statistics.units.${unitKind}`, { unit: unitText });
    return unitName ? `${name} (${unitName})` : name;
  };
  return {
    rowTexts,
    sheetNames: Object.fromEntries(
      [...RECORD_SHEETS, "summary"].map((s) => [s, t(`sheets.${s}`)]),
    ) as Record<RecordSheet | "summary", string>,
    recordColumns: Object.fromEntries(
      RECORD_SHEETS.map((s) => [s, columns(recordColumns(s, unitText))]),
    ) as Record<RecordSheet, XlsxColumn[]>,
    summaryColumns: columns(summaryColumns(metricHeader)),
    source: (source: "cgm" | "meter" | null) => t(`sources.${source ?? "none"}`),
  };
}

/** Rows written between two checks that the reader keeps up (and has not gone). */
const ROWS_PER_BATCH = 2000;

export type WorkbookAnswer =
  | { readonly ok: true; readonly fileName: string; readonly body: ReadableStream<Uint8Array> }
  | { readonly ok: false };

/**
 * The workbook of a plan, streamed: every patient's read is logged first (false when one is
 * refused meanwhile), then the sheets are written one after the other, a page of records at a
 * time, while the reader takes them. The summary sheet comes last, and the workbook opens on it:
 * its metrics come from the readings met on the way (CGM readings when the patient's period has
 * any, else the blood values), so nothing is read twice and each patient's readings are kept only
 * until their metrics are computed.
 */
export async function exportWorkbook(
  viewer: Viewer,
  plan: ExportPlan,
  channel: ReadChannel,
  t: TFunction,
  /** Records a sheet holds (Excel's limit; a test makes it small to see a kind continue). */
  maxSheetRows: number = MAX_SHEET_ROWS,
): Promise<WorkbookAnswer> {
  if (!(await logReads(viewer, plan, "excelExport", channel))) return { ok: false };
  const texts = workbookTexts(t, plan.unit);
  const xlsx = new XlsxStream();
  const summaries = new Map<number, PatientSummary>(
    plan.patients.map(({ patient, from, to }) => [
      patient.pid,
      {
        pid: patient.pid,
        name: displayName(patient),
        timeZone: patient.timeZone,
        from,
        to,
        counts: { cgm: 0, bg: 0, pump: 0, carbs: 0, insulin: 0 },
        source: null,
        report: null,
      },
    ]),
  );
  const counts = (pid: number) => summaries.get(pid)!.counts as Record<RecordSheet, number>;

  const metrics = (planned: PlannedPatient, readings: Reading[], source: "cgm" | "meter") => {
    const { patient, from, to } = planned;
    const built = buildStatisticsReport({
      from,
      to,
      timeZone: patient.timeZone,
      now: plan.now,
      readings,
      previousReadings: [],
      limits: { low: patient.lowLimit, high: patient.highLimit },
      kind: source,
    });
    if (built.status !== "ok") return;
    const summary = summaries.get(patient.pid)!;
    summaries.set(patient.pid, { ...summary, source, report: built.report });
  };

  const produce = async () => {
    for (const kind of RECORD_SHEETS) {
      let part = 1;
      let sheet = xlsx.addSheet(sheetName(texts.sheetNames[kind], part), texts.recordColumns[kind]);
      for (const planned of plan.patients) {
        const { patient, window } = planned;
        const pid = patient.pid;
        const clock = PatientClock.of(patient.timeZone, window.start, window.end);
        const collect = kind === "cgm" || (kind === "bg" && summaries.get(pid)!.source === null);
        const readings: Reading[] = [];
        let batch = 0;
        for await (const page of exportRecordPages(viewer, pid, window, [kind])) {
          for (const row of page) {
            if (sheet.rows >= maxSheetRows) {
              sheet.commit();
              part += 1;
              sheet = xlsx.addSheet(
                sheetName(texts.sheetNames[kind], part),
                texts.recordColumns[kind],
              );
            }
            sheet.write(recordRow(pid, row, clock, plan.unit, texts.rowTexts));
            if (collect && (row.kind === "cgm" || row.kind === "bg"))
              readings.push({ time: row.utc, mgdl: row.mgdl });
            if (++batch === ROWS_PER_BATCH) {
              batch = 0;
              if (!(await xlsx.ready())) return;
            }
          }
          counts(pid)[kind] += page.length;
        }
        if (collect && readings.length > 0)
          metrics(planned, readings, kind === "cgm" ? "cgm" : "meter");
      }
      sheet.commit();
      if (!(await xlsx.ready())) return;
    }
    const summarySheet = xlsx.addSheet(texts.sheetNames.summary, texts.summaryColumns);
    for (const { patient } of plan.patients)
      summarySheet.write(summaryRow(summaries.get(patient.pid)!, plan.unit, texts.source));
    summarySheet.commit();
    xlsx.openOnLastSheet();
    await xlsx.finish();
  };
  produce().catch((error: unknown) => {
    logger().error({ err: errorForLog(error) }, "the Excel export failed while streaming");
    xlsx.fail(error);
  });
  return { ok: true, fileName: exportFileName(plan), body: xlsx.body() };
}

/** The answer that carries a workbook: an .xlsx attachment nobody may cache. */
export function xlsxAttachment(file: {
  fileName: string;
  body: ReadableStream<Uint8Array>;
}): Response {
  return new Response(file.body, {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}

/**
 * `GET /api/patient-data/preExport` (`mode` "preview": the counts, JSON) and `exportReport`
 * ("file": the workbook): the caller from the token, 403 unless staff, the ask checked (400 with
 * the translated message), then the plan (404 for a patient the caller may not read, 400 for
 * dates outside the rule or `all` with nobody sharing) and the answer.
 */
export async function exportApiAnswer(request: Request, mode: "preview" | "file") {
  const viewer = await viewerById(await requireApiUserId(request));
  if (!isStaff(viewer)) return apiFail(request, API_CODES.forbidden, "forbidden");
  const parsed = exportAskOf(new URL(request.url).searchParams);
  if (!parsed.success) return apiInvalid(request, parsed.error, "excel");
  const planned = await planExport(viewer, parsed.data, await glucoseUnitOf(viewer.id));
  if (!planned.ok) return refusalAnswer(request, planned);
  if (mode === "preview") {
    const preview = await previewExport(viewer, planned.plan, "api");
    return preview ? apiOk(request, preview) : apiFail(request, API_CODES.notFound, "notFound");
  }
  const t = await getFixedT(await getLocale(request), "excel");
  const file = await exportWorkbook(viewer, planned.plan, "api", t);
  return file.ok ? xlsxAttachment(file) : apiFail(request, API_CODES.notFound, "notFound");
}

function refusalAnswer(request: Request, refused: Exclude<PlanAnswer, { ok: true }>) {
  switch (refused.refused) {
    case "notStaff":
      return apiFail(request, API_CODES.forbidden, "forbidden");
    case "notVisible":
      return apiFail(request, API_CODES.notFound, "notFound");
    case "noPatients":
      return apiFail(request, API_CODES.invalid, "excel:errors.noneShared");
    case "range":
      return apiFail(request, API_CODES.invalid, refused.msgKey);
  }
}
