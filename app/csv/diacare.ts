import { isKnownTimeZone } from "~/ingest/device-time";
import { DIACARE_COLUMNS, PUMP_COLUMNS, unguardText, type DiacareColumn } from "./diacare-columns";
import { columnIndex, type FormatReader, type ReaderContext } from "./reader";
import { inCarbRange, inGlucoseRange, inInsulinRange } from "./values";
import { parseIsoWall } from "./wall-clock";
import type {
  CsvEntryValue,
  GlucoseLimit,
  InsulinKind,
  OwnFields,
  PumpRecordFields,
} from "./types";

/**
 * Reader of our own CSV format (`diacare`, written by `writeDiacareCsv`; docs/csv-format.md). It
 * reads back exactly what the writer wrote: numbers in JavaScript's shortest round-trip notation
 * (exponents included, a decimal comma too in files not delimited by commas), the UTC instant, the
 * zone, device, source, record key and firmware of every row. Each line is checked on its own:
 * - `kind`: cgm, bg, carbs, insulin or pump (`errors.kind`);
 * - `utc`: an ISO 8601 instant with Z (`errors.utc`); `local_time`: the wall clock
 *   (`errors.date`); `time_zone`: an IANA zone or a fixed offset such as +08:00 (`errors.timeZone`);
 * - the value columns of the kind: glucose 10-600 mg/dL, `glucose_limit` empty/low/high (cgm only),
 *   carbs 0-500 g, insulin 0-100 U with `insulin_type` rapid or long, and for pump rows the ten raw
 *   record fields as whole numbers within their byte widths (`errors.pumpField`).
 * Columns of other kinds are ignored on a line. Text cells lose the apostrophe the writer puts
 * before a formula-like text (`unguardText`); an empty text cell is null.
 */

const OWN_NUMBER = /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i;
const OWN_NUMBER_COMMA = /^-?\d+(?:[.,]\d+)?(?:e[+-]?\d+)?$/i;
const UTC_INSTANT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.\d{1,3})?Z$/;

/** An instant written as ISO 8601 with Z, in ms since the epoch, or null when it is not a real one. */
export function parseUtcInstant(text: string): number | null {
  const m = UTC_INSTANT.exec(text);
  if (!m) return null;
  const ms = Date.parse(text);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== m[1]) return null;
  return ms;
}

type Cells = (column: DiacareColumn) => string;

export function createDiacareReader(header: readonly string[], ctx: ReaderContext): FormatReader {
  const index = new Map<DiacareColumn, number>(
    DIACARE_COLUMNS.map((c) => [c, columnIndex(header, (n) => n === c)]),
  );
  const width = Math.max(...index.values()) + 1;
  const numberPattern = ctx.decimalComma ? OWN_NUMBER_COMMA : OWN_NUMBER;
  let device: { name: string | null; serial: string | null } | null = null;

  const num = (text: string): number | null =>
    numberPattern.test(text) ? Number(text.replace(",", ".")) : null;
  const text = (cell: string): string | null => (cell === "" ? null : unguardText(cell));

  function row(fields: readonly string[], line: number): void {
    if (fields.length < width)
      return ctx.lineError(line, "errors.columns", { count: fields.length, expected: width });
    const cell: Cells = (c) => fields[index.get(c)!]!;
    const own = ownFields(cell, line);
    if (own === null) return;
    const wall = parseIsoWall(cell("local_time"));
    if (wall === null) return ctx.lineError(line, "errors.date", { value: cell("local_time") });
    const value = valueOf(cell, line);
    if (value === null) return;
    device ??= { name: own.deviceKind, serial: own.deviceSerial };
    ctx.entries.push({ ...value, line, wall, own });
  }

  function ownFields(cell: Cells, line: number): OwnFields | null {
    const utc = parseUtcInstant(cell("utc"));
    if (utc === null) {
      ctx.lineError(line, "errors.utc", { value: cell("utc") });
      return null;
    }
    const timeZone = unguardText(cell("time_zone"));
    if (!isKnownTimeZone(timeZone)) {
      ctx.lineError(line, "errors.timeZone", { value: timeZone });
      return null;
    }
    return {
      utc,
      timeZone,
      deviceKind: text(cell("device_kind")),
      deviceSerial: text(cell("device_serial")),
      source: text(cell("source")),
      recordKey: text(cell("record_key")),
      firmware: text(cell("firmware")),
    };
  }

  /** The value part of a line of its kind, or null after reporting the line. */
  function valueOf(cell: Cells, line: number): CsvEntryValue | null {
    const kind = cell("kind");
    const fail = (key: string, values: Record<string, string>) => (
      ctx.lineError(line, key, values),
      null
    );
    switch (kind) {
      case "cgm":
      case "bg": {
        const mgdl = num(cell("glucose_mgdl"));
        if (mgdl === null || !inGlucoseRange(mgdl))
          return fail("errors.glucose", { value: cell("glucose_mgdl") });
        if (kind === "bg") return { kind, mgdl };
        const limit = cell("glucose_limit");
        if (limit !== "" && limit !== "low" && limit !== "high")
          return fail("errors.limit", { value: limit });
        return limit === "" ? { kind, mgdl } : { kind, mgdl, limit: limit as GlucoseLimit };
      }
      case "carbs": {
        const grams = num(cell("carbs_g"));
        return grams === null || !inCarbRange(grams)
          ? fail("errors.carbs", { value: cell("carbs_g") })
          : { kind, grams };
      }
      case "insulin": {
        const units = num(cell("insulin_u"));
        if (units === null || !inInsulinRange(units))
          return fail("errors.insulin", { value: cell("insulin_u") });
        const insulin = cell("insulin_type");
        if (insulin !== "rapid" && insulin !== "long")
          return fail("errors.insulinType", { value: insulin });
        return { kind, units, insulin: insulin as InsulinKind };
      }
      case "pump":
        return pumpValue(cell, line);
      default:
        return fail("errors.kind", { value: kind });
    }
  }

  function pumpValue(cell: Cells, line: number): CsvEntryValue | null {
    const record = {} as PumpRecordFields;
    for (const { column, field, max } of PUMP_COLUMNS) {
      const v = cell(column);
      if (!/^\d{1,10}$/.test(v) || Number(v) > max) {
        ctx.lineError(line, "errors.pumpField", { field: column, value: v });
        return null;
      }
      record[field] = Number(v);
    }
    return { kind: "pump", record };
  }

  return { row, finish: () => ({ unit: "mg/dL", device: device ?? { name: null, serial: null } }) };
}
