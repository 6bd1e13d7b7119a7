import type { GlucoseLimits } from "../metrics/alarm";
import type { BgReadingInput, GlucoseSummary } from "./bg-range";
import type { IsoDate } from "./day";
import type { BolusKind, CarbSource, InsulinTotals, PumpDayModel } from "./pump-day-model";
import type { AlarmSeverity, PumpAlarmKind, PumpHistoryRecord } from "./pump-records";
import type { PumpChartGroup, PumpChartSection } from "./pump-report-layout";
import type { InvalidRange } from "./report-range";
import type { GlucoseUnit } from "../domain/glucose-unit";

/** The pump/BG print report model (built by pump-report.ts `buildPumpReport`), and its input. */

/** Header alignment of the printed report: 0 left, 1 centre, 2 right. */
export type NameStyle = 0 | 1 | 2;

/** The report's `setting`: the reader's unit and header alignment. */
export interface ReportSetting {
  readonly unit: GlucoseUnit;
  readonly nameStyle: NameStyle;
}

/**
 * The pump settings as stored (Prisma PumpSetting fields the report shows). The one-number
 * settings other than the active insulin time are kept as the handheld or the upload gave them.
 */
export interface StoredPumpSettings {
  /** The handheld's serial number. */
  readonly pdaSn: string;
  /** Its firmware version, null when not known. */
  readonly pdaVersion: string | null;
  /** mg/dL per segment. */
  readonly lowBg: readonly number[];
  readonly highBg: readonly number[];
  /** Carbohydrate ratio, g per U, per segment. */
  readonly carbRatio: readonly number[];
  /** Insulin sensitivity, mg/dL per U, per segment. */
  readonly sensitivity: readonly number[];
  readonly originBasal: number | null;
  readonly bolusRate: number | null;
  readonly maxBolus: number | null;
  readonly doubleBolus: boolean | null;
  /** Active insulin time, min. */
  readonly effectiveTime: number | null;
  readonly maxBasalRate: number | null;
  readonly bolusIncrement: number | null;
  readonly quickBolusIncrement: number | null;
  readonly lowReserveThreshold: number | null;
  readonly tempBasalRate: number | null;
}

/** One glucose value of `glucoseDays`. */
export interface GlucoseEntry {
  /** Epoch ms. */
  readonly time: number;
  /** "HH:mm" local. */
  readonly clock: string;
  readonly mgdl: number;
  /** "pump": entered on the handheld (3/0); "meter": a meter / finger-prick record. */
  readonly source: "pump" | "meter";
  readonly id?: string | number;
}

export interface GlucoseDay {
  readonly date: IsoDate;
  readonly readings: readonly GlucoseEntry[];
}

/** "basal": one constant basal step; "bolus": one bolus event (kind in `bolusKind`). */
export type InsulinEntryType = "basal" | "bolus";

/**
 * One entry of `insulinDays[].entries`, derived from the day model:
 * - dataType "basal": one per constant basal step of the day: `basalRate` = the step's rate
 *   (U/h), `bolusUnitsDisplay` 0, `extendedDisplayMs` 0, `bolusKind` null;
 * - dataType "bolus": one per bolus event: `basalRate` = the basal rate in force at its start
 *   (null when unknown), `bolusUnitsDisplay` = its units within the day rounded to 0.05 U (as
 *   the day table shows them; `units` is exact), `extendedDisplayMs` = the extended part's
 *   display length, ms (at least 480000 ms; 0 for a normal bolus), `bolusKind` normal /
 *   extended / dual.
 * `recordCount`: the number of the day's pump history records at instants in [start, end).
 */
export interface InsulinEntry {
  /** Start, epoch ms. */
  readonly start: number;
  /** End (exclusive), epoch ms. */
  readonly end: number;
  readonly clock: string;
  readonly dataType: InsulinEntryType;
  readonly bolusKind: BolusKind | null;
  /** U/h. */
  readonly basalRate: number | null;
  /** U, rounded to 0.05 (bolus), 0 for basal. */
  readonly bolusUnitsDisplay: number;
  /** Exact units: the step's basal units or the bolus's units within the day. */
  readonly units: number;
  /** ms. */
  readonly extendedDisplayMs: number;
  readonly recordCount: number;
}

export interface InsulinDay {
  readonly date: IsoDate;
  readonly hasData: boolean;
  readonly entries: readonly InsulinEntry[];
  /** The day's own insulin totals (pump-day). */
  readonly totals: InsulinTotals;
}

export interface CarbListEntry {
  readonly time: number;
  readonly date: IsoDate;
  readonly clock: string;
  readonly grams: number;
  readonly source: CarbSource;
}

export interface AlarmListEntry {
  readonly time: number;
  readonly date: IsoDate;
  readonly clock: string;
  /** The alarm kind key (pump-day `PumpAlarmKind`; the page translates it). */
  readonly kind: PumpAlarmKind;
  readonly severity: AlarmSeverity;
  /** "port/type/urgency". */
  readonly code: string;
}

export interface PumpReport {
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly timeZone: string;
  /** Epoch ms: [start of `from`, end of `to`). */
  readonly start: number;
  readonly end: number;
  readonly dates: readonly IsoDate[];
  readonly hasData: boolean;
  readonly glucoseDays: readonly GlucoseDay[];
  readonly insulinDays: readonly InsulinDay[];
  readonly carbs: {
    readonly entries: readonly CarbListEntry[];
    /** Mean grams per day with pump data (null when no day has pump data). */
    readonly perDay: number | null;
    readonly total: number;
    readonly daysWithData: number;
  };
  /** Mean grams per carbohydrate entry (null without entries). */
  readonly carbsPerEntry: number | null;
  readonly alarms: readonly AlarmListEntry[];
  readonly glucoseSummary: GlucoseSummary;
  readonly insulinTotals: InsulinTotals;
  readonly setting: ReportSetting;
  /** The patient's range, mg/dL. */
  readonly limits: GlucoseLimits;
  /** The newest pump settings upload, or null. */
  readonly pumpSettings: StoredPumpSettings | null;
  /** Carbohydrate and alarm lists paged into tables of at most 12 rows. */
  readonly carbTables: readonly (readonly CarbListEntry[])[];
  readonly alarmTables: readonly (readonly AlarmListEntry[])[];
  /** Multi-day charts of up to 5 consecutive days with data (the chart sections' groups). */
  readonly charts: readonly PumpChartGroup[];
  /** The charts and the runs of days without data between them, in date order. */
  readonly chartSections: readonly PumpChartSection[];
  /** Every bolus of the range, listed only when there are at most 25. */
  readonly bigBoluses: {
    readonly count: number;
    readonly shown: boolean;
    readonly entries: readonly (InsulinEntry & { readonly date: IsoDate })[];
  };
  /** The per-day DAILY models (for the day charts). */
  readonly days: readonly PumpDayModel[];
}

export interface PumpReportInput {
  /** First day, YYYY-MM-DD or YYYY/MM/DD (inclusive). */
  readonly from: string;
  /** Last day (inclusive); at most 90 days after `from`, not in the future. */
  readonly to: string;
  readonly timeZone: string;
  /** Now, epoch ms: no future dates; nothing is drawn or counted after it. */
  readonly now: number;
  /**
   * The patient's pump history for the range, plus the last rate-carrying record before it and
   * the first record after it (see pump-day `carriesRates`); any order; more is harmless.
   */
  readonly records: readonly PumpHistoryRecord[];
  /** Meter / finger-prick readings (mg/dL) shown with the pump's BG entries; optional. */
  readonly meterReadings?: readonly BgReadingInput[];
  readonly pdaVersion?: string | null;
  /** The patient's range, mg/dL. */
  readonly limits: GlucoseLimits;
  readonly setting: ReportSetting;
  readonly pumpSettings?: StoredPumpSettings | null;
}

export type PumpReportResult =
  { readonly status: "ok"; readonly report: PumpReport } | InvalidRange;
