/**
 * Sensor active percent (iglu `active_percent`, range_type "automatic").
 *
 * Formula (iglu 4.3.0, R/active_percent.R), on the raw readings of the period:
 *   dt0         = round(median of the minutes between consecutive readings)
 *   theoretical = round(round(minutes from first to last reading) / dt0) + 1
 *   missing     = round((sum of the intervals with round(interval) > dt0
 *                        - their count * dt0) / dt0)
 *   active %    = 100 * (theoretical - missing) / theoretical
 * `round` is R's round-half-to-even. Units: percent (0-100) of the expected readings between the
 * first and the last reading that are present.
 * Reference: Danne T, et al. International Consensus on Use of Continuous Glucose Monitoring.
 * Diabetes Care 2017;40:1631-1640, doi:10.2337/dc17-1600 (recommends >= 70% of 14 days).
 *
 * Data sufficiency: computable from 2 readings on; it is itself the measure of sufficiency, so
 * `sufficient` is true whenever a value exists.
 */
import type { Series } from "./readings";
import { medianInPlace, roundHalfEven } from "./numeric";
import { MINUTE_MS, metric, type MetricResult } from "./types";

/** Median interval between readings, minutes, rounded like iglu's dt0; NaN with < 2 readings. */
export function samplingIntervalMin(series: Series): number {
  const n = series.length;
  if (n < 2) return Number.NaN;
  const diffs = new Float64Array(n - 1);
  for (let i = 1; i < n; i++) diffs[i - 1] = (series.time[i]! - series.time[i - 1]!) / MINUTE_MS;
  return roundHalfEven(medianInPlace(diffs));
}

/** Active percent as a number; NaN with fewer than 2 readings. */
export function activePercentValue(
  series: Series,
  dt0: number = samplingIntervalMin(series),
): number {
  const n = series.length;
  if (n < 2 || !(dt0 > 0)) return Number.NaN;
  const t = series.time;
  const spanMin = (t[n - 1]! - t[0]!) / MINUTE_MS;
  const theoretical = roundHalfEven(roundHalfEven(spanMin) / dt0) + 1;
  let gapMinutes = 0;
  let gaps = 0;
  for (let i = 1; i < n; i++) {
    const d = (t[i]! - t[i - 1]!) / MINUTE_MS;
    if (roundHalfEven(d) > dt0) {
      gapMinutes += d;
      gaps++;
    }
  }
  const missing = roundHalfEven((gapMinutes - gaps * dt0) / dt0);
  return ((theoretical - missing) / theoretical) * 100;
}

/** Sensor active percent (see the file comment). */
export function activePercent(series: Series): MetricResult {
  const v = activePercentValue(series);
  return metric(Number.isFinite(v) ? v : null, true);
}
