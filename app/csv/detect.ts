import { DIACARE_REQUIRED_COLUMNS } from "./diacare-columns";
import { parseDecimal } from "./values";
import { parseIsoWall } from "./wall-clock";
import type { CsvFileError, CsvFormat, GenericColumns } from "./types";

/**
 * Which format a file is, from its first records (fields already split, blank lines left out).
 *
 * - `diacare` (our own export): a header among the first 3 records holding every column of the
 *   own format (docs/csv-format.md).
 * - `clarity` (Dexcom Clarity export): a header among the first 3 records with `Event Type`, a
 *   `Timestamp (…)` column and a `Glucose Value (…)` column.
 * - `libreview` (Abbott LibreView export): a header among the first 5 records (after the title line)
 *   with `Device Timestamp` and `Record Type`.
 * - `generic`: records of two or three fields, one an ISO 8601 local time and another a number,
 *   either from the first record (no header) or from the second (the first is a header such as
 *   `time,glucose`). With `columns` given, those columns are looked at, in records of any width.
 * Anything else is `errors.format`. A format chosen by the user (`forced`) is not detected, but its
 * header is still looked for: a vendor or own format without its header is `errors.header`.
 */

export type Detection = {
  format: CsvFormat;
  /** Index of the header among the records; null when the file has none. */
  headerIndex: number | null;
  /** Generic files: where the time, glucose and unit are. */
  columns?: GenericColumns;
};

/** How many records detection needs to see. */
export const DETECT_RECORDS = 6;

const clean = (cell: string) => cell.trim().replace(/^\uFEFF/, "");

function headerIndexOf(
  records: readonly string[][],
  within: number,
  test: (cells: string[]) => boolean,
): number | null {
  for (let i = 0; i < Math.min(within, records.length); i++)
    if (test(records[i]!.map(clean))) return i;
  return null;
}

const isDiacareHeader = (cells: string[]) =>
  DIACARE_REQUIRED_COLUMNS.every((c) => cells.includes(c));
const isClarityHeader = (cells: string[]) =>
  cells.includes("Event Type") &&
  cells.some((c) => c.startsWith("Timestamp (")) &&
  cells.some((c) => c.startsWith("Glucose Value ("));
const isLibreViewHeader = (cells: string[]) =>
  cells.includes("Device Timestamp") && cells.includes("Record Type");

const VENDOR_HEADERS: Record<
  Exclude<CsvFormat, "generic">,
  { within: number; test: (cells: string[]) => boolean }
> = {
  diacare: { within: 3, test: isDiacareHeader },
  clarity: { within: 3, test: isClarityHeader },
  libreview: { within: 5, test: isLibreViewHeader },
};

export function detectFormat(
  records: readonly string[][],
  forced?: CsvFormat,
  columns?: GenericColumns,
): Detection | CsvFileError {
  if (records.length === 0) return { ok: false, key: "errors.empty" };
  if (forced && forced !== "generic") {
    const { within, test } = VENDOR_HEADERS[forced];
    const headerIndex = headerIndexOf(records, within, test);
    return headerIndex === null
      ? { ok: false, key: "errors.header", values: { format: forced } }
      : { format: forced, headerIndex };
  }
  if (!forced) {
    for (const format of ["diacare", "clarity", "libreview"] as const) {
      const { within, test } = VENDOR_HEADERS[format];
      const headerIndex = headerIndexOf(records, within, test);
      if (headerIndex !== null) return { format, headerIndex };
    }
  }
  return detectGeneric(records, forced === "generic", columns);
}

function detectGeneric(
  records: readonly string[][],
  forced: boolean,
  chosen?: GenericColumns,
): Detection | CsvFileError {
  const first = genericDataColumns(records[0]!, chosen);
  if (first) return { format: "generic", headerIndex: null, columns: first };
  const second = records[1] ? genericDataColumns(records[1], chosen) : null;
  if (second) return { format: "generic", headerIndex: 0, columns: second };
  if (forced)
    return {
      format: "generic",
      headerIndex: 0,
      columns: chosen ?? { time: 0, glucose: 1, unit: 2 },
    };
  return { ok: false, key: "errors.format" };
}

/**
 * Where time, glucose and unit are in a data record of a generic file, or null when the record is
 * not one: with `chosen`, those columns must hold a time and a number; else the record has two or
 * three fields, the time is the first that reads as one, the glucose the first other that is a
 * number and the unit the remaining field.
 */
export function genericDataColumns(
  fields: readonly string[],
  chosen?: GenericColumns,
): GenericColumns | null {
  if (chosen) {
    const ok =
      parseIsoWall(fields[chosen.time] ?? "") !== null &&
      parseDecimal(fields[chosen.glucose] ?? "", true) !== null;
    return ok ? chosen : null;
  }
  if (fields.length < 2 || fields.length > 3) return null;
  const time = fields.findIndex((f) => parseIsoWall(f) !== null);
  const glucose = fields.findIndex((f, i) => i !== time && parseDecimal(f, true) !== null);
  if (time < 0 || glucose < 0) return null;
  const unit = fields.length === 3 ? 3 - time - glucose : undefined;
  return unit === undefined ? { time, glucose } : { time, glucose, unit };
}
