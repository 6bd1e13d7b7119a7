/**
 * Alarm class of one glucose value against the patient's glucose range: high glucose, low
 * glucose, very low glucose or no alarm.
 *
 *   g < 54 mg/dL (3.0 mmol/L)      very low   (level 2 hypoglycaemia, Battelino 2019,
 *                                              doi:10.2337/dci19-0028; International Hypoglycaemia
 *                                              Study Group, Diabetes Care 2017;40:155-157,
 *                                              doi:10.2337/dc16-2215)
 *   g < low limit                  low
 *   g > high limit                 high
 *   otherwise                      none
 * Strict comparisons as in the time-in-range metrics: a value equal to a limit is in range.
 * Limits are in mg/dL (the patient's lowLimit/highLimit; convert mmol/L x 18 before calling).
 * Classify the unrounded mg/dL value, so that rounding for display never moves a value across a
 * limit.
 */
import type { Series } from "./readings";
import { metric, type MetricResult } from "./types";

export type AlarmClass = "veryLow" | "low" | "high" | "none";

/** Very low glucose threshold, mg/dL (3.0 mmol/L). */
export const VERY_LOW_MGDL = 54;

/** The patient's glucose range, mg/dL. */
export interface GlucoseLimits {
  readonly low: number;
  readonly high: number;
}

/** Default range when a patient has none: 70-180 mg/dL (3.9-10 mmol/L, Battelino 2019). */
export const DEFAULT_LIMITS: GlucoseLimits = { low: 70, high: 180 };

export function assertLimits(limits: GlucoseLimits): void {
  if (
    !Number.isFinite(limits.low) ||
    !Number.isFinite(limits.high) ||
    !(limits.low < limits.high)
  ) {
    throw new RangeError(`glucose limits need low < high, got ${limits.low}-${limits.high}`);
  }
}

/** Alarm class of one value (mg/dL). */
export function classifyAlarm(mgdl: number, limits: GlucoseLimits = DEFAULT_LIMITS): AlarmClass {
  assertLimits(limits);
  if (mgdl < VERY_LOW_MGDL) return "veryLow";
  if (mgdl < limits.low) return "low";
  if (mgdl > limits.high) return "high";
  return "none";
}

/** Alarm class of the latest reading of a series; null without readings. Always sufficient. */
export function latestAlarm(
  series: Series,
  limits: GlucoseLimits = DEFAULT_LIMITS,
): MetricResult<AlarmClass> {
  if (series.length === 0) return metric<AlarmClass>(null, false);
  return metric(classifyAlarm(series.mgdl[series.length - 1]!, limits), true);
}
