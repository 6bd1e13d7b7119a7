import { createHash } from "node:crypto";

/**
 * The Nightscout API's objects (REST API v1) built from the app's records: what uploaders get back
 * for what they posted, and what reader tools read. Every object carries an `_id` of 24 hex
 * digits, as Nightscout's are; it is derived from the record's key (table, device, number), so a
 * reading posted twice is answered with the same `_id` both times and a read returns it too.
 */

/** The `_id` of a stored record: 24 hex digits of SHA-1 over its table, device and key. */
export function nsObjectId(table: string, deviceSn: string, key: string | number): string {
  return createHash("sha1")
    .update(`${table}\u0000${deviceSn}\u0000${key}`)
    .digest("hex")
    .slice(0, 24);
}

/**
 * Minutes east of UTC at `at` on the patient's clock, from the record's wall-clock text
 * ("YYYY-MM-DD HH:mm:ss", read field by field: an answer may hold tens of thousands).
 */
export function utcOffsetMinutes(at: number, deviceTime: string): number {
  const n = (from: number, length: number) => Number(deviceTime.slice(from, from + length));
  const wall = Date.UTC(n(0, 4), n(5, 2) - 1, n(8, 2), n(11, 2), n(14, 2), n(17, 2));
  return Number.isNaN(wall) ? 0 : Math.round((wall - at) / 60_000);
}

export type NsSgv = {
  _id: string;
  type: "sgv";
  sgv: number;
  date: number;
  dateString: string;
  sysTime: string;
  direction: string;
  device: string;
  utcOffset: number;
};
export type NsMbg = {
  _id: string;
  type: "mbg";
  mbg: number;
  date: number;
  dateString: string;
  sysTime: string;
  device: string;
  utcOffset: number;
};

/** A stored CGM reading as a Nightscout `sgv` entry (whole mg/dL, as Nightscout keeps them). */
export function sgvEntry(r: {
  deviceSn: string;
  eventIndex: number;
  mgdl: number;
  dateTime: number;
  deviceTime: string;
  direction: string | null;
}): NsSgv {
  const iso = new Date(r.dateTime).toISOString();
  return {
    _id: nsObjectId("cgm", r.deviceSn, r.eventIndex),
    type: "sgv",
    sgv: Math.round(r.mgdl),
    date: r.dateTime,
    dateString: iso,
    sysTime: iso,
    direction: r.direction ?? "NONE",
    device: r.deviceSn,
    utcOffset: utcOffsetMinutes(r.dateTime, r.deviceTime),
  };
}

/** A stored blood value as a Nightscout `mbg` entry. */
export function mbgEntry(r: {
  deviceSn: string;
  recordKey: string;
  mgdl: number;
  dateTime: number;
  deviceTime: string;
}): NsMbg {
  const iso = new Date(r.dateTime).toISOString();
  return {
    _id: nsObjectId("bg", r.deviceSn, r.recordKey),
    type: "mbg",
    mbg: Math.round(r.mgdl),
    date: r.dateTime,
    dateString: iso,
    sysTime: iso,
    device: r.deviceSn,
    utcOffset: utcOffsetMinutes(r.dateTime, r.deviceTime),
  };
}

export type NsTreatment = {
  _id: string;
  eventType: string;
  created_at: string;
  mills: number;
  enteredBy: string;
  insulin?: number;
  carbs?: number;
  glucose?: number;
  glucoseType?: "Finger";
  units?: "mg/dl";
};

/**
 * A treatment from what is stored at one instant for one device: an insulin dose, carbohydrate
 * and a blood value (a BG check). Its event type is the one posted when known; read back, a dose
 * with carbohydrate is a Meal Bolus, a dose alone a Correction Bolus, carbohydrate alone a Carb
 * Correction and a blood value a BG Check.
 */
export function treatmentOf(t: {
  deviceSn: string;
  recordKey: string;
  dateTime: number;
  eventType?: string | undefined;
  insulin: number | null;
  carbs: number | null;
  glucose: number | null;
}): NsTreatment {
  const eventType =
    t.eventType ||
    (t.insulin !== null && t.carbs !== null
      ? "Meal Bolus"
      : t.insulin !== null
        ? "Correction Bolus"
        : t.carbs !== null
          ? "Carb Correction"
          : "BG Check");
  return {
    _id: nsObjectId("treatment", t.deviceSn, t.recordKey),
    eventType,
    created_at: new Date(t.dateTime).toISOString(),
    mills: t.dateTime,
    enteredBy: t.deviceSn,
    ...(t.insulin !== null ? { insulin: t.insulin } : {}),
    ...(t.carbs !== null ? { carbs: t.carbs } : {}),
    ...(t.glucose !== null
      ? { glucose: Math.round(t.glucose), glucoseType: "Finger" as const, units: "mg/dl" as const }
      : {}),
  };
}

/** Nightscout's names of the two glucose units. */
export const nsUnits = (mgdl: boolean) => (mgdl ? "mg/dl" : "mmol");

/** A profile's time-segment value: "HH:MM" from local midnight, with its seconds. */
export type NsSegment = { time: string; timeAsSeconds: number; value: number };

/** Values per equal segments of the day (48 half hours, or one) as Nightscout's time segments, equal neighbours joined. */
export function segmentsOf(values: readonly number[]): NsSegment[] {
  if (values.length === 0) return [];
  const step = 86_400 / values.length;
  const out: NsSegment[] = [];
  values.forEach((value, i) => {
    if (out.length > 0 && out[out.length - 1]!.value === value) return;
    const seconds = Math.round(i * step);
    const hh = String(Math.floor(seconds / 3600)).padStart(2, "0");
    const mm = String(Math.floor((seconds % 3600) / 60)).padStart(2, "0");
    out.push({ time: `${hh}:${mm}`, timeAsSeconds: seconds, value });
  });
  return out;
}
