/**
 * Helpers for the metrics tests: building readings and contexts, loading iglu's reference data.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createContext, type ContextOptions, type MetricContext } from "./context";
import { parseCgmCsv } from "./csv";
import type { Reading } from "./types";

export const MIN = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

/** Readings `values[i]` at start + i * stepMin minutes. */
export function readingsAt(
  values: readonly number[],
  start = Date.UTC(2024, 0, 1),
  stepMin = 5,
): Reading[] {
  return values.map((mgdl, i) => ({ time: start + i * stepMin * MIN, mgdl }));
}

/** Context of `values` sampled every `stepMin` minutes from `start`. */
export function ctxOf(
  values: readonly number[],
  options: ContextOptions & { start?: number; stepMin?: number } = {},
): MetricContext {
  return createContext(readingsAt(values, options.start, options.stepMin), options);
}

/** Folder of iglu's reference data (5 subjects' CGM readings and iglu's metric values; see its NOTES.txt). */
export const IGLU_DIR =
  process.env["IGLU_REFERENCE_DIR"] ??
  fileURLToPath(new URL("../../tests/fixtures/iglu-example/", import.meta.url));
export const IGLU_CSV = `${IGLU_DIR}/example_cgm.csv`;

export interface IgluAgpBlock {
  time_of_day_min: number[];
  p5: number[];
  p25: number[];
  p50: number[];
  p75: number[];
  p95: number[];
}

export interface IgluExpected {
  subjects: Record<string, Record<string, number | null>>;
  agp: Record<string, IgluAgpBlock>;
  tz_sensitivity_original_EST: { subjects: Record<string, Record<string, number>> };
}

export function loadIgluExpected(): IgluExpected {
  return JSON.parse(readFileSync(`${IGLU_DIR}/iglu_expected.json`, "utf8")) as IgluExpected;
}

/** Readings of each subject of example_cgm.csv. */
export function loadIgluReadings(): Map<string, Reading[]> {
  const subjects = parseCgmCsv(readFileSync(IGLU_CSV, "utf8"));
  return new Map(subjects.map((s) => [s.id, s.readings]));
}

/** |actual - expected| <= rel * |expected| (exact match required when expected is 0). */
export function relClose(actual: number | null | undefined, expected: number, rel = 1e-6): boolean {
  if (actual === null || actual === undefined || !Number.isFinite(actual)) return false;
  if (expected === 0) return Math.abs(actual) <= 1e-12;
  return Math.abs(actual - expected) <= rel * Math.abs(expected);
}

/** Every number reachable in a value (for "no NaN anywhere" checks). */
export function allNumbers(x: unknown, out: number[] = []): number[] {
  if (typeof x === "number") out.push(x);
  else if (Array.isArray(x)) for (const v of x) allNumbers(v, out);
  else if (x !== null && typeof x === "object")
    for (const v of Object.values(x)) allNumbers(v, out);
  return out;
}
