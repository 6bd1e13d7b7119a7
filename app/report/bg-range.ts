/**
 * The BG page model: meter and finger-prick readings over a range of local days, each tagged
 * with a meal time from the patient's meal windows, grouped by local day, with their summary
 * (mean, count, readings above and below the limits and their percentages).
 *
 * Glucose is mg/dL throughout; classes are taken on the unrounded value against the patient's
 * limits (units.ts `classify`). Meal windows (breakfast, lunch, supper) are seconds after local
 * midnight on the wall clock (prisma/schema.prisma Patient.breakfastStart ... supperEnd).
 */
import { assertLimits, type GlucoseLimits } from "../metrics/alarm";
import { isValidReading } from "../metrics/readings";
import { ZoneOffsets } from "../metrics/timezone";
import { clockOf, rangeWindow, wallSeconds, type IsoDate } from "./day";
import { classify, isAboveRange, isBelowRange, type GlucoseClass } from "./units";

/** One meter or finger-prick reading (BgRecord: dateTime as epoch ms, mgdl). */
export interface BgReadingInput {
  readonly time: number;
  readonly mgdl: number;
  /** BgRecord.source, passed through ("meter", "cgm_fingerprick", ...). */
  readonly source?: string;
  readonly id?: string | number;
}

/** The patient's meal windows, seconds after local midnight (Patient fields). */
export interface MealWindows {
  readonly breakfastStart: number;
  readonly breakfastEnd: number;
  readonly lunchStart: number;
  readonly lunchEnd: number;
  readonly supperStart: number;
  readonly supperEnd: number;
}

/** The schema defaults: breakfast 06:00-10:00, lunch 11:00-14:00, supper 17:00-20:00. */
export const DEFAULT_MEAL_WINDOWS: MealWindows = {
  breakfastStart: 21_600,
  breakfastEnd: 36_000,
  lunchStart: 39_600,
  lunchEnd: 50_400,
  supperStart: 61_200,
  supperEnd: 72_000,
};

/** A reading this long before a meal window's start is "before" that meal, s. */
export const BEFORE_MEAL_S = 3_600;
/** A reading up to this long after a meal window's end is "after" that meal, s. */
export const AFTER_MEAL_S = 7_200;

const DAY_S = 86_400;

export type MealName = "breakfast" | "lunch" | "supper";
export type MealPhase = "before" | "meal" | "after";

/** Translation-ready key of a tag, e.g. "beforeLunch", "breakfast", "afterSupper", "night". */
export type MealTagKey =
  | "beforeBreakfast"
  | "breakfast"
  | "afterBreakfast"
  | "beforeLunch"
  | "lunch"
  | "afterLunch"
  | "beforeSupper"
  | "supper"
  | "afterSupper"
  | "night"
  | "other";

export type MealTag =
  | { readonly meal: MealName; readonly phase: MealPhase; readonly key: MealTagKey }
  | { readonly meal: null; readonly phase: "night" | "other"; readonly key: "night" | "other" };

const MEALS: readonly MealName[] = ["breakfast", "lunch", "supper"];

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function tagOf(meal: MealName, phase: MealPhase): MealTag {
  const key = (phase === "meal" ? meal : `${phase}${cap(meal)}`) as MealTagKey;
  return { meal, phase, key };
}

/** Throws a RangeError unless every window bound is an integer number of seconds in 0-86400. */
export function assertMealWindows(w: MealWindows): void {
  for (const [name, v] of Object.entries(w)) {
    if (!Number.isInteger(v) || v < 0 || v > DAY_S)
      throw new RangeError(`meal window ${name} must be 0-86400 s, got ${String(v)}`);
  }
}

const mod = (x: number) => ((x % DAY_S) + DAY_S) % DAY_S;

/**
 * The meal tag of a wall-clock time of day, `seconds` after local midnight. Rule (the patient
 * sets only the three meal windows; the rest is DiaCare's):
 * 1. inside a meal window [start, end) -> that meal ("meal": the reading was taken at meal time;
 *    a window may wrap midnight when end < start; an empty window (start = end) never matches;
 *    overlapping windows: breakfast, then lunch, then supper wins);
 * 2. otherwise, up to 2 h after a window's end -> "after" that meal, and up to 1 h before a
 *    window's start -> "before" that meal; when both apply, the nearer window wins (a tie goes
 *    to "before": a check on the way into the next meal is pre-prandial);
 * 3. otherwise "night" between the end of supper and the start of breakfast (wrapping midnight),
 *    else "other".
 * With the default windows: 05:00-06:00 before breakfast, 06:00-10:00 breakfast, 10:00-10:30
 * after breakfast, 10:30-11:00 before lunch, 11:00-14:00 lunch, 14:00-16:00 after lunch,
 * 16:00-17:00 before supper, 17:00-20:00 supper, 20:00-22:00 after supper, 22:00-05:00 night.
 * Post-prandial guidance measures 1-2 h after the start of a meal (American Diabetes
 * Association, Standards of Care in Diabetes 2024, section 6), so readings late in a window are
 * often post-meal; without the meal's own time the window cannot tell, hence the neutral "meal".
 */
export function mealTag(seconds: number, windows: MealWindows = DEFAULT_MEAL_WINDOWS): MealTag {
  const s = mod(Math.floor(seconds));
  const spans = MEALS.map((meal) => {
    const start = windows[`${meal}Start`];
    const end = windows[`${meal}End`];
    return { meal, start: mod(start), end: mod(end), length: mod(end - start) };
  });
  for (const w of spans) {
    if (w.length > 0 && mod(s - w.start) < w.length) return tagOf(w.meal, "meal");
  }
  let best: { meal: MealName; phase: MealPhase; distance: number } | null = null;
  for (const w of spans) {
    if (w.length === 0) continue;
    const after = mod(s - w.end); // 0 at the window's end
    if (after < AFTER_MEAL_S && (best === null || after < best.distance))
      best = { meal: w.meal, phase: "after", distance: after };
    const before = mod(w.start - s); // > 0 before the window
    if (before > 0 && before <= BEFORE_MEAL_S && (best === null || before <= best.distance))
      best = { meal: w.meal, phase: "before", distance: before };
  }
  if (best) return tagOf(best.meal, best.phase);
  const supperEnd = mod(windows.supperEnd);
  const nightLength = mod(windows.breakfastStart - supperEnd);
  if (mod(s - supperEnd) < nightLength) return { meal: null, phase: "night", key: "night" };
  return { meal: null, phase: "other", key: "other" };
}

export interface BgReadingView {
  readonly time: number;
  readonly date: IsoDate;
  /** "HH:mm" local. */
  readonly clock: string;
  /** Wall-clock seconds after local midnight. */
  readonly seconds: number;
  readonly mgdl: number;
  readonly class: GlucoseClass;
  readonly tag: MealTag;
  readonly source?: string;
  readonly id?: string | number;
}

export interface BgDay {
  readonly date: IsoDate;
  readonly readings: readonly BgReadingView[];
}

/**
 * A summary of glucose values: mean (mg/dL), count, readings above the high limit and below the
 * low limit, and their percentages (0-100) of the count. Unrounded; the mean and the percentages
 * are null without readings. The API answers it as `sugarTotalCount` (app/wire/patient-data.ts).
 */
export interface GlucoseSummary {
  readonly mean: number | null;
  readonly count: number;
  readonly high: number;
  readonly highPercent: number | null;
  readonly low: number;
  readonly lowPercent: number | null;
}

/** Count and mean of one meal tag. */
export interface TagSummary {
  readonly key: MealTagKey;
  readonly count: number;
  readonly mean: number | null;
}

export interface BgRangeModel {
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly timeZone: string;
  /** Epoch ms: [start of `from`, end of `to`). */
  readonly start: number;
  readonly end: number;
  readonly limits: GlucoseLimits;
  readonly mealWindows: MealWindows;
  /** Every date of the range in order, with its readings (possibly none). */
  readonly days: readonly BgDay[];
  readonly hasData: boolean;
  readonly summary: GlucoseSummary;
  /** Readings per class (veryLow + low = summary.low; high + veryHigh = summary.high). */
  readonly classes: Readonly<Record<GlucoseClass, number>>;
  /** Per meal tag, in the order of {@link TAG_ORDER}; tags without readings included. */
  readonly byTag: readonly TagSummary[];
}

/** Display order of the meal tags. */
export const TAG_ORDER: readonly MealTagKey[] = [
  "beforeBreakfast",
  "breakfast",
  "afterBreakfast",
  "beforeLunch",
  "lunch",
  "afterLunch",
  "beforeSupper",
  "supper",
  "afterSupper",
  "night",
  "other",
];

export interface BgRangeInput {
  /** First day, "YYYY-MM-DD" or "YYYY/MM/DD" (inclusive). */
  readonly from: string;
  /** Last day (inclusive). */
  readonly to: string;
  readonly timeZone: string;
  readonly readings: readonly BgReadingInput[];
  /** The patient's range, mg/dL. */
  readonly limits: GlucoseLimits;
  readonly mealWindows?: MealWindows;
}

/**
 * Builds the BG page model. Readings outside the range and invalid ones (non-finite, below
 * 1 mg/dL: app/metrics readings.ts) are left out; readings at the same instant are all kept
 * (they are separate meter records). Days are local dates in the patient's zone.
 */
export function buildBgRange(input: BgRangeInput): BgRangeModel {
  const { start, end, days: dates } = rangeWindow(input.from, input.to, input.timeZone);
  const windows = input.mealWindows ?? DEFAULT_MEAL_WINDOWS;
  assertMealWindows(windows);
  assertLimits(input.limits);
  const zone = new ZoneOffsets(input.timeZone, start, end);
  const firstDay = zone.localDay(start);

  const readings = input.readings
    .filter((r) => isValidReading(r.time, r.mgdl) && r.time >= start && r.time < end)
    .sort((a, b) => a.time - b.time);

  const perDay: BgReadingView[][] = dates.map(() => []);
  const classes: Record<GlucoseClass, number> = {
    veryLow: 0,
    low: 0,
    inRange: 0,
    high: 0,
    veryHigh: 0,
  };
  const tagSums = new Map<MealTagKey, { count: number; sum: number }>();
  let sum = 0;
  for (const r of readings) {
    const dayIndex = zone.localDay(r.time) - firstDay;
    const seconds = wallSeconds(r.time, zone);
    const c = classify(r.mgdl, input.limits);
    const tag = mealTag(seconds, windows);
    classes[c]++;
    sum += r.mgdl;
    const t = tagSums.get(tag.key) ?? { count: 0, sum: 0 };
    t.count++;
    t.sum += r.mgdl;
    tagSums.set(tag.key, t);
    perDay[dayIndex]!.push({
      time: r.time,
      date: dates[dayIndex]!,
      clock: clockOf(r.time, zone),
      seconds,
      mgdl: r.mgdl,
      class: c,
      tag,
      ...(r.source === undefined ? {} : { source: r.source }),
      ...(r.id === undefined ? {} : { id: r.id }),
    });
  }

  const size = readings.length;
  const high = classes.high + classes.veryHigh;
  const low = classes.low + classes.veryLow;
  return {
    from: dates[0]!,
    to: dates[dates.length - 1]!,
    timeZone: input.timeZone,
    start,
    end,
    limits: input.limits,
    mealWindows: windows,
    days: dates.map((date, i) => ({ date, readings: perDay[i]! })),
    hasData: size > 0,
    summary: summaryOf(size, sum, high, low),
    classes,
    byTag: TAG_ORDER.map((key) => {
      const t = tagSums.get(key);
      return { key, count: t?.count ?? 0, mean: t ? t.sum / t.count : null };
    }),
  };
}

function summaryOf(size: number, sum: number, high: number, low: number): GlucoseSummary {
  return {
    mean: size > 0 ? sum / size : null,
    count: size,
    high,
    highPercent: size > 0 ? (high / size) * 100 : null,
    low,
    lowPercent: size > 0 ? (low / size) * 100 : null,
  };
}

/** The summary of bare values (mg/dL) against limits, classified before rounding. */
export function glucoseSummary(mgdl: readonly number[], limits: GlucoseLimits): GlucoseSummary {
  let sum = 0;
  let high = 0;
  let low = 0;
  let size = 0;
  for (const g of mgdl) {
    if (!isValidReading(0, g)) continue;
    const c = classify(g, limits);
    size++;
    sum += g;
    if (isAboveRange(c)) high++;
    if (isBelowRange(c)) low++;
  }
  return summaryOf(size, sum, high, low);
}
