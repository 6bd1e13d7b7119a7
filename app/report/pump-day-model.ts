import type { GlucoseLimits } from "../metrics/alarm";
import type { BgReadingInput } from "./bg-range";
import type { DayWindow } from "./day";
import type { CarbEncoding } from "./pump-carbs";
import type { AlarmSeverity, PumpAlarmKind, PumpHistoryRecord } from "./pump-records";
import type { GlucoseClass } from "./units";

/** The DAILY page model (built by pump-day.ts `buildPumpDay`): its parts, and what it is built from. */

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
  /** Length to draw: at least pump-day.ts `MIN_EXTENSION_DISPLAY_MS`, kept inside the day. */
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
  /** The last record before the day that carries both rates (pump-records.ts `carriesRates`). */
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
