import type { PumpRecordFields } from "~/ingest/records";

/**
 * Types and limits of the CSV layer (app/csv): what the parsers of glucose data files produce and
 * the rows the own-format writer takes. Pure: no database, no React.
 */

export type CsvFormat = "clarity" | "libreview" | "diacare" | "generic";
export const CSV_FORMATS: readonly CsvFormat[] = ["clarity", "libreview", "diacare", "generic"];

export type GlucoseUnit = "mg/dL" | "mmol/L";
export type DateOrder = "DMY" | "MDY" | "YMD";
export type Clock = "24h" | "12h";
export type InsulinKind = "rapid" | "long";
export type GlucoseLimit = "low" | "high";

/** The raw fields of an insulin-pump history record (docs/device-protocols.md). */
export type { PumpRecordFields };

/** A device as a vendor file names it. */
export interface CsvDevice {
  name: string | null;
  serial: string | null;
}

/**
 * What only the own format carries, so that a file written by `writeDiacareCsv` reads back
 * exactly: the UTC instant (ms since the epoch), the zone, the device, the source of a blood value,
 * the device's record number and the software version of the device that recorded it (the pump
 * rules depend on the handheld's).
 */
export interface OwnFields {
  /** The instant, ms since the epoch (written as ISO 8601 with Z). */
  utc: number;
  /** The zone the wall clock was read in: IANA name or fixed offset ("+08:00"). */
  timeZone: string;
  /** equil, gocheck, aidex, imported. */
  deviceKind: string | null;
  deviceSerial: string | null;
  /** Where a blood value came from: meter, cgm_fingerprick, cgm_manual, pump, csv. */
  source: string | null;
  /** The device's record number or index. */
  recordKey: string | null;
  /** The software version of the device that recorded it (pump handheld: "x.y.z"). */
  firmware: string | null;
}

/**
 * The parts every entry has: the 1-based line of the file it came from and its wall-clock time as
 * written in the file, normalised to "YYYY-MM-DD HH:mm:ss" (no zone: the caller resolves it).
 * `device` is set when the file names the device on every line (LibreView); `own` in the own
 * format.
 */
interface EntryBase {
  line: number;
  wall: string;
  device?: CsvDevice;
  own?: OwnFields;
}

/** The kind of an entry and its values. */
export type CsvEntryValue =
  | { kind: "cgm"; mgdl: number; limit?: GlucoseLimit }
  | { kind: "bg"; mgdl: number }
  | { kind: "carbs"; grams: number }
  | { kind: "insulin"; units: number; insulin: InsulinKind }
  | { kind: "pump"; record: PumpRecordFields };

export type CsvEntry = EntryBase & CsvEntryValue;

export type CsvEntryKind = CsvEntry["kind"];
export const CSV_ENTRY_KINDS: readonly CsvEntryKind[] = ["cgm", "bg", "carbs", "insulin", "pump"];

/** Interpolation values of a message (`{{line}}`, `{{value}}`, …). */
export type MessageValues = Record<string, string | number>;

/** A bad line: a translation key of the `csv` namespace, with `line` among its values too. */
export interface CsvLineError {
  line: number;
  key: string;
  values?: MessageValues;
}

/** A file that cannot be read at all: a translation key of the `csv` namespace. */
export interface CsvFileError {
  ok: false;
  key: string;
  values?: MessageValues;
}

export interface CsvParseResult {
  ok: true;
  format: CsvFormat;
  /** The glucose unit the file is written in; every value in `entries` is in mg/dL. */
  unit: GlucoseUnit;
  /** The device, from the file where it says so. */
  device: CsvDevice;
  /** How the dates were read, when the format needed detection (LibreView). */
  dateOrder?: DateOrder;
  clock?: Clock;
  /** In file order. */
  entries: CsvEntry[];
  /** Every bad line, in file order (a bad line never stops the file). */
  errors: CsvLineError[];
  /** The data lines read: the non-blank lines after the header row. */
  lines: number;
}

export type CsvParseOutcome = CsvParseResult | CsvFileError;

/** Which column holds what in a generic file (0-based). */
export interface GenericColumns {
  time: number;
  glucose: number;
  unit?: number;
}

export interface CsvParseOptions {
  /** A format chosen by the user: detection is skipped. */
  format?: CsvFormat;
  /** Generic files: which column is the time, the glucose and the unit. */
  columns?: GenericColumns;
  /** LibreView files: the day/month order chosen by the user instead of the detected one. */
  dateOrder?: Exclude<DateOrder, "YMD">;
}

/** Limits on what one file may hold. The caller caps the file at 2 MB before it reaches here. */
export const CSV_LIMITS = {
  /** Characters in one field; a longer field makes its line an error. */
  fieldChars: 1_000,
  /** Fields in one line; a line with more is an error. */
  fieldsPerLine: 200,
  /** Data lines; a file with more is refused. */
  dataLines: 100_000,
} as const;

/** Value ranges a line must respect (mg/dL after conversion, grams, units). */
export const CSV_RANGES = {
  glucose: { min: 10, max: 600 },
  carbs: { min: 0, max: 500 },
  insulin: { min: 0, max: 100 },
} as const;

/** The readings Dexcom writes as `Low` and `High`: the limits of its sensors, mg/dL. */
export const DEXCOM_LIMITS_MGDL = { low: 40, high: 400 } as const;
