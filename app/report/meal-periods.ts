/**
 * The meal periods of the meter logbook (the blood tests report): seven periods that cover the
 * whole wall-clock day, each reading in exactly one, derived from the patient's three meal windows
 * (breakfast, lunch, supper: start and end, seconds after local midnight; Patient.breakfastStart ...
 * supperEnd).
 *
 * The BG view tags a reading taken inside a meal window as "at the meal" (bg-range.ts `mealTag`);
 * a logbook has no such column, so a window is split at its middle: a check in the first half is
 * taken as pre-prandial, one in the second half as post-prandial. The hour before a window and the
 * two hours after it follow the BG view's rule (`BEFORE_MEAL_S`, `AFTER_MEAL_S`).
 */
import { AFTER_MEAL_S, assertMealWindows, BEFORE_MEAL_S, type MealWindows } from "./bg-range";

/** The logbook's columns, in the order printed. */
export type MealPeriodKey =
  | "beforeBreakfast"
  | "afterBreakfast"
  | "beforeLunch"
  | "afterLunch"
  | "beforeSupper"
  | "afterSupper"
  | "night";

export const MEAL_PERIODS: readonly MealPeriodKey[] = [
  "beforeBreakfast",
  "afterBreakfast",
  "beforeLunch",
  "afterLunch",
  "beforeSupper",
  "afterSupper",
  "night",
];

/** One period on the wall clock: [start, end) in seconds after local midnight, wrapping midnight when end <= start and length > 0. */
export interface MealPeriodBounds {
  readonly key: MealPeriodKey;
  readonly start: number;
  readonly end: number;
  /** Seconds; 0 for a period that windows out of order leave empty. */
  readonly length: number;
}

const DAY_S = 86_400;
const mod = (x: number) => ((x % DAY_S) + DAY_S) % DAY_S;

/**
 * The seven periods of a patient's meal windows. With B, L, S the breakfast, lunch and supper
 * windows [start, end) and "mid" a window's middle (rounded down to the second):
 *
 *   before breakfast   B.start - 1 h                     to  mid(B)
 *   after breakfast    mid(B)                            to  the later of B.end and L.start - 1 h
 *   before lunch       that                              to  mid(L)
 *   after lunch        mid(L)                            to  the later of L.end and S.start - 1 h
 *   before supper      that                              to  mid(S)
 *   after supper       mid(S)                            to  S.end + 2 h
 *   night              S.end + 2 h                       to  B.start - 1 h (over midnight)
 *
 * With the default windows (06:00-10:00, 11:00-14:00, 17:00-20:00): 05:00-08:00, 08:00-10:00,
 * 10:00-12:30, 12:30-16:00, 16:00-18:30, 18:30-22:00 and 22:00-05:00.
 *
 * The bounds are laid out around the clock from B.start - 1 h; a bound that would fall before the
 * previous one (windows that overlap or are out of order, which the settings do not forbid) is
 * moved up to it, and none passes the next day's B.start - 1 h, so the periods always tile the day
 * and a period may be empty rather than the function failing. Windows may wrap midnight; an empty
 * window (start = end) splits at its start.
 */
export function mealPeriodBounds(windows: MealWindows): readonly MealPeriodBounds[] {
  assertMealWindows(windows);
  const origin = mod(windows.breakfastStart - BEFORE_MEAL_S);
  /** Seconds from the origin, going forward around the clock. */
  const offset = (seconds: number) => mod(seconds - origin);
  const length = (start: number, end: number) => mod(end - start);
  const b = { start: BEFORE_MEAL_S, length: length(windows.breakfastStart, windows.breakfastEnd) };
  const l = {
    start: offset(windows.lunchStart),
    length: length(windows.lunchStart, windows.lunchEnd),
  };
  const s = {
    start: offset(windows.supperStart),
    length: length(windows.supperStart, windows.supperEnd),
  };
  const half = (w: { start: number; length: number }) => w.start + Math.floor(w.length / 2);
  const raw = [
    0,
    half(b),
    Math.max(b.start + b.length, l.start - BEFORE_MEAL_S),
    half(l),
    Math.max(l.start + l.length, s.start - BEFORE_MEAL_S),
    half(s),
    s.start + s.length + AFTER_MEAL_S,
    DAY_S,
  ];
  const bounds: number[] = [];
  for (const value of raw) bounds.push(Math.min(DAY_S, Math.max(bounds.at(-1) ?? 0, value)));
  return MEAL_PERIODS.map((key, i) => ({
    key,
    start: mod(origin + bounds[i]!),
    end: mod(origin + bounds[i + 1]!),
    length: bounds[i + 1]! - bounds[i]!,
  }));
}

/** The period of a wall-clock time of day, `seconds` after local midnight, among `bounds`. */
export function mealPeriodOf(seconds: number, bounds: readonly MealPeriodBounds[]): MealPeriodKey {
  const s = mod(Math.floor(seconds));
  for (const period of bounds) {
    if (period.length > 0 && mod(s - period.start) < period.length) return period.key;
  }
  // Unreachable: the periods tile the day.
  throw new RangeError(`no meal period holds ${seconds} s`);
}
