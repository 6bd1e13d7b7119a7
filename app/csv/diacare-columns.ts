import type { PumpRecordFields } from "./types";

/**
 * The columns of our own CSV format (`diacare`), in the order the writer puts them; the reader finds
 * them by name, so their order in a file does not matter, but every one must be in the header.
 * docs/csv-format.md describes each.
 */
export const DIACARE_COLUMNS = [
  "kind",
  "utc",
  "local_time",
  "time_zone",
  "device_kind",
  "device_serial",
  "source",
  "record_key",
  "firmware",
  "glucose_mgdl",
  "glucose_limit",
  "carbs_g",
  "insulin_u",
  "insulin_type",
  "record_id",
  "event_index",
  "event_port",
  "event_type",
  "event_urgency",
  "event_value",
  "status_byte0",
  "status_byte1",
  "status_short0",
  "status_short1",
] as const;

export type DiacareColumn = (typeof DIACARE_COLUMNS)[number];
export const DIACARE_REQUIRED_COLUMNS: readonly DiacareColumn[] = DIACARE_COLUMNS;

/**
 * The raw pump-record columns, their field in the record and the largest value the record's layout
 * holds (docs/device-protocols.md): the record number is accepted up to 2^31 - 1, 16-bit fields up
 * to 65535, bytes up to 255; none is negative.
 */
export const PUMP_COLUMNS: readonly {
  column: DiacareColumn;
  field: keyof PumpRecordFields;
  max: number;
}[] = [
  { column: "record_id", field: "recordId", max: 2 ** 31 - 1 },
  { column: "event_index", field: "eventIndex", max: 0xffff },
  { column: "event_port", field: "eventPort", max: 0xff },
  { column: "event_type", field: "eventType", max: 0xff },
  { column: "event_urgency", field: "eventUrgency", max: 0xff },
  { column: "event_value", field: "eventValue", max: 0xff },
  { column: "status_byte0", field: "battery", max: 0xff },
  { column: "status_byte1", field: "reservoir", max: 0xff },
  { column: "status_short0", field: "basalRateRaw", max: 0xffff },
  { column: "status_short1", field: "bolusRateRaw", max: 0xffff },
];

/** The text columns that the writer guards against spreadsheet formulas (see `guardText`). */
export const DIACARE_TEXT_COLUMNS: readonly DiacareColumn[] = [
  "time_zone",
  "device_kind",
  "device_serial",
  "source",
  "record_key",
  "firmware",
];

/**
 * Spreadsheet programs run a cell that starts with `=`, `+`, `-`, `@`, tab or CR as a formula. The
 * writer puts an apostrophe before such a text (and before a text that starts with an apostrophe,
 * so that the rule can be undone exactly); the reader takes one leading apostrophe off.
 */
export function guardText(text: string): string {
  return /^[=+\-@\t\r']/.test(text) ? `'${text}` : text;
}

export function unguardText(text: string): string {
  return text.startsWith("'") ? text.slice(1) : text;
}
