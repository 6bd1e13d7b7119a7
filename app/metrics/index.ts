/**
 * DiaCare glucose metrics engine: pure TypeScript, no Prisma, React or i18n.
 *
 * `computeAll(readings, options)` normalises the readings once (readings.ts), builds the shared
 * context once (sorted values, mean, SD, the 5-minute interpolation grid, coverage) and returns
 * every metric as `{ value, sufficient }`. Each metric's formula, units, source and
 * data-sufficiency rule are in the doc comment of its function:
 *   basic.ts      MBG, median, SDBG, CV%, IQR, LAGE, quantiles
 *   risk.ts       LBGI, HBGI, ADRR, M-value, GRADE, J-index
 *   mage.ts       MAGE (iglu moving-average algorithm) and naive MAGE
 *   variability.ts MODD, CONGA(n), MAG
 *   ranges.ts     time in ranges, GRI, consensus targets
 *   area.ts       AUC100, AAC100
 *   a1c.ts        GMI, eHbA1c
 *   active.ts     sensor active %
 *   agp.ts        AGP percentiles per 5-minute time of day
 *   trend.ts      trend arrow;  alarm.ts  alarm class;  levels.ts  control and risk levels
 * Definitions follow iglu 4.3.0 (checked against its output on iglu's example data, see
 * iglu-reference.test.ts).
 */
import { agp, type Agp } from "./agp";
import { ea1c, gmi } from "./a1c";
import {
  DEFAULT_LIMITS,
  assertLimits,
  latestAlarm,
  type AlarmClass,
  type GlucoseLimits,
} from "./alarm";
import { AREA_THRESHOLD_MGDL, thresholdAreas } from "./area";
import {
  cvGlucose,
  iqrGlucose,
  lageGlucose,
  meanGlucose,
  medianGlucose,
  quantileGlucose,
  sdGlucose,
} from "./basic";
import { createContext, type ContextOptions, type MetricContext } from "./context";
import type { Coverage } from "./coverage";
import {
  adrrRiskLevel,
  controlLevelOfGri,
  hbgiRiskLevel,
  lbgiRiskLevel,
  levelOf,
  type ControlLevel,
  type RiskLevel,
} from "./levels";
import { mage, mageNaive } from "./mage";
import {
  consensusTargetsOf,
  griOf,
  timeInRanges,
  type ConsensusTargets,
  type TargetPopulation,
  type TimeInRanges,
} from "./ranges";
import { adrr, grade, hbgi, jIndex, lbgi, mValue, M_VALUE_DEFAULT_REF } from "./risk";
import { glucoseTrend, type Trend } from "./trend";
import { metric, type MetricResult, type Reading } from "./types";
import { conga, mag, modd } from "./variability";

export type { Reading, MetricResult } from "./types";
export type { Agp } from "./agp";
export type { AlarmClass, GlucoseLimits } from "./alarm";
export type { Coverage, DataKind } from "./coverage";
export type { ControlLevel, RiskLevel } from "./levels";
export type { ConsensusTargets, TimeInRanges, TargetPopulation } from "./ranges";
export type { Trend, TrendLevel } from "./trend";
export type { MageDirections, MageOptions } from "./mage";
export type { MetricContext, ContextOptions } from "./context";
export type { NormalizeReport, Series } from "./readings";
export { classifyAlarm, latestAlarm, VERY_LOW_MGDL, DEFAULT_LIMITS } from "./alarm";
export { trendLevelOf, glucoseTrend } from "./trend";
export { controlLevelOfGri, lbgiRiskLevel, hbgiRiskLevel, adrrRiskLevel } from "./levels";
export { createContext } from "./context";
export { normalizeReadings } from "./readings";
export { consensusTargetsOf, griOf, timeInRangesOf } from "./ranges";
export { gmiOf, ea1cOf } from "./a1c";
export { mageMaDirections } from "./mage";
export { conga, modd, mag } from "./variability";
export { thresholdAreas } from "./area";
export { agpOf } from "./agp";
export { mValue } from "./risk";

export interface ComputeOptions extends ContextOptions {
  /** M-value reference glucose, mg/dL (default 90). */
  readonly mValueRef?: number;
  /** The patient's glucose range for the alarm class, mg/dL (default 70-180). */
  readonly limits?: GlucoseLimits;
  /** Which consensus targets to check (default "standard"). */
  readonly targetPopulation?: TargetPopulation;
}

export interface AllMetrics {
  /** Data description: what normalisation did, the time zone, the grid and the coverage. */
  readonly meta: {
    readonly timeZone: string;
    readonly inputReadings: number;
    readonly readings: number;
    readonly droppedInvalid: number;
    readonly mergedDuplicates: number;
    /** Epoch ms of the first / last reading (null without readings). */
    readonly firstTime: number | null;
    readonly lastTime: number | null;
    /** Epoch ms of the grid's T0 (local midnight of the first day) and its number of points. */
    readonly gridStart: number | null;
    readonly gridPoints: number;
    readonly mValueRef: number;
    readonly limits: GlucoseLimits;
  };
  readonly coverage: Coverage;
  /** MBG, mg/dL. */
  readonly mean: MetricResult;
  readonly median: MetricResult;
  /** SDBG, mg/dL. */
  readonly sd: MetricResult;
  /** CV, %. */
  readonly cv: MetricResult;
  readonly iqr: MetricResult;
  /** LAGE = max - min, mg/dL. */
  readonly lage: MetricResult;
  readonly min: MetricResult;
  readonly q25: MetricResult;
  readonly q75: MetricResult;
  readonly max: MetricResult;
  readonly jIndex: MetricResult;
  readonly mValue: MetricResult;
  readonly lbgi: MetricResult;
  readonly hbgi: MetricResult;
  readonly adrr: MetricResult;
  readonly grade: MetricResult;
  /** MAGE (iglu "ma", avg), mg/dL. */
  readonly mage: MetricResult;
  readonly mageNaive: MetricResult;
  readonly modd: MetricResult;
  readonly conga1: MetricResult;
  readonly conga4: MetricResult;
  /** mg/dL per hour. */
  readonly mag: MetricResult;
  /** mg/dL h per day. */
  readonly auc100: MetricResult;
  readonly aac100: MetricResult;
  /** %. */
  readonly gmi: MetricResult;
  /** eHbA1c, %. */
  readonly ea1c: MetricResult;
  readonly timeInRanges: MetricResult<TimeInRanges>;
  readonly gri: MetricResult;
  readonly targets: MetricResult<ConsensusTargets>;
  readonly activePercent: MetricResult;
  readonly agp: MetricResult<Agp>;
  /** Trend arrow at the latest reading. */
  readonly trend: MetricResult<Trend>;
  /** Alarm class of the latest reading against `limits`. */
  readonly alarm: MetricResult<AlarmClass>;
  readonly controlLevel: MetricResult<ControlLevel>;
  readonly riskLevels: {
    readonly lbgi: MetricResult<RiskLevel>;
    readonly hbgi: MetricResult<RiskLevel>;
    readonly adrr: MetricResult<RiskLevel>;
  };
}

/** Every metric of one patient's readings over one period. Throws only on invalid options. */
export function computeAll(readings: readonly Reading[], options: ComputeOptions = {}): AllMetrics {
  const limits = options.limits ?? DEFAULT_LIMITS;
  assertLimits(limits);
  const mValueRef = options.mValueRef ?? M_VALUE_DEFAULT_REF;
  const ctx = createContext(readings, options);
  return computeFromContext(ctx, mValueRef, limits, options.targetPopulation ?? "standard");
}

function computeFromContext(
  ctx: MetricContext,
  mValueRef: number,
  limits: GlucoseLimits,
  population: TargetPopulation,
): AllMetrics {
  const { series, report, grid, coverage } = ctx;
  const n = series.length;
  const tir = timeInRanges(ctx);
  const cv = cvGlucose(ctx);
  const griResult = metric(tir.value === null ? null : griOf(tir.value), tir.sufficient);
  const targets = metric(
    tir.value === null || cv.value === null
      ? null
      : consensusTargetsOf(tir.value, cv.value, population),
    tir.sufficient && cv.sufficient,
  );
  const areas = thresholdAreas(grid.values, grid.stepMin, AREA_THRESHOLD_MGDL);
  const lbgiResult = lbgi(ctx);
  const hbgiResult = hbgi(ctx);
  const adrrResult = adrr(ctx);
  return {
    meta: {
      timeZone: ctx.timeZone,
      inputReadings: report.input,
      readings: n,
      droppedInvalid: report.droppedInvalid,
      mergedDuplicates: report.mergedDuplicates,
      firstTime: n > 0 ? series.time[0]! : null,
      lastTime: n > 0 ? series.time[n - 1]! : null,
      gridStart: n > 0 ? grid.start : null,
      gridPoints: grid.length,
      mValueRef,
      limits,
    },
    coverage,
    mean: meanGlucose(ctx),
    median: medianGlucose(ctx),
    sd: sdGlucose(ctx),
    cv,
    iqr: iqrGlucose(ctx),
    lage: lageGlucose(ctx),
    min: quantileGlucose(ctx, 0),
    q25: quantileGlucose(ctx, 0.25),
    q75: quantileGlucose(ctx, 0.75),
    max: quantileGlucose(ctx, 1),
    jIndex: jIndex(ctx),
    mValue: mValue(ctx, mValueRef),
    lbgi: lbgiResult,
    hbgi: hbgiResult,
    adrr: adrrResult,
    grade: grade(ctx),
    mage: mage(ctx),
    mageNaive: mageNaive(ctx),
    modd: modd(ctx),
    conga1: conga(ctx, 1),
    conga4: conga(ctx, 4),
    mag: mag(ctx),
    auc100: metric(areas === null ? null : areas.above, coverage.grid),
    aac100: metric(areas === null ? null : areas.below, coverage.grid),
    gmi: gmi(ctx),
    ea1c: ea1c(ctx),
    timeInRanges: tir,
    gri: griResult,
    targets,
    activePercent: metric(coverage.activePercent, true),
    agp: agp(ctx),
    trend: glucoseTrend(series),
    alarm: latestAlarm(series, limits),
    controlLevel: levelOf(griResult, controlLevelOfGri),
    riskLevels: {
      lbgi: levelOf(lbgiResult, lbgiRiskLevel),
      hbgi: levelOf(hbgiResult, hbgiRiskLevel),
      adrr: levelOf(adrrResult, adrrRiskLevel),
    },
  };
}
