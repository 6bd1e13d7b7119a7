import type { DeviceKindName } from "~/schemas/upload";
import type { RecordOf } from "~/wire/upload";

/**
 * The stored form of an upload's slice: its checked records in the app's names, each a JSON array
 * of its field values in a fixed order per device kind, an absent optional field as null. A slice
 * of 1,000 pump records takes about a quarter of the text the same records take as objects, and
 * the slice is stored and read back once per upload.
 */
const FIELDS = {
  equil: [
    "recordId",
    "eventIndex",
    "eventPort",
    "eventType",
    "eventUrgency",
    "eventValue",
    "battery",
    "reservoir",
    "basalRateRaw",
    "bolusRateRaw",
    "deviceTime",
    "pdaSn",
    "pid",
    "recordTimeZone",
    "pdaRecordTimeZone",
  ],
  aidex: [
    "eventIndex",
    "historyId",
    "sensorIndex",
    "eventType",
    "rawGlucose",
    "deviceTime",
    "deviceSn",
    "dataOrigin",
  ],
  gocheck: ["deviceTime", "mgdl", "flags", "deviceSn"],
} as const satisfies { [K in DeviceKindName]: readonly (keyof RecordOf<K>)[] };

export function encodeSlice<K extends DeviceKindName>(
  kind: K,
  records: readonly RecordOf<K>[],
): string {
  const fields: readonly string[] = FIELDS[kind];
  const values = (r: object) => fields.map((f) => (r as Record<string, unknown>)[f] ?? null);
  return JSON.stringify(records.map(values));
}

export function decodeSlice<K extends DeviceKindName>(kind: K, text: string): RecordOf<K>[] {
  const fields: readonly string[] = FIELDS[kind];
  return (JSON.parse(text) as unknown[][]).map((values) => {
    const record: Record<string, unknown> = {};
    fields.forEach((f, i) => {
      if (values[i] !== null) record[f] = values[i];
    });
    return record as unknown as RecordOf<K>;
  });
}
