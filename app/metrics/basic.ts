/**
 * Descriptive statistics of the raw readings (each reading counts once, not weighted by time;
 * iglu 4.3.0 `mean_glu`, `median_glu`, `sd_glu`, `cv_glu`, `iqr_glu`, `range_glu`,
 * `quantile_glu`). Units: mg/dL, CV in percent.
 *
 * Data sufficiency (all of them): the STANDARD rule of coverage.ts (CGM: 14 days and 70% sensor
 * active, Battelino 2019 doi:10.2337/dci19-0028; meter: 14 days with >= 3 readings).
 *
 * References for the glycaemic-variability use of these statistics: Rodbard D. Interpretation of
 * continuous glucose monitoring data: glycemic variability and quality of glycemic control.
 * Diabetes Technol Ther 2009;11(Suppl 1):S55-S67, doi:10.1089/dia.2008.0132; Danne T, et al.
 * Diabetes Care 2017;40:1631-1640, doi:10.2337/dc17-1600 (CV%).
 */
import type { MetricContext } from "./context";
import { medianSorted, quantileSorted } from "./numeric";
import { finiteOrNull, metric, type MetricResult } from "./types";

/** MBG, mean blood glucose: sum(g) / n. mg/dL. */
export function meanGlucose(ctx: MetricContext): MetricResult {
  return metric(finiteOrNull(ctx.mean), ctx.coverage.standard);
}

/** Median glucose (R `median`). mg/dL. */
export function medianGlucose(ctx: MetricContext): MetricResult {
  return metric(finiteOrNull(medianSorted(ctx.sorted)), ctx.coverage.standard);
}

/** SDBG: sample standard deviation, sqrt(sum((g - mean)^2) / (n - 1)). mg/dL; needs n >= 2. */
export function sdGlucose(ctx: MetricContext): MetricResult {
  return metric(finiteOrNull(ctx.sd), ctx.coverage.standard);
}

/** CV%: 100 * SD / mean. Percent; needs n >= 2. Target <= 36% (Danne 2017). */
export function cvGlucose(ctx: MetricContext): MetricResult {
  return metric(finiteOrNull((100 * ctx.sd) / ctx.mean), ctx.coverage.standard);
}

/** Quantile p (0-1) of the readings, R type 7 (Hyndman & Fan 1996). mg/dL. */
export function quantileGlucose(ctx: MetricContext, p: number): MetricResult {
  return metric(finiteOrNull(quantileSorted(ctx.sorted, p)), ctx.coverage.standard);
}

/** IQR: Q75 - Q25 with R's quantile type 7 (R `IQR`). mg/dL. */
export function iqrGlucose(ctx: MetricContext): MetricResult {
  const v = quantileSorted(ctx.sorted, 0.75) - quantileSorted(ctx.sorted, 0.25);
  return metric(finiteOrNull(v), ctx.coverage.standard);
}

/**
 * LAGE, largest amplitude of glycaemic excursions: max(g) - min(g) (iglu `range_glu`; iglu has no
 * LAGE function and LAGE is this range). mg/dL. Reference: Rodbard 2009 (above).
 */
export function lageGlucose(ctx: MetricContext): MetricResult {
  const n = ctx.sorted.length;
  return metric(n > 0 ? ctx.sorted[n - 1]! - ctx.sorted[0]! : null, ctx.coverage.standard);
}
