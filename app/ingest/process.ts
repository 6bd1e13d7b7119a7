import type { CgmRecordInput, MeterRecordInput, PumpRecordInput } from "./records";
import {
  isKnownTimeZone,
  parseWallClock,
  WallClockResolver,
  type ResolvedTime,
} from "./device-time";
import { pumpTimeZone } from "./device-zone";
import {
  BolusCheck,
  CARB_MAX_G,
  derivePumpRecord,
  isKnownPumpEvent,
  PUMP_BG_MAX_MGDL,
  PUMP_BG_MIN_MGDL,
  type PumpDerived,
} from "./pump-rules";
import { carbGrams } from "~/report/pump-carbs";
import { isCarbRecord } from "~/report/pump-records";

/**
 * Turns validated device records into the rows the ingestion module stores, one upload at a time,
 * in the order the device wrote them (pure: no database). A processor keeps only what the rules
 * need from earlier records (the previous instant per zone, the open bolus calculation), so an
 * upload of any size is processed slice by slice in constant memory.
 *
 * A record that breaks a rule refuses the whole upload: `add` answers the translation key and the
 * record's position (1-based, across the upload), and the caller writes nothing.
 */

export type Refusal = { key: string; values: Record<string, string | number> };
export type Added<Row> = { ok: true; rows: Row[] } | { ok: false; refusal: Refusal };

/** What the summary of an upload reports beyond inserted and duplicate counts. */
export interface UploadCounters {
  dstGap: number;
  dstOverlap: number;
  skipped: number;
  first: number | null;
  last: number | null;
}

/** CGM readings: mg/dL = 1.8 x the raw value; event types 7 and 8 are readings. */
export const CGM_MGDL_PER_RAW = 1.8;
export const CGM_READING_TYPES: ReadonlySet<number> = new Set([7, 8]);
/** dataOrigin 3: a blood value typed into the CGM handheld by hand. */
export const CGM_MANUAL_ORIGIN = 3;
/** Glucose values a device can report, mg/dL. */
export const GLUCOSE_MIN_MGDL = 10;
export const GLUCOSE_MAX_MGDL = 600;

abstract class Processor<In, Row> {
  readonly counters: UploadCounters = {
    dstGap: 0,
    dstOverlap: 0,
    skipped: 0,
    first: null,
    last: null,
  };
  private readonly resolvers = new Map<string, WallClockResolver>();
  private position = 0;

  constructor(protected readonly defaultZone: string) {}

  /** Processes the next records of the upload; nothing is kept of a refused batch. */
  add(records: readonly In[]): Added<Row> {
    const rows: Row[] = [];
    for (const record of records) {
      this.position++;
      const out = this.row(record, this.position);
      if ("key" in out)
        return {
          ok: false,
          refusal: { key: out.key, values: { position: this.position, ...out.values } },
        };
      if (out.row) rows.push(out.row);
      else this.counters.skipped++;
    }
    return { ok: true, rows };
  }

  protected abstract row(
    record: In,
    position: number,
  ): { row: Row | null } | { key: string; values?: Record<string, string | number> };

  /** The instant of a device time in `zone`, counted in the summary; null when the time is not a real one. */
  protected instant(deviceTime: string, zone: string): ResolvedTime | null {
    const wall = parseWallClock(deviceTime);
    if (wall === null) return null;
    let resolver = this.resolvers.get(zone);
    if (!resolver) this.resolvers.set(zone, (resolver = new WallClockResolver(zone)));
    const resolved = resolver.resolve(wall);
    if (resolved.dst === "gap") this.counters.dstGap++;
    if (resolved.dst === "overlap") this.counters.dstOverlap++;
    return resolved;
  }

  protected seen(instant: number) {
    const c = this.counters;
    if (c.first === null || instant < c.first) c.first = instant;
    if (c.last === null || instant > c.last) c.last = instant;
  }
}

export type PumpRow = Pick<
  PumpRecordInput,
  | "eventIndex"
  | "eventPort"
  | "eventType"
  | "eventUrgency"
  | "eventValue"
  | "recordId"
  | "battery"
  | "reservoir"
  | "basalRateRaw"
  | "bolusRateRaw"
  | "deviceTime"
> & {
  recordTimeZone: string;
  pdaRecordTimeZone: string | null;
  dateTime: number;
  derived: PumpDerived;
};

/** The insulin pump's history records. The handheld's own zone string wins over the operator's choice. */
export class PumpProcessor extends Processor<PumpRecordInput, PumpRow> {
  private readonly bolusCheck = new BolusCheck();

  constructor(
    private readonly target: { pid: number; pdaSn: string; version: string | null },
    zone: string,
  ) {
    super(zone);
  }

  protected row(r: PumpRecordInput) {
    if (r.pdaSn !== undefined && r.pdaSn !== this.target.pdaSn)
      return { key: "errors.recordDevice" };
    if (r.pid !== undefined && r.pid !== this.target.pid) return { key: "errors.recordPatient" };
    if (!isKnownPumpEvent(r.eventPort, r.eventType))
      return { key: "errors.unknownEvent", values: { code: `${r.eventPort}/${r.eventType}` } };
    if (
      r.eventPort === 3 &&
      r.eventType === 0 &&
      (r.basalRateRaw < PUMP_BG_MIN_MGDL || r.basalRateRaw > PUMP_BG_MAX_MGDL)
    )
      return { key: "errors.glucoseRange" };
    if (isCarbRecord(r) && carbGrams(r.bolusRateRaw, this.target.version).grams > CARB_MAX_G)
      return { key: "errors.carbRange" };
    const zone = this.zoneOf(r);
    if (zone === null) return { key: "errors.timeZone" };
    const time = this.instant(r.deviceTime, zone);
    if (!time) return { key: "errors.deviceTime" };
    this.bolusCheck.add(r.recordId, r.eventPort, r.eventType, r.bolusRateRaw);
    this.seen(time.instant);
    // Field by field: an upload is tens of thousands of records.
    const row: PumpRow = {
      recordId: r.recordId,
      eventIndex: r.eventIndex,
      eventPort: r.eventPort,
      eventType: r.eventType,
      eventUrgency: r.eventUrgency,
      eventValue: r.eventValue,
      battery: r.battery,
      reservoir: r.reservoir,
      basalRateRaw: r.basalRateRaw,
      bolusRateRaw: r.bolusRateRaw,
      deviceTime: r.deviceTime,
      recordTimeZone: zone,
      pdaRecordTimeZone: r.pdaRecordTimeZone ?? null,
      dateTime: time.instant,
      derived: derivePumpRecord(r, this.target.version),
    };
    return { row };
  }

  /** The handheld's zone string, else the zone the operator chose for the record, else the upload's; null when one sent is unreadable. */
  private zoneOf(r: PumpRecordInput): string | null {
    if (r.pdaRecordTimeZone) return pumpTimeZone(r.pdaRecordTimeZone);
    if (r.recordTimeZone) return isKnownTimeZone(r.recordTimeZone) ? r.recordTimeZone : null;
    return this.defaultZone;
  }

  /** The record ids of flagged bolus calculations, once every record was added. */
  flagged(): number[] {
    return this.bolusCheck.finish();
  }
}

export type CgmRow = {
  eventIndex: number;
  historyId: number | null;
  sensorIndex: number | null;
  eventType: number;
  mgdl: number;
  deviceTime: string;
  dateTime: number;
  manual: boolean;
};

/** AiDEX CGM history: readings (types 7 and 8) and manual blood values (dataOrigin 3); other events are skipped. */
export class CgmProcessor extends Processor<CgmRecordInput, CgmRow> {
  constructor(
    private readonly deviceSn: string,
    zone: string,
  ) {
    super(zone);
  }

  protected row(r: CgmRecordInput) {
    if (r.deviceSn !== undefined && r.deviceSn !== this.deviceSn)
      return { key: "errors.recordDevice" };
    const manual = r.dataOrigin === CGM_MANUAL_ORIGIN;
    if (!manual && !CGM_READING_TYPES.has(r.eventType)) return { row: null };
    const mgdl = Math.round(r.rawGlucose * CGM_MGDL_PER_RAW * 10) / 10;
    if (mgdl < GLUCOSE_MIN_MGDL || mgdl > GLUCOSE_MAX_MGDL) return { key: "errors.glucoseRange" };
    const time = this.instant(r.deviceTime, this.defaultZone);
    if (!time) return { key: "errors.deviceTime" };
    this.seen(time.instant);
    return {
      row: {
        eventIndex: r.eventIndex,
        historyId: r.historyId ?? null,
        sensorIndex: r.sensorIndex ?? null,
        eventType: r.eventType,
        mgdl,
        deviceTime: r.deviceTime,
        dateTime: time.instant,
        manual,
      },
    };
  }
}

export type MeterRow = { recordKey: string; mgdl: number; deviceTime: string; dateTime: number };

/** Blood-glucose meter readings; a meter keeps no record number, so its clock time identifies a reading. */
export class MeterProcessor extends Processor<MeterRecordInput, MeterRow> {
  constructor(
    private readonly deviceSn: string,
    zone: string,
  ) {
    super(zone);
  }

  protected row(r: MeterRecordInput) {
    if (r.deviceSn !== undefined && r.deviceSn !== this.deviceSn)
      return { key: "errors.recordDevice" };
    if (r.mgdl < GLUCOSE_MIN_MGDL || r.mgdl > GLUCOSE_MAX_MGDL)
      return { key: "errors.glucoseRange" };
    const time = this.instant(r.deviceTime, this.defaultZone);
    if (!time) return { key: "errors.deviceTime" };
    this.seen(time.instant);
    return {
      row: {
        recordKey: r.deviceTime.replace("T", " "),
        mgdl: r.mgdl,
        deviceTime: r.deviceTime.replace("T", " "),
        dateTime: time.instant,
      },
    };
  }
}
