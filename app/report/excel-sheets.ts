/**
 * The staff Excel export's workbook, cell by cell: which sheets it has, their columns, and the row
 * of each record. Pure; app/services/excel-export.server.ts reads the records and writes the rows
 * with exceljs.
 *
 * - A sheet per kind of record (CGM readings, blood glucose values, pump history records,
 *   carbohydrate entries, insulin doses), then a summary sheet, which the workbook opens on (one
 *   row per patient: who, the dates, how many records of each kind, and the statistics report's
 *   metrics of the period). A sheet holds
 *   at most {@link MAX_SHEET_ROWS} records (Excel's limit of 1,048,576 rows, the header being one);
 *   more continue on a sheet of the same name with a number: "CGM (2)".
 * - Times are the wall clock of the patient's time zone, as Excel date-times (Excel dates carry no
 *   zone), beside the zone's UTC offset at that instant ("+01:00"), which tells the two readings of
 *   a repeated autumn hour apart.
 * - Glucose is in the unit chosen for the export (mmol/L = mg/dL / 18, unrounded; the cell's
 *   number format shows 1 decimal for mmol/L and none for mg/dL); insulin in units, rates in U/h,
 *   carbohydrate in grams.
 * - Rows name the patient by the record id (pid); the summary sheet gives the name to each.
 */
import type { ExportRow } from "../csv/write";
import { toUnit, type GlucoseUnit } from "../domain/glucose-unit";
import { ZoneOffsets } from "../metrics/timezone";
import {
  alarmOf,
  carriesBasalRate,
  carriesBolusRate,
  CALCULATOR_CONFIRMED,
  CALCULATOR_SUGGESTED,
  CALCULATOR_UNIT_STEP,
  isBgRecord,
  isCalculatorRecord,
  isCarbRecord,
  RATE_STEP_UH,
} from "./pump-records";
import {
  STATISTIC_DEFINITIONS,
  statisticInUnit,
  type StatisticKey,
  type StatisticsReport,
  type StatisticUnitKind,
} from "./statistics-report";

/** The kinds of record, each with its own sheet, in the workbook's order. */
export const RECORD_SHEETS = ["cgm", "bg", "pump", "carbs", "insulin"] as const;
export type RecordSheet = (typeof RECORD_SHEETS)[number];

/** Records a sheet holds below its header row (Excel: 1,048,576 rows a sheet). */
export const MAX_SHEET_ROWS = 1_048_575;

/** How a column's numbers are shown. */
export type CellFormat =
  "dateTime" | "glucose" | "integer" | "decimal1" | "decimal2" | "decimal3" | "text";

/** A column: its header (a translation key of `excel`, or a text given as is) and its format. */
export interface ColumnSpec {
  readonly header: { readonly key: string; readonly values?: Record<string, string> } | string;
  readonly format: CellFormat;
  /** Width in characters. */
  readonly width: number;
}

/** A cell's value: a number, a text, an Excel date-time (a wall clock) or empty. */
export type CellValue = number | string | Date | null;

/** The Excel number format of a column format in a glucose unit. */
export function numberFormat(format: CellFormat, unit: GlucoseUnit): string | null {
  switch (format) {
    case "dateTime":
      return "yyyy-mm-dd hh:mm:ss";
    case "glucose":
      return unit === 1 ? "0" : "0.0";
    case "integer":
      return "0";
    case "decimal1":
      return "0.0";
    case "decimal2":
      return "0.00";
    case "decimal3":
      return "0.000";
    case "text":
      return null;
  }
}

const PATIENT = { header: { key: "columns.pid" }, format: "integer", width: 10 } as const;
const TIME = { header: { key: "columns.time" }, format: "dateTime", width: 20 } as const;
const OFFSET = { header: { key: "columns.offset" }, format: "text", width: 10 } as const;
const SERIAL = { header: { key: "columns.serial" }, format: "text", width: 14 } as const;
const glucoseColumn = (unitText: string): ColumnSpec => ({
  header: { key: "columns.glucose", values: { unit: unitText } },
  format: "glucose",
  width: 12,
});

/** The columns of a record sheet; `unitText` names the glucose unit ("mmol/L"). */
export function recordColumns(sheet: RecordSheet, unitText: string): ColumnSpec[] {
  switch (sheet) {
    case "cgm":
      return [PATIENT, TIME, OFFSET, glucoseColumn(unitText), SERIAL];
    case "bg":
      return [
        PATIENT,
        TIME,
        OFFSET,
        glucoseColumn(unitText),
        { header: { key: "columns.source" }, format: "text", width: 18 },
        SERIAL,
      ];
    case "pump":
      return [
        PATIENT,
        TIME,
        OFFSET,
        { header: { key: "columns.event" }, format: "text", width: 22 },
        { header: { key: "columns.basalRate" }, format: "decimal3", width: 12 },
        { header: { key: "columns.bolusRate" }, format: "decimal3", width: 12 },
        { header: { key: "columns.calculatorBolus" }, format: "decimal2", width: 14 },
        { header: { key: "columns.carbs" }, format: "decimal1", width: 10 },
        glucoseColumn(unitText),
        { header: { key: "columns.battery" }, format: "integer", width: 10 },
        { header: { key: "columns.reservoir" }, format: "integer", width: 10 },
        SERIAL,
        { header: { key: "columns.recordNumber" }, format: "integer", width: 10 },
        { header: { key: "columns.code" }, format: "text", width: 10 },
      ];
    case "carbs":
      return [
        PATIENT,
        TIME,
        OFFSET,
        { header: { key: "columns.carbs" }, format: "decimal1", width: 10 },
        SERIAL,
      ];
    case "insulin":
      return [
        PATIENT,
        TIME,
        OFFSET,
        { header: { key: "columns.insulin" }, format: "decimal2", width: 10 },
        { header: { key: "columns.insulinKind" }, format: "text", width: 14 },
        SERIAL,
      ];
  }
}

/**
 * The name of the `part`-th sheet of a kind (1, 2, ...): the kind's name, then "(2)", "(3)" for
 * the sheets its records continue on.
 */
export function sheetName(name: string, part: number): string {
  return part <= 1 ? name : `${name} (${part})`;
}

/** "+05:30", "-03:00", "+00:00": a UTC offset in ms as text. */
export function offsetText(offsetMs: number): string {
  const minutes = Math.round(Math.abs(offsetMs) / 60_000);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${offsetMs < 0 ? "-" : "+"}${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`;
}

/**
 * The wall clock of a patient's zone for the time cells: `zone` knows the zone's offsets over the
 * export's window. An Excel date-time has no zone, and exceljs writes a Date by its UTC fields, so
 * the cell's Date is the instant moved by the offset.
 */
export class PatientClock {
  private readonly texts = new Map<number, string>();
  constructor(private readonly zone: ZoneOffsets) {}

  static of(timeZone: string, start: number, end: number): PatientClock {
    return new PatientClock(new ZoneOffsets(timeZone, start, end));
  }

  /** The time cell and the offset cell of an instant. */
  cells(utc: number): [Date, string] {
    const offset = this.zone.offsetAt(utc);
    let text = this.texts.get(offset);
    if (text === undefined) {
      text = offsetText(offset);
      this.texts.set(offset, text);
    }
    return [new Date(utc + offset), text];
  }
}

/** What the translated texts of the rows are (the pump's events, the sources of blood values, insulin kinds). */
export interface RowTexts {
  /** A pump record's event: `rates`, `bg`, `carbs`, `calculator`, or an alarm kind (`alarm:occlusion`). */
  pumpEvent(event: string): string;
  /** The source of a blood value (meter, cgm_fingerprick, cgm_manual, pump, csv). */
  bgSource(source: string): string;
  /** rapid or long. */
  insulinKind(kind: string): string;
}

/** The event of a pump record, as {@link RowTexts.pumpEvent} names it. */
export function pumpEventOf(record: {
  eventPort: number;
  eventType: number;
  eventUrgency: number;
}): string {
  if (isBgRecord(record)) return "bg";
  if (isCarbRecord(record)) return "carbs";
  if (isCalculatorRecord(record)) return "calculator";
  const alarm = alarmOf(record);
  return alarm ? `alarm:${alarm.kind}` : "rates";
}

/**
 * A record's row on its kind's sheet (columns of {@link recordColumns}). A pump record fills only
 * the cells its event carries: rates in a rate-carrying record, the grams of a carbohydrate
 * record, the glucose of a BG record, the units of the bolus calculator's suggested and confirmed
 * boluses.
 */
export function recordRow(
  pid: number,
  row: ExportRow,
  clock: PatientClock,
  unit: GlucoseUnit,
  texts: RowTexts,
): CellValue[] {
  const [time, offset] = clock.cells(row.utc);
  switch (row.kind) {
    case "cgm":
      return [pid, time, offset, toUnit(row.mgdl, unit), row.deviceSerial];
    case "bg":
      return [
        pid,
        time,
        offset,
        toUnit(row.mgdl, unit),
        row.source === null ? null : texts.bgSource(row.source),
        row.deviceSerial,
      ];
    case "carbs":
      return [pid, time, offset, row.grams, row.deviceSerial];
    case "insulin":
      return [pid, time, offset, row.units, texts.insulinKind(row.insulin), row.deviceSerial];
    case "pump": {
      const r = row.record;
      const event = pumpEventOf(r);
      const calculatorBolus =
        r.eventPort === 0 &&
        (r.eventType === CALCULATOR_SUGGESTED || r.eventType === CALCULATOR_CONFIRMED);
      return [
        pid,
        time,
        offset,
        texts.pumpEvent(event),
        carriesBasalRate(r) ? r.basalRateRaw * RATE_STEP_UH : null,
        carriesBolusRate(r) ? r.bolusRateRaw * RATE_STEP_UH : null,
        calculatorBolus ? r.bolusRateRaw * CALCULATOR_UNIT_STEP : null,
        event === "carbs" ? r.bolusRateRaw : null,
        event === "bg" ? toUnit(r.basalRateRaw, unit) : null,
        r.battery,
        r.reservoir,
        row.deviceSerial,
        r.recordId,
        `${r.eventPort}/${r.eventType}/${r.eventUrgency}`,
      ];
    }
  }
}

/** The summary sheet's metrics: every row of the statistics report, in its order. */
export const SUMMARY_METRICS: readonly { key: StatisticKey; unitKind: StatisticUnitKind }[] =
  STATISTIC_DEFINITIONS.map((d) => ({ key: d.key, unitKind: d.unitKind }));

function metricFormat(kind: StatisticUnitKind): CellFormat {
  return kind === "unitless" ? "decimal2" : kind === "percent" ? "decimal1" : "glucose";
}

/**
 * The summary sheet's columns: the patient, the dates, the counts of each kind of record, the
 * source of the metrics, then one column per metric (`metricHeader` gives its header with its
 * unit in the export's unit).
 */
export function summaryColumns(
  metricHeader: (key: StatisticKey, unitKind: StatisticUnitKind) => string,
): ColumnSpec[] {
  return [
    PATIENT,
    { header: { key: "columns.patient" }, format: "text", width: 24 },
    { header: { key: "columns.timeZone" }, format: "text", width: 18 },
    { header: { key: "columns.from" }, format: "text", width: 12 },
    { header: { key: "columns.to" }, format: "text", width: 12 },
    ...RECORD_SHEETS.map((sheet): ColumnSpec => ({
      header: { key: `counts.${sheet}` },
      format: "integer",
      width: 12,
    })),
    { header: { key: "columns.metricsSource" }, format: "text", width: 14 },
    { header: { key: "columns.readings" }, format: "integer", width: 10 },
    ...SUMMARY_METRICS.map((m): ColumnSpec => ({
      header: metricHeader(m.key, m.unitKind),
      format: metricFormat(m.unitKind),
      width: 12,
    })),
  ];
}

/** One patient's summary: who, the dates, the counts, and the statistics report of the period (null without readings). */
export interface PatientSummary {
  readonly pid: number;
  readonly name: string;
  readonly timeZone: string;
  readonly from: string;
  readonly to: string;
  readonly counts: Readonly<Record<RecordSheet, number>>;
  /** Which readings the metrics come from: CGM readings when the period has any, else blood values. */
  readonly source: "cgm" | "meter" | null;
  readonly report: StatisticsReport | null;
}

/** A patient's row on the summary sheet (columns of {@link summaryColumns}); `sourceText` names the metrics' source. */
export function summaryRow(
  summary: PatientSummary,
  unit: GlucoseUnit,
  sourceText: (source: "cgm" | "meter" | null) => string,
): CellValue[] {
  const byKey = new Map(summary.report?.rows.map((r) => [r.key, r]) ?? []);
  return [
    summary.pid,
    summary.name,
    summary.timeZone,
    summary.from,
    summary.to,
    ...RECORD_SHEETS.map((sheet) => summary.counts[sheet]),
    sourceText(summary.source),
    summary.report?.current.readings ?? 0,
    ...SUMMARY_METRICS.map((m) => {
      const row = byKey.get(m.key);
      return row ? statisticInUnit(row.value, m.unitKind, unit) : null;
    }),
  ];
}
