import type { DayWindow } from "./day";

/**
 * The Equil pump's history records as the app stores them (PumpRecord, instants as epoch ms) and
 * what their event codes mean: which records are BG, carbohydrate or bolus-calculator entries,
 * which carry the basal and bolus rates, and which are alarms (28-byte record,
 * docs/device-protocols.md).
 */

/** One pump history record as stored (PumpRecord), with the instant as epoch ms. */
export interface PumpHistoryRecord {
  /** UTC instant, epoch ms. */
  readonly dateTime: number;
  readonly eventPort: number;
  readonly eventType: number;
  readonly eventUrgency: number;
  readonly eventValue: number;
  /** Basal rate raw (x 0.00625 U/h); BG in mg/dL in BG records (3/0). */
  readonly basalRateRaw: number;
  /** Bolus rate raw (x 0.00625 U/h); the carbohydrate in carbohydrate records. */
  readonly bolusRateRaw: number;
  readonly battery: number;
  readonly reservoir: number;
  /** Device event index: orders records that share an instant. */
  readonly eventIndex?: number;
  /**
   * Part of a bolus calculation whose confirmed bolus differs from the suggestion by more than
   * 2 U (PumpRecord.bolusCheckFailed, set when the record was uploaded).
   */
  readonly flagged?: boolean;
  /** Passed through to the view model (row keys, links). */
  readonly id?: string | number;
}

/** U/h per raw rate step (basal and bolus rates of the history record). */
export const RATE_STEP_UH = 0.00625;
/** U per step of the bolus calculator's suggested and confirmed boluses (bolusRateRaw in hundredths). */
export const CALCULATOR_UNIT_STEP = 0.01;
/** The bolus calculator's record types (port 0): the suggested and the confirmed bolus. */
export const CALCULATOR_SUGGESTED = 6;
export const CALCULATOR_CONFIRMED = 7;

/** Pump alarm and event kinds (AlarmKind names of prisma/schema.prisma, plus rewind and prime). */
export type PumpAlarmKind =
  | "low_insulin"
  | "no_insulin"
  | "occlusion"
  | "suspend"
  | "auto_off"
  | "low_power"
  | "no_power"
  | "rewind"
  | "prime";

/** Our display grouping: alarm = delivery stopped or impossible, warning = act soon, event = information. */
export type AlarmSeverity = "alarm" | "warning" | "event";

interface AlarmCode {
  readonly port: number;
  readonly type: number;
  /** undefined: any urgency. */
  readonly urgency?: number;
  readonly kind: PumpAlarmKind;
  readonly severity: AlarmSeverity;
}

/** The handheld's event codes (port/type/urgency; docs/device-protocols.md). Others are not alarms. */
export const PUMP_ALARM_CODES: readonly AlarmCode[] = [
  { port: 4, type: 1, urgency: 1, kind: "low_insulin", severity: "warning" },
  { port: 4, type: 1, urgency: 2, kind: "no_insulin", severity: "alarm" },
  { port: 4, type: 2, kind: "occlusion", severity: "alarm" },
  { port: 4, type: 3, kind: "occlusion", severity: "alarm" },
  { port: 4, type: 5, urgency: 0, kind: "suspend", severity: "event" },
  { port: 4, type: 6, urgency: 2, kind: "auto_off", severity: "alarm" },
  { port: 5, type: 0, urgency: 1, kind: "low_power", severity: "warning" },
  { port: 5, type: 0, urgency: 2, kind: "no_power", severity: "alarm" },
  { port: 4, type: 8, kind: "rewind", severity: "event" },
  { port: 4, type: 7, kind: "prime", severity: "event" },
];

/** The alarm kind of a record's event code, or null. */
export function alarmOf(
  r: Pick<PumpHistoryRecord, "eventPort" | "eventType" | "eventUrgency">,
): { kind: PumpAlarmKind; severity: AlarmSeverity } | null {
  for (const c of PUMP_ALARM_CODES) {
    if (
      c.port === r.eventPort &&
      c.type === r.eventType &&
      (c.urgency === undefined || c.urgency === r.eventUrgency)
    ) {
      return { kind: c.kind, severity: c.severity };
    }
  }
  return null;
}

/** BG entered on the handheld: port 3 type 0. */
export function isBgRecord(r: Pick<PumpHistoryRecord, "eventPort" | "eventType">): boolean {
  return r.eventPort === 3 && r.eventType === 0;
}

/** Carbohydrate events: port 3 type 1, and port 0 type 5 (the bolus calculator's). */
export function isCarbRecord(r: Pick<PumpHistoryRecord, "eventPort" | "eventType">): boolean {
  return (r.eventPort === 3 && r.eventType === 1) || (r.eventPort === 0 && r.eventType === 5);
}

/** The bolus calculator's steps (port 0): its figures, not rates, are in the rate fields. */
export function isCalculatorRecord(r: Pick<PumpHistoryRecord, "eventPort">): boolean {
  return r.eventPort === 0;
}

/** Whether basalRateRaw of a record is a basal rate (every record but BG and bolus-calculator records). */
export function carriesBasalRate(r: Pick<PumpHistoryRecord, "eventPort" | "eventType">): boolean {
  return !isBgRecord(r) && !isCalculatorRecord(r);
}

/** Whether bolusRateRaw of a record is a bolus rate (every record but carbohydrate and bolus-calculator records). */
export function carriesBolusRate(r: Pick<PumpHistoryRecord, "eventPort" | "eventType">): boolean {
  return !isCarbRecord(r) && !isCalculatorRecord(r);
}

/**
 * Whether a record carries both rates (every record outside ports 0 and 3). The loader uses this
 * to pick the "previous" record: the last one before the day, which gives the rates at its start.
 */
export function carriesRates(r: Pick<PumpHistoryRecord, "eventPort" | "eventType">): boolean {
  return carriesBasalRate(r) && carriesBolusRate(r);
}

/** The records with a finite instant, in order: instant, then event index, then the order given. */
export function sortedRecords(records: readonly PumpHistoryRecord[]): PumpHistoryRecord[] {
  return records
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => Number.isFinite(r.dateTime))
    .sort(
      (a, b) =>
        a.r.dateTime - b.r.dateTime || (a.r.eventIndex ?? 0) - (b.r.eventIndex ?? 0) || a.i - b.i,
    )
    .map(({ r }) => r);
}

/**
 * Picks, from records sorted by time, the inputs of pump-day.ts `buildPumpDay` for one day window: the
 * day's records, the last rate-carrying record before it and the first record after it (what a
 * loader asks the database for; used by tests and benchmarks on in-memory data).
 */
export function splitAroundDay(
  sorted: readonly PumpHistoryRecord[],
  window: Pick<DayWindow, "start" | "end">,
): {
  previous: PumpHistoryRecord | null;
  records: PumpHistoryRecord[];
  next: PumpHistoryRecord | null;
} {
  let previous: PumpHistoryRecord | null = null;
  let next: PumpHistoryRecord | null = null;
  const records: PumpHistoryRecord[] = [];
  for (const r of sorted) {
    if (r.dateTime < window.start) {
      if (carriesRates(r)) previous = r;
    } else if (r.dateTime < window.end) {
      records.push(r);
    } else {
      next = r;
      break;
    }
  }
  return { previous, records, next };
}
