/**
 * Variability metrics on the 5-minute interpolation grid (grid.ts): MODD, CONGA(n), MAG
 * (iglu 4.3.0 `modd`, `conga`, `mag`). Pairs with an empty point on either side are skipped.
 * Lags are elapsed time (grid steps), so they are exact across DST changes.
 *
 * Data sufficiency (all of them): the GRID rule of coverage.ts (CGM data meeting the 14-day /
 * 70% consensus, Battelino 2019 doi:10.2337/dci19-0028).
 */
import type { MetricContext } from "./context";
import { CompensatedSum } from "./numeric";
import { finiteOrNull, metric, type MetricResult } from "./types";

/** mean |x[k + lag] - x[k]| over pairs with both values; NaN when there is no pair. */
export function meanAbsLagDiff(x: Float64Array, lag: number): number {
  const acc = new CompensatedSum();
  let c = 0;
  for (let k = 0; k + lag < x.length; k++) {
    const a = x[k]!;
    const b = x[k + lag]!;
    if (a === a && b === b) {
      acc.add(Math.abs(b - a));
      c++;
    }
  }
  return c === 0 ? Number.NaN : acc.value / c;
}

/** Sample SD of x[k + lag] - x[k] over pairs with both values; NaN with fewer than 2 pairs. */
export function sdLagDiff(x: Float64Array, lag: number): number {
  const acc = new CompensatedSum();
  let c = 0;
  for (let k = 0; k + lag < x.length; k++) {
    const a = x[k]!;
    const b = x[k + lag]!;
    if (a === a && b === b) {
      acc.add(b - a);
      c++;
    }
  }
  if (c < 2) return Number.NaN;
  const m = acc.value / c;
  const ss = new CompensatedSum();
  for (let k = 0; k + lag < x.length; k++) {
    const a = x[k]!;
    const b = x[k + lag]!;
    if (a === a && b === b) {
      const d = b - a - m;
      ss.add(d * d);
    }
  }
  return Math.sqrt(ss.value / (c - 1));
}

/**
 * MODD, mean of daily differences: mean over grid points of |g(t + lag days) - g(t)|, lag 1 day
 * by default (iglu `modd(lag = 1)`). mg/dL.
 * Reference: Molnar GD, Taylor WF, Ho MM. Day-to-day variation of continuously monitored
 * glycaemia: a further measure of diabetic instability. Diabetologia 1972;8:342-348,
 * doi:10.1007/BF01218495.
 */
export function modd(ctx: MetricContext, lagDays = 1): MetricResult {
  const lag = ctx.grid.columnsPerDay * lagDays;
  return metric(finiteOrNull(meanAbsLagDiff(ctx.grid.values, lag)), ctx.coverage.grid);
}

/**
 * CONGA(n), continuous overall net glycaemic action: sample SD of g(t + n h) - g(t) on the grid
 * (lag = round(60 / dt0) * n points), n in hours (iglu `conga(n)`; note iglu's default is n = 24,
 * DiaCare shows CONGA1 and CONGA4). mg/dL.
 * Reference: McDonnell CM, et al. A novel approach to continuous glucose analysis utilizing
 * glycemic variation. Diabetes Technol Ther 2005;7:253-263, doi:10.1089/dia.2005.7.253.
 */
export function conga(ctx: MetricContext, hours: number): MetricResult {
  const lag = Math.round(60 / ctx.grid.stepMin) * hours;
  if (!Number.isInteger(lag) || lag <= 0)
    throw new RangeError(`CONGA needs a positive whole number of grid steps, got n = ${hours} h`);
  return metric(finiteOrNull(sdLagDiff(ctx.grid.values, lag)), ctx.coverage.grid);
}

/**
 * MAG value of a grid: take every (nMin / dt0)-th point from the first grid point (00:05 of the
 * first day), then sum |g[k+1] - g[k]| over pairs with both values divided by (number of such
 * pairs * nMin / 60 h). mg/dL per hour. NaN without a pair.
 */
export function magValue(x: Float64Array, stepMin: number, nMin: number = stepMin): number {
  const every = nMin / stepMin;
  if (!Number.isInteger(every) || every <= 0)
    throw new RangeError(`MAG interval must be a multiple of ${stepMin} min, got ${nMin}`);
  const acc = new CompensatedSum();
  let c = 0;
  for (let k = 0; k + every < x.length; k += every) {
    const a = x[k]!;
    const b = x[k + every]!;
    if (a === a && b === b) {
      acc.add(Math.abs(b - a));
      c++;
    }
  }
  return c === 0 ? Number.NaN : acc.value / ((c * nMin) / 60);
}

/**
 * MAG, mean absolute glucose change per hour (iglu `mag`, n = dt0 = 5 min by default): total
 * absolute change along the grid divided by the time it spans. mg/dL/h.
 * Reference: Hermanides J, et al. Glucose variability is associated with intensive care unit
 * mortality. Crit Care Med 2010;38:838-842, doi:10.1097/CCM.0b013e3181cc4be9.
 */
export function mag(ctx: MetricContext, nMin: number = ctx.grid.stepMin): MetricResult {
  return metric(finiteOrNull(magValue(ctx.grid.values, ctx.grid.stepMin, nMin)), ctx.coverage.grid);
}
