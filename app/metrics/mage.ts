/**
 * MAGE, mean amplitude of glycaemic excursions. mg/dL.
 *
 * 1. `mageMa`: iglu 4.3.0's default algorithm (`mage(data)`, version "ma"), after
 *    Fernandes NJ, et al. Open-source algorithm to calculate mean amplitude of glycemic
 *    excursions using short and long moving averages. J Diabetes Sci Technol 2022;16:576-577,
 *    doi:10.1177/19322968211061165; original index: Service FJ, et al. Mean amplitude of
 *    glycemic excursions, a measure of diabetic instability. Diabetes 1970;19:644-655,
 *    doi:10.2337/diab.19.9.644.
 *    Steps (our own implementation of the published description, checked against iglu's output):
 *    - the 5-minute interpolation grid (grid.ts) is trimmed of leading/trailing empty points and
 *      split into segments at runs of empty points longer than max_gap = 180 min;
 *    - per segment (needs >= 7 and >= long_ma points and a sample SD >= 1 mg/dL): right-aligned
 *      moving averages of widths short_ma = 5 and long_ma = 32 (empty points skipped; the first
 *      width - 1 values copy the first complete window); the points where short - long changes
 *      sign split the trace into intervals, each holding one nadir (short falls below long) or
 *      one peak; the extreme *original* grid value of each interval is its turning point;
 *    - excursions: scanning the turning points, a nadir-to-peak rise (MAGE+) or peak-to-nadir fall
 *      (MAGE-) counts when it is at least one SD of the segment; the peak (nadir) is extended
 *      while the trace keeps rising (falling) until it falls (rises) back by more than one SD;
 *    - per segment, MAGE+ = mean of the rises, MAGE- = |mean of the falls|;
 *    - "avg" (the default) = mean of all segments' MAGE+ and MAGE- values, each weighted by its
 *      segment's duration (one segment: (MAGE+ + MAGE-) / 2); "plus", "minus": only one
 *      direction; "max": per segment the larger; "service": per segment the direction of the
 *      first excursion.
 * 2. `mageNaive`: iglu `mage(version = "naive")`: mean of |g - mean| over the raw readings whose
 *    |g - mean| exceeds one SD.
 *
 * Data sufficiency: MAGE (ma) uses the GRID rule (CGM data meeting the 14-day/70% consensus,
 * coverage.ts); MAGE naive uses the STANDARD rule.
 */
import type { MetricContext } from "./context";
import { CompensatedSum, mean, sampleSdNonNaN } from "./numeric";
import { finiteOrNull, metric, NO_VALUE, type MetricResult } from "./types";

export interface MageOptions {
  /** Short moving-average window in 5-minute points (default 5). */
  readonly shortMa?: number;
  /** Long moving-average window in 5-minute points (default 32). */
  readonly longMa?: number;
  /** Gaps longer than this many minutes split the trace into segments (default 180). */
  readonly maxGapMin?: number;
}

/** MAGE in every direction iglu offers; null where iglu returns NA. */
export interface MageDirections {
  readonly avg: number | null;
  readonly plus: number | null;
  readonly minus: number | null;
  readonly max: number | null;
  readonly service: number | null;
}

/** The result of one segment: null when the segment cannot be used. */
interface SegmentMage {
  /** Duration weight: end - start in grid steps. */
  readonly duration: number;
  readonly plus: number;
  readonly minus: number;
  readonly hasPlus: boolean;
  readonly hasMinus: boolean;
  readonly plusFirst: boolean;
}

const REL_MIN = 0;
const REL_MAX = 1;

/**
 * Right-aligned moving average of width w over x[from..to) (NaN skipped; NaN when a window has no
 * value), with the first w - 1 outputs set to the first complete window (iglu fills them so).
 */
function movingAverage(
  x: Float64Array,
  from: number,
  to: number,
  w: number,
  out: Float64Array,
): void {
  const n = to - from;
  for (let i = w - 1; i < n; i++) {
    // Each window is summed afresh (compensated) rather than by a running sum, so that the
    // averages do not drift and their sign changes fall where iglu's do.
    let s = 0;
    let comp = 0;
    let c = 0;
    for (let j = from + i - w + 1; j <= from + i; j++) {
      const v = x[j]!;
      if (v === v) {
        const t = s + v;
        comp += Math.abs(s) >= Math.abs(v) ? s - t + v : v - t + s;
        s = t;
        c++;
      }
    }
    out[i] = c === 0 ? Number.NaN : (s + comp) / c;
  }
  const firstFull = out[w - 1]!;
  for (let i = 0; i < w - 1 && i < n; i++) out[i] = firstFull;
}

/** A rise (MAGE+, nadir to peak) or a fall (MAGE-, peak to nadir). */
type Direction = "rise" | "fall";

/**
 * An excursion from turning point `from` to turning point `to` (a rise: nadir to peak; a fall:
 * peak to nadir); `height` is the difference, negative for a fall.
 */
interface Excursion {
  readonly from: number;
  readonly to: number;
  readonly height: number;
}

/**
 * The excursions of at least `sd` in one direction over the turning points `minmax`, in order.
 * For each turning point j, the excursion to j starts at the lowest (for a fall: the highest)
 * turning point since the previous excursion, first on ties; when it reaches `sd` its end is
 * extended while the trace keeps going the same way, until the trace turns back by more than
 * `sd` or the turning points end. The next excursion is looked for from the point where the
 * trace turned back after a rise, and from the nadir after a fall, as iglu does.
 */
function scanExcursions(minmax: Float64Array, sd: number, direction: Direction): Excursion[] {
  // Multiplying by the sign mirrors a fall into a rise; the products and differences are exact,
  // so each comparison decides as its mirrored form would.
  const sign = direction === "rise" ? 1 : -1;
  const N = minmax.length;
  const excursions: Excursion[] = [];
  // Each pass either advances j or records an excursion that is followed by an advance, so
  // 4N + 16 passes are never reached; the bound only rules out an endless loop.
  const guardLimit = 4 * N + 16;
  let j = 0;
  let prevJ = 0;
  let runFrom = -1;
  let runTo = -1;
  let runArg = -1;
  for (let guard = 0; j < N && guard < guardLimit; guard++) {
    // The start of the largest excursion to j, kept as a running extreme over prevJ..j.
    if (runFrom !== prevJ || runTo > j) {
      runFrom = prevJ;
      runTo = prevJ - 1;
      runArg = -1;
    }
    while (runTo < j) {
      runTo++;
      if (runArg < 0 || sign * minmax[runTo]! < sign * minmax[runArg]!) runArg = runTo;
    }
    const i = runArg;
    if (sign * (minmax[j]! - minmax[i]!) >= sd) {
      for (let k = j; k < N; k++) {
        if (sign * minmax[k]! > sign * minmax[j]!) j = k;
        if (sign * (minmax[k]! - minmax[j]!) < -sd || k === N - 1) {
          excursions.push({ from: i, to: j, height: minmax[j]! - minmax[i]! });
          prevJ = direction === "rise" ? k : j;
          j = k;
          break;
        }
      }
    } else {
      j++;
    }
  }
  return excursions;
}

/** MAGE of one segment x[from..to) (first and last points have values). */
function segmentMage(
  x: Float64Array,
  from: number,
  to: number,
  shortMa: number,
  longMa: number,
): SegmentMage | null {
  const n = to - from;
  if (n < 7 || n < longMa) return null;
  const sd = sampleSdNonNaN(x.subarray(from, to));
  if (!(sd >= 1)) return null;

  const maShort = new Float64Array(n);
  const maLong = new Float64Array(n);
  movingAverage(x, from, to, shortMa, maShort);
  movingAverage(x, from, to, longMa, maLong);
  const delta = new Float64Array(n);
  for (let i = 0; i < n; i++) delta[i] = maShort[i]! - maLong[i]!;

  // Crossing points of the two moving averages, with the type of extremum that follows each.
  const crossPos: number[] = [0];
  const crossType: number[] = [delta[0]! > 0 ? REL_MAX : REL_MIN];
  for (let i = 1; i < n; i++) {
    const gi = x[from + i]!;
    const gp = x[from + i - 1]!;
    const di = delta[i]!;
    const dp = delta[i - 1]!;
    if (gi !== gi || gp !== gp || di !== di || dp !== dp) continue;
    if (di * dp < 0) {
      crossPos.push(i);
      crossType.push(di < dp ? REL_MIN : REL_MAX);
    } else {
      // After a gap or a zero delta, compare with the delta at the last crossing.
      const prev = delta[crossPos[crossPos.length - 1]!]!;
      if (di * prev < 0) {
        crossPos.push(i);
        crossType.push(di < prev ? REL_MIN : REL_MAX);
      }
    }
  }
  crossPos.push(n - 1);
  crossType.push(delta[n - 1]! > 0 ? REL_MAX : REL_MIN);

  // Turning points: the extreme original value between a crossing (or the previous turning
  // point) and the next crossing; first occurrence on ties.
  const numExtrema = crossPos.length - 1;
  const minmax = new Float64Array(numExtrema);
  let prevIdx = 0;
  for (let e = 0; e < numExtrema; e++) {
    const s1 = e === 0 ? crossPos[0]! : prevIdx;
    const s2 = crossPos[e + 1]!;
    const findMin = crossType[e] === REL_MIN;
    let best = Number.NaN;
    let bestIdx = s1;
    for (let k = s1; k <= s2; k++) {
      const v = x[from + k]!;
      if (v !== v) continue;
      if (best !== best || (findMin ? v < best : v > best)) {
        best = v;
        bestIdx = k;
      }
    }
    minmax[e] = best;
    prevIdx = bestIdx;
  }

  const rises = scanExcursions(minmax, sd, "rise");
  const falls = scanExcursions(minmax, sd, "fall");
  const firstRise = rises[0];
  const firstFall = falls[0];
  if (!firstRise && !firstFall) return null;
  return {
    duration: n - 1,
    plus: firstRise ? mean(rises.map((r) => r.height)) : Number.NaN,
    minus: firstFall ? Math.abs(mean(falls.map((f) => f.height))) : Number.NaN,
    hasPlus: firstRise !== undefined,
    hasMinus: firstFall !== undefined,
    // The first excursion is a rise when the first rise's peak (its end) comes no later than the
    // first fall's peak (its start).
    plusFirst: firstRise !== undefined && (!firstFall || firstRise.to <= firstFall.from),
  };
}

/** Segments [from, to) of the trimmed grid, split at empty runs longer than maxGapMin minutes. */
function splitSegments(
  x: Float64Array,
  stepMin: number,
  maxGapMin: number,
): Array<[number, number]> {
  let first = 0;
  while (first < x.length && x[first] !== x[first]) first++;
  let last = x.length - 1;
  while (last >= first && x[last] !== x[last]) last--;
  if (first > last) return [];
  const out: Array<[number, number]> = [];
  let segStart = first;
  let i = first;
  while (i <= last) {
    if (x[i] === x[i]) {
      i++;
      continue;
    }
    let j = i;
    while (x[j] !== x[j]) j++; // stops at or before `last`, which has a value
    if ((j - i) * stepMin > maxGapMin) {
      out.push([segStart, i]);
      segStart = j;
    }
    i = j;
  }
  out.push([segStart, last + 1]);
  return out;
}

/** Weighted mean of values by weights w (iglu: sum(mage * weight / sum(weight))). */
function weighted(values: number[], weights: number[]): number | null {
  if (values.length === 0) return null;
  let total = 0;
  for (const w of weights) total += w;
  const acc = new CompensatedSum();
  for (let i = 0; i < values.length; i++) acc.add(values[i]! * (weights[i]! / total));
  return finiteOrNull(acc.value);
}

/**
 * iglu's moving-average MAGE in all directions, on a 5-minute grid `values` (NaN = empty).
 * Returns nulls where iglu returns NA (too little data, no excursion, flat trace).
 */
export function mageMaDirections(
  values: Float64Array,
  stepMin: number,
  options: MageOptions = {},
): MageDirections {
  // iglu rescales the windows, defined for 5-minute data, to the grid step.
  let shortMa = Math.round(((options.shortMa ?? 5) * 5) / stepMin);
  let longMa = Math.round(((options.longMa ?? 32) * 5) / stepMin);
  if (shortMa >= longMa) [shortMa, longMa] = [longMa, shortMa];
  const none: MageDirections = { avg: null, plus: null, minus: null, max: null, service: null };

  const segments = splitSegments(values, stepMin, options.maxGapMin ?? 180);
  if (segments.length === 0) return none;
  const trimmedLength = segments[segments.length - 1]![1] - segments[0]![0];
  if (trimmedLength < 7 || trimmedLength < longMa) return none;

  const results: SegmentMage[] = [];
  for (const [from, to] of segments) {
    const r = segmentMage(values, from, to, shortMa, longMa);
    if (r !== null) results.push(r);
  }
  if (results.length === 0) return none;

  const avgV: number[] = [];
  const avgW: number[] = [];
  const plusV: number[] = [];
  const plusW: number[] = [];
  const minusV: number[] = [];
  const minusW: number[] = [];
  const maxV: number[] = [];
  const maxW: number[] = [];
  const servV: number[] = [];
  const servW: number[] = [];
  let plusNa = false;
  let minusNa = false;
  for (const r of results) {
    if (r.hasPlus) {
      avgV.push(r.plus);
      avgW.push(r.duration);
    }
    if (r.hasMinus) {
      avgV.push(r.minus);
      avgW.push(r.duration);
    }
    // iglu keeps a segment's PLUS (MINUS) row even when it is NA, which makes the total NA.
    plusV.push(r.plus);
    plusW.push(r.duration);
    if (!r.hasPlus) plusNa = true;
    minusV.push(r.minus);
    minusW.push(r.duration);
    if (!r.hasMinus) minusNa = true;
    if (r.hasPlus && r.hasMinus) {
      // Rows equal to the segment's maximum (both on a tie).
      const m = Math.max(r.plus, r.minus);
      if (r.plus === m) {
        maxV.push(r.plus);
        maxW.push(r.duration);
      }
      if (r.minus === m) {
        maxV.push(r.minus);
        maxW.push(r.duration);
      }
    }
    servV.push(r.plusFirst ? r.plus : r.minus);
    servW.push(r.duration);
  }
  return {
    avg: weighted(avgV, avgW),
    plus: plusNa ? null : weighted(plusV, plusW),
    minus: minusNa ? null : weighted(minusV, minusW),
    max: weighted(maxV, maxW),
    service: weighted(servV, servW),
  };
}

/** MAGE (iglu "ma", direction "avg") on the context's grid. mg/dL. Rule: GRID. */
export function mage(ctx: MetricContext, options: MageOptions = {}): MetricResult {
  const v = mageMaDirections(ctx.grid.values, ctx.grid.stepMin, options).avg;
  return metric(v, ctx.coverage.grid);
}

/**
 * MAGE naive: mean of |g - mean| over the readings with |g - mean| > SD (sample SD; iglu
 * `mage(version = "naive", sd_multiplier = 1)`). mg/dL. Rule: STANDARD. Null when no reading
 * deviates by more than one SD.
 */
export function mageNaive(ctx: MetricContext): MetricResult {
  const g = ctx.series.mgdl;
  const m = ctx.mean;
  const sd = ctx.sd;
  if (!Number.isFinite(sd)) return NO_VALUE;
  const acc = new CompensatedSum();
  let c = 0;
  for (let i = 0; i < g.length; i++) {
    const d = Math.abs(g[i]! - m);
    if (d > sd) {
      acc.add(d);
      c++;
    }
  }
  return metric(c === 0 ? null : acc.value / c, ctx.coverage.standard);
}
