/**
 * HbA1c estimates from mean glucose (mg/dL). Percent (NGSP/DCCT units).
 *
 * Data sufficiency (both): the STANDARD rule of coverage.ts; for CGM that is 14 days with >= 70%
 * sensor wear, what GMI was derived for (Bergenstal 2018 below; Battelino 2019,
 * doi:10.2337/dci19-0028).
 */
import type { MetricContext } from "./context";
import { finiteOrNull, metric, type MetricResult } from "./types";

/** GMI (%) of a mean glucose in mg/dL: 3.31 + 0.02392 x mean. */
export function gmiOf(meanMgdl: number): number {
  return 3.31 + 0.02392 * meanMgdl;
}

/** eA1c / eHbA1c (%) of a mean glucose in mg/dL: (46.7 + mean) / 28.7. */
export function ea1cOf(meanMgdl: number): number {
  return (46.7 + meanMgdl) / 28.7;
}

/**
 * GMI, glucose management indicator: 3.31 + 0.02392 x mean glucose (mg/dL). Percent.
 * Reference: Bergenstal RM, et al. Glucose Management Indicator (GMI): A New Term for
 * Estimating A1C From Continuous Glucose Monitoring. Diabetes Care 2018;41:2275-2280,
 * doi:10.2337/dc18-1581 (iglu `gmi`).
 */
export function gmi(ctx: MetricContext): MetricResult {
  return metric(finiteOrNull(gmiOf(ctx.mean)), ctx.coverage.standard);
}

/**
 * eHbA1c (eA1c), estimated HbA1c from the ADAG regression: (46.7 + mean glucose mg/dL) / 28.7.
 * Percent.
 * Reference: Nathan DM, et al. Translating the A1C assay into estimated average glucose values.
 * Diabetes Care 2008;31:1473-1478, doi:10.2337/dc08-0545 (iglu `ea1c`).
 */
export function ea1c(ctx: MetricContext): MetricResult {
  return metric(finiteOrNull(ea1cOf(ctx.mean)), ctx.coverage.standard);
}
