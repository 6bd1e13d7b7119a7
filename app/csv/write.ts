import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { stringify as stringifySync } from "csv-stringify/sync";
import {
  DIACARE_COLUMNS,
  DIACARE_TEXT_COLUMNS,
  PUMP_COLUMNS,
  guardText,
  type DiacareColumn,
} from "./diacare-columns";
import type { GlucoseLimit, InsulinKind, OwnFields, PumpRecordFields } from "./types";

/**
 * Writer of our own CSV format (`diacare`; every column is described in docs/csv-format.md): one
 * header row naming the columns, then one row per record, in the order given. UTF-8 with a BOM (so
 * spreadsheet programs read it as UTF-8), CRLF line ends, fields quoted only when they must be.
 *
 * Numbers are written exactly, in JavaScript's shortest notation that reads back to the same number
 * (106.2 stays 106.2; no rounding). Text that a spreadsheet would run as a formula gets a leading
 * apostrophe (`guardText`), which the reader takes off. The reader (`createDiacareReader`) reads
 * back exactly what this writes, except that a line break inside a text reads back as LF.
 */

/** The parts every exported record has: what only our own format carries, and the device's wall clock ("YYYY-MM-DD HH:mm:ss"). */
export type ExportRowBase = OwnFields & { localTime: string };

export type ExportRow =
  | (ExportRowBase & { kind: "cgm"; mgdl: number; limit?: GlucoseLimit })
  | (ExportRowBase & { kind: "bg"; mgdl: number })
  | (ExportRowBase & { kind: "carbs"; grams: number })
  | (ExportRowBase & { kind: "insulin"; units: number; insulin: InsulinKind })
  | (ExportRowBase & { kind: "pump"; record: PumpRecordFields });

export interface DiacareWriteOptions {
  /** The field delimiter: comma by default; `;` for spreadsheets of decimal-comma locales. */
  delimiter?: "," | ";" | "\t";
}

const stringifyOptions = (options: DiacareWriteOptions) => ({
  bom: true,
  header: true,
  columns: [...DIACARE_COLUMNS],
  delimiter: options.delimiter ?? ",",
  record_delimiter: "windows" as const,
  // A line break of either kind inside a text must be quoted, whatever the record delimiter is.
  quoted_match: /[\r\n]/,
});

/** The cells of one record, keyed by column; columns of other kinds stay empty. */
export function exportCells(row: ExportRow): Record<DiacareColumn, string> {
  const cells = Object.fromEntries(DIACARE_COLUMNS.map((c) => [c, ""])) as Record<
    DiacareColumn,
    string
  >;
  cells.kind = row.kind;
  cells.utc = new Date(row.utc).toISOString();
  cells.local_time = row.localTime;
  cells.time_zone = row.timeZone;
  cells.device_kind = row.deviceKind ?? "";
  cells.device_serial = row.deviceSerial ?? "";
  cells.source = row.source ?? "";
  cells.record_key = row.recordKey ?? "";
  cells.firmware = row.firmware ?? "";
  for (const c of DIACARE_TEXT_COLUMNS) cells[c] = guardText(cells[c]);
  valueCells(row, cells);
  return cells;
}

function valueCells(row: ExportRow, cells: Record<DiacareColumn, string>): void {
  switch (row.kind) {
    case "cgm":
      cells.glucose_limit = row.limit ?? "";
      cells.glucose_mgdl = String(row.mgdl);
      return;
    case "bg":
      cells.glucose_mgdl = String(row.mgdl);
      return;
    case "carbs":
      cells.carbs_g = String(row.grams);
      return;
    case "insulin":
      cells.insulin_u = String(row.units);
      cells.insulin_type = row.insulin;
      return;
    case "pump":
      for (const { column, field } of PUMP_COLUMNS) cells[column] = String(row.record[field]);
  }
}

/** The whole file as one string. */
export function writeDiacareCsv(
  rows: Iterable<ExportRow>,
  options: DiacareWriteOptions = {},
): string {
  return stringifySync(Array.from(rows, exportCells), stringifyOptions(options));
}

/** The file as a stream of text, for exports too large to hold at once. */
export function diacareCsvStream(
  rows: Iterable<ExportRow> | AsyncIterable<ExportRow>,
  options: DiacareWriteOptions = {},
): Readable {
  async function* cells() {
    for await (const row of rows) yield exportCells(row);
  }
  return Readable.from(cells()).pipe(stringify(stringifyOptions(options)));
}
