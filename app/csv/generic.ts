import { inGlucoseRange, parseDecimal, toMgdl, unitIn, type Decimal } from "./values";
import { cellAt, type FormatReader, type ReaderContext } from "./reader";
import { parseIsoWall } from "./wall-clock";
import type { GenericColumns, GlucoseUnit } from "./types";

/**
 * Reader of a generic glucose file: one reading per line, a time column, a glucose column and an
 * optional unit column (which is which is found from the first data line, or chosen by the user),
 * with or without a header row. Every reading is a CGM value.
 *
 * - time: ISO 8601 local time, `YYYY-MM-DD HH:mm[:ss]` or `YYYY-MM-DDTHH:mm[:ss]`.
 * - unit, in this order: the line's unit cell (`mg/dL` or `mmol/L`, any case; empty: the file's
 *   unit); the first unit cell of the file; the glucose column's header (`glucose (mmol/L)`); else
 *   the values: when every glucose value of the file is below 35 the file is mmol/L, otherwise
 *   mg/dL (35 mmol/L is 630 mg/dL, above any meter, and 35 mg/dL is a value no one records as
 *   routine).
 */

/** Below this, a file with no unit written anywhere is mmol/L. */
export const MMOL_GUESS_BELOW = 35;

type Pending = {
  line: number;
  wall: string;
  value: Decimal;
  cell: string;
  unit: GlucoseUnit | null;
};

export function createGenericReader(
  header: readonly string[] | null,
  columns: GenericColumns,
  ctx: ReaderContext,
): FormatReader {
  const headerUnit = header ? unitIn(header[columns.glucose] ?? "") : null;
  const needed = Math.max(columns.time, columns.glucose) + 1;
  const unitColumn = columns.unit ?? -1;
  const pending: Pending[] = [];
  let firstCellUnit: GlucoseUnit | null = null;

  function row(fields: readonly string[], line: number): void {
    if (fields.length < needed)
      return ctx.lineError(line, "errors.columns", { count: fields.length, expected: needed });
    const timeCell = cellAt(fields, columns.time);
    const wall = parseIsoWall(timeCell);
    if (wall === null) return ctx.lineError(line, "errors.date", { value: timeCell });
    const cell = cellAt(fields, columns.glucose);
    const value = parseDecimal(cell, ctx.decimalComma);
    if (value === null) return ctx.lineError(line, "errors.glucose", { value: cell });
    const unitCell = cellAt(fields, unitColumn);
    const unit = unitCell === "" ? null : unitIn(unitCell);
    if (unitCell !== "" && unit === null)
      return ctx.lineError(line, "errors.unit", { value: unitCell });
    firstCellUnit ??= unit;
    pending.push({ line, wall, value, cell, unit });
  }

  function finish() {
    const fileUnit = firstCellUnit ?? headerUnit ?? guessUnit(pending);
    for (const p of pending) {
      const mgdl = toMgdl(p.value, p.unit ?? fileUnit);
      if (!inGlucoseRange(mgdl)) ctx.lineError(p.line, "errors.glucose", { value: p.cell });
      else ctx.entries.push({ kind: "cgm", line: p.line, wall: p.wall, mgdl });
    }
    return { unit: fileUnit, device: { name: null, serial: null } };
  }

  return { row, finish };
}

function guessUnit(pending: readonly Pending[]): GlucoseUnit {
  const unstated = pending.filter((p) => p.unit === null);
  return unstated.length > 0 && unstated.every((p) => p.value.value < MMOL_GUESS_BELOW)
    ? "mmol/L"
    : "mg/dL";
}
