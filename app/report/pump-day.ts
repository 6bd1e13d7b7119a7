/**
 * The DAILY (pump) page model: one local day of Equil pump history turned into a basal step line,
 * bolus events, carbohydrate entries, meter values entered on the pump, alarms and day totals.
 * The day's glucose (`glucose`: the BG entered on the pump and, when given, the meter readings)
 * is the one list every pump chart draws, the DAILY chart and the printed report's alike.
 *
 * Record layout (28-byte history record, docs/device-protocols.md): basalRateRaw = basal rate raw
 * x 0.00625 U/h (the BG value in mg/dL in BG records, port 3 type 0), bolusRateRaw = bolus rate
 * raw x 0.00625 U/h (the grams in carbohydrate records, port 3 type 1), then battery and
 * reservoir. The bolus calculator's records (port 0) carry its own figures instead of rates. The
 * records hold no bolus amounts: a bolus's units are its rate integrated over time. Basal rate =
 * raw x 0.00625 U/h.
 *
 * Rate timeline: every record carries the rates in force from its instant on (prisma/demo-data.ts
 * writes a port 4 type 0 record whenever a rate changes, and every other event record also
 * carries the current rates). So:
 * - the bolus rate is read from every record except carbohydrate and bolus-calculator records;
 * - the basal rate from every record except BG records (3/0), whose basalRateRaw is glucose, and
 *   bolus-calculator records;
 * - a rate holds until the next record that carries one; the last one holds to the end of the
 *   day, or to `until` (the end of the known data, e.g. "now" for today).
 * Integrals are exact: raw steps x milliseconds are integers (< 2^53 for any day), converted to
 * units once: U = sum(raw x ms) x 0.00625 / 3 600 000.
 */
import { type GlucoseLimits } from "../metrics/alarm";
import { isValidReading } from "../metrics/readings";
import { ZoneOffsets } from "../metrics/timezone";
import type { BgReadingInput } from "./bg-range";
import { clockOf, dayWindow, type DayWindow } from "./day";
import { classify, roundHalfUp, type GlucoseClass } from "./units";

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
/** Raw steps per U/h (1 / 0.00625): dividing by it gives correctly rounded rates (136 -> 0.85). */
const RAW_PER_UH = 160;
/** U per step of the bolus calculator's suggested and confirmed boluses (bolusRateRaw in hundredths). */
export const CALCULATOR_UNIT_STEP = 0.01;
/** The bolus calculator's record types (port 0): the suggested and the confirmed bolus. */
export const CALCULATOR_SUGGESTED = 6;
export const CALCULATOR_CONFIRMED = 7;
/** Minimum length of an extended bolus on a chart, ms. */
export const MIN_EXTENSION_DISPLAY_MS = 480_000;
/** Bolus amounts are shown to this step, U (the pump's bolus increment, seed pump setting). */
export const BOLUS_DISPLAY_STEP_U = 0.05;
/** A constant-rate bolus stretch shorter than this is an immediate (normal) part. */
export const EXTENDED_MIN_MS = 30 * 60_000;
/** A bolus stretch at this rate or faster is an immediate part whatever its length, U/h. */
export const FAST_BOLUS_MIN_UH = 30;
/** Bolus markers ("big bolus" entries) are drawn only when the day has at most this many. */
export const BIG_BOLUS_MAX_SHOWN = 25;
/** Carbohydrate limit, g: a value above it is taken as ten times too large. */
export const CARB_LIMIT_G = 200;
/** Handheld versions below this store carbohydrate x 10. */
export const CARB_VERSION_THRESHOLD = "5.2.0";
/**
 * The special handheld versions 5.0.10 and 5.0.3C. They are known only as special next to the
 * 5.2.0 threshold, without saying how; a plain numeric comparison would already put both below
 * 5.2.0, so naming them only makes sense as exceptions.
 * Decision: they are treated as the newer carbohydrate encoding (no division by 10 for the
 * version); the > 200 g rule still applies. A correction is a one-line change here.
 */
export const CARB_SPECIAL_VERSIONS: readonly string[] = ["5.0.10", "5.0.3C"];

const HOUR_MS = 3_600_000;

// ---------------------------------------------------------------------------------------------
// Firmware versions and carbohydrate values

/** A handheld version "x.y.z" with an optional letter suffix ("5.0.3C"). */
export interface FirmwareVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly suffix: string;
  readonly text: string;
}

/** Parses "x.y.z" (optional leading "v", optional letter suffix); null for anything else. */
export function parseFirmwareVersion(text: string | null | undefined): FirmwareVersion | null {
  if (typeof text !== "string") return null;
  const m = /^v?(\d+)\.(\d+)\.(\d+)([A-Za-z]*)$/i.exec(text.trim());
  if (!m) return null;
  return {
    major: Number(m[1]),
    minor: Number(m[2]),
    patch: Number(m[3]),
    suffix: m[4]!.toUpperCase(),
    text: text.trim(),
  };
}

/** Numeric comparison part by part (5.0.10 > 5.0.9); equal numbers: no suffix sorts first. */
export function compareVersions(a: FirmwareVersion, b: FirmwareVersion): number {
  return (
    a.major - b.major ||
    a.minor - b.minor ||
    a.patch - b.patch ||
    (a.suffix < b.suffix ? -1 : a.suffix > b.suffix ? 1 : 0)
  );
}

/**
 * How a handheld version stores carbohydrate: "x10" (below 5.2.0: divide by 10), "grams"
 * (5.2.0 and later, and the special versions), or "unknown" (no version, or not x.y.z: only the
 * > 200 g rule applies).
 */
export type CarbEncoding = "x10" | "grams" | "unknown";

export function carbEncodingOf(version: string | null | undefined): CarbEncoding {
  const v = parseFirmwareVersion(version);
  if (v === null) return "unknown";
  if (CARB_SPECIAL_VERSIONS.some((s) => s.toUpperCase() === v.text.toUpperCase().replace(/^V/, "")))
    return "grams";
  return compareVersions(v, parseFirmwareVersion(CARB_VERSION_THRESHOLD)!) < 0 ? "x10" : "grams";
}

/** Grams of one carbohydrate event and which rules changed it. */
export interface CarbValue {
  readonly grams: number;
  /** Divided by 10 because the handheld is older than 5.2.0. */
  readonly byVersion: boolean;
  /** Divided by 10 because the value was still above 200 g. */
  readonly byLimit: boolean;
}

/**
 * The carbohydrate rules: values from handhelds below 5.2.0 are divided by 10; a value still
 * above 200 is ten times too large and divided by 10 (once).
 */
export function carbGrams(raw: number, version: string | null | undefined): CarbValue {
  const byVersion = carbEncodingOf(version) === "x10";
  let grams = byVersion ? raw / 10 : raw;
  const byLimit = grams > CARB_LIMIT_G;
  if (byLimit) grams /= 10;
  return { grams, byVersion, byLimit };
}

// ---------------------------------------------------------------------------------------------
// Event codes

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

// ---------------------------------------------------------------------------------------------
// View-model types

/** A stretch of constant rate. */
export interface RateStep {
  /** Epoch ms, inclusive. */
  readonly start: number;
  /** Epoch ms, exclusive. */
  readonly end: number;
  readonly rateUh: number;
}

export type BolusKind = "normal" | "extended" | "dual";

/** The immediate or the extended part of a bolus, within the day. */
export interface BolusPart {
  readonly start: number;
  readonly end: number;
  readonly durationMs: number;
  /** Exact units delivered in this part within the day. */
  readonly units: number;
  /** Mean rate over the part, U/h. */
  readonly rateUh: number;
}

export interface ExtendedBolusPart extends BolusPart {
  /** Length to draw: at least {@link MIN_EXTENSION_DISPLAY_MS}, kept inside the day. */
  readonly displayDurationMs: number;
  readonly displayEnd: number;
}

/** One bolus (a run of non-zero bolus rate), clipped to the day. */
export interface BolusEvent {
  readonly kind: BolusKind;
  /** Start within the day (the day's start when it began the evening before). */
  readonly start: number;
  readonly end: number;
  /** "HH:mm" local time of `start`. */
  readonly clock: string;
  /** Exact units delivered within the day (integral of the rate). */
  readonly units: number;
  /** `units` rounded to 0.05 U for display. */
  readonly unitsDisplay: number;
  readonly immediate: BolusPart | null;
  readonly extended: ExtendedBolusPart | null;
  /** The bolus began before the day (split at the day's start). */
  readonly startsBeforeDay: boolean;
  /** The bolus goes on after the day (split at the day's end). */
  readonly endsAfterDay: boolean;
  /** Still running at the end of the known data (no record ends it). */
  readonly open: boolean;
  /** Its constant-rate steps within the day. */
  readonly steps: readonly RateStep[];
}

export type CarbSource = "pump" | "calculator";

export interface CarbEntryView {
  readonly time: number;
  readonly clock: string;
  readonly grams: number;
  /** bolusRateRaw as stored. */
  readonly raw: number;
  /** 3/1 = "pump", 0/5 = "calculator". */
  readonly source: CarbSource;
  readonly byVersion: boolean;
  readonly byLimit: boolean;
  /** Entered through a bolus calculation that was marked at upload (see {@link FlaggedCalculationView}). */
  readonly flagged: boolean;
  readonly id?: string | number;
}

/**
 * A bolus calculation marked at upload: a run of flagged calculator records (port 0, rising
 * types, one after the other) whose confirmed bolus differs from the suggestion by more than 2 U.
 * The amounts are in U; null when the run lacks that record.
 */
export interface FlaggedCalculationView {
  readonly time: number;
  readonly clock: string;
  readonly suggestedU: number | null;
  readonly confirmedU: number | null;
  /** |confirmed - suggested|, U (null without both). */
  readonly differenceU: number | null;
  readonly id?: string | number;
}

export interface PumpBgView {
  readonly time: number;
  readonly clock: string;
  readonly mgdl: number;
  /** Against the patient's limits (null when none were given). */
  readonly class: GlucoseClass | null;
  readonly id?: string | number;
}

/** Where a glucose value of the pump charts comes from: entered on the pump (3/0), or a meter / finger-prick record. */
export type GlucoseSource = "pump" | "meter";

/** A glucose value as the pump charts draw it. */
export interface GlucosePointView extends PumpBgView {
  readonly source: GlucoseSource;
}

export interface PumpAlarmView {
  readonly time: number;
  readonly clock: string;
  readonly kind: PumpAlarmKind;
  readonly severity: AlarmSeverity;
  readonly code: string;
  readonly id?: string | number;
}

/** Exact day totals. */
export interface PumpDayTotals {
  /** basal + bolus, U. */
  readonly insulin: number;
  readonly basal: number;
  readonly bolus: number;
  /** Percent of `insulin` (null when no insulin). */
  readonly basalPercent: number | null;
  readonly bolusPercent: number | null;
  readonly carbs: number;
  readonly bolusCount: number;
  readonly carbCount: number;
}

/**
 * A day's insulin totals rounded for display: units to 0.01 U, basalPercent to 0.1 % and
 * bolusPercent = 100 - basalPercent (so they add up to 100); percents null without insulin.
 * `recordCount`: the day's number of pump history records. The API answers it as
 * `pumpTotalCount` (app/wire/patient-data.ts).
 */
export interface InsulinTotals {
  readonly total: number;
  readonly basal: number;
  readonly basalPercent: number | null;
  readonly bolus: number;
  readonly bolusPercent: number | null;
  readonly recordCount: number;
}

/** One row of the table under the chart. */
export type PumpTableRow =
  | {
      readonly kind: "basal";
      readonly time: number;
      readonly clock: string;
      readonly rateUh: number;
    }
  | {
      readonly kind: "bolus";
      readonly time: number;
      readonly clock: string;
      readonly bolus: BolusEvent;
    }
  | {
      readonly kind: "carbs";
      readonly time: number;
      readonly clock: string;
      readonly carbs: CarbEntryView;
    }
  | {
      readonly kind: "check";
      readonly time: number;
      readonly clock: string;
      readonly check: FlaggedCalculationView;
    }
  | {
      readonly kind: "bg";
      readonly time: number;
      readonly clock: string;
      readonly bg: GlucosePointView;
    }
  | {
      readonly kind: "alarm";
      readonly time: number;
      readonly clock: string;
      readonly alarm: PumpAlarmView;
    };

export interface PumpDayModel {
  readonly window: DayWindow;
  /** End of the drawn/integrated time: min(window.end, until). */
  readonly dataEnd: number;
  /** The day has at least one record. */
  readonly hasData: boolean;
  readonly pdaVersion: string | null;
  readonly carbEncoding: CarbEncoding;
  readonly basal: {
    /** Steps covering [first known rate, dataEnd); starts at the day's start when the previous record is given. */
    readonly steps: readonly RateStep[];
    /** Exact basal units. */
    readonly units: number;
    /** Rate in force at the day's start, U/h (null when unknown). */
    readonly rateAtStart: number | null;
  };
  readonly boluses: readonly BolusEvent[];
  /** Bolus markers are drawn only when there are at most 25 boluses. */
  readonly showBolusMarkers: boolean;
  readonly carbs: readonly CarbEntryView[];
  /** The day's bolus calculations marked at upload, in time order. */
  readonly flaggedCalculations: readonly FlaggedCalculationView[];
  /** BG values entered on the pump (3/0). */
  readonly bg: readonly PumpBgView[];
  /**
   * The day's glucose as every pump chart draws it: the pump's BG entries and the meter readings
   * of the day, in time order (a pump entry before a meter reading at the same instant).
   */
  readonly glucose: readonly GlucosePointView[];
  readonly alarms: readonly PumpAlarmView[];
  readonly totals: PumpDayTotals;
  readonly insulinTotals: InsulinTotals;
  /** Battery and reservoir of the day's last record (null without records). */
  readonly device: {
    readonly time: number;
    readonly battery: number;
    readonly reservoir: number;
  } | null;
  readonly table: readonly PumpTableRow[];
}

export interface PumpDayInput {
  readonly date: string;
  readonly timeZone: string;
  /** The day's records; records outside the day are used only for the rate timeline. */
  readonly records: readonly PumpHistoryRecord[];
  /** The last record before the day that carries both rates (see {@link carriesRates}). */
  readonly previous?: PumpHistoryRecord | null;
  /** The first record after the day (lets a bolus running over midnight be classified and marked). */
  readonly next?: PumpHistoryRecord | null;
  /** Handheld firmware version (for the carbohydrate rules). */
  readonly pdaVersion?: string | null;
  /** End of the known data, epoch ms (e.g. now, for today); default the day's end. */
  readonly until?: number;
  /** The patient's range, mg/dL, for the class of BG entries. */
  readonly limits?: GlucoseLimits;
  /**
   * Meter / finger-prick readings (mg/dL), any order; those inside the day (and valid: finite,
   * at least 1 mg/dL) join the pump's BG entries in `glucose`. Readings at the same instant are
   * all kept (they are separate meter records).
   */
  readonly meterReadings?: readonly BgReadingInput[];
}

// ---------------------------------------------------------------------------------------------
// Rate timelines

interface RawStep {
  start: number;
  end: number;
  raw: number;
  /** true when no record ends this step (it runs to the end of the known data). */
  open: boolean;
}

function rawRate(x: number): number {
  return Number.isFinite(x) && x > 0 ? Math.round(x) : 0;
}

/**
 * Constant-rate steps from rate changes sorted by time: change i holds until change i+1, the last
 * until `horizon` (when it starts before it). Zero-length steps are skipped and equal neighbours
 * merged.
 */
function stepsOf(changes: readonly { time: number; raw: number }[], horizon: number): RawStep[] {
  const out: RawStep[] = [];
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    const last = i === changes.length - 1;
    const end = last ? Math.max(c.time, horizon) : changes[i + 1]!.time;
    if (end <= c.time) continue;
    const prev = out[out.length - 1];
    if (prev && prev.end === c.time && prev.raw === c.raw) {
      prev.end = end;
      prev.open = last;
    } else {
      out.push({ start: c.time, end, raw: c.raw, open: last });
    }
  }
  return out;
}

/** Units of raw x ms (one correctly rounded division of an exact integer). */
function unitsOf(rawMs: number): number {
  return rawMs / (RAW_PER_UH * HOUR_MS);
}

/** U/h of a raw rate. */
function uh(raw: number): number {
  return raw / RAW_PER_UH;
}

function clip(s: RawStep, from: number, to: number): RawStep | null {
  const start = Math.max(s.start, from);
  const end = Math.min(s.end, to);
  return end > start ? { start, end, raw: s.raw, open: s.open } : null;
}

/**
 * Immediate part: shorter than 30 min, or at 30 U/h or more (see {@link groupBoluses}). A step
 * still running at the end of the known data has no known length: only its rate decides.
 */
function isImmediate(s: RawStep): boolean {
  return uh(s.raw) >= FAST_BOLUS_MIN_UH || (!s.open && s.end - s.start < EXTENDED_MIN_MS);
}

/**
 * Groups the non-zero bolus steps into bolus events (our rule; the records name no kinds):
 * - a run of consecutive non-zero steps is a bolus;
 * - each step is "immediate" when it lasts < 30 min or runs at >= 30 U/h (a normal bolus is
 *   delivered fast; the demo pump uses 60 U/h), otherwise "extended" (a low rate over a longer
 *   time, like the demo's 2 h extended boluses);
 * - a run is split where an extended step is followed by an immediate one (a normal bolus given
 *   while an extended one runs starts a new event);
 * - kind: only immediate steps = normal; only extended = extended; immediate then extended =
 *   dual (double) wave.
 * Step lengths are the full lengths known from the records (also outside the day), so a bolus
 * split at midnight keeps its kind; pass `next` so that a bolus running at midnight has a known
 * end (without it, its last step is judged by its rate only).
 */
function groupBoluses(steps: readonly RawStep[]): RawStep[][] {
  const groups: RawStep[][] = [];
  let current: RawStep[] = [];
  for (const s of steps) {
    if (s.raw === 0) {
      if (current.length) groups.push(current);
      current = [];
      continue;
    }
    const prev = current[current.length - 1];
    if (prev && (prev.end !== s.start || (!isImmediate(prev) && isImmediate(s)))) {
      groups.push(current);
      current = [];
    }
    current.push(s);
  }
  if (current.length) groups.push(current);
  return groups;
}

function bolusPart(steps: readonly RawStep[]): BolusPart | null {
  if (steps.length === 0) return null;
  const start = steps[0]!.start;
  const end = steps[steps.length - 1]!.end;
  let rawMs = 0;
  for (const s of steps) rawMs += s.raw * (s.end - s.start);
  const units = unitsOf(rawMs);
  return { start, end, durationMs: end - start, units, rateUh: units / ((end - start) / HOUR_MS) };
}

/** Rounds to a step (0.05 U) after removing binary noise. */
export function roundToStep(x: number, step: number): number {
  const decimals = Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
  return roundHalfUp(Math.round(Number((x / step).toPrecision(12))) * step, decimals);
}

function compareRecords(
  a: { r: PumpHistoryRecord; i: number },
  b: { r: PumpHistoryRecord; i: number },
): number {
  return a.r.dateTime - b.r.dateTime || (a.r.eventIndex ?? 0) - (b.r.eventIndex ?? 0) || a.i - b.i;
}

// ---------------------------------------------------------------------------------------------
// The day model

/** Builds the DAILY page model of one local day (see the file comment and {@link PumpDayInput}). */
export function buildPumpDay(input: PumpDayInput): PumpDayModel {
  const window = dayWindow(input.date, input.timeZone);
  const dataEnd = Math.max(window.start, Math.min(window.end, input.until ?? window.end));
  const zone = new ZoneOffsets(window.timeZone, window.start - 86_400_000, window.end + 86_400_000);
  const version = input.pdaVersion ?? null;

  // All records with a finite instant, sorted (stable: instant, event index, input order).
  const all = [
    ...(input.previous ? [input.previous] : []),
    ...input.records,
    ...(input.next ? [input.next] : []),
  ]
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => Number.isFinite(r.dateTime))
    .sort(compareRecords)
    .map(({ r }) => r);
  const inDay = all.filter((r) => r.dateTime >= window.start && r.dateTime < dataEnd);
  const hasData = inDay.length > 0;

  // Basal: steps from rate-carrying records, clipped to the day.
  const basalChanges = all
    .filter(carriesBasalRate)
    .map((r) => ({ time: r.dateTime, raw: rawRate(r.basalRateRaw) }));
  const basalSteps: RateStep[] = [];
  let basalRawMs = 0;
  let rateAtStart: number | null = null;
  if (hasData) {
    for (const s of stepsOf(basalChanges, dataEnd)) {
      const c = clip(s, window.start, dataEnd);
      if (!c) continue;
      if (c.start === window.start) rateAtStart = uh(c.raw);
      basalRawMs += c.raw * (c.end - c.start);
      basalSteps.push({ start: c.start, end: c.end, rateUh: uh(c.raw) });
    }
  }

  // Boluses: steps from every record; grouped on full lengths, then clipped.
  const boluses: BolusEvent[] = [];
  let bolusRawMs = 0;
  if (hasData) {
    const bolusChanges = all
      .filter(carriesBolusRate)
      .map((r) => ({ time: r.dateTime, raw: rawRate(r.bolusRateRaw) }));
    for (const group of groupBoluses(stepsOf(bolusChanges, dataEnd))) {
      const first = group[0]!;
      const last = group[group.length - 1]!;
      if (last.end <= window.start || first.start >= dataEnd) continue;
      const immediate: RawStep[] = [];
      const extended: RawStep[] = [];
      for (const s of group) {
        const c = clip(s, window.start, dataEnd);
        if (!c) continue;
        (isImmediate(s) ? immediate : extended).push(c);
      }
      const clipped = [...immediate, ...extended];
      if (clipped.length === 0) continue;
      const kind: BolusKind = group.every(isImmediate)
        ? "normal"
        : group.some(isImmediate)
          ? "dual"
          : "extended";
      const imm = bolusPart(immediate);
      const ext = bolusPart(extended);
      const units = (imm?.units ?? 0) + (ext?.units ?? 0);
      for (const s of clipped) bolusRawMs += s.raw * (s.end - s.start);
      const start = clipped[0]!.start;
      const end = clipped[clipped.length - 1]!.end;
      boluses.push({
        kind,
        start,
        end,
        clock: clockOf(start, zone),
        units,
        unitsDisplay: roundToStep(units, BOLUS_DISPLAY_STEP_U),
        immediate: imm,
        extended: ext && {
          ...ext,
          displayDurationMs: Math.min(
            Math.max(ext.durationMs, MIN_EXTENSION_DISPLAY_MS),
            window.end - ext.start,
          ),
          displayEnd: Math.min(
            ext.start + Math.max(ext.durationMs, MIN_EXTENSION_DISPLAY_MS),
            window.end,
          ),
        },
        startsBeforeDay: first.start < window.start,
        // Running at midnight: a record after the day ends it, or none does (open at the day's end).
        endsAfterDay: last.end > window.end || (last.open && last.end >= window.end),
        open: last.open,
        steps: clipped.map((s) => ({ start: s.start, end: s.end, rateUh: uh(s.raw) })),
      });
    }
  }

  // Carbohydrate, BG and alarms from the day's records.
  const carbs: CarbEntryView[] = [];
  const bg: PumpBgView[] = [];
  const alarms: PumpAlarmView[] = [];
  for (const r of inDay) {
    const clock = clockOf(r.dateTime, zone);
    const id = r.id === undefined ? {} : { id: r.id };
    if (isCarbRecord(r)) {
      const v = carbGrams(r.bolusRateRaw, version);
      if (!(v.grams > 0)) continue;
      carbs.push({
        time: r.dateTime,
        clock,
        grams: v.grams,
        raw: r.bolusRateRaw,
        source: r.eventPort === 3 ? "pump" : "calculator",
        byVersion: v.byVersion,
        byLimit: v.byLimit,
        flagged: r.flagged === true,
        ...id,
      });
    } else if (isBgRecord(r)) {
      if (!(r.basalRateRaw > 0)) continue;
      bg.push({
        time: r.dateTime,
        clock,
        mgdl: r.basalRateRaw,
        class: input.limits ? classify(r.basalRateRaw, input.limits) : null,
        ...id,
      });
    } else {
      const a = alarmOf(r);
      if (a)
        alarms.push({
          time: r.dateTime,
          clock,
          ...a,
          code: `${r.eventPort}/${r.eventType}/${r.eventUrgency}`,
          ...id,
        });
    }
  }
  const glucose = glucoseOf(bg, input.meterReadings ?? [], window, zone, input.limits);
  const dedupedCarbs = dedupeCarbs(carbs);
  const flaggedCalculations = flaggedCalculationsOf(inDay, zone);

  const basal = unitsOf(basalRawMs);
  const bolus = unitsOf(bolusRawMs);
  const insulin = basal + bolus;
  const carbTotal = dedupedCarbs.reduce((s, c) => s + c.grams, 0);
  const totals: PumpDayTotals = {
    insulin,
    basal,
    bolus,
    basalPercent: insulin > 0 ? (basal / insulin) * 100 : null,
    bolusPercent: insulin > 0 ? (bolus / insulin) * 100 : null,
    carbs: carbTotal,
    bolusCount: boluses.length,
    carbCount: dedupedCarbs.length,
  };
  const basalPercent = totals.basalPercent === null ? null : roundHalfUp(totals.basalPercent, 1);
  const insulinTotals: InsulinTotals = {
    total: roundHalfUp(insulin, 2),
    basal: roundHalfUp(basal, 2),
    basalPercent,
    bolus: roundHalfUp(bolus, 2),
    bolusPercent: basalPercent === null ? null : roundHalfUp(100 - basalPercent, 1),
    recordCount: inDay.length,
  };

  const lastRecord = inDay[inDay.length - 1];
  const table: PumpTableRow[] = [
    ...basalSteps.map((s) => ({
      kind: "basal" as const,
      time: s.start,
      clock: clockOf(s.start, zone),
      rateUh: s.rateUh,
    })),
    ...boluses.map((b) => ({ kind: "bolus" as const, time: b.start, clock: b.clock, bolus: b })),
    ...dedupedCarbs.map((c) => ({
      kind: "carbs" as const,
      time: c.time,
      clock: c.clock,
      carbs: c,
    })),
    ...flaggedCalculations.map((c) => ({
      kind: "check" as const,
      time: c.time,
      clock: c.clock,
      check: c,
    })),
    ...glucose.map((b) => ({ kind: "bg" as const, time: b.time, clock: b.clock, bg: b })),
    ...alarms.map((a) => ({ kind: "alarm" as const, time: a.time, clock: a.clock, alarm: a })),
  ].sort((a, b) => a.time - b.time || ROW_ORDER[a.kind] - ROW_ORDER[b.kind]);

  return {
    window,
    dataEnd,
    hasData,
    pdaVersion: version,
    carbEncoding: carbEncodingOf(version),
    basal: { steps: basalSteps, units: basal, rateAtStart },
    boluses,
    showBolusMarkers: boluses.length <= BIG_BOLUS_MAX_SHOWN,
    carbs: dedupedCarbs,
    flaggedCalculations,
    bg,
    glucose,
    alarms,
    totals,
    insulinTotals,
    device: lastRecord
      ? {
          time: lastRecord.dateTime,
          battery: lastRecord.battery,
          reservoir: lastRecord.reservoir,
        }
      : null,
    table,
  };
}

/**
 * The pump's BG entries and the valid meter readings inside the day window, classed against the
 * limits, in time order; at one instant the pump's entries come first, then the readings in
 * their given order.
 */
function glucoseOf(
  bg: readonly PumpBgView[],
  readings: readonly BgReadingInput[],
  window: DayWindow,
  zone: ZoneOffsets,
  limits: GlucoseLimits | undefined,
): GlucosePointView[] {
  const meter: GlucosePointView[] = [];
  for (const r of readings) {
    if (!isValidReading(r.time, r.mgdl) || r.time < window.start || r.time >= window.end) continue;
    meter.push({
      time: r.time,
      clock: clockOf(r.time, zone),
      mgdl: r.mgdl,
      class: limits ? classify(r.mgdl, limits) : null,
      source: "meter",
      ...(r.id === undefined ? {} : { id: r.id }),
    });
  }
  meter.sort((a, b) => a.time - b.time);
  const pump = bg.map((b) => ({ ...b, source: "pump" as const }));
  return [...pump, ...meter].sort(
    (a, b) => a.time - b.time || (a.source === b.source ? 0 : a.source === "pump" ? -1 : 1),
  );
}

/** Rows of one instant in the order the pump logs them: a calculation's BG and carbohydrate, its result, then the bolus. */
const ROW_ORDER = { alarm: 0, basal: 1, bg: 2, carbs: 3, check: 4, bolus: 5 } as const;

/**
 * The flagged bolus calculations among a day's records (sorted): a run is flagged calculator
 * records in rising type order, one after the other; any other record ends it.
 */
function flaggedCalculationsOf(
  records: readonly PumpHistoryRecord[],
  zone: ZoneOffsets,
): FlaggedCalculationView[] {
  const out: FlaggedCalculationView[] = [];
  let run: PumpHistoryRecord[] = [];
  const close = () => {
    if (run.length > 0) out.push(calculationOf(run, zone));
    run = [];
  };
  for (const r of records) {
    const member = isCalculatorRecord(r) && r.flagged === true;
    const last = run[run.length - 1];
    if (!member || (last && r.eventType <= last.eventType)) close();
    if (member) run.push(r);
  }
  close();
  return out;
}

function calculationOf(
  run: readonly PumpHistoryRecord[],
  zone: ZoneOffsets,
): FlaggedCalculationView {
  const units = (type: number) => {
    const r = run.find((x) => x.eventType === type);
    return r ? roundHalfUp(r.bolusRateRaw * CALCULATOR_UNIT_STEP, 2) : null;
  };
  const suggestedU = units(CALCULATOR_SUGGESTED);
  const confirmedU = units(CALCULATOR_CONFIRMED);
  const first = run[0]!;
  return {
    time: first.dateTime,
    clock: clockOf(first.dateTime, zone),
    suggestedU,
    confirmedU,
    differenceU:
      suggestedU === null || confirmedU === null
        ? null
        : roundHalfUp(Math.abs(confirmedU - suggestedU), 2),
    ...(first.id === undefined ? {} : { id: first.id }),
  };
}

/**
 * Picks, from records sorted by time, the inputs of {@link buildPumpDay} for one day window: the
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

/** Window within which a calculator (0/5) and a pump (3/1) entry of equal grams are one meal. */
export const CARB_DUPLICATE_MS = 60_000;

/**
 * A meal entered through the bolus calculator may be logged both as 0/5 and as 3/1 (both are
 * carbohydrate events). Decision: a calculator entry with the same grams as a pump
 * entry within 60 s is the same meal and is dropped (the 3/1 entry is kept); entries of one
 * source are never merged.
 */
function dedupeCarbs(carbs: readonly CarbEntryView[]): CarbEntryView[] {
  const pump = carbs.filter((c) => c.source === "pump");
  return carbs.filter(
    (c) =>
      c.source === "pump" ||
      !pump.some((p) => p.grams === c.grams && Math.abs(p.time - c.time) <= CARB_DUPLICATE_MS),
  );
}
