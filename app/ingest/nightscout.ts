import { MGDL_PER_MMOL } from "~/domain/glucose-unit";
import {
  nsEntrySchema,
  nsTreatmentSchema,
  type NsEntryInput,
  type NsTreatmentInput,
} from "~/schemas/nightscout";
import { wallClockAt } from "./device-time";
import { importedReadingNumber } from "./file-entries";
import { GLUCOSE_MAX_MGDL, GLUCOSE_MIN_MGDL } from "./process";

/**
 * The rules for records posted through the Nightscout API (pure: no database). Each record is
 * judged on its own: the ones that pass become rows of the app's record tables, the others are
 * refused with a reason and their position, and the rest of the post is stored.
 *
 * - Sensor readings (`sgv`) become CGM readings; their number is the reading's UTC second since
 *   2000 (as for imported files), so a reading posted again by the same device at the same time
 *   is a duplicate and adds nothing. The uploader's `direction` is kept as the trend.
 * - Meter readings (`mbg`) and `BG Check` treatments become meter blood values, insulin of a
 *   treatment an insulin dose, carbohydrate of a treatment a carbohydrate entry; their key is
 *   `ns:<epoch ms>` per device (`nst:<epoch ms>` for a BG check's blood value).
 * - The device is the entry's `device` (a treatment's `enteredBy`), kept to the characters of a
 *   device serial; without one, "nightscout".
 * - A record older than 90 days or more than 5 minutes ahead of the server's clock is refused (a
 *   phone's clock may run a little ahead); so is a glucose outside 10-600 mg/dL, a calibration
 *   (`cal`: no place to keep it) and a treatment with nothing the app keeps (a temporary basal, a
 *   note, a site change).
 */

export const NS_MAX_AGE_MS = 90 * 86_400_000;
export const NS_MAX_AHEAD_MS = 5 * 60_000;
export const NS_DEFAULT_DEVICE = "nightscout";
/** Insulin and carbohydrate a treatment may carry. */
export const NS_MAX_INSULIN_UNITS = 100;
export const NS_MAX_CARBS_GRAMS = 500;

/** The trend arrows Nightscout names; any other `direction` is kept as none. */
export const NS_DIRECTIONS = [
  "NONE",
  "DoubleUp",
  "SingleUp",
  "FortyFiveUp",
  "Flat",
  "FortyFiveDown",
  "SingleDown",
  "DoubleDown",
  "NOT COMPUTABLE",
  "RATE OUT OF RANGE",
] as const;
const DIRECTIONS: ReadonlySet<string> = new Set(NS_DIRECTIONS);

/** Why a record was refused: a key of the `nightscout` translations' `refused` group. */
export type NsRefusalReason =
  | "invalid"
  | "tooOld"
  | "future"
  | "glucoseRange"
  | "amount"
  | "unsupportedType"
  | "unsupportedEventType";
export type NsRefusal = { index: number; reason: NsRefusalReason };

/** A reading ready to store, with what the answer tells the uploader. */
export type NsCgmRow = {
  deviceSn: string;
  eventIndex: number;
  mgdl: number;
  dateTime: number;
  deviceTime: string;
  direction: string | null;
};
export type NsBgRow = {
  deviceSn: string;
  recordKey: string;
  mgdl: number;
  dateTime: number;
  deviceTime: string;
};
export type NsCarbRow = { deviceSn: string; recordKey: string; grams: number; dateTime: number };
export type NsInsulinRow = { deviceSn: string; recordKey: string; units: number; dateTime: number };

export type NsRows = {
  cgm: NsCgmRow[];
  bg: NsBgRow[];
  carbs: NsCarbRow[];
  insulin: NsInsulinRow[];
};

/** A device name as a device serial: letters, digits, `_` and `-`, at most 64; else "nightscout". */
export function nsDeviceSerial(name: string | undefined): string {
  const cleaned = (name ?? "")
    .trim()
    .replace(/[^A-Za-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
  return cleaned || NS_DEFAULT_DEVICE;
}

/** The key of a meter value, carbohydrate entry or insulin dose posted at `at`. */
export const nsRecordKey = (at: number) => `ns:${at}`;
/** The key of a blood value posted as a BG Check treatment (told apart from `mbg` entries when read back). */
export const nsCheckKey = (at: number) => `nst:${at}`;

function timeRefusal(at: number, now: number): NsRefusalReason | null {
  if (at < now - NS_MAX_AGE_MS) return "tooOld";
  if (at > now + NS_MAX_AHEAD_MS) return "future";
  return null;
}

const inGlucoseRange = (mgdl: number) => mgdl >= GLUCOSE_MIN_MGDL && mgdl <= GLUCOSE_MAX_MGDL;

const emptyRows = (): NsRows => ({ cgm: [], bg: [], carbs: [], insulin: [] });

/** One accepted entry: its place in the post and what was stored for it. */
export type NsAcceptedEntry =
  { index: number; kind: "sgv"; row: NsCgmRow } | { index: number; kind: "mbg"; row: NsBgRow };

/** Judges the entries of one post at `now`, in the patient's zone `zone`. */
export function entriesToRows(
  records: readonly unknown[],
  now: number,
  zone: string,
): { rows: NsRows; accepted: NsAcceptedEntry[]; refused: NsRefusal[] } {
  const rows = emptyRows();
  const accepted: NsAcceptedEntry[] = [];
  const refused: NsRefusal[] = [];
  for (let index = 0; index < records.length; index++) {
    const record = records[index];
    const plain = plainReading(record);
    const parsed = plain
      ? { success: true as const, data: plain }
      : nsEntrySchema.safeParse(record);
    if (!parsed.success) {
      refused.push({ index, reason: "invalid" });
      continue;
    }
    const outcome = entryRow(parsed.data, now, zone);
    if ("reason" in outcome) {
      refused.push({ index, reason: outcome.reason });
      continue;
    }
    if (outcome.kind === "sgv") rows.cgm.push(outcome.row);
    else rows.bg.push(outcome.row);
    accepted.push({ index, ...outcome } as NsAcceptedEntry);
  }
  return { rows, accepted, refused };
}

const isText = (v: unknown, max: number): v is string | undefined =>
  v === undefined || (typeof v === "string" && v.length <= max);

/**
 * The common case read without the schema (an upload of a month is 40,000 of them): a reading
 * whose `sgv` and `date` are numbers and whose texts are short texts (a date text that Date
 * reads). It answers exactly what {@link nsEntrySchema} answers for such a record; anything else
 * (null when not this case) goes through the schema.
 */
function plainReading(record: unknown): NsEntryInput | null {
  if (typeof record !== "object" || record === null || Array.isArray(record)) return null;
  const e = record as Record<string, unknown>;
  const { sgv, date, type } = e;
  if (typeof sgv !== "number" || !Number.isFinite(sgv)) return null;
  if (typeof date !== "number" || !Number.isSafeInteger(date)) return null;
  if (type !== undefined && type !== "sgv") return null;
  if (e.mbg !== undefined) return null;
  if (!isText(e.direction, 32) || !isText(e.device, 100)) return null;
  for (const key of ["dateString", "sysTime"] as const) {
    const text = e[key];
    if (text !== undefined && !(isText(text, 64) && !Number.isNaN(Date.parse(text)))) return null;
  }
  return {
    type: "sgv",
    sgv,
    mbg: undefined,
    at: date,
    direction: e.direction as string | undefined,
    device: e.device as string | undefined,
  };
}

function entryRow(
  e: NsEntryInput,
  now: number,
  zone: string,
): { kind: "sgv"; row: NsCgmRow } | { kind: "mbg"; row: NsBgRow } | { reason: NsRefusalReason } {
  if (e.type !== "sgv" && e.type !== "mbg") return { reason: "unsupportedType" };
  const late = timeRefusal(e.at, now);
  if (late) return { reason: late };
  const deviceSn = nsDeviceSerial(e.device);
  const deviceTime = wallClockAt(e.at, zone);
  if (e.type === "sgv") {
    const number = importedReadingNumber(e.at);
    if (e.sgv === undefined || number === null) return { reason: "invalid" };
    if (!inGlucoseRange(e.sgv)) return { reason: "glucoseRange" };
    const direction = e.direction !== undefined && DIRECTIONS.has(e.direction) ? e.direction : null;
    return {
      kind: "sgv",
      row: { deviceSn, eventIndex: number, mgdl: e.sgv, dateTime: e.at, deviceTime, direction },
    };
  }
  if (e.mbg === undefined) return { reason: "invalid" };
  if (!inGlucoseRange(e.mbg)) return { reason: "glucoseRange" };
  return {
    kind: "mbg",
    row: { deviceSn, recordKey: nsRecordKey(e.at), mgdl: e.mbg, dateTime: e.at, deviceTime },
  };
}

/** One accepted treatment: its place in the post and the rows stored for it. */
export type NsAcceptedTreatment = {
  index: number;
  eventType: string;
  deviceSn: string;
  at: number;
  insulin: NsInsulinRow | null;
  carbs: NsCarbRow | null;
  bg: NsBgRow | null;
};

/** Judges the treatments of one post at `now`, in the patient's zone `zone`. */
export function treatmentsToRows(
  records: readonly unknown[],
  now: number,
  zone: string,
): { rows: NsRows; accepted: NsAcceptedTreatment[]; refused: NsRefusal[] } {
  const rows = emptyRows();
  const accepted: NsAcceptedTreatment[] = [];
  const refused: NsRefusal[] = [];
  for (let index = 0; index < records.length; index++) {
    const parsed = nsTreatmentSchema.safeParse(records[index]);
    if (!parsed.success) {
      refused.push({ index, reason: "invalid" });
      continue;
    }
    const outcome = treatmentRows(parsed.data, now, zone);
    if ("reason" in outcome) {
      refused.push({ index, reason: outcome.reason });
      continue;
    }
    if (outcome.insulin) rows.insulin.push(outcome.insulin);
    if (outcome.carbs) rows.carbs.push(outcome.carbs);
    if (outcome.bg) rows.bg.push(outcome.bg);
    accepted.push({ index, ...outcome });
  }
  return { rows, accepted, refused };
}

function treatmentRows(
  t: NsTreatmentInput,
  now: number,
  zone: string,
): Omit<NsAcceptedTreatment, "index"> | { reason: NsRefusalReason } {
  const late = timeRefusal(t.at, now);
  if (late) return { reason: late };
  const deviceSn = nsDeviceSerial(t.enteredBy);
  const recordKey = nsRecordKey(t.at);
  const insulin = t.insulin !== null && t.insulin !== 0 ? t.insulin : null;
  const carbs = t.carbs !== null && t.carbs !== 0 ? t.carbs : null;
  if (insulin !== null && (insulin < 0 || insulin > NS_MAX_INSULIN_UNITS))
    return { reason: "amount" };
  if (carbs !== null && (carbs < 0 || carbs > NS_MAX_CARBS_GRAMS)) return { reason: "amount" };
  let bg: NsBgRow | null = null;
  if (t.eventType === "BG Check" && t.glucose !== null) {
    const mgdl = t.mmol ? Math.round(t.glucose * MGDL_PER_MMOL) : t.glucose;
    if (!inGlucoseRange(mgdl)) return { reason: "glucoseRange" };
    bg = {
      deviceSn,
      recordKey: nsCheckKey(t.at),
      mgdl,
      dateTime: t.at,
      deviceTime: wallClockAt(t.at, zone),
    };
  }
  if (insulin === null && carbs === null && bg === null) return { reason: "unsupportedEventType" };
  return {
    eventType: t.eventType,
    deviceSn,
    at: t.at,
    insulin: insulin === null ? null : { deviceSn, recordKey, units: insulin, dateTime: t.at },
    carbs: carbs === null ? null : { deviceSn, recordKey, grams: carbs, dateTime: t.at },
    bg,
  };
}

/** The rows of `rows` grouped by device serial (each insert writes one device's rows). */
export function byDevice<Row extends { deviceSn: string }>(
  rows: readonly Row[],
): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const group = groups.get(row.deviceSn);
    if (group) group.push(row);
    else groups.set(row.deviceSn, [row]);
  }
  return groups;
}
