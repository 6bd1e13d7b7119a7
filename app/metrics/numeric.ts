/**
 * Numeric kernels shared by the metrics: compensated sums, mean, sample SD, R's quantile type 7
 * and R's rounding. Arrays may hold `NaN` for "no value" (the interpolation grid does); the
 * `*NonNaN` helpers skip those, like R's `na.rm = TRUE`.
 *
 * R accumulates sums in long double (80-bit on x86); Neumaier's compensated summation gives the
 * same result to within an ulp in practice, so our values agree with iglu to ~1e-15 relative.
 * Reference: Neumaier A. (1974) Rundungsfehleranalyse einiger Verfahren zur Summation endlicher
 * Summen. ZAMM 54:39-51, doi:10.1002/zamm.19740540106.
 */

/** Accumulator for Neumaier (improved Kahan-Babuska) compensated summation. */
export class CompensatedSum {
  private s = 0;
  private c = 0;
  add(x: number): void {
    const t = this.s + x;
    if (Math.abs(this.s) >= Math.abs(x)) this.c += this.s - t + x;
    else this.c += x - t + this.s;
    this.s = t;
  }
  get value(): number {
    return this.s + this.c;
  }
}

/** Arithmetic mean of `x[from..to)` (all values must be finite); NaN when empty. */
export function mean(x: ArrayLike<number>, from = 0, to = x.length): number {
  const n = to - from;
  if (n <= 0) return Number.NaN;
  const acc = new CompensatedSum();
  for (let i = from; i < to; i++) acc.add(x[i]!);
  return acc.value / n;
}

/**
 * Sample standard deviation (denominator n - 1), two-pass like R's `sd()`; NaN when n < 2.
 * All values must be finite.
 */
export function sampleSd(x: ArrayLike<number>, m: number = mean(x)): number {
  const n = x.length;
  if (n < 2) return Number.NaN;
  const acc = new CompensatedSum();
  for (let i = 0; i < n; i++) {
    const d = x[i]! - m;
    acc.add(d * d);
  }
  return Math.sqrt(acc.value / (n - 1));
}

/** Mean of the non-NaN values of `x`; NaN when there are none. */
export function meanNonNaN(x: ArrayLike<number>): number {
  const acc = new CompensatedSum();
  let n = 0;
  for (let i = 0; i < x.length; i++) {
    const v = x[i]!;
    if (v === v) {
      acc.add(v);
      n++;
    }
  }
  return n === 0 ? Number.NaN : acc.value / n;
}

/** Sample SD of the non-NaN values of `x` (R: `sd(x, na.rm = TRUE)`); NaN when fewer than 2. */
export function sampleSdNonNaN(x: ArrayLike<number>): number {
  const m = meanNonNaN(x);
  if (!(m === m)) return Number.NaN;
  const acc = new CompensatedSum();
  let n = 0;
  for (let i = 0; i < x.length; i++) {
    const v = x[i]!;
    if (v === v) {
      const d = v - m;
      acc.add(d * d);
      n++;
    }
  }
  return n < 2 ? Number.NaN : Math.sqrt(acc.value / (n - 1));
}

/**
 * Quantile of an ascending-sorted array, R's `quantile(type = 7)` (Hyndman & Fan 1996, definition
 * 7; doi:10.1080/00031305.1996.10473566): h = 1 + (n - 1) p, result = (1 - f) x[lo] + f x[hi]
 * with lo = floor(h), hi = ceil(h), f = h - lo (1-based), written in the same floating-point
 * order as R so results agree to the last bit. `from`/`to` select a sorted slice.
 * NaN when the slice is empty.
 */
export function quantileSorted(
  sorted: ArrayLike<number>,
  p: number,
  from = 0,
  to = sorted.length,
): number {
  const n = to - from;
  if (n <= 0) return Number.NaN;
  const index = 1 + Math.max(n - 1, 0) * p;
  const lo = Math.floor(index);
  const hi = Math.ceil(index);
  const qlo = sorted[from + lo - 1]!;
  const qhi = sorted[from + hi - 1]!;
  if (index > lo && qhi !== qlo) {
    const h = index - lo;
    return (1 - h) * qlo + h * qhi;
  }
  return qlo;
}

/** Median of an ascending-sorted slice (R's `median`); NaN when empty. */
export function medianSorted(sorted: ArrayLike<number>, from = 0, to = sorted.length): number {
  const n = to - from;
  if (n <= 0) return Number.NaN;
  const half = Math.floor((n + 1) / 2);
  if (n % 2 === 1) return sorted[from + half - 1]!;
  return (sorted[from + half - 1]! + sorted[from + half]!) / 2;
}

/**
 * Median of `x` by selection (Hoare's quickselect, expected O(n)); reorders `x` in place. Same
 * value as sorting and taking R's median. NaN when empty. Values must not be NaN.
 */
export function medianInPlace(x: Float64Array): number {
  const n = x.length;
  if (n === 0) return Number.NaN;
  const k = (n - 1) >> 1;
  selectInPlace(x, k);
  const lo = x[k]!;
  if (n % 2 === 1) return lo;
  // The upper middle is the smallest value right of k.
  let hi = Number.POSITIVE_INFINITY;
  for (let i = k + 1; i < n; i++) if (x[i]! < hi) hi = x[i]!;
  return (lo + hi) / 2;
}

/** Rearranges `x` so that x[k] is the k-th smallest, smaller ones left and larger ones right. */
export function selectInPlace(x: Float64Array, k: number): void {
  let left = 0;
  let right = x.length - 1;
  while (right > left) {
    const mid = (left + right) >> 1;
    // Median of three as pivot.
    const a = x[left]!;
    const b = x[mid]!;
    const c = x[right]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = left;
    let j = right;
    while (i <= j) {
      while (x[i]! < pivot) i++;
      while (x[j]! > pivot) j--;
      if (i <= j) {
        const t = x[i]!;
        x[i] = x[j]!;
        x[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return;
  }
}

/** Sorted copy of a numeric array (ascending, as Float64Array). */
export function sortedCopy(x: ArrayLike<number>): Float64Array {
  const out = Float64Array.from(x);
  out.sort();
  return out;
}

/**
 * R's `round(x)` (IEC 60559 round half to even), which iglu uses for dt0 and for
 * active_percent; `Math.round` would round 2.5 up to 3 where R gives 2.
 */
export function roundHalfEven(x: number): number {
  const r = Math.round(x);
  if (Math.abs(x % 1) === 0.5 && r % 2 !== 0) return r - 1;
  return r;
}
