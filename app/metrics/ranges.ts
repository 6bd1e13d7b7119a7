/**
 * Time in ranges: percent of readings in each glucose band (iglu 4.3.0 `in_range_percent`,
 * `below_percent`, `above_percent`), the Glycemia Risk Index, and the consensus targets.
 *
 * Percent of readings, each reading counting once (iglu; for evenly spaced CGM this is percent of
 * time). Boundaries as iglu: "below t" is strict (g < t), "above t" is strict (g > t), "in range
 * [lo, hi]" includes both ends. The five consensus bands therefore partition every value:
 *   < 54 | 54 to < 70 (54-69) | 70 to 180 | > 180 to 250 (181-250) | > 250   (mg/dL)
 * Reference: Battelino T, et al. Clinical Targets for Continuous Glucose Monitoring Data
 * Interpretation: Recommendations From the International Consensus on Time in Range. Diabetes
 * Care 2019;42:1593-1603, doi:10.2337/dci19-0028.
 *
 * Data sufficiency: the STANDARD rule of coverage.ts (the consensus asks for 14 days with 70%
 * of CGM data).
 */
import type { MetricContext } from "./context";
import { metric, type MetricResult } from "./types";

/** Percentages (0-100) of readings per band. */
export interface TimeInRanges {
  /** g < 54 (level 2 hypoglycaemia). */
  readonly below54: number;
  /** g < 70 (all hypoglycaemia). */
  readonly below70: number;
  /** g < 63 (below the pregnancy target range). */
  readonly below63: number;
  /** 54 <= g < 70 (level 1 hypoglycaemia). */
  readonly range54to69: number;
  /** 70 <= g <= 180 (TIR). */
  readonly range70to180: number;
  /** 180 < g <= 250 (level 1 hyperglycaemia). */
  readonly range181to250: number;
  /** g > 180 (all hyperglycaemia). */
  readonly above180: number;
  /** g > 250 (level 2 hyperglycaemia). */
  readonly above250: number;
  /** g > 140. */
  readonly above140: number;
  /** 63 <= g <= 140 (a tighter range used for pregnancy). */
  readonly range63to140: number;
  /** 70 <= g <= 140 (time in tight range, TITR). */
  readonly range70to140: number;
}

/** Band percentages of raw mg/dL values; null when there are none. */
export function timeInRangesOf(g: ArrayLike<number>): TimeInRanges | null {
  const n = g.length;
  if (n === 0) return null;
  let b54 = 0;
  let b63 = 0;
  let b70 = 0;
  let in70180 = 0;
  let a140 = 0;
  let a180 = 0;
  let a250 = 0;
  let in63140 = 0;
  let in70140 = 0;
  for (let i = 0; i < n; i++) {
    const v = g[i]!;
    if (v < 54) b54++;
    if (v < 63) b63++;
    if (v < 70) b70++;
    if (v >= 70 && v <= 180) in70180++;
    if (v > 140) a140++;
    if (v > 180) a180++;
    if (v > 250) a250++;
    if (v >= 63 && v <= 140) in63140++;
    if (v >= 70 && v <= 140) in70140++;
  }
  const pct = (c: number): number => (c / n) * 100;
  return {
    below54: pct(b54),
    below63: pct(b63),
    below70: pct(b70),
    range54to69: pct(b70 - b54),
    range70to180: pct(in70180),
    range181to250: pct(a180 - a250),
    above180: pct(a180),
    above250: pct(a250),
    above140: pct(a140),
    range63to140: pct(in63140),
    range70to140: pct(in70140),
  };
}

/** Time in ranges of the context's readings. Rule: STANDARD. */
export function timeInRanges(ctx: MetricContext): MetricResult<TimeInRanges> {
  return metric(timeInRangesOf(ctx.series.mgdl), ctx.coverage.standard);
}

/**
 * GRI, Glycemia Risk Index: 3.0 VLow + 2.4 Low + 1.6 VHigh + 0.8 High, capped at 100, with
 * VLow = %<54, Low = %54-69, VHigh = %>250, High = %181-250 (iglu `gri`). Unitless 0-100.
 * Reference: Klonoff DC, et al. A Glycemia Risk Index (GRI) of Hypoglycemia and Hyperglycemia
 * for Continuous Glucose Monitoring Validated by Clinician Ratings. J Diabetes Sci Technol
 * 2023;17:1226-1242, doi:10.1177/19322968221085273. Rule: STANDARD.
 */
export function griOf(t: TimeInRanges): number {
  return Math.min(
    3 * t.below54 +
      2.4 * (t.below70 - t.below54) +
      1.6 * t.above250 +
      0.8 * (t.above180 - t.above250),
    100,
  );
}

export function gri(ctx: MetricContext): MetricResult {
  const t = timeInRangesOf(ctx.series.mgdl);
  return metric(t === null ? null : griOf(t), ctx.coverage.standard);
}

/** Which population's targets apply (Battelino 2019, table 1 / figure 3). */
export type TargetPopulation = "standard" | "olderHighRisk";

/** Each consensus target and whether it is met. */
export interface ConsensusTargets {
  readonly population: TargetPopulation;
  /** TIR 70-180: > 70% (older / high risk: > 50%). */
  readonly tir: boolean;
  /** < 70: < 4% (older / high risk: < 1%). */
  readonly below70: boolean;
  /** < 54: < 1% (not set for older / high risk, reported as met). */
  readonly below54: boolean;
  /** > 180: < 25% (older / high risk: > 250 < 10% only; reported as met). */
  readonly above180: boolean;
  /** > 250: < 5% (older / high risk: < 10%). */
  readonly above250: boolean;
  /** CV <= 36% (Danne 2017, doi:10.2337/dc17-1600; cited by Battelino 2019). */
  readonly cv: boolean;
  /** All of the above. */
  readonly all: boolean;
}

/**
 * Checks the international-consensus CGM targets for adults with type 1 or type 2 diabetes
 * (Battelino 2019, doi:10.2337/dci19-0028) against time in ranges and CV%.
 */
export function consensusTargetsOf(
  t: TimeInRanges,
  cv: number,
  population: TargetPopulation = "standard",
): ConsensusTargets {
  const std = population === "standard";
  const r = {
    tir: std ? t.range70to180 > 70 : t.range70to180 > 50,
    below70: std ? t.below70 < 4 : t.below70 < 1,
    below54: std ? t.below54 < 1 : true,
    above180: std ? t.above180 < 25 : true,
    above250: std ? t.above250 < 5 : t.above250 < 10,
    cv: cv <= 36,
  };
  return {
    population,
    ...r,
    all: r.tir && r.below70 && r.below54 && r.above180 && r.above250 && r.cv,
  };
}
