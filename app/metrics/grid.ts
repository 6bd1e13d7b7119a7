/**
 * The interpolation grid of iglu's `CGMS2DayByDay` (iglu 4.3.0, R/utils.R), shared by MAGE,
 * MODD, CONGA, MAG, AUC100/AAC100 and the AGP. Computed once per `computeAll` call.
 *
 * Definition (iglu): T0 = 00:00 of the first reading's day; grid points T0 + k * dt0 for
 * k = 1, 2, ... (the first point is 00:05, and point 288 of a day is 24:00 = 00:00 of the next
 * day). Values are linear interpolation between the two readings around each point (R's
 * `stats::approx`, same floating-point expression), `NaN` before the first and after the last
 * reading, and `NaN` strictly between two consecutive readings more than `inter_gap` = 45 min
 * apart. A point that falls exactly on a reading takes that reading's value.
 *
 * DiaCare decisions (documented, tested):
 * - dt0 is fixed at 5 min (iglu derives it from the median sampling interval; for 5-minute CGM,
 *   the data of the reference set and of the reports, both give 5). A fixed 5-minute grid gives
 *   the AGP its 288 time-of-day columns whatever the sensor's sampling rate, and is what iglu's
 *   MAGE always uses.
 * - Time zones: T0 is local midnight (in the patient's IANA zone) of the first reading's local
 *   date, and the grid is the absolute instants T0 + k * 5 min. Lags (24 h for MODD, n h for
 *   CONGA) are therefore exact elapsed time, also across a DST change. Each grid point also
 *   carries its local time-of-day column, computed from the zone's offset at that instant: the
 *   AGP groups by local clock time, so after a DST change the same clock time lands in the same
 *   column; on the long autumn day two points share a column, on the short spring day one
 *   hour of columns gets no point from that day. With UTC (or any fixed offset) this is
 *   exactly iglu's day-by-day matrix read row by row.
 * - The grid stops at the last reading (iglu pads to the end of the last day with NA; the padding
 *   never enters any metric).
 */
import type { Series } from "./readings";
import { ZoneOffsets } from "./timezone";
import { DAY_MS, MINUTE_MS } from "./types";

/** Grid step, minutes (iglu's dt0 for 5-minute CGM). */
export const GRID_STEP_MIN = 5;
/** Longest gap (minutes) that is interpolated (iglu's inter_gap). */
export const INTER_GAP_MIN = 45;

export interface Grid {
  /** Step in minutes. */
  readonly stepMin: number;
  /** Number of time-of-day columns per day (1440 / stepMin = 288). */
  readonly columnsPerDay: number;
  /** T0: epoch ms of local midnight of the first reading's local date. Point k is T0 + (k+1) step. */
  readonly start: number;
  /** Interpolated mg/dL; NaN = no value. */
  readonly values: Float64Array;
  /**
   * Local time-of-day column of each point, 0-based: column c holds local times in
   * ((c) step, (c+1) step] minutes after midnight, so column 287 is 24:00 (iglu's 1440).
   */
  readonly column: Uint16Array;
  /** Local day index of each point's row (24:00 belongs to the day that ends then). */
  readonly day: Int32Array;
  readonly length: number;
}

export interface GridOptions {
  readonly stepMin?: number;
  readonly interGapMin?: number;
}

/** Builds the grid of a clean series in the zone described by `zone`. */
export function buildGrid(series: Series, zone: ZoneOffsets, options: GridOptions = {}): Grid {
  const stepMin = options.stepMin ?? GRID_STEP_MIN;
  const interGapMs = (options.interGapMin ?? INTER_GAP_MIN) * MINUTE_MS;
  if (!(stepMin > 0) || 1440 % stepMin !== 0)
    throw new RangeError(`grid step must divide 1440 minutes, got ${stepMin}`);
  const stepMs = stepMin * MINUTE_MS;
  const columnsPerDay = 1440 / stepMin;
  const n = series.length;
  if (n === 0) {
    return {
      stepMin,
      columnsPerDay,
      start: Number.NaN,
      values: new Float64Array(0),
      column: new Uint16Array(0),
      day: new Int32Array(0),
      length: 0,
    };
  }
  const t = series.time;
  const g = series.mgdl;
  const first = t[0]!;
  const last = t[n - 1]!;
  const start = zone.startOfLocalDay(first);
  const length = Math.max(0, Math.floor((last - start) / stepMs));
  const values = new Float64Array(length);
  const column = new Uint16Array(length);
  const day = new Int32Array(length);

  let i = 0; // invariant: t[i] <= x once x >= first
  const fixedOffset = zone.isFixed ? zone.offsetAt(first) : Number.NaN;
  for (let k = 0; k < length; k++) {
    const x = start + (k + 1) * stepMs;

    const local = x + (fixedOffset === fixedOffset ? fixedOffset : zone.offsetAt(x));
    let d = Math.floor(local / DAY_MS);
    const tod = local - d * DAY_MS;
    let c: number;
    if (tod === 0) {
      d -= 1;
      c = columnsPerDay - 1;
    } else {
      c = Math.ceil(tod / stepMs) - 1;
    }
    column[k] = c;
    day[k] = d;

    if (x < first) {
      values[k] = Number.NaN;
      continue;
    }
    while (i + 1 < n && t[i + 1]! <= x) i++;
    const ti = t[i]!;
    if (ti === x) {
      values[k] = g[i]!;
      continue;
    }
    // Here ti < x <= last, so i + 1 < n and t[i + 1] > x.
    const tj = t[i + 1]!;
    if (tj - ti > interGapMs) {
      values[k] = Number.NaN;
      continue;
    }
    const yi = g[i]!;
    values[k] = yi + (g[i + 1]! - yi) * ((x - ti) / (tj - ti));
  }
  return { stepMin, columnsPerDay, start, values, column, day, length };
}
