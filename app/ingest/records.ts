/**
 * The device records an upload brings, in the app's names: what the browser reads from a device
 * and the ingestion rules take. The upload calls carry them under the device protocol's field
 * names; app/wire/upload.ts maps between the two.
 */

/**
 * The raw fields of an Equil pump history record (28 bytes, docs/device-protocols.md). The two
 * 16-bit values hold rates in most records; some event types reuse them for other figures.
 */
export interface PumpRecordFields {
  /** The handheld's record number. */
  recordId: number;
  eventIndex: number;
  eventPort: number;
  eventType: number;
  eventUrgency: number;
  eventValue: number;
  /** Battery level as the handheld reports it. */
  battery: number;
  /** Insulin left in the reservoir as the handheld reports it. */
  reservoir: number;
  /**
   * The basal rate in steps of 0.00625 U/h; in BG records (port 3 type 0) the BG in mg/dL; in the
   * bolus calculator's records (port 0) its own figures.
   */
  basalRateRaw: number;
  /**
   * The bolus rate in steps of 0.00625 U/h; in carbohydrate records (port 3 type 1 and the
   * calculator's port 0 type 5) the carbohydrate; in the calculator's suggested and confirmed
   * boluses (port 0 types 6 and 7) hundredths of a unit.
   */
  bolusRateRaw: number;
}

/**
 * A pump history record as uploaded: the handheld's local clock `deviceTime`
 * ("YYYY-MM-DD HH:mm:ss"), its own zone string `pdaRecordTimeZone` ("GMT+01:00") when read, the
 * zone the operator chose `recordTimeZone`, and the serial number and patient when the record
 * names them (they must be the upload's).
 */
export interface PumpRecordInput extends PumpRecordFields {
  deviceTime: string;
  pdaSn?: string | undefined;
  pid?: number | undefined;
  recordTimeZone?: string | undefined;
  pdaRecordTimeZone?: string | undefined;
}

/**
 * A CGM (AiDEX) history record as uploaded: `rawGlucose` in the device's unit (mg/dL = 1.8 x
 * raw); event types 7 and 8 are readings; `dataOrigin` 3 marks a blood value typed in by hand.
 */
export interface CgmRecordInput {
  eventIndex: number;
  historyId?: number | undefined;
  sensorIndex?: number | undefined;
  eventType: number;
  rawGlucose: number;
  deviceTime: string;
  deviceSn?: string | undefined;
  dataOrigin?: number | undefined;
}

/** A blood-glucose meter reading as uploaded: the meter's clock, mg/dL and its flag byte. */
export interface MeterRecordInput {
  deviceTime: string;
  mgdl: number;
  flags: number;
  deviceSn?: string | undefined;
}

/**
 * The handheld's settings as uploaded, in its units: the target lows and highs and the insulin
 * sensitivity in tenths of mg/dL per half-hour segment, the carbohydrate ratio in g/U; the other
 * settings' scales are not known and are kept as read.
 */
export interface PumpSettingsInput {
  pid?: number | undefined;
  pdaSn: string;
  pdaVersion: string;
  lowBg: number[];
  highBg: number[];
  carbRatio: number[];
  sensitivity: number[];
  originBasal?: number | undefined;
  bolusRate?: number | undefined;
  maxBolus?: number | undefined;
  doubleBolus?: boolean | undefined;
  /** Active insulin time, min. */
  effectiveTime?: number | undefined;
  maxBasalRate?: number | undefined;
  bolusIncrement?: number | undefined;
  quickBolusIncrement?: number | undefined;
  lowReserveThreshold?: number | undefined;
  tempBasalRate?: number | undefined;
}
