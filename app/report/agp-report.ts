/**
 * The glucose profile model (the international consensus's one-page AGP layout, shown as
 * "Glucose profile (consensus)"): glucose metrics with their goals, the time-in-ranges stacked
 * bar with the goals of the patient's goal set (standard, older or high-risk, pregnancy), the AGP
 * percentile curves and the daily glucose profiles, for a range of 3 to 14 local days
 * (docs/decisions/018-glucose-profile.md).
 *
 * Targets and layout: Battelino T, et al. Clinical Targets for Continuous Glucose Monitoring Data
 * Interpretation: Recommendations From the International Consensus on Time in Range. Diabetes
 * Care 2019;42(8):1593-1603, doi:10.2337/dci19-0028 (time in ranges with goals, AGP with the
 * 5/25/50/75/95 percentiles and the 70-180 mg/dL target band, daily profiles, mean glucose, GMI,
 * CV, % time CGM active).
 *
 * Everything is computed by app/metrics on one context (context.ts `createContext`, the same
 * inputs as `computeAll`): mean, SD, CV, GMI (basic.ts, a1c.ts), sensor active % (active.ts,
 * through coverage), time in ranges and consensus targets (ranges.ts), AGP (agp.ts). The daily
 * profiles are the overlay days of cgm-day.ts `buildCgmOverlay` (wall-clock minutes per day).
 *
 * Data rule (the AGP needs at least 5 full days of data): a FULL day is a local day of the range on
 * which at least 70 % of its 288 five-minute points of the app/metrics interpolation grid have a
 * value (coverage.ts `FULL_DAY_FRACTION`; the consensus's 70 % sensor-wear rule applied to one
 * day); the report needs `AGP_MIN_FULL_DAYS` = 5 of them, else it answers `insufficient` with the
 * counts. On the 23-h DST day 276 points exist, still enough.
 *
 * Decisions: readings are taken as CGM data (`kind: "cgm"`); only readings inside the range
 * count; "sensor active %" is app/metrics' active percent (iglu `active_percent`: present vs
 * expected readings between the first and the last reading of the range), so a sensor started
 * mid-range is judged from its start: the page shows it with the first and last reading times.
 */
import { agp as agpMetric, type Agp } from "../metrics/agp";
import { ea1c, gmi } from "../metrics/a1c";
import { assertLimits, DEFAULT_LIMITS, type GlucoseLimits } from "../metrics/alarm";
import { cvGlucose, meanGlucose, sdGlucose } from "../metrics/basic";
import { createContext } from "../metrics/context";
import { activePercentValue, samplingIntervalMin } from "../metrics/active";
import { GlucoseUnit, mgdlToMmol } from "../domain/glucose-unit";
import { DEFAULT_CGM_GOAL_SET, type CgmGoalSet } from "../domain/cgm-goal-set";
import { AGP_MIN_FULL_DAYS, FULL_DAY_FRACTION } from "../metrics/coverage";
import {
  consensusTargetsOf,
  timeInRanges,
  type ConsensusTargets,
  type TimeInRanges,
} from "../metrics/ranges";
import { metric, MINUTE_MS, type MetricResult, type Reading } from "../metrics/types";
import { roundHalfEven } from "../metrics/numeric";
import type { Series } from "../metrics/readings";
import { buildCgmOverlay, type OverlayPoint } from "./cgm-day";
import { dayWindow, displayDate, type IsoDate } from "./day";
import { checkReportRange, type InvalidRange } from "./report-range";

export { AGP_MIN_FULL_DAYS, FULL_DAY_FRACTION };

/**
 * The consensus's glucose thresholds, mg/dL (Battelino 2019): level 2 hypoglycaemia below 54,
 * hypoglycaemia below 70, the target range 70-180, hyperglycaemia above 180, level 2 above 250;
 * in pregnancy the target range is 63-140.
 */
const MGDL = {
  veryLow: 54,
  low: 70,
  high: 180,
  veryHigh: 250,
  pregnancyLow: 63,
  pregnancyHigh: 140,
} as const;

/** The AGP chart's target band, mg/dL (Battelino 2019: 70-180 mg/dL). */
export const AGP_TARGET_BAND: GlucoseLimits = { low: MGDL.low, high: MGDL.high };

/** The target band of each goal set, mg/dL: 70-180, in pregnancy 63-140. */
export const GOAL_SET_TARGET_BAND: Readonly<Record<CgmGoalSet, GlucoseLimits>> = {
  standard: AGP_TARGET_BAND,
  olderHighRisk: AGP_TARGET_BAND,
  pregnancy: { low: MGDL.pregnancyLow, high: MGDL.pregnancyHigh },
};

/**
 * The mmol/L the consensus writes for each mg/dL threshold and band bound the report shows
 * (3.0, 3.9, 10.0, 13.9 mmol/L; in pregnancy 3.5-7.8), so that a bound reads as clinicians know
 * it; 141 mg/dL, the first value above the pregnancy range, is written 7.9 so that the bands do
 * not appear to overlap. Other values are converted and rounded to one decimal.
 */
export const CONSENSUS_MMOL: Readonly<Record<number, number>> = {
  54: 3.0,
  62: 3.4,
  63: 3.5,
  69: 3.8,
  70: 3.9,
  140: 7.8,
  141: 7.9,
  154: 8.6,
  180: 10.0,
  181: 10.1,
  250: 13.9,
  350: 19.4,
};

/** A threshold in the reader's unit as the consensus writes it (see {@link CONSENSUS_MMOL}). */
export function consensusGlucose(mgdl: number, unit: GlucoseUnit): number {
  if (unit === GlucoseUnit.Mgdl) return mgdl;
  return CONSENSUS_MMOL[mgdl] ?? Math.round(mgdlToMmol(mgdl) * 10) / 10;
}

/** Glucose bounds in mg/dL; null = open ("> 250" has no upper bound, "< 54" no lower one). */
export interface MgdlBounds {
  readonly fromMgdl: number | null;
  readonly toMgdl: number | null;
}

/** Stacked-bar segments, top to bottom (Battelino 2019 figure 3). */
export type AgpBandKey = "veryHigh" | "high" | "inRange" | "low" | "veryLow";

/**
 * The consensus's time-in-ranges bands, top to bottom (Battelino 2019 figure 3): the
 * {@link TimeInRanges} field each shows, and its bounds as the consensus writes them (181-250,
 * 54-69 mg/dL).
 */
export const AGP_BANDS: readonly (MgdlBounds & {
  readonly key: AgpBandKey;
  readonly field: keyof TimeInRanges;
})[] = [
  { key: "veryHigh", field: "above250", fromMgdl: MGDL.veryHigh, toMgdl: null },
  { key: "high", field: "range181to250", fromMgdl: MGDL.high + 1, toMgdl: MGDL.veryHigh },
  { key: "inRange", field: "range70to180", fromMgdl: MGDL.low, toMgdl: MGDL.high },
  { key: "low", field: "range54to69", fromMgdl: MGDL.veryLow, toMgdl: MGDL.low - 1 },
  { key: "veryLow", field: "below54", fromMgdl: null, toMgdl: MGDL.veryLow },
];

/**
 * The stacked bar's five bands of each goal set, top to bottom, with the percent each shows. The
 * standard and older / high-risk sets share the consensus bands (> 250, 181-250, 70-180, 54-69,
 * < 54 mg/dL). The pregnancy set keeps the five colours and moves the target band to 63-140: very
 * high > 250, high 141-250, target 63-140, low 54-62, very low < 54, so that high + very high is
 * the "above 140" goal and low + very low the "below 63" goal.
 */
export const GOAL_SET_BANDS: Readonly<
  Record<
    CgmGoalSet,
    readonly (MgdlBounds & {
      readonly key: AgpBandKey;
      readonly percentOf: (t: TimeInRanges) => number;
    })[]
  >
> = (() => {
  const consensus = AGP_BANDS.map(({ field, ...band }) => ({
    ...band,
    percentOf: (t: TimeInRanges) => t[field],
  }));
  const pregnancy = [
    {
      key: "veryHigh",
      fromMgdl: MGDL.veryHigh,
      toMgdl: null,
      percentOf: (t: TimeInRanges) => t.above250,
    },
    {
      key: "high",
      fromMgdl: MGDL.pregnancyHigh + 1,
      toMgdl: MGDL.veryHigh,
      percentOf: (t: TimeInRanges) => t.above140 - t.above250,
    },
    {
      key: "inRange",
      fromMgdl: MGDL.pregnancyLow,
      toMgdl: MGDL.pregnancyHigh,
      percentOf: (t: TimeInRanges) => t.range63to140,
    },
    {
      key: "low",
      fromMgdl: MGDL.veryLow,
      toMgdl: MGDL.pregnancyLow - 1,
      percentOf: (t: TimeInRanges) => t.below63 - t.below54,
    },
    {
      key: "veryLow",
      fromMgdl: null,
      toMgdl: MGDL.veryLow,
      percentOf: (t: TimeInRanges) => t.below54,
    },
  ] as const;
  return { standard: consensus, olderHighRisk: consensus, pregnancy };
})();

/** Minutes in a day: a band's share of the time as time per day. */
const MINUTES_PER_DAY = 1440;

/** A stacked-bar segment (bounds as in {@link GOAL_SET_BANDS}). */
export interface AgpBand extends MgdlBounds {
  readonly key: AgpBandKey;
  /** Percent of readings, 0-100, unrounded. */
  readonly percent: number;
  /** The time per day the percent means: percent of 1440 minutes, rounded to the minute. */
  readonly minutesPerDay: number;
}

/**
 * The goal keys: above 250, above 180, in range 70-180, below 70, below 54; and for pregnancy
 * above 140, in range 63-140, below 63.
 */
export type AgpGoalKey =
  | "above250"
  | "above180"
  | "above140"
  | "inRange"
  | "inRange63to140"
  | "below70"
  | "below63"
  | "below54";

export interface AgpGoal {
  readonly key: AgpGoalKey;
  /** "lt": the percent should be below `percent`; "gt": above. */
  readonly comparator: "lt" | "gt";
  readonly percent: number;
  readonly actual: number;
  /** The actual percent is strictly below (lt) or above (gt) the goal's percent. */
  readonly met: boolean;
}

/**
 * The consensus goals per goal set (Battelino 2019, figure 3 and table 2), top to bottom:
 * - standard: > 250 < 5 %, > 180 (high + very high) < 25 %, 70-180 > 70 %, < 70 (low + very low)
 *   < 4 %, < 54 < 1 %;
 * - older or high-risk adults: > 250 < 10 %, 70-180 > 50 %, < 70 < 1 % (no separate > 180 and
 *   < 54 goals);
 * - pregnancy (type 1 diabetes): > 140 < 25 %, 63-140 > 70 %, < 63 < 4 %, < 54 < 1 %.
 */
export const AGP_GOALS: Readonly<
  Record<CgmGoalSet, readonly { key: AgpGoalKey; comparator: "lt" | "gt"; percent: number }[]>
> = {
  standard: [
    { key: "above250", comparator: "lt", percent: 5 },
    { key: "above180", comparator: "lt", percent: 25 },
    { key: "inRange", comparator: "gt", percent: 70 },
    { key: "below70", comparator: "lt", percent: 4 },
    { key: "below54", comparator: "lt", percent: 1 },
  ],
  olderHighRisk: [
    { key: "above250", comparator: "lt", percent: 10 },
    { key: "inRange", comparator: "gt", percent: 50 },
    { key: "below70", comparator: "lt", percent: 1 },
  ],
  pregnancy: [
    { key: "above140", comparator: "lt", percent: 25 },
    { key: "inRange63to140", comparator: "gt", percent: 70 },
    { key: "below63", comparator: "lt", percent: 4 },
    { key: "below54", comparator: "lt", percent: 1 },
  ],
};

/** The glucose each goal counts, mg/dL: above `fromMgdl`, below `toMgdl`, or between both. */
export const AGP_GOAL_BOUNDS: Readonly<Record<AgpGoalKey, MgdlBounds>> = {
  above250: { fromMgdl: MGDL.veryHigh, toMgdl: null },
  above180: { fromMgdl: MGDL.high, toMgdl: null },
  above140: { fromMgdl: MGDL.pregnancyHigh, toMgdl: null },
  inRange: { fromMgdl: MGDL.low, toMgdl: MGDL.high },
  inRange63to140: { fromMgdl: MGDL.pregnancyLow, toMgdl: MGDL.pregnancyHigh },
  below70: { fromMgdl: null, toMgdl: MGDL.low },
  below63: { fromMgdl: null, toMgdl: MGDL.pregnancyLow },
  below54: { fromMgdl: null, toMgdl: MGDL.veryLow },
};

/** CV goal, % (Danne 2017, cited by Battelino 2019): <= 36 (ranges.ts `consensusTargetsOf` decides `cvGoalMet`). */
export const AGP_CV_GOAL_PERCENT = 36;

/**
 * Mean glucose goal: below 154 mg/dL (8.6 mmol/L), the mean that a GMI of 7 % stands for
 * (Bergenstal 2018, GMI = 3.31 + 0.02392 x mean mg/dL).
 */
export const AGP_MEAN_GOAL_MGDL = 154;
/** GMI goal: below 7 %. */
export const AGP_GMI_GOAL_PERCENT = 7;
/**
 * GMI is shown only when the CGM was active at least 70 % of the period (the consensus's wear
 * rule): from fewer readings it does not estimate the laboratory A1C it stands in for.
 */
export const GMI_MIN_ACTIVE_PERCENT = 70;
/** The AGP chart and the daily profiles draw glucose up to 350 mg/dL (19.4 mmol/L); higher values are drawn at 350. */
export const AGP_CLAMP_MGDL = 350;

/** Why a figure is left out: the CGM was active less than {@link GMI_MIN_ACTIVE_PERCENT} of the period. */
export type WithheldReason = "lowWear";

export interface DailyProfile {
  readonly date: IsoDate;
  /** At least 70 % of the day's grid points have a value. */
  readonly full: boolean;
  /** Grid points of the day with a value (of 288). */
  readonly gridPoints: number;
  /** Wall-clock minutes of the day and mg/dL, with line segments (cgm-day overlay). */
  readonly points: readonly OverlayPoint[];
}

export interface AgpReport {
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly timeZone: string;
  readonly start: number;
  readonly end: number;
  readonly dayCount: number;
  readonly fullDays: number;
  readonly daysWithData: number;
  readonly requiredFullDays: number;
  /** The patient's own range, mg/dL (shown beside the consensus ranges). */
  readonly limits: GlucoseLimits;
  readonly statistics: {
    readonly readings: number;
    /** Epoch ms of the first and last reading. */
    readonly firstTime: number;
    readonly lastTime: number;
    /** mg/dL. `sufficient` follows app/metrics (14 days / 70 %): shorter AGP ranges are flagged. */
    readonly mean: MetricResult;
    readonly sd: MetricResult;
    /** % */
    readonly cv: MetricResult;
    readonly cvGoalMet: boolean | null;
    /** Mean below {@link AGP_MEAN_GOAL_MGDL}; null without a mean. */
    readonly meanGoalMet: boolean | null;
    /** %; its value is null when withheld (`gmiWithheld`). */
    readonly gmi: MetricResult;
    /** Why GMI is not shown, or null when it is. */
    readonly gmiWithheld: WithheldReason | null;
    /** GMI below {@link AGP_GMI_GOAL_PERCENT}; null when there is no GMI. */
    readonly gmiGoalMet: boolean | null;
    readonly ea1c: MetricResult;
    /** Sensor active %, 0-100, between the first and the last reading (iglu `active_percent`). */
    readonly activePercent: MetricResult;
    /**
     * % time CGM active over the whole period, 0-100: the readings present (as iglu counts them)
     * of those expected from the period's first to its last minute at the sensor's interval.
     */
    readonly periodActivePercent: number;
  };
  readonly timeInRanges: {
    readonly value: TimeInRanges;
    readonly sufficient: boolean;
    /** The goal set applied (the patient's health record). */
    readonly goalSet: CgmGoalSet;
    readonly bands: readonly AgpBand[];
    readonly goals: readonly AgpGoal[];
    /** The consensus targets of the standard or older / high-risk set (null for pregnancy and without a CV). */
    readonly targets: ConsensusTargets | null;
  };
  /** AGP percentiles per 5-minute local time of day, mg/dL. */
  readonly agp: Agp;
  readonly targetBand: GlucoseLimits;
  readonly dailyProfiles: readonly DailyProfile[];
}

export interface AgpInsufficient {
  readonly status: "insufficient";
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly dayCount: number;
  readonly fullDays: number;
  readonly requiredFullDays: number;
  readonly fullDayFraction: number;
  readonly daysWithData: number;
  readonly readings: number;
}

export type AgpReportResult =
  { readonly status: "ok"; readonly report: AgpReport } | AgpInsufficient | InvalidRange;

/** The values of the "not enough full days" message (`reports:agp.insufficient`), dates as YYYY/MM/DD. */
export function insufficientMessageValues(result: AgpInsufficient) {
  return {
    fullDays: result.fullDays,
    requiredFullDays: result.requiredFullDays,
    dayCount: result.dayCount,
    // The message's plural form follows the range's length.
    count: result.dayCount,
    percent: Math.round(result.fullDayFraction * 100),
    from: displayDate(result.from),
    to: displayDate(result.to),
  };
}

export interface AgpReportInput {
  /** First day (inclusive); the range is 3 to 14 days. */
  readonly from: string;
  readonly to: string;
  readonly timeZone: string;
  readonly now: number;
  /** CGM readings, mg/dL; readings outside the range are ignored. */
  readonly readings: readonly Reading[];
  /** The patient's range (default 70-180 mg/dL). */
  readonly limits?: GlucoseLimits;
  /** The goal set to apply (default "standard"). */
  readonly goalSet?: CgmGoalSet;
}

/** The stacked bar's bands of a goal set, with their percent and time per day. */
export function agpBandsOf(t: TimeInRanges, goalSet: CgmGoalSet): AgpBand[] {
  return GOAL_SET_BANDS[goalSet].map(({ percentOf, ...band }) => {
    const percent = percentOf(t);
    return { ...band, percent, minutesPerDay: Math.round((percent / 100) * MINUTES_PER_DAY) };
  });
}

/** The goals of a goal set with their actual values and whether each is met. */
export function agpGoalsOf(t: TimeInRanges, goalSet: CgmGoalSet): AgpGoal[] {
  const actual: Record<AgpGoalKey, number> = {
    above250: t.above250,
    above180: t.above180,
    above140: t.above140,
    inRange: t.range70to180,
    inRange63to140: t.range63to140,
    below70: t.below70,
    below63: t.below63,
    below54: t.below54,
  };
  return AGP_GOALS[goalSet].map((g) => {
    const value = actual[g.key];
    return {
      ...g,
      actual: value,
      met: g.comparator === "lt" ? value < g.percent : value > g.percent,
    };
  });
}

/**
 * % time CGM active over [start, end): iglu's present readings (active.ts: the expected readings
 * between the first and the last reading less the missing ones) of the readings expected over the
 * whole period at the same interval, at most 100.
 */
export function periodActivePercent(series: Series, start: number, end: number): number {
  const n = series.length;
  if (n < 2) return 0;
  const dt0 = samplingIntervalMin(series);
  const spanMin = (series.time[n - 1]! - series.time[0]!) / MINUTE_MS;
  const theoretical = roundHalfEven(roundHalfEven(spanMin) / dt0) + 1;
  const present = (activePercentValue(series, dt0) / 100) * theoretical;
  const expected = (end - start) / MINUTE_MS / dt0;
  return Math.min(100, (present / expected) * 100);
}

/** Builds the AGP report (see the file comment). */
export function buildAgpReport(input: AgpReportInput): AgpReportResult {
  const checked = checkReportRange(input.from, input.to, "cgm", {
    timeZone: input.timeZone,
    now: input.now,
  });
  if (!checked.ok) return checked.invalid;
  const limits = input.limits ?? DEFAULT_LIMITS;
  assertLimits(limits);
  const goalSet = input.goalSet ?? DEFAULT_CGM_GOAL_SET;
  const { from, to, dates } = checked;
  const tz = input.timeZone;
  const start = dayWindow(from, tz).start;
  const end = dayWindow(to, tz).end;
  const readings = input.readings.filter((r) => r.time >= start && r.time < end);
  const ctx = createContext(readings, { timeZone: tz, kind: "cgm" });

  // Grid points with a value per local day of the range (the rule of coverage.ts `fullDays`).
  const firstDay = ctx.zone.localDay(start);
  const gridPoints = new Array<number>(dates.length).fill(0);
  const { grid } = ctx;
  for (let k = 0; k < grid.length; k++) {
    const v = grid.values[k]!;
    const d = grid.day[k]! - firstDay;
    if (v === v && d >= 0 && d < dates.length) gridPoints[d]!++;
  }
  const need = FULL_DAY_FRACTION * grid.columnsPerDay;
  const fullDays = ctx.coverage.fullDays;
  const daysWithData = ctx.coverage.daysWithData;
  if (fullDays < AGP_MIN_FULL_DAYS || ctx.series.length === 0) {
    return {
      status: "insufficient",
      from,
      to,
      dayCount: dates.length,
      fullDays,
      requiredFullDays: AGP_MIN_FULL_DAYS,
      fullDayFraction: FULL_DAY_FRACTION,
      daysWithData,
      readings: ctx.series.length,
    };
  }

  const cv = cvGlucose(ctx);
  const tir = timeInRanges(ctx);
  const t = tir.value!; // readings exist
  const targets =
    cv.value === null || goalSet === "pregnancy" ? null : consensusTargetsOf(t, cv.value, goalSet);
  const targetBand = GOAL_SET_TARGET_BAND[goalSet];
  const mean = meanGlucose(ctx);
  const periodActive = periodActivePercent(ctx.series, start, end);
  const gmiWithheld: WithheldReason | null =
    periodActive < GMI_MIN_ACTIVE_PERCENT ? "lowWear" : null;
  const gmiResult: MetricResult = gmiWithheld ? metric<number>(null, false) : gmi(ctx);
  const overlay = buildCgmOverlay({
    endDate: to,
    timeZone: tz,
    readings,
    limits: targetBand,
    days: dates.length,
  });
  const agpResult = agpMetric(ctx);
  const n = ctx.series.length;
  return {
    status: "ok",
    report: {
      from,
      to,
      timeZone: tz,
      start,
      end,
      dayCount: dates.length,
      fullDays,
      daysWithData,
      requiredFullDays: AGP_MIN_FULL_DAYS,
      limits,
      statistics: {
        readings: n,
        firstTime: ctx.series.time[0]!,
        lastTime: ctx.series.time[n - 1]!,
        mean,
        sd: sdGlucose(ctx),
        cv,
        cvGoalMet: cv.value === null ? null : cv.value <= AGP_CV_GOAL_PERCENT,
        meanGoalMet: mean.value === null ? null : mean.value < AGP_MEAN_GOAL_MGDL,
        gmi: gmiResult,
        gmiWithheld,
        gmiGoalMet: gmiResult.value === null ? null : gmiResult.value < AGP_GMI_GOAL_PERCENT,
        ea1c: ea1c(ctx),
        activePercent: metric(ctx.coverage.activePercent, true),
        periodActivePercent: periodActive,
      },
      timeInRanges: {
        value: t,
        sufficient: tir.sufficient,
        goalSet,
        bands: agpBandsOf(t, goalSet),
        goals: agpGoalsOf(t, goalSet),
        targets,
      },
      agp: agpResult.value!,
      targetBand,
      dailyProfiles: overlay.days.map((d, i) => ({
        date: d.date,
        full: gridPoints[i]! >= need,
        gridPoints: gridPoints[i]!,
        points: d.points,
      })),
    },
  };
}
