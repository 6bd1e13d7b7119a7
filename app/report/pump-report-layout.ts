import { hourTicks, type DayWindow, type IsoDate, type TimeTick } from "./day";
import { BIG_BOLUS_MAX_SHOWN } from "./pump-day";
import type { PumpDayModel } from "./pump-day-model";

/**
 * The printed pump report's layout: lists paged into tables of at most 12 rows, and the charts.
 * The days with something to draw (a pump record or a glucose value) come in runs of consecutive
 * days, each run split into charts of at most 5 days; a run of days with nothing to draw is one
 * line of text ("no data"), never an empty chart. A multi-day chart's ticks fall on the same
 * local clock times every day (the 6-day chart: every 4 h).
 */

/** Rows per CHO or alarm table on the printed page. */
export const REPORT_TABLE_MAX_ROWS = 12;
/** Days per multi-day chart. */
export const CHART_GROUP_DAYS = 5;
/** Tick step of a 6-day chart, ms (144e5 ms = 4 h). */
export const SIX_DAY_TICK_STEP_MS = 144e5;
/** At most this many ticks on a multi-day chart (6 days x 24 h / 4 h = 36, the 6-day chart). */
export const MULTI_DAY_MAX_TICKS = 36;
/** Smallest multi-day tick step, h (the single-day chart's step, day.ts `hourTicks`). */
export const MULTI_DAY_MIN_TICK_HOURS = 3;

const HOUR_MS = 3_600_000;
/** Tick steps that divide a day, h. */
const NICE_TICK_HOURS = [3, 4, 6, 8, 12, 24] as const;

/**
 * Splits rows into tables of at most `maxRows` rows (default 12), in order.
 * No rows: no table.
 */
export function paginateRows<T>(
  rows: readonly T[],
  maxRows: number = REPORT_TABLE_MAX_ROWS,
): T[][] {
  if (!Number.isInteger(maxRows) || maxRows < 1)
    throw new RangeError(`maxRows must be a positive integer, got ${maxRows}`);
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += maxRows) out.push(rows.slice(i, i + maxRows));
  return out;
}

/** Splits days into consecutive groups of `size` (default 5) for the multi-day charts; the last may be shorter. */
export function chartGroups<T>(days: readonly T[], size: number = CHART_GROUP_DAYS): T[][] {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`group size must be a positive integer, got ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < days.length; i += size) out.push(days.slice(i, i + size));
  return out;
}

/**
 * Tick step of a chart spanning `dayCount` days, ms. One point is fixed: 6 days -> 144e5 ms
 * (4 h). Rule (ours, through that point): the smallest step of 3, 4, 6, 8, 12 or 24 h (steps that
 * divide a day, so ticks fall on the same clock times every day; never finer than the day
 * chart's 3 h) that gives at most 36 ticks (6 x 24 / 4); beyond 36 days, whole days.
 * 1-4 days: 3 h; 5-6 days: 4 h; 7-9: 6 h; 10-12: 8 h; 13-18: 12 h; 19-36: 24 h; 37-72: 48 h.
 */
export function multiDayTickStepMs(dayCount: number): number {
  if (!Number.isInteger(dayCount) || dayCount < 1)
    throw new RangeError(`dayCount must be a positive integer, got ${dayCount}`);
  const minHours = Math.max(MULTI_DAY_MIN_TICK_HOURS, (dayCount * 24) / MULTI_DAY_MAX_TICKS);
  const hours = NICE_TICK_HOURS.find((h) => h >= minHours) ?? 24 * Math.ceil(minHours / 24);
  return hours * HOUR_MS;
}

/**
 * Ticks of a multi-day chart over consecutive day windows: local wall-clock hours 0, step, ...
 * of each day (DST-safe, day.ts `hourTicks`); with a step of several days, the local midnight
 * of every `step / 24 h`-th day.
 */
export function multiDayTicks(windows: readonly DayWindow[], stepMs: number): TimeTick[] {
  const stepHours = stepMs / HOUR_MS;
  if (!Number.isInteger(stepHours) || stepHours < 1)
    throw new RangeError(`tick step must be whole hours, got ${stepMs} ms`);
  if (stepHours <= 24) {
    if (24 % stepHours !== 0)
      throw new RangeError(`tick step must divide 24 h, got ${stepHours} h`);
    return windows.flatMap((w) => hourTicks(w, stepHours));
  }
  const every = stepHours / 24;
  if (!Number.isInteger(every))
    throw new RangeError(`a tick step over 24 h must be whole days, got ${stepHours} h`);
  return windows.filter((_, i) => i % every === 0).map((w) => ({ time: w.start, label: "00:00" }));
}

/**
 * The report's chart pages in date order: a chart of up to 5 consecutive days with data, or a
 * run of consecutive days without any (printed as one line).
 */
export type PumpChartSection =
  | { readonly kind: "chart"; readonly group: PumpChartGroup }
  | {
      readonly kind: "noData";
      readonly from: IsoDate;
      readonly to: IsoDate;
      readonly dayCount: number;
    };

/** One multi-day chart: up to 5 consecutive days. */
export interface PumpChartGroup {
  readonly dates: readonly IsoDate[];
  /** Epoch ms: start of the first day, end of the last. */
  readonly start: number;
  readonly end: number;
  readonly tickStepMs: number;
  readonly ticks: readonly TimeTick[];
  readonly bolusCount: number;
  /** Bolus markers are drawn only when the chart has at most 25 boluses. */
  readonly showBolusMarkers: boolean;
}

/** A day the charts draw something for: a pump record or a glucose value. */
export function hasChartData(day: Pick<PumpDayModel, "hasData" | "glucose">): boolean {
  return day.hasData || day.glucose.length > 0;
}

/** One multi-day chart over consecutive day models. */
function chartGroupOf(models: readonly PumpDayModel[]): PumpChartGroup {
  const windows = models.map((m) => m.window);
  const bolusCount = models.reduce((s, m) => s + m.boluses.length, 0);
  const tickStepMs = multiDayTickStepMs(windows.length);
  return {
    dates: windows.map((w) => w.date),
    start: windows[0]!.start,
    end: windows[windows.length - 1]!.end,
    tickStepMs,
    ticks: multiDayTicks(windows, tickStepMs),
    bolusCount,
    showBolusMarkers: bolusCount <= BIG_BOLUS_MAX_SHOWN,
  };
}

/**
 * The chart sections of consecutive day models: runs of days with data become charts of at most
 * `size` days (5), runs of days without data one `noData` section each.
 */
export function chartSectionsOf(
  days: readonly PumpDayModel[],
  size: number = CHART_GROUP_DAYS,
): PumpChartSection[] {
  const out: PumpChartSection[] = [];
  let i = 0;
  while (i < days.length) {
    const withData = hasChartData(days[i]!);
    let j = i;
    while (j < days.length && hasChartData(days[j]!) === withData) j++;
    const run = days.slice(i, j);
    if (withData)
      for (const group of chartGroups(run, size))
        out.push({ kind: "chart", group: chartGroupOf(group) });
    else
      out.push({
        kind: "noData",
        from: run[0]!.window.date,
        to: run[run.length - 1]!.window.date,
        dayCount: run.length,
      });
    i = j;
  }
  return out;
}
