/**
 * The shared, computed-once inputs of every metric: the clean series, its sorted values, mean and
 * SD, the time zone's offsets, the 5-minute interpolation grid and the coverage (data
 * sufficiency). `computeAll` builds one context and passes it to every metric function.
 */
import { computeCoverage, type Coverage, type DataKind } from "./coverage";
import { buildGrid, type Grid } from "./grid";
import { mean, sampleSd, sortedCopy } from "./numeric";
import { normalizeReadings, type NormalizeReport, type Series } from "./readings";
import { ZoneOffsets } from "./timezone";
import type { Reading } from "./types";

export interface ContextOptions {
  /** IANA time zone (or fixed offset like "-05:00") for day boundaries; default "UTC". */
  readonly timeZone?: string;
  /** "cgm", "meter" or "auto" (default; see coverage.ts). */
  readonly kind?: DataKind | "auto";
}

export interface MetricContext {
  readonly timeZone: string;
  readonly series: Series;
  readonly report: NormalizeReport;
  /** The glucose values sorted ascending. */
  readonly sorted: Float64Array;
  /** Mean of the readings (NaN when none). */
  readonly mean: number;
  /** Sample SD of the readings (NaN with fewer than 2). */
  readonly sd: number;
  readonly zone: ZoneOffsets;
  readonly grid: Grid;
  readonly coverage: Coverage;
}

/** Normalises the readings (see readings.ts) and builds the shared inputs. */
export function createContext(
  readings: readonly Reading[],
  options: ContextOptions = {},
): MetricContext {
  const timeZone = options.timeZone ?? "UTC";
  const { series, report } = normalizeReadings(readings);
  const n = series.length;
  const from = n > 0 ? series.time[0]! : 0;
  const to = n > 0 ? series.time[n - 1]! : 0;
  const zone = new ZoneOffsets(timeZone, from, to);
  const grid = buildGrid(series, zone);
  const m = mean(series.mgdl);
  return {
    timeZone,
    series,
    report,
    sorted: sortedCopy(series.mgdl),
    mean: m,
    sd: n >= 2 ? sampleSd(series.mgdl, m) : Number.NaN,
    zone,
    grid,
    coverage: computeCoverage(series, zone, grid, options.kind ?? "auto"),
  };
}
