/**
 * The CGMS page models: one local day of CGM readings (trace, target band, latest trend arrow
 * and alarm class, percent in ranges, the CGM report's summary fields) and a 14-day overlay
 * (each day's readings on a 0-24 h time-of-day axis, one line per day).
 *
 * Reuses app/metrics: input cleaning (readings.ts `normalizeReadings`: invalid values dropped,
 * same-instant readings merged), the trend arrow (trend.ts and its thresholds), the alarm class
 * (alarm.ts) and the consensus bands (ranges.ts `timeInRangesOf`, Battelino 2019), so the numbers
 * equal `computeAll` of app/metrics on the same day's readings.
 */
import { assertLimits, latestAlarm, type AlarmClass, type GlucoseLimits } from "../metrics/alarm";
import { normalizeReadings, type Series } from "../metrics/readings";
import { timeInRangesOf, type TimeInRanges } from "../metrics/ranges";
import { ZoneOffsets } from "../metrics/timezone";
import { glucoseTrend, type Trend } from "../metrics/trend";
import { DAY_MS, MINUTE_MS, type Reading } from "../metrics/types";
import {
  clockOf,
  dayWindow,
  hourTicks,
  requireDate,
  shiftDate,
  type DayWindow,
  type IsoDate,
  type TimeTick,
} from "./day";
import { classify, isAboveRange, isBelowRange, type GlucoseClass } from "./units";

/** Consecutive readings further apart than this are not joined by the trace line (3 missed 5-min readings). */
export const CGM_LINE_GAP_MS = 15 * MINUTE_MS;
/** Days in the overlay (as a CGM range: at most 14 days). */
export const OVERLAY_DAYS = 14;

export interface CgmPointView {
  readonly time: number;
  readonly mgdl: number;
  readonly class: GlucoseClass;
  /** Line segment number: a new segment starts after a gap of more than 15 min. */
  readonly segment: number;
}

/** A glucose value with its instant and local clock time. */
export interface TimedValue {
  readonly time: number;
  readonly clock: string;
  readonly mgdl: number;
}

/** Readings below, within and above the patient's range (counts and percent 0-100). */
export interface GoalSplit {
  readonly below: number;
  readonly within: number;
  readonly above: number;
  readonly belowPercent: number;
  readonly withinPercent: number;
  readonly abovePercent: number;
}

/**
 * The day's readings in figures, mg/dL: their count, mean, and the highest and lowest value with
 * the time it shows (the first occurrence).
 */
export interface CgmDaySummary {
  readonly readingCount: number;
  /** Mean, mg/dL. */
  readonly mean: number;
  readonly highest: TimedValue;
  readonly lowest: TimedValue;
}

export interface CgmDayModel {
  readonly window: DayWindow;
  readonly hasData: boolean;
  readonly points: readonly CgmPointView[];
  /** The patient's target range, mg/dL, drawn as a band. */
  readonly targetBand: GlucoseLimits;
  /** The day's last reading. */
  readonly latest: (TimedValue & { readonly class: GlucoseClass }) | null;
  /** Trend arrow at the latest reading (app/metrics trend; null with < 4 readings in 20 min). */
  readonly trend: Trend | null;
  /** Alarm class of the latest reading (app/metrics alarm). */
  readonly alarm: AlarmClass | null;
  /** Consensus bands of the day's readings (app/metrics ranges), percent; null without readings. */
  readonly timeInRanges: TimeInRanges | null;
  /** Against the patient's own limits; null without readings. */
  readonly goal: GoalSplit | null;
  readonly summary: CgmDaySummary | null;
  /** Axis ticks every 3 local hours. */
  readonly ticks: readonly TimeTick[];
}

export interface CgmDayInput {
  readonly date: string;
  readonly timeZone: string;
  /**
   * CGM readings (mg/dL). Readings of the day are drawn; readings up to 20 min before the day
   * let the trend at 00:05 use the evening's values. Others are ignored.
   */
  readonly readings: readonly Reading[];
  /** The patient's range, mg/dL. */
  readonly limits: GlucoseLimits;
}

/** Readings of a clean series in [from, to) as index bounds. */
function bounds(series: Series, from: number, to: number): [number, number] {
  const lower = (x: number) => {
    let lo = 0;
    let hi = series.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (series.time[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return [lower(from), lower(to)];
}

/** Builds the CGMS day model (see the file comment). */
export function buildCgmDay(input: CgmDayInput): CgmDayModel {
  const window = dayWindow(input.date, input.timeZone);
  assertLimits(input.limits);
  const zone = new ZoneOffsets(window.timeZone, window.start - DAY_MS, window.end + DAY_MS);
  const { series } = normalizeReadings(input.readings);
  const [a, b] = bounds(series, window.start, window.end);
  const day: Series = {
    time: series.time.subarray(a, b),
    mgdl: series.mgdl.subarray(a, b),
    length: b - a,
  };
  const ticks = hourTicks(window, 3);
  if (day.length === 0) {
    return {
      window,
      hasData: false,
      points: [],
      targetBand: input.limits,
      latest: null,
      trend: null,
      alarm: null,
      timeInRanges: null,
      goal: null,
      summary: null,
      ticks,
    };
  }

  const points: CgmPointView[] = [];
  let segment = 0;
  let below = 0;
  let above = 0;
  let sum = 0;
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < day.length; i++) {
    const time = day.time[i]!;
    const mgdl = day.mgdl[i]!;
    if (i > 0 && time - day.time[i - 1]! > CGM_LINE_GAP_MS) segment++;
    const c = classify(mgdl, input.limits);
    if (isBelowRange(c)) below++;
    if (isAboveRange(c)) above++;
    sum += mgdl;
    if (mgdl > day.mgdl[hi]!) hi = i;
    if (mgdl < day.mgdl[lo]!) lo = i;
    points.push({ time, mgdl, class: c, segment });
  }
  const n = day.length;
  const within = n - below - above;
  const last = n - 1;
  const timed = (i: number): TimedValue => ({
    time: day.time[i]!,
    clock: clockOf(day.time[i]!, zone),
    mgdl: day.mgdl[i]!,
  });
  // The trend may use readings just before the day (series up to the day's last reading).
  const upToLatest: Series = {
    time: series.time.subarray(0, b),
    mgdl: series.mgdl.subarray(0, b),
    length: b,
  };
  return {
    window,
    hasData: true,
    points,
    targetBand: input.limits,
    latest: { ...timed(last), class: points[last]!.class },
    trend: glucoseTrend(upToLatest).value,
    alarm: latestAlarm(day, input.limits).value,
    timeInRanges: timeInRangesOf(day.mgdl),
    goal: {
      below,
      within,
      above,
      belowPercent: (below / n) * 100,
      withinPercent: (within / n) * 100,
      abovePercent: (above / n) * 100,
    },
    summary: { readingCount: n, mean: sum / n, highest: timed(hi), lowest: timed(lo) },
    ticks,
  };
}

/** One reading on the overlay's time-of-day axis. */
export interface OverlayPoint {
  readonly time: number;
  /** Wall-clock minutes after the local midnight of the reading's own day, 0 <= minute < 1440. */
  readonly minute: number;
  readonly mgdl: number;
  /** Line segment within the day (new after a > 15 min gap or when the clock goes back at a DST change). */
  readonly segment: number;
}

export interface OverlayDay {
  readonly date: IsoDate;
  /** Position in the overlay, 0 = oldest day. */
  readonly index: number;
  readonly points: readonly OverlayPoint[];
}

export interface CgmOverlayModel {
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly timeZone: string;
  /** Oldest first; every date of the range, with or without readings. */
  readonly days: readonly OverlayDay[];
  readonly hasData: boolean;
  /** The x domain, minutes. */
  readonly minuteDomain: readonly [0, 1440];
  readonly targetBand: GlucoseLimits;
}

export interface CgmOverlayInput {
  /** Last day of the overlay (inclusive). */
  readonly endDate: string;
  readonly timeZone: string;
  readonly readings: readonly Reading[];
  readonly limits: GlucoseLimits;
  /** Number of days, default 14 (1-90). */
  readonly days?: number;
}

/**
 * The 14-day overlay: readings of the `days` local days ending `endDate`, each mapped to the
 * wall-clock minutes after local midnight of its own day, grouped by day. Decision: the x value
 * is wall-clock time (07:00 is 420 on every day, DST days included), so meals line up across
 * days; on a 25-h day the repeated hour starts a new line segment instead of drawing backwards,
 * and on a 23-h day the skipped hour is simply absent.
 */
export function buildCgmOverlay(input: CgmOverlayInput): CgmOverlayModel {
  const count = input.days ?? OVERLAY_DAYS;
  if (!Number.isInteger(count) || count < 1 || count > 90)
    throw new RangeError(`overlay days must be 1-90, got ${count}`);
  const to = requireDate(input.endDate);
  const from = shiftDate(to, -(count - 1));
  const start = dayWindow(from, input.timeZone).start;
  const end = dayWindow(to, input.timeZone).end;
  assertLimits(input.limits);
  const zone = new ZoneOffsets(input.timeZone, start, end);
  const firstDay = zone.localDay(start);
  const { series } = normalizeReadings(input.readings);
  const [a, b] = bounds(series, start, end);

  const perDay: OverlayPoint[][] = Array.from({ length: count }, () => []);
  const lastTime = new Array<number>(count).fill(Number.NEGATIVE_INFINITY);
  const lastMinute = new Array<number>(count).fill(Number.NEGATIVE_INFINITY);
  const segments = new Array<number>(count).fill(0);
  for (let i = a; i < b; i++) {
    const time = series.time[i]!;
    const local = time + zone.offsetAt(time);
    const localDay = Math.floor(local / DAY_MS);
    const d = localDay - firstDay;
    const minute = (local - localDay * DAY_MS) / MINUTE_MS;
    const list = perDay[d]!;
    if (list.length > 0 && (time - lastTime[d]! > CGM_LINE_GAP_MS || minute < lastMinute[d]!))
      segments[d]!++;
    lastTime[d] = time;
    lastMinute[d] = minute;
    list.push({ time, minute, mgdl: series.mgdl[i]!, segment: segments[d]! });
  }
  let date = from;
  const days: OverlayDay[] = [];
  for (let d = 0; d < count; d++) {
    days.push({ date, index: d, points: perDay[d]! });
    date = shiftDate(date, 1);
  }
  return {
    from,
    to,
    timeZone: input.timeZone,
    days,
    hasData: b > a,
    minuteDomain: [0, 1440],
    targetBand: input.limits,
  };
}
