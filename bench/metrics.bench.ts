/**
 * Benchmark of the glucose metrics engine: `computeAll` (every metric, grid built once) on
 * deterministic synthetic 5-minute CGM data of one patient, 14 and 90 days (4,032 and 25,920
 * readings). Goal: 90 days under 50 ms.
 *
 * Plain tsx script (not a vitest bench): `npx tsx bench/metrics.bench.ts` prints the results;
 * `benchMetrics()` returns them for a bench runner.
 *
 * Data: seeded PRNG (mulberry32), three meals a day with gamma-shaped rises, a night dip, AR(1)
 * noise, +-20 s timestamp jitter, values clipped to 40-400 mg/dL and rounded like a sensor reports
 * them. A third case adds three sensor gaps (1, 2 and 4 h) per fortnight and uses Europe/Warsaw,
 * whose 90 days from 1 January include the DST change of 31 March.
 */
import { pathToFileURL } from "node:url";
import { computeAll, type Reading } from "../app/metrics/index";
import { createRng, gaussian } from "../app/utils/seeded-random";
import { median, type BenchResult } from "./timing";

/**
 * Synthetic 5-minute CGM trace of `days` days starting 2024-01-01T00:00Z: days x 288 readings,
 * fewer when `gaps` is set.
 */
export function syntheticCgm(
  days: number,
  options: { seed?: number; gaps?: boolean } = {},
): Reading[] {
  const seed = options.seed ?? 20240101;
  const rand = createRng(seed);
  const start = Date.UTC(2024, 0, 1);
  const step = 5 * 60_000;
  const n = days * 288;
  const meals: number[] = [];
  for (let d = 0; d < days; d++) {
    for (const hour of [7.5, 12.5, 18.5]) {
      meals.push(start + (d * 24 + hour + (rand() - 0.5)) * 3_600_000);
    }
  }
  const gaps: Array<[number, number]> = [];
  for (let d = 3; options.gaps === true && d < days; d += 14) {
    gaps.push([start + d * 86_400_000 + 2 * 3_600_000, 60]);
    gaps.push([start + (d + 4) * 86_400_000 + 14 * 3_600_000, 120]);
    gaps.push([start + (d + 9) * 86_400_000 + 20 * 3_600_000, 240]);
  }
  const out: Reading[] = [];
  let ar = 0;
  let m = 0;
  for (let k = 0; k < n; k++) {
    const t = start + k * step;
    ar = 0.95 * ar + gaussian(rand) * 4;
    const inGap = gaps.some(([g, len]) => t >= g && t < g + len * 60_000);
    if (inGap) continue;
    while (m + 1 < meals.length && meals[m + 1]! <= t) m++;
    let g = 115 + ar;
    for (let j = Math.max(0, m - 1); j <= m; j++) {
      const dt = (t - meals[j]!) / 3_600_000;
      if (dt > 0) g += 90 * dt * dt * Math.exp(-2 * dt) * 2.7;
    }
    const hourOfDay = ((t - start) / 3_600_000) % 24;
    if (hourOfDay > 2 && hourOfDay < 5) g -= 25 * Math.sin(((hourOfDay - 2) / 3) * Math.PI);
    g = Math.min(400, Math.max(40, Math.round(g)));
    out.push({ time: t + Math.round((rand() - 0.5) * 40_000), mgdl: g });
  }
  return out;
}

function timeIt(
  name: string,
  readings: Reading[],
  timeZone: string,
  warmup: number,
  runs: number,
): BenchResult {
  let sink = 0;
  for (let i = 0; i < warmup; i++) sink += computeAll(readings, { timeZone }).mean.value ?? 0;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = computeAll(readings, { timeZone });
    times.push(performance.now() - t0);
    sink += r.mage.value ?? 0;
  }
  const min = Math.min(...times);
  const max = Math.max(...times);
  return {
    name,
    ms: Number(median(times).toFixed(3)),
    detail: `${readings.length} readings, tz ${timeZone}, median of ${runs} runs after ${warmup} warm-up (min ${min.toFixed(2)} ms, max ${max.toFixed(2)} ms; checksum ${sink.toFixed(1)})`,
  };
}

/** Runs the benchmark; returns the median milliseconds of each case. */
export async function benchMetrics(): Promise<BenchResult[]> {
  const d14 = syntheticCgm(14);
  const d90 = syntheticCgm(90);
  const d90gaps = syntheticCgm(90, { gaps: true });
  return [
    timeIt("metrics computeAll, 14 days (goal < 50 ms)", d14, "UTC", 10, 25),
    timeIt("metrics computeAll, 90 days (goal < 50 ms)", d90, "UTC", 10, 25),
    timeIt("metrics computeAll, 90 days, gaps, Warsaw", d90gaps, "Europe/Warsaw", 10, 25),
  ];
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  for (const r of await benchMetrics()) {
    console.log(`${r.name}: ${r.ms} ms${r.detail ? `  (${r.detail})` : ""}`);
  }
}
