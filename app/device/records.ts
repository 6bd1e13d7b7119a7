import type { CgmRecordInput, PumpRecordInput } from "~/ingest/records";
import { failed, ok, type DeviceError, type Result } from "./errors";

/**
 * Fixed-size device records, each described by one table: a field's name (app/ingest/records.ts;
 * the upload calls carry them under the names of app/wire/upload.ts), its byte offset, its width and its scale. Numbers are unsigned little-endian of 1, 2 or
 * 4 bytes, multiplied by the scale and rounded to a whole number; a clock field is 6 bytes: year - 2000, month, day, hour,
 * minute, second, the device's local time, written "YYYY-MM-DD HH:mm:ss". A correction to a
 * layout is a change to one line of its table.
 *
 * Values are passed on as read: the server checks their ranges (a record number above
 * 2^31 - 1, a date that does not exist) and names the record it refuses.
 */

type KeysOf<R, V> = { [K in keyof R]-?: NonNullable<R[K]> extends V ? K : never }[keyof R];

export type RecordField<R> =
  | {
      readonly field: KeysOf<R, number>;
      readonly offset: number;
      readonly width: 1 | 2 | 4;
      readonly scale: number;
    }
  | { readonly field: KeysOf<R, string>; readonly offset: number; readonly width: "clock" };

export interface RecordLayout<R> {
  /** Bytes per record. */
  readonly size: number;
  readonly fields: readonly RecordField<R>[];
  /** Fields every record of this kind has, whatever its bytes. */
  readonly constants?: Partial<R>;
}

/**
 * Equil handheld history record, 28 bytes (confirmed by public driver code). Bytes 4-9 hold six
 * ASCII characters of the handheld's serial number; they are not sent, because the server refuses
 * a record whose `pdaSn` differs from the upload's serial number, and the full serial number may
 * be longer than six characters.
 */
export const PUMP_HISTORY_LAYOUT: RecordLayout<PumpRecordInput> = {
  size: 28,
  fields: [
    { field: "recordId", offset: 0, width: 4, scale: 1 },
    { field: "deviceTime", offset: 10, width: "clock" },
    { field: "battery", offset: 16, width: 1, scale: 1 },
    { field: "reservoir", offset: 17, width: 1, scale: 1 },
    { field: "basalRateRaw", offset: 18, width: 2, scale: 1 },
    { field: "bolusRateRaw", offset: 20, width: 2, scale: 1 },
    { field: "eventIndex", offset: 22, width: 2, scale: 1 },
    { field: "eventPort", offset: 24, width: 1, scale: 1 },
    { field: "eventType", offset: 25, width: 1, scale: 1 },
    { field: "eventUrgency", offset: 26, width: 1, scale: 1 },
    { field: "eventValue", offset: 27, width: 1, scale: 1 },
  ],
};

/**
 * AiDEX CGM history record, 22 bytes (our definition, not yet confirmed on hardware). The record
 * number and the clock sit where the Microtech handhelds' history records keep them.
 * `rawGlucose` is the raw glucose value: mg/dL = 1.8 x raw (tenths of mmol/L).
 */
export const CGM_HISTORY_LAYOUT: RecordLayout<CgmRecordInput> = {
  size: 22,
  fields: [
    { field: "eventIndex", offset: 0, width: 4, scale: 1 },
    { field: "deviceTime", offset: 4, width: "clock" },
    { field: "sensorIndex", offset: 10, width: 2, scale: 1 },
    { field: "historyId", offset: 12, width: 4, scale: 1 },
    { field: "eventType", offset: 16, width: 1, scale: 1 },
    { field: "dataOrigin", offset: 17, width: 1, scale: 1 },
    { field: "rawGlucose", offset: 18, width: 2, scale: 1 },
    // bytes 20-21: reserved, not read
  ],
};

/** dataOrigin of a blood value typed into the CGM handheld by hand. */
export const MANUAL_BLOOD_ORIGIN = 3;
/** Manual blood records carry no event type; 0 is not a sensor reading type (7 and 8 are). */
export const MANUAL_BLOOD_EVENT_TYPE = 0;

/**
 * AiDEX manual blood record, 12 bytes (our definition, not yet confirmed on hardware): the record
 * number, the clock, and the value in the CGM's raw unit (mg/dL = 1.8 x raw). Sent as a CGM record
 * with dataOrigin 3.
 */
export const MANUAL_BLOOD_LAYOUT: RecordLayout<CgmRecordInput> = {
  size: 12,
  fields: [
    { field: "eventIndex", offset: 0, width: 4, scale: 1 },
    { field: "deviceTime", offset: 4, width: "clock" },
    { field: "rawGlucose", offset: 10, width: 2, scale: 1 },
  ],
  constants: { eventType: MANUAL_BLOOD_EVENT_TYPE, dataOrigin: MANUAL_BLOOD_ORIGIN },
};

/** Years on device clocks count from 2000. */
const DEVICE_YEAR_BASE = 2000;

const two = (n: number) => String(n).padStart(2, "0");

/** A 6-byte device clock (year - 2000, month, day, hour, minute, second) as "YYYY-MM-DD HH:mm:ss". */
export function clockText(bytes: Uint8Array, offset: number): string {
  const [year, month, day, hour, minute, second] = bytes.subarray(offset, offset + 6);
  return `${DEVICE_YEAR_BASE + year!}-${two(month!)}-${two(day!)} ${two(hour!)}:${two(minute!)}:${two(second!)}`;
}

function fieldValue<R>(
  view: DataView,
  base: number,
  entry: RecordField<R>,
  bytes: Uint8Array,
): number | string {
  const at = base + entry.offset;
  if (entry.width === "clock") return clockText(bytes, at);
  const raw =
    entry.width === 1
      ? view.getUint8(at)
      : entry.width === 2
        ? view.getUint16(at, true)
        : view.getUint32(at, true);
  return Math.round(raw * entry.scale);
}

/**
 * The records of a list of fixed-size records. An empty list has no records; a length that is
 * not a multiple of the record size is the given error.
 */
export function decodeRecords<R>(
  bytes: Uint8Array,
  layout: RecordLayout<R>,
  sizeError: DeviceError,
): Result<R[]> {
  if (bytes.length % layout.size !== 0) return failed(sizeError);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: R[] = [];
  for (let base = 0; base < bytes.length; base += layout.size) {
    const record: Record<string, unknown> = { ...layout.constants };
    for (const entry of layout.fields)
      record[entry.field as string] = fieldValue(view, base, entry, bytes);
    records.push(record as R);
  }
  return ok(records);
}

/** The handheld's history log: a multiple of 28 bytes. */
export function parsePumpHistory(bytes: Uint8Array): Result<PumpRecordInput[]> {
  return decodeRecords(bytes, PUMP_HISTORY_LAYOUT, {
    kind: "recordSize",
    detail: { size: PUMP_HISTORY_LAYOUT.size, length: bytes.length },
  });
}

/** AiDEX CGM history: a multiple of 22 bytes. */
export function parseCgmHistory(bytes: Uint8Array): Result<CgmRecordInput[]> {
  return decodeRecords(bytes, CGM_HISTORY_LAYOUT, {
    kind: "recordSize",
    detail: { size: CGM_HISTORY_LAYOUT.size, length: bytes.length },
  });
}

/**
 * AiDEX manual blood records: a multiple of 12 bytes. Any other length means an Equil pump
 * handheld answered ("Current Connected device is equil pump pda").
 */
export function parseManualBlood(bytes: Uint8Array): Result<CgmRecordInput[]> {
  return decodeRecords(bytes, MANUAL_BLOOD_LAYOUT, {
    kind: "notManualBloodRecords",
    detail: { length: bytes.length },
  });
}
