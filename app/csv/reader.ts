import { inCarbRange, inGlucoseRange, inInsulinRange, parseDecimal, toMgdl } from "./values";
import type { Clock, CsvDevice, CsvEntry, DateOrder, GlucoseUnit, MessageValues } from "./types";

/**
 * What every format reader shares: where entries and line errors go, and the value checks that
 * turn a bad cell into a line error (a bad line is reported and skipped; it never stops the file).
 */

export interface ReaderContext {
  /** Whether numbers may use a decimal comma (files not delimited by commas). */
  readonly decimalComma: boolean;
  readonly entries: CsvEntry[];
  lineError(line: number, key: string, values?: MessageValues): void;
}

/** What a reader tells about the whole file once every line is read. */
export interface ReaderSummary {
  unit: GlucoseUnit;
  device: CsvDevice;
  dateOrder?: DateOrder;
  clock?: Clock;
}

export interface FormatReader {
  row(fields: readonly string[], line: number): void;
  finish(): ReaderSummary;
}

/** Finds header columns by a test on the trimmed header text; -1 when absent. */
export function columnIndex(header: readonly string[], test: (name: string) => boolean): number {
  return header.findIndex((name) => test(name.trim().replace(/^\uFEFF/, "")));
}

/** The trimmed cell at `index`, "" when the line is shorter or the column absent. */
export function cellAt(fields: readonly string[], index: number): string {
  return index < 0 ? "" : (fields[index] ?? "").trim();
}

/** A glucose cell in mg/dL, or null after reporting `errors.glucose` (not a number, or outside 10-600 mg/dL). */
export function readGlucose(
  ctx: ReaderContext,
  line: number,
  cell: string,
  unit: GlucoseUnit,
): number | null {
  const d = parseDecimal(cell, ctx.decimalComma);
  const mgdl = d === null ? null : toMgdl(d, unit);
  if (mgdl === null || !inGlucoseRange(mgdl)) {
    ctx.lineError(line, "errors.glucose", { value: cell });
    return null;
  }
  return mgdl;
}

/** A carbohydrate cell in grams, or null after reporting `errors.carbs` (not a number, or outside 0-500 g). */
export function readCarbs(ctx: ReaderContext, line: number, cell: string): number | null {
  const d = parseDecimal(cell, ctx.decimalComma);
  if (d === null || !inCarbRange(d.value)) {
    ctx.lineError(line, "errors.carbs", { value: cell });
    return null;
  }
  return d.value;
}

/** An insulin cell in units, or null after reporting `errors.insulin` (not a number, or outside 0-100 U). */
export function readInsulin(ctx: ReaderContext, line: number, cell: string): number | null {
  const d = parseDecimal(cell, ctx.decimalComma);
  if (d === null || !inInsulinRange(d.value)) {
    ctx.lineError(line, "errors.insulin", { value: cell });
    return null;
  }
  return d.value;
}

/** A cell shortened for a message: a user sees at most 40 characters of it. */
export function shown(cell: string): string {
  return cell.length > 40 ? `${cell.slice(0, 40)}…` : cell;
}
