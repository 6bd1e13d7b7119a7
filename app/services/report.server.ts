import {
  cgmReportReadings,
  pumpSettingFor,
  readerPrintSettings,
} from "~/models/report-data.server";
import { toCgmGoalSet } from "~/domain/cgm-goal-set";
import type { DataKind as ReadingsKind } from "~/metrics/coverage";
import type { Reading } from "~/metrics/types";
import { buildAgpReport, type AgpReportResult } from "~/report/agp-report";
import { buildCgmReport, type CgmReportResult } from "~/report/cgm-report";
import { buildPumpReport } from "~/report/pump-report";
import type { NameStyle, PumpReportResult } from "~/report/pump-report-model";
import { dayWindow, shiftDate, todayIn, type IsoDate } from "~/report/day";
import type { InvalidRange } from "~/report/report-range";
import { CGM_REPORT_MAX_DAYS } from "~/report/report-range";
import { buildStatisticsReport, type StatisticsReport } from "~/report/statistics-report";
import { buildBloodTestsReport, type BloodTestsResult } from "~/report/blood-tests-report";
import { toGlucoseUnit, type GlucoseUnit } from "~/domain/glucose-unit";
import type { ReportRange } from "~/schemas/report";
import {
  BLOOD_TESTS_DEFAULT_DAYS,
  CGM_DEFAULT_DAYS,
  PUMP_DEFAULT_DAYS,
  STATISTICS_DEFAULT_DAYS,
} from "~/schemas/report";
import { NAME_STYLES } from "~/schemas/setting";
import { type VisiblePatient, type Viewer } from "~/models/access.server";
import { printSettingsOf } from "~/models/setting.server";
import { reportLogoSrc } from "~/utils/report-logo";
import {
  bgReadings,
  cgmReadings,
  lastDayWithData,
  pumpRangeRecords,
  pumpVersion,
  type DataKind,
} from "~/models/patient-data.server";

/**
 * The print reports' reads and models (docs/decisions/009-report-pages.md). Like
 * patient-data.server.ts, every read of patient data carries the access rule in its WHERE.
 */

/** Lead-in before the first day that the CGM day models use for the trend (20 min). */
const TREND_LEAD_MS = 20 * 60_000;

/** The CGM report of a range, in the reader's unit; a refused range is answered. */
export async function cgmReportFor(
  viewer: Viewer,
  patient: VisiblePatient,
  range: ReportRange,
  now: number,
  unit: GlucoseUnit = 0,
): Promise<CgmReportResult> {
  const input = {
    from: range.start,
    to: range.end,
    timeZone: patient.timeZone,
    now,
    limits: { low: patient.lowLimit, high: patient.highLimit },
    unit,
  };
  // Check the range before reading: a refused range costs no query.
  const refused = buildCgmReport({ ...input, readings: [] });
  if (refused.status !== "ok") return refused;
  const span = {
    start: dayWindow(range.start, patient.timeZone).start - TREND_LEAD_MS,
    end: dayWindow(range.end, patient.timeZone).end,
  };
  const readings = await cgmReportReadings(viewer, patient.id, span);
  return buildCgmReport({ ...input, readings });
}

/** `days` days ending today in the patient's zone. */
function daysEndingToday(patient: VisiblePatient, now: number, days: number): ReportRange {
  const end = todayIn(patient.timeZone, now);
  return { start: shiftDate(end, -(days - 1)), end };
}

/**
 * When a range holds no data: the last day with data of the first of `kinds` that has any (never
 * after today), and the range of the same length ending on it; null when the patient has none.
 */
export async function latestDataRange(
  viewer: Viewer,
  patient: VisiblePatient,
  kinds: readonly DataKind[],
  days: number,
  now: number,
): Promise<{ last: IsoDate; range: ReportRange } | null> {
  const today = todayIn(patient.timeZone, now);
  for (const kind of kinds) {
    const last = await lastDayWithData(viewer, patient.id, kind, patient.timeZone);
    if (last === null) continue;
    const end = last > today ? today : last;
    return { last: end, range: { start: shiftDate(end, -(days - 1)), end } };
  }
  return null;
}

/** The CGM and AGP reports' default: the 14 days ending today in the patient's zone. */
export function defaultCgmRange(patient: VisiblePatient, now: number): ReportRange {
  return daysEndingToday(patient, now, Math.min(CGM_DEFAULT_DAYS, CGM_REPORT_MAX_DAYS));
}

/**
 * The pump/BG report of a range: the range's pump records (with the rate-carrying record before and
 * the first after), the meter readings, the firmware and the newest pump settings; a refused range
 * is answered without reading.
 */
export async function pumpReportFor(
  viewer: Viewer,
  patient: VisiblePatient,
  range: ReportRange,
  now: number,
  setting: { unit: GlucoseUnit; nameStyle: NameStyle },
): Promise<PumpReportResult> {
  const input = {
    from: range.start,
    to: range.end,
    timeZone: patient.timeZone,
    now,
    limits: { low: patient.lowLimit, high: patient.highLimit },
    setting,
  };
  const refused = buildPumpReport({ ...input, records: [] });
  if (refused.status !== "ok") return refused;
  const span = { start: refused.report.start, end: refused.report.end };
  const [records, meterReadings, pdaVersion, pumpSettings] = await Promise.all([
    pumpRangeRecords(viewer, patient.id, span),
    bgReadings(viewer, patient.id, span),
    pumpVersion(viewer, patient.id),
    pumpSettingFor(viewer, patient.id),
  ]);
  return buildPumpReport({ ...input, records, meterReadings, pdaVersion, pumpSettings });
}

/** The pump report's default range: the 15 days ending today in the patient's zone. */
export function defaultPumpRange(patient: VisiblePatient, now: number): ReportRange {
  return daysEndingToday(patient, now, PUMP_DEFAULT_DAYS);
}

/** The reader's print settings and the patient's birth date, in one query. */
export async function reportContext(readerId: number, patient: VisiblePatient) {
  const row = await readerPrintSettings(readerId, patient.userId);
  const print = printSettingsOf(row);
  return {
    birthDate: row?.birthDate ? row.birthDate.toISOString().slice(0, 10) : null,
    unit: toGlucoseUnit(row?.unit),
    nameStyle: NAME_STYLES[print.nameStyle],
    paperSize: print.paperSize,
    orientation: print.orientation,
    splitLine: print.splitLine,
    /** The logo's address, versioned by the settings' last save so that a new logo is not hidden by the cached old one; null without a logo. */
    logoSrc: row?.hasLogo && row.updatedAt ? reportLogoSrc(row.updatedAt.getTime()) : null,
  };
}

/**
 * The glucose profile report (app/report/agp-report.ts) of a range (3-14 days): the range's CGM
 * readings with the patient's limits and CGM goal set; a refused range is answered without reading.
 */
export async function agpReportFor(
  viewer: Viewer,
  patient: VisiblePatient,
  range: ReportRange,
  now: number,
): Promise<AgpReportResult> {
  const input = {
    from: range.start,
    to: range.end,
    timeZone: patient.timeZone,
    now,
    limits: { low: patient.lowLimit, high: patient.highLimit },
    goalSet: toCgmGoalSet(patient.cgmGoalSet),
  };
  const refused = buildAgpReport({ ...input, readings: [] });
  if (refused.status === "invalidRange") return refused;
  const span = {
    start: dayWindow(range.start, patient.timeZone).start,
    end: dayWindow(range.end, patient.timeZone).end,
  };
  const readings = await cgmReportReadings(viewer, patient.id, span);
  return buildAgpReport({
    ...input,
    readings: readings.map((r) => ({ time: r.time, mgdl: r.mgdl })),
  });
}

/** Which readings a statistics report is computed from. */
export type StatisticsSource = ReadingsKind;

export type StatisticsReportAnswer =
  | { readonly status: "ok"; readonly report: StatisticsReport; readonly source: StatisticsSource }
  | InvalidRange;

/**
 * The statistics report (app/report/statistics-report.ts) of a range (at most 90 days) and of the
 * previous period of equal length, read in one span: the CGM readings when the range has any,
 * else the meter readings, the same source for both periods so that they compare; a refused range
 * is answered without reading.
 */
export async function statisticsReportFor(
  viewer: Viewer,
  patient: VisiblePatient,
  range: ReportRange,
  now: number,
): Promise<StatisticsReportAnswer> {
  const input = {
    from: range.start,
    to: range.end,
    timeZone: patient.timeZone,
    now,
    limits: { low: patient.lowLimit, high: patient.highLimit },
  };
  const refused = buildStatisticsReport({ ...input, readings: [], previousReadings: [] });
  if (refused.status !== "ok") return refused;
  const { current, previous } = refused.report;
  const span = { start: previous.start, end: current.end };
  const inRange = (r: Reading) => r.time >= current.start && r.time < current.end;
  const cgm = await cgmReadings(viewer, patient.id, span);
  const source: StatisticsSource = cgm.some(inRange) ? "cgm" : "meter";
  const readings =
    source === "cgm"
      ? cgm
      : (await bgReadings(viewer, patient.id, span)).map((r) => ({ time: r.time, mgdl: r.mgdl }));
  const built = buildStatisticsReport({
    ...input,
    readings,
    previousReadings: readings,
    kind: source,
  });
  return built.status === "ok" ? { ...built, source } : built;
}

/** The statistics report's default: the 15 days ending today in the patient's zone. */
export function defaultStatisticsRange(patient: VisiblePatient, now: number): ReportRange {
  return daysEndingToday(patient, now, STATISTICS_DEFAULT_DAYS);
}

/**
 * The blood tests report (app/report/blood-tests-report.ts, the meter logbook) of a range (at most
 * 90 days): the patient's stored blood values of the range (meter uploads, CGM finger-prick and
 * manual values, imported strip values), split by the patient's meal windows and classed against
 * the patient's target range; a refused range is answered without reading.
 */
export async function bloodTestsReportFor(
  viewer: Viewer,
  patient: VisiblePatient,
  range: ReportRange,
  now: number,
): Promise<BloodTestsResult> {
  const { breakfastStart, breakfastEnd, lunchStart, lunchEnd, supperStart, supperEnd } = patient;
  const input = {
    from: range.start,
    to: range.end,
    timeZone: patient.timeZone,
    now,
    limits: { low: patient.lowLimit, high: patient.highLimit },
    mealWindows: { breakfastStart, breakfastEnd, lunchStart, lunchEnd, supperStart, supperEnd },
  };
  const refused = buildBloodTestsReport({ ...input, readings: [] });
  if (refused.status !== "ok") return refused;
  const span = { start: refused.report.start, end: refused.report.end };
  const readings = await bgReadings(viewer, patient.id, span);
  return buildBloodTestsReport({ ...input, readings });
}

/** The blood tests report's default: the 15 days ending today in the patient's zone. */
export function defaultBloodTestsRange(patient: VisiblePatient, now: number): ReportRange {
  return daysEndingToday(patient, now, BLOOD_TESTS_DEFAULT_DAYS);
}
