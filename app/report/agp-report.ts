/**
 * The one-page AGP report model (ambulatory glucose profile, international consensus layout):
 * glucose statistics, the time-in-ranges stacked bar with the consensus goals, the AGP
 * percentile curves and the daily glucose profiles, for a range of 3 to 14 local days.
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
import { AGP_MIN_FULL_DAYS, FULL_DAY_FRACTION } from "../metrics/coverage";
import {
  consensusTargetsOf,
  timeInRanges,
  type ConsensusTargets,
  type TargetPopulation,
  type TimeInRanges,
} from "../metrics/ranges";
import { metric, type MetricResult, type Reading } from "../metrics/types";
import { buildCgmOverlay, type OverlayPoint } from "./cgm-day";
import { dayWindow, displayDate, type IsoDate } from "./day";
import { checkReportRange, type InvalidRange } from "./report-range";

export { AGP_MIN_FULL_DAYS, FULL_DAY_FRACTION };

/**
 * The consensus's glucose thresholds, mg/dL (Battelino 2019): level 2 hypoglycaemia below 54,
 * hypoglycaemia below 70, the target range 70-180, hyperglycaemia above 180, level 2 above 250.
 */
const MGDL = { veryLow: 54, low: 70, high: 180, veryHigh: 250 } as const;

/** The AGP chart's target band, mg/dL (Battelino 2019: 70-180 mg/dL). */
export const AGP_TARGET_BAND: GlucoseLimits = { low: MGDL.low, high: MGDL.high };

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

/** A stacked-bar segment (bounds as in {@link AGP_BANDS}). */
export interface AgpBand extends MgdlBounds {
  readonly key: AgpBandKey;
  /** Percent of readings, 0-100, unrounded. */
  readonly percent: number;
}

/** The goal keys: above 250, above 180, in range, below 70, below 54. */
export type AgpGoalKey = "above250" | "above180" | "inRange" | "below70" | "below54";

export interface AgpGoal {
  readonly key: AgpGoalKey;
  /** "lt": the percent should be below `percent`; "gt": above. */
  readonly comparator: "lt" | "gt";
  readonly percent: number;
  readonly actual: number;
  /** From ranges.ts `consensusTargetsOf`. */
  readonly met: boolean;
}

/**
 * The consensus goals (Battelino 2019, table/figure 3), per population. Older / high-risk
 * adults have no separate > 180 and < 54 goals (not listed).
 */
export const AGP_GOALS: Readonly<
  Record<TargetPopulation, readonly { key: AgpGoalKey; comparator: "lt" | "gt"; percent: number }[]>
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
};

/** The glucose each goal counts, mg/dL: above `fromMgdl`, below `toMgdl`, or between both. */
export const AGP_GOAL_BOUNDS: Readonly<Record<AgpGoalKey, MgdlBounds>> = {
  above250: { fromMgdl: MGDL.veryHigh, toMgdl: null },
  above180: { fromMgdl: MGDL.high, toMgdl: null },
  inRange: { fromMgdl: MGDL.low, toMgdl: MGDL.high },
  below70: { fromMgdl: null, toMgdl: MGDL.low },
  below54: { fromMgdl: null, toMgdl: MGDL.veryLow },
};

/** CV goal, % (Danne 2017, cited by Battelino 2019): <= 36 (ranges.ts `consensusTargetsOf` decides `cvGoalMet`). */
export const AGP_CV_GOAL_PERCENT = 36;

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
    /** % */
    readonly gmi: MetricResult;
    readonly ea1c: MetricResult;
    /** Sensor active %, 0-100. */
    readonly activePercent: MetricResult;
  };
  readonly timeInRanges: {
    readonly value: TimeInRanges;
    readonly sufficient: boolean;
    readonly population: TargetPopulation;
    readonly bands: readonly AgpBand[];
    readonly goals: readonly AgpGoal[];
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
  /** Consensus goals to apply (default "standard"). */
  readonly targetPopulation?: TargetPopulation;
}

function bandsOf(t: TimeInRanges): AgpBand[] {
  return AGP_BANDS.map(({ field, ...band }) => ({ ...band, percent: t[field] }));
}

/** The consensus goals with their actual values and whether each is met (from `consensusTargetsOf`). */
export function agpGoalsOf(t: TimeInRanges, targets: ConsensusTargets): AgpGoal[] {
  const actual: Record<AgpGoalKey, number> = {
    above250: t.above250,
    above180: t.above180,
    inRange: t.range70to180,
    below70: t.below70,
    below54: t.below54,
  };
  const met: Record<AgpGoalKey, boolean> = {
    above250: targets.above250,
    above180: targets.above180,
    inRange: targets.tir,
    below70: targets.below70,
    below54: targets.below54,
  };
  return AGP_GOALS[targets.population].map((g) => ({
    ...g,
    actual: actual[g.key],
    met: met[g.key],
  }));
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
  const population = input.targetPopulation ?? "standard";
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
  const targets = cv.value === null ? null : consensusTargetsOf(t, cv.value, population);
  const overlay = buildCgmOverlay({
    endDate: to,
    timeZone: tz,
    readings,
    limits,
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
        mean: meanGlucose(ctx),
        sd: sdGlucose(ctx),
        cv,
        cvGoalMet: targets?.cv ?? null,
        gmi: gmi(ctx),
        ea1c: ea1c(ctx),
        activePercent: metric(ctx.coverage.activePercent, true),
      },
      timeInRanges: {
        value: t,
        sufficient: tir.sufficient,
        population,
        bands: bandsOf(t),
        goals: targets ? agpGoalsOf(t, targets) : [],
        targets,
      },
      agp: agpResult.value!,
      targetBand: AGP_TARGET_BAND,
      dailyProfiles: overlay.days.map((d, i) => ({
        date: d.date,
        full: gridPoints[i]! >= need,
        gridPoints: gridPoints[i]!,
        points: d.points,
      })),
    },
  };
}
