import { PUMP_ALARM_CODES, type PumpAlarmKind } from "../app/report/pump-records";
import type { PumpChartLabels } from "../app/report/charts.server";

/** What every benchmark returns: a name, the median milliseconds and how they were measured. */
export interface BenchResult {
  name: string;
  ms: number;
  detail?: string;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/** The nearest-rank percentile (`p` in 0-100): the smallest value with at least p % of the values at or below it. */
export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)]!;
}

/**
 * Times a synchronous case: `warmup` untimed calls, then `runs` timed ones. `fn` returns a number
 * that is summed into a printed checksum, so the work cannot be optimised away.
 */
export function timeIt(
  name: string,
  what: string,
  fn: () => number,
  warmup = 20,
  runs = 50,
): BenchResult {
  let sink = 0;
  for (let i = 0; i < warmup; i++) sink += fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    sink += fn();
    times.push(performance.now() - t0);
  }
  return {
    name,
    ms: Number(median(times).toFixed(3)),
    detail: `${what}; median of ${runs} runs after ${warmup} warm-up (min ${Math.min(...times).toFixed(3)} ms, max ${Math.max(...times).toFixed(3)} ms; checksum ${sink.toFixed(1)})`,
  };
}

/** Chart texts for benchmarks (the app passes translated ones). */
export const BENCH_PUMP_LABELS: PumpChartLabels = {
  basalAxis: "Basal (U/h)",
  bolusAxis: "Bolus (U)",
  glucoseAxis: "BG (mmol/L)",
  alarms: "Alarms",
  carbs: "Carbs (g)",
  unitU: "U",
  unitG: "g",
  glucoseUnit: "mmol/L",
  alarmKinds: Object.fromEntries(PUMP_ALARM_CODES.map((c) => [c.kind, c.kind])) as Record<
    PumpAlarmKind,
    string
  >,
};
export const BENCH_GLUCOSE_LABELS = {
  glucoseAxis: "Glucose (mmol/L)",
  targetRange: "Target range 3.9-10.0",
  glucoseUnit: "mmol/L",
};
