import type {
  CgmRecordInput,
  MeterRecordInput,
  PumpRecordInput,
  PumpSettingsInput,
} from "~/ingest/records";
import type {
  CgmRecordWire,
  DeviceKindName,
  MeterRecordWire,
  PumpRecordWire,
  PumpSettingWire,
} from "~/schemas/upload";

/**
 * The device-upload calls' record and settings names (`POST /api/patient-data/sliceSave`, `save`,
 * `saveCgmsData`, `saveSugar`, `POST /api/pda-setting/saveOrUpdate`; docs/api.md "Device
 * uploads"). app/wire/ is the one place where the
 * app's names meet the names the `/api/` calls carry, one module per family of calls; everything
 * else in the app uses the plain names of app/ingest/records.ts.
 *
 * The browser turns the records it read into the calls' form (`...ToWire`) when it sends them;
 * the server checks that form (app/schemas/upload.ts) and turns it into the app's records
 * (`...FromWire`), which an upload's slices keep until they are processed.
 */

/** The fields that are set: an optional field a record does not have is left out of the call. */
function setOnly<T extends object>(fields: T): T {
  const out = {} as T;
  for (const key of Object.keys(fields) as (keyof T)[])
    if (fields[key] !== undefined) out[key] = fields[key];
  return out;
}

/**
 * A pump history record as the calls carry it: the two status bytes and two 16-bit values by
 * position.
 */
export function pumpRecordToWire(r: PumpRecordInput): PumpRecordWire {
  return setOnly({
    recordId: r.recordId,
    eventIndex: r.eventIndex,
    eventPort: r.eventPort,
    eventType: r.eventType,
    eventUrgency: r.eventUrgency,
    eventValue: r.eventValue,
    statusByte0: r.battery,
    statusByte1: r.reservoir,
    statusShort0: r.basalRateRaw,
    statusShort1: r.bolusRateRaw,
    deviceTime: r.deviceTime,
    pdaSn: r.pdaSn,
    pid: r.pid,
    recordTimeZone: r.recordTimeZone,
    pdaRecordTimeZone: r.pdaRecordTimeZone,
  });
}

/**
 * A checked pump history record in the app's names. The record number may come as `historyId`
 * (the older name; the schema requires one of the two); `transDateTime` and `dateTime` are the
 * server's to set and are dropped.
 */
export function pumpRecordFromWire(w: PumpRecordWire): PumpRecordInput {
  return {
    recordId: (w.recordId ?? w.historyId)!,
    eventIndex: w.eventIndex,
    eventPort: w.eventPort,
    eventType: w.eventType,
    eventUrgency: w.eventUrgency,
    eventValue: w.eventValue,
    battery: w.statusByte0,
    reservoir: w.statusByte1,
    basalRateRaw: w.statusShort0,
    bolusRateRaw: w.statusShort1,
    deviceTime: w.deviceTime,
    pdaSn: w.pdaSn,
    pid: w.pid,
    recordTimeZone: w.recordTimeZone,
    pdaRecordTimeZone: w.pdaRecordTimeZone,
  };
}

/** A CGM record as the calls carry it: the raw glucose value is `eventData`. */
export function cgmRecordToWire(r: CgmRecordInput): CgmRecordWire {
  return setOnly({
    eventIndex: r.eventIndex,
    historyId: r.historyId,
    sensorIndex: r.sensorIndex,
    eventType: r.eventType,
    eventData: r.rawGlucose,
    deviceTime: r.deviceTime,
    deviceSn: r.deviceSn,
    dataOrigin: r.dataOrigin,
  });
}

export function cgmRecordFromWire(w: CgmRecordWire): CgmRecordInput {
  return {
    eventIndex: w.eventIndex,
    historyId: w.historyId,
    sensorIndex: w.sensorIndex,
    eventType: w.eventType,
    rawGlucose: w.eventData,
    deviceTime: w.deviceTime,
    deviceSn: w.deviceSn,
    dataOrigin: w.dataOrigin,
  };
}

/** A meter reading as the calls carry it: the clock in `dateTime`, mg/dL in `statusShort0`, the flags in `statusByte0`. */
export function meterRecordToWire(r: MeterRecordInput): MeterRecordWire {
  return setOnly({
    dateTime: r.deviceTime,
    statusShort0: r.mgdl,
    statusByte0: r.flags,
    deviceSn: r.deviceSn,
  });
}

export function meterRecordFromWire(w: MeterRecordWire): MeterRecordInput {
  return {
    deviceTime: w.dateTime,
    mgdl: w.statusShort0,
    flags: w.statusByte0,
    deviceSn: w.deviceSn,
  };
}

/** The app's records of a device kind. */
export type RecordOf<K extends DeviceKindName> = {
  equil: PumpRecordInput;
  aidex: CgmRecordInput;
  gocheck: MeterRecordInput;
}[K];

const FROM_WIRE: { [K in DeviceKindName]: (wire: never) => RecordOf<K> } = {
  equil: pumpRecordFromWire,
  aidex: cgmRecordFromWire,
  gocheck: meterRecordFromWire,
};

/** Records of `kind` already checked by its schema (app/schemas/upload.ts), in the app's names. */
export function recordsFromWire<K extends DeviceKindName>(
  kind: K,
  records: readonly unknown[],
): RecordOf<K>[] {
  const from = FROM_WIRE[kind] as (wire: unknown) => RecordOf<K>;
  return records.map(from);
}

/**
 * The handheld's settings in the app's names. The call carries them under the device software's
 * names, two of them misspelt (`maxiumBasalRate`, `lowReseverThreshold`), the carbohydrate ratio
 * as `defaultCho` and the insulin sensitivity as `sensitiveSilver`; `doubleBolus` may be 0 or 1.
 */
export function pumpSettingsFromWire(w: PumpSettingWire): PumpSettingsInput {
  return {
    pid: w.pid,
    pdaSn: w.pdaSn,
    pdaVersion: w.pdaVersion,
    lowBg: w.lowBg,
    highBg: w.highBg,
    carbRatio: w.defaultCho,
    sensitivity: w.sensitiveSilver,
    originBasal: w.originBasal,
    bolusRate: w.bolusRate,
    maxBolus: w.maxBolus,
    doubleBolus: w.doubleBolus === undefined ? undefined : Boolean(w.doubleBolus),
    effectiveTime: w.effectiveTime,
    maxBasalRate: w.maxiumBasalRate,
    bolusIncrement: w.bolusIncrement,
    quickBolusIncrement: w.quickBolusIncrement,
    lowReserveThreshold: w.lowReseverThreshold,
    tempBasalRate: w.tempBasalRate,
  };
}
