/**
 * Shared types of the glucose metrics engine.
 *
 * Units: glucose is always mg/dL inside the engine (mmol/L only for display, converted by
 * app/domain/glucose-unit.ts); times are epoch milliseconds (UTC instants).
 */

/** One glucose reading: a UTC instant and a glucose value in mg/dL. */
export interface Reading {
  /** Epoch milliseconds (UTC). */
  time: number;
  /** Glucose in mg/dL. */
  mgdl: number;
}

/**
 * The answer of every metric.
 *
 * - `value` is `null` when the metric cannot be computed at all (for example no readings, or no
 *   pair of grid points 24 h apart for MODD). It is never `NaN`.
 * - `sufficient` says whether the data meet the metric's data-sufficiency rule (documented on
 *   each metric). Insufficient data is not an error: the value is still returned when it can be
 *   computed, and `sufficient` is always `false` when `value` is `null`.
 */
export interface MetricResult<T = number> {
  readonly value: T | null;
  readonly sufficient: boolean;
}

/** Builds a {@link MetricResult}; a `null` value is never sufficient. */
export function metric<T>(value: T | null, sufficient: boolean): MetricResult<T> {
  return { value, sufficient: value !== null && sufficient };
}

/** The result of a metric that cannot be computed at all. */
export const NO_VALUE: MetricResult<never> = Object.freeze({ value: null, sufficient: false });

/** Converts a possibly non-finite number into `number | null` (NaN and infinities become null). */
export function finiteOrNull(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
