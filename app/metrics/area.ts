/**
 * AUC100 and AAC100: glucose area above and below 100 mg/dL, per day. mg/dL x h per 24 h.
 *
 * iglu has no such metric and no published formula names it; DiaCare defines it (the statistics
 * report lists AUC100 and AAC100 among its metrics):
 * - The glucose curve is the linear interpolation of the readings on the 5-minute grid
 *   (grid.ts; nothing across gaps over 45 min).
 * - For each grid step whose two ends both have a value, the area between the line segment and
 *   the 100 mg/dL threshold is integrated exactly: above the threshold for AUC100
 *   (integral of max(g(t) - 100, 0) dt) and below it for AAC100 (integral of
 *   max(100 - g(t), 0) dt). A step whose ends are both on one side is a trapezoid; a step that
 *   crosses 100 contributes only the triangle on the relevant side.
 * - Per day: the total area divided by the covered time (the number of such steps x 5 min) and
 *   multiplied by 24 h, i.e. the area per 24 h of CGM data. Normalising by covered time instead
 *   of by calendar days keeps a partly worn day from lowering the value and does not depend on
 *   where days begin (no DST issue).
 * Example: a steady 150 mg/dL gives AUC100 = 50 x 24 = 1200 mg/dL h/day and AAC100 = 0.
 *
 * Sources the definition builds on (formulas only): the average area above / below a target
 * range computed by trapezoidal integration of the CGM trace (AUC-H / AUC-L of the Glycemic
 * Variability Analyzer: Marics G, et al. Evaluation of an open access software for calculating
 * glucose variability parameters of a continuous glucose monitoring system applied at pediatric
 * intensive care unit. Biomed Eng Online 2015;14:37, doi:10.1186/s12938-015-0035-5); trapezoidal
 * AUC of CGM data in GlyCulator (Czerwoniuk D, et al. J Diabetes Sci Technol 2011;5:447-451,
 * doi:10.1177/193229681100500236); threshold areas as exposure measures in the review of Rodbard
 * D. Diabetes Technol Ther 2009;11(Suppl 1):S55-S67, doi:10.1089/dia.2008.0132.
 *
 * Data sufficiency: the GRID rule of coverage.ts (CGM data meeting the 14-day / 70% consensus).
 */
import type { MetricContext } from "./context";
import { CompensatedSum } from "./numeric";
import { metric, type MetricResult } from "./types";

/** Exact integral over one step of length h of max(line - 0, 0), the line going from u to v. */
function positivePart(u: number, v: number, h: number): number {
  if (u >= 0 && v >= 0) return (h * (u + v)) / 2;
  if (u <= 0 && v <= 0) return 0;
  const p = Math.max(u, v);
  const q = -Math.min(u, v);
  return (h * p * p) / (2 * (p + q));
}

export interface ThresholdAreas {
  /** Area above the threshold, mg/dL h per 24 h of data. */
  readonly above: number;
  /** Area below the threshold, mg/dL h per 24 h of data. */
  readonly below: number;
  /** Hours of curve the areas were measured on. */
  readonly coveredHours: number;
}

/** Areas above and below `threshold` on a grid; null when no step has two values. */
export function thresholdAreas(
  x: Float64Array,
  stepMin: number,
  threshold: number,
): ThresholdAreas | null {
  const h = stepMin / 60;
  const above = new CompensatedSum();
  const below = new CompensatedSum();
  let steps = 0;
  for (let k = 0; k + 1 < x.length; k++) {
    const a = x[k]!;
    const b = x[k + 1]!;
    if (a !== a || b !== b) continue;
    above.add(positivePart(a - threshold, b - threshold, h));
    below.add(positivePart(threshold - a, threshold - b, h));
    steps++;
  }
  if (steps === 0) return null;
  const coveredHours = steps * h;
  return {
    above: (above.value / coveredHours) * 24,
    below: (below.value / coveredHours) * 24,
    coveredHours,
  };
}

/** The threshold of AUC100/AAC100, mg/dL. */
export const AREA_THRESHOLD_MGDL = 100;

/** AUC100: area above 100 mg/dL, mg/dL h per day (see the file comment). Rule: GRID. */
export function auc100(ctx: MetricContext): MetricResult {
  const r = thresholdAreas(ctx.grid.values, ctx.grid.stepMin, AREA_THRESHOLD_MGDL);
  return metric(r === null ? null : r.above, ctx.coverage.grid);
}

/** AAC100: area below 100 mg/dL (above the curve), mg/dL h per day. Rule: GRID. */
export function aac100(ctx: MetricContext): MetricResult {
  const r = thresholdAreas(ctx.grid.values, ctx.grid.stepMin, AREA_THRESHOLD_MGDL);
  return metric(r === null ? null : r.below, ctx.coverage.grid);
}
