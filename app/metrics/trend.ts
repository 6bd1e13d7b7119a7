/**
 * Glucose trend arrow: the rate of change of the latest readings, in mmol/L per minute, in seven
 * levels (DiaCare's trend thresholds; in quotes the names the levels are also known by):
 *
 *   rate > 0.17              rapidly rising   ("super fast up")
 *   0.11 < rate <= 0.17      rising           ("fast up")
 *   0.06 < rate <= 0.11      slowly rising    ("up")
 *   -0.06 <= rate <= 0.06    steady
 *   -0.11 <= rate < -0.06    slowly falling   (symmetric)
 *   -0.17 <= rate < -0.11    falling
 *   rate < -0.17             rapidly falling
 * (1 mmol/L = 18 mg/dL, so 0.06 / 0.11 / 0.17 mmol/L/min = 1.08 / 1.98 / 3.06 mg/dL/min. The
 * CGM-manufacturer arrows use the same scale: about 1, 2 and 3 mg/dL/min.)
 *
 * Rate: ordinary least-squares slope of glucose against time over the readings of the last
 * `windowMin` minutes (default 20, i.e. the last 4-5 readings of a 5-minute CGM) ending at the
 * latest reading (or at `at`). Only readings within 2-25 mmol/L (36-450 mg/dL, the range in which
 * sensors report numbers) count, and at least 4 are needed. The rate is rounded to 1e-9 mmol/L/min
 * before it is classified, so a rate that is a boundary value in exact arithmetic is classified as
 * the table says and not by floating-point noise.
 *
 * Data sufficiency: >= 4 valid readings in the window; otherwise the value is null.
 */
import type { Series } from "./readings";
import { mgdlToMmol, mmolToMgdl } from "../domain/glucose-unit";
import { MINUTE_MS, metric, type MetricResult } from "./types";

export type TrendLevel =
  | "rapidlyRising"
  | "rising"
  | "slowlyRising"
  | "steady"
  | "slowlyFalling"
  | "falling"
  | "rapidlyFalling";

export interface Trend {
  readonly level: TrendLevel;
  /** Slope, mmol/L per minute. */
  readonly mmolPerMin: number;
  /** Slope, mg/dL per minute. */
  readonly mgdlPerMin: number;
  /** Readings used. */
  readonly readings: number;
}

export const TREND_MIN_READINGS = 4;
export const TREND_WINDOW_MIN = 20;
export const TREND_MIN_MMOL = 2;
export const TREND_MAX_MMOL = 25;

/** Trend level of a rate in mmol/L per minute (table in the file comment). */
export function trendLevelOf(mmolPerMin: number): TrendLevel {
  const r = Math.round(mmolPerMin * 1e9) / 1e9;
  if (r > 0.17) return "rapidlyRising";
  if (r > 0.11) return "rising";
  if (r > 0.06) return "slowlyRising";
  if (r >= -0.06) return "steady";
  if (r >= -0.11) return "slowlyFalling";
  if (r >= -0.17) return "falling";
  return "rapidlyFalling";
}

export interface TrendOptions {
  /** End of the window, epoch ms (default: the latest reading). */
  readonly at?: number;
  /** Window length, minutes (default 20). */
  readonly windowMin?: number;
}

/** The glucose trend at the end of a clean series (see the file comment). */
export function glucoseTrend(series: Series, options: TrendOptions = {}): MetricResult<Trend> {
  const n = series.length;
  if (n === 0) return metric<Trend>(null, false);
  const at = options.at ?? series.time[n - 1]!;
  const from = at - (options.windowMin ?? TREND_WINDOW_MIN) * MINUTE_MS;
  const lo = mmolToMgdl(TREND_MIN_MMOL);
  const hi = mmolToMgdl(TREND_MAX_MMOL);
  // Readings in [from, at] and in range; times in minutes relative to `at`.
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const t = series.time[i]!;
    if (t > at) continue;
    if (t < from) break;
    const g = series.mgdl[i]!;
    if (g < lo || g > hi) continue;
    xs.push((t - at) / MINUTE_MS);
    ys.push(g);
  }
  const m = xs.length;
  if (m < TREND_MIN_READINGS) return metric<Trend>(null, false);
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < m; i++) {
    sx += xs[i]!;
    sy += ys[i]!;
  }
  const mx = sx / m;
  const my = sy / m;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < m; i++) {
    const dx = xs[i]! - mx;
    sxy += dx * (ys[i]! - my);
    sxx += dx * dx;
  }
  const mgdlPerMin = sxy / sxx;
  const mmolPerMin = mgdlToMmol(mgdlPerMin);
  return metric<Trend>(
    { level: trendLevelOf(mmolPerMin), mmolPerMin, mgdlPerMin, readings: m },
    true,
  );
}
