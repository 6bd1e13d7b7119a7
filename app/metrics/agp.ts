/**
 * AGP, ambulatory glucose profile: the 5th, 25th, 50th, 75th and 95th percentiles of glucose at
 * each 5-minute local time of day, over the days of the period. mg/dL.
 *
 * Definition (iglu 4.3.0 `plot_agp(smooth = FALSE)` / `agp`): for each of the 288 columns of the
 * 5-minute interpolation grid (grid.ts), column c = 1..288 holding local time c x 5 min
 * (5, 10, ..., 1440 = midnight at the end of the day), the quantiles of that column's values over
 * the days, R quantile type 7 (Hyndman & Fan 1996), empty points skipped. A column without a
 * value gives null. The time zone sets the columns (local clock time; see grid.ts for DST).
 * Reference: Bergenstal RM, et al. Recommendations for standardizing glucose reporting and
 * analysis to optimize clinical decision making in diabetes: the Ambulatory Glucose Profile.
 * J Diabetes Sci Technol 2013;7:562-578, doi:10.1177/193229681300700234; Battelino 2019
 * (doi:10.2337/dci19-0028) for the 5/25/50/75/95 percentile bands.
 *
 * Data sufficiency: at least 5 full days (DiaCare's rule; a full day has >= 70% of its grid
 * points, coverage.ts). The consensus recommends 14 days for a representative AGP.
 */
import type { MetricContext } from "./context";
import type { Grid } from "./grid";
import { quantileSorted } from "./numeric";
import { metric, type MetricResult } from "./types";

export const AGP_PERCENTILES = [5, 25, 50, 75, 95] as const;

export interface Agp {
  /** Minutes after local midnight of each column: 5, 10, ..., 1440. */
  readonly timeOfDayMin: number[];
  readonly p5: (number | null)[];
  readonly p25: (number | null)[];
  readonly p50: (number | null)[];
  readonly p75: (number | null)[];
  readonly p95: (number | null)[];
  /** Number of values (days) in each column. */
  readonly count: number[];
}

/** AGP percentiles of a grid (columns sorted once each: counting sort by column, then sort). */
export function agpOf(grid: Grid): Agp {
  const cols = grid.columnsPerDay;
  const counts = new Int32Array(cols);
  for (let k = 0; k < grid.length; k++) {
    const v = grid.values[k]!;
    if (v === v) counts[grid.column[k]!]!++;
  }
  const offsets = new Int32Array(cols + 1);
  for (let c = 0; c < cols; c++) offsets[c + 1] = offsets[c]! + counts[c]!;
  const buf = new Float64Array(offsets[cols]!);
  const fill = offsets.slice(0, cols);
  for (let k = 0; k < grid.length; k++) {
    const v = grid.values[k]!;
    if (v === v) {
      const c = grid.column[k]!;
      buf[fill[c]!] = v;
      fill[c]!++;
    }
  }
  const timeOfDayMin: number[] = [];
  const out: (number | null)[][] = AGP_PERCENTILES.map(() => []);
  for (let c = 0; c < cols; c++) {
    const from = offsets[c]!;
    const to = offsets[c + 1]!;
    buf.subarray(from, to).sort();
    timeOfDayMin.push((c + 1) * grid.stepMin);
    for (let q = 0; q < AGP_PERCENTILES.length; q++) {
      out[q]!.push(to > from ? quantileSorted(buf, AGP_PERCENTILES[q]! / 100, from, to) : null);
    }
  }
  return {
    timeOfDayMin,
    p5: out[0]!,
    p25: out[1]!,
    p50: out[2]!,
    p75: out[3]!,
    p95: out[4]!,
    count: Array.from(counts),
  };
}

/** The AGP of the context (see the file comment). Rule: AGP (5 full days). */
export function agp(ctx: MetricContext): MetricResult<Agp> {
  const a = agpOf(ctx.grid);
  // No grid point with a value at all (no data, or only readings more than 45 min apart).
  if (!a.count.some((c) => c > 0)) return metric<Agp>(null, false);
  return metric(a, ctx.coverage.agp);
}
