/**
 * Input normalisation: every metric works on a clean, strictly increasing series.
 *
 * Rules (deterministic; the result does not depend on the order of the input):
 * 1. A reading is dropped as invalid when its time is not a finite number, or its glucose is not
 *    finite or is below {@link MIN_VALID_MGDL} (zero, negative, or below 1 mg/dL: no device
 *    reports such a value, it is a unit or data error, and the log transforms of LBGI/HBGI,
 *    M-value and GRADE are undefined there).
 * 2. Readings are sorted by time.
 * 3. Readings with exactly the same time (same epoch millisecond) are merged into one reading
 *    whose glucose is the mean of theirs. This is iglu's choice in its input check
 *    (`check_data_time`: "Glucose values averaged for those timestamps"), and unlike "keep the
 *    last" it does not depend on the input order.
 *
 * Cost: one pass when the input is already valid, sorted and unique (the usual case); otherwise
 * an index sort, O(n log n).
 */
import type { Reading } from "./types";

/** Glucose values below this (mg/dL) are invalid. */
export const MIN_VALID_MGDL = 1;

/** A clean series: strictly increasing times, valid glucose, as typed arrays. */
export interface Series {
  /** Epoch ms, strictly increasing. */
  readonly time: Float64Array;
  /** mg/dL, finite and >= MIN_VALID_MGDL. */
  readonly mgdl: Float64Array;
  readonly length: number;
}

/** What normalisation did to the input. */
export interface NormalizeReport {
  /** Number of input readings. */
  readonly input: number;
  /** Readings dropped by rule 1. */
  readonly droppedInvalid: number;
  /** Readings removed by merging duplicates (k readings at one time count k - 1). */
  readonly mergedDuplicates: number;
  /** Whether the valid input was already sorted and free of duplicates. */
  readonly wasClean: boolean;
}

export function isValidReading(time: number, mgdl: number): boolean {
  return Number.isFinite(time) && Number.isFinite(mgdl) && mgdl >= MIN_VALID_MGDL;
}

/** Applies the rules above. */
export function normalizeReadings(readings: readonly Reading[]): {
  series: Series;
  report: NormalizeReport;
} {
  const n = readings.length;
  let valid = 0;
  let clean = true;
  let prev = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const r = readings[i]!;
    if (!isValidReading(r.time, r.mgdl)) continue;
    valid++;
    if (r.time <= prev) clean = false;
    prev = r.time;
  }

  if (clean) {
    const time = new Float64Array(valid);
    const mgdl = new Float64Array(valid);
    let k = 0;
    for (let i = 0; i < n; i++) {
      const r = readings[i]!;
      if (!isValidReading(r.time, r.mgdl)) continue;
      time[k] = r.time;
      mgdl[k] = r.mgdl;
      k++;
    }
    return {
      series: { time, mgdl, length: valid },
      report: { input: n, droppedInvalid: n - valid, mergedDuplicates: 0, wasClean: true },
    };
  }

  const idx: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = readings[i]!;
    if (isValidReading(r.time, r.mgdl)) idx.push(i);
  }
  // Sort by time, then by glucose, so that even the floating-point sum of merged duplicates is
  // independent of the input order.
  idx.sort(
    (a, b) => readings[a]!.time - readings[b]!.time || readings[a]!.mgdl - readings[b]!.mgdl,
  );

  const time = new Float64Array(valid);
  const mgdl = new Float64Array(valid);
  let m = 0;
  let i = 0;
  while (i < idx.length) {
    const t = readings[idx[i]!]!.time;
    let sum = 0;
    let count = 0;
    while (i < idx.length && readings[idx[i]!]!.time === t) {
      sum += readings[idx[i]!]!.mgdl;
      count++;
      i++;
    }
    time[m] = t;
    mgdl[m] = sum / count;
    m++;
  }
  return {
    series: { time: time.subarray(0, m), mgdl: mgdl.subarray(0, m), length: m },
    report: { input: n, droppedInvalid: n - valid, mergedDuplicates: valid - m, wasClean: false },
  };
}
