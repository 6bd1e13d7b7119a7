/**
 * The clinic's triage list: for each patient who shares with the clinic, the last 14 days of CGM
 * in a few figures and the flags that call for a look. Pure: the counts come from one database
 * statement (app/models/triage.server.ts), the figures and flags are worked out here with the
 * metrics engine's own formulas.
 *
 * Window: the 14 local days ending today in the patient's time zone (both ends counted, as every
 * "last N days" of the app, app/report/quick-ranges.ts), from local midnight 13 days ago up to
 * now. A daylight-saving change inside it makes it an hour shorter or longer.
 *
 * Readings: as app/metrics/readings.ts normalises them: a value below 1 mg/dL is dropped, and
 * readings at the same millisecond are one reading, their mean. Percentages are percent of
 * readings (app/metrics/ranges.ts `timeInRangesOf`), with the consensus bands (Battelino T, et al.
 * Clinical Targets for Continuous Glucose Monitoring Data Interpretation. Diabetes Care
 * 2019;42:1593-1603, doi:10.2337/dci19-0028): in range 70-180 mg/dL (3.9-10.0 mmol/L, both ends
 * included), below range < 70 mg/dL, level 2 below < 54 mg/dL (3.0 mmol/L), as app/report/agp-report.ts
 * holds them with the consensus goals. GMI is `gmiOf` of the
 * mean (app/metrics/a1c.ts), shown whatever the wear: the days with data say how far to trust it
 * (GMI was derived for 14 days with 70% wear).
 *
 * Flags:
 * - noUpload: no finished upload in the last 7 x 24 hours (or none at all);
 * - belowRange: more than 4% of readings below 70 mg/dL (the consensus asks for under 4%);
 * - lowTir: less than 70% of readings in range (the consensus asks for over 70%).
 * The two glucose flags need readings in the window; a patient without any has neither.
 * Percent comparisons are made on the counts (100 x count against limit x readings), so that a
 * figure exactly at a limit is never flagged by floating-point rounding; the database statement
 * uses the same comparisons for the filter.
 *
 * Period: 7, 14 (the default) or 30 local days, as above; the previous period is the same number
 * of local days right before it (from local midnight 2N - 1 days ago to local midnight N - 1 days
 * ago), so it too may be an hour shorter or longer.
 *
 * Category: each patient falls into the first of these that applies (worst first):
 * 1. veryLow: more than 1% of readings below 54 mg/dL (the consensus asks for under 1%);
 * 2. low: more than 4% of readings below 70 mg/dL, level 2 included (the consensus goal is for
 *    "low + very low" together: under 4%);
 * 3. tirDrop: time in range 15 points or more below the previous period's, when both periods are
 *    well worn (sensor wear of at least 70% in each, the consensus' minimum for a representative
 *    time in range): a drop measured on a few hours of data is noise, not a change;
 * 4. veryHigh: more than 5% of readings above 250 mg/dL (consensus: under 5%);
 * 5. high: more than 25% of readings above 180 mg/dL, level 2 included (consensus: "high + very
 *    high" under 25%);
 * 6. lowWear: sensor wear under 70% (consensus: at least 70% of the period);
 * 7. noData: no reading in the period;
 * 8. target: none of the above, every consensus goal the list checks is met.
 * The glucose categories need only one reading: a patient with little data but lows is shown
 * for the lows (the wear column says how little). A value exactly at a limit (1%, 4%, 5%, 25%,
 * 70% wear, a 15-point drop) does not fall into the category.
 *
 * Sensor wear: the percent of the period's 5-minute slots (counted from the period's start; the
 * current period's last slot is the one `now` falls in) that hold at least one reading, the
 * expected reading of a 5-minute CGM. It is the app's "% time CGM active" (app/metrics/active.ts)
 * for a 5-minute sensor, measured over the whole period rather than between the first and the
 * last reading, so that a sensor taken off for the last days counts as not worn. A sensor that
 * stores a reading only every 15 minutes fills a third of the slots: its wear reads low.
 */
import { gmiOf } from "../metrics/a1c";
import { DAY_MS } from "../metrics/types";
import type { TriageFlag } from "../schemas/triage";
import { CONSENSUS_MIN_ACTIVE_PERCENT } from "../metrics/coverage";
import { AGP_GOALS, AGP_GOAL_BOUNDS } from "./agp-report";

export type { TriageFlag };

/** The periods the list offers, local days (today included). */
export const TRIAGE_PERIODS = [7, 14, 30] as const;
export type TriagePeriod = (typeof TRIAGE_PERIODS)[number];
/** Local days in the window, today included, unless another period is chosen. */
export const TRIAGE_DAYS: TriagePeriod = 14;
/** Minutes between the readings a 5-minute CGM is expected to store (sensor wear). */
export const WEAR_SLOT_MINUTES = 5;
/** Days without a finished upload that raise the noUpload flag. */
export const NO_UPLOAD_DAYS = 7;
/** The consensus goal (standard population) of a time-in-ranges figure, percent. */
function goal(key: "inRange" | "below70" | "below54" | "above180" | "above250"): number {
  const found = AGP_GOALS.standard.find((g) => g.key === key);
  if (!found) throw new Error(`no consensus goal ${key}`);
  return found.percent;
}

/** Consensus goal: in range 70-180 mg/dL for more than 70% of readings; less is flagged. */
export const TIR_TARGET_PERCENT = goal("inRange");
/** Consensus goal: below 70 mg/dL for less than 4% of readings; more is flagged. */
export const BELOW_RANGE_LIMIT_PERCENT = goal("below70");

/** The glucose bands of the list, mg/dL: the consensus range and its level 2 low. */
export const TRIAGE_BANDS = {
  /** Level 2 hypoglycaemia: below this (3.0 mmol/L). */
  veryLow: AGP_GOAL_BOUNDS.below54.toMgdl!,
  /** Below range: below this (3.9 mmol/L). */
  low: AGP_GOAL_BOUNDS.inRange.fromMgdl!,
  /** In range up to and including this (10.0 mmol/L). */
  high: AGP_GOAL_BOUNDS.inRange.toMgdl!,
  /** Level 2 hyperglycaemia: above this (13.9 mmol/L). */
  veryHigh: AGP_GOAL_BOUNDS.above250.fromMgdl!,
} as const;

/** The categories, worst first: a patient falls into the first that applies. */
export const TRIAGE_CATEGORIES = [
  "veryLow",
  "low",
  "tirDrop",
  "veryHigh",
  "high",
  "lowWear",
  "noData",
  "target",
] as const;
export type TriageCategory = (typeof TRIAGE_CATEGORIES)[number];

/** The limits of the categories, percent (of readings, of slots, or points of time in range). */
export const CATEGORY_LIMITS = {
  /** veryLow: more than this percent below 54 mg/dL (consensus goal < 1%). */
  veryLow: goal("below54"),
  /** low: more than this percent below 70 mg/dL, level 2 included (consensus goal < 4%). */
  low: goal("below70"),
  /** tirDrop: time in range down by this many points or more. */
  tirDrop: 15,
  /** veryHigh: more than this percent above 250 mg/dL (consensus goal < 5%). */
  veryHigh: goal("above250"),
  /** high: more than this percent above 180 mg/dL, level 2 included (consensus goal < 25%). */
  high: goal("above180"),
  /** lowWear, and the wear both periods need for tirDrop: less than this percent (consensus >= 70%). */
  wear: CONSENSUS_MIN_ACTIVE_PERCENT,
} as const;

/** The numbers each category's words name. */
export const CATEGORY_VALUES: Readonly<Record<TriageCategory, Readonly<Record<string, number>>>> = {
  veryLow: { percent: CATEGORY_LIMITS.veryLow, limit: TRIAGE_BANDS.veryLow },
  low: { percent: CATEGORY_LIMITS.low, limit: TRIAGE_BANDS.low },
  tirDrop: { points: CATEGORY_LIMITS.tirDrop },
  veryHigh: { percent: CATEGORY_LIMITS.veryHigh, limit: TRIAGE_BANDS.veryHigh },
  high: { percent: CATEGORY_LIMITS.high, limit: TRIAGE_BANDS.high },
  lowWear: { percent: CATEGORY_LIMITS.wear },
  noData: {},
  target: {},
};

/** The numbers each flag's words name (its days or percent). */
export const FLAG_VALUES: Readonly<Record<TriageFlag, Readonly<Record<string, number>>>> = {
  noUpload: { count: NO_UPLOAD_DAYS },
  belowRange: { percent: BELOW_RANGE_LIMIT_PERCENT },
  lowTir: { percent: TIR_TARGET_PERCENT },
};

/** What the database counts for one patient over the window (readings after normalisation). */
export interface TriageCounts {
  readonly readings: number;
  readonly below54: number;
  readonly below70: number;
  readonly inRange: number;
  /** Mean glucose of the readings, mg/dL; null without readings. */
  readonly meanMgdl: number | null;
  /** Local days of the window with at least one reading. */
  readonly daysWithData: number;
  /** The newest finished upload (epoch ms), null without one. */
  readonly lastUploadAt: number | null;
  /** Readings above 180 mg/dL (above 250 included), and above 250 mg/dL. */
  readonly above180: number;
  readonly above250: number;
  /** The period's 5-minute slots holding a reading, and all its slots up to `now`. */
  readonly slots: number;
  readonly expectedSlots: number;
  /** The previous period: readings, readings in range, slots with a reading, all its slots. */
  readonly prevReadings: number;
  readonly prevInRange: number;
  readonly prevSlots: number;
  readonly prevExpectedSlots: number;
}

export interface TriageFigures {
  /** Percent of readings in 70-180 mg/dL; null without readings. */
  readonly tir: number | null;
  /** Percent below 70 mg/dL. */
  readonly below70: number | null;
  /** Percent below 54 mg/dL. */
  readonly below54: number | null;
  /** GMI (%) of the mean. */
  readonly gmi: number | null;
  readonly daysWithData: number;
  readonly flags: readonly TriageFlag[];
  /** Percent above 180 and above 250 mg/dL. */
  readonly above180: number | null;
  readonly above250: number | null;
  /** Sensor wear, percent of the period's 5-minute slots. */
  readonly wear: number;
  /** Time in range of the previous period, percent; null without readings in it. */
  readonly prevTir: number | null;
  /** Time in range now minus the previous period's, points; null unless both have readings. */
  readonly tirChange: number | null;
  readonly category: TriageCategory;
}

/** No finished upload at or after `now` - 7 days. */
export function noRecentUpload(lastUploadAt: number | null, now: number): boolean {
  return lastUploadAt === null || lastUploadAt < now - NO_UPLOAD_DAYS * DAY_MS;
}

/** More than 4% of the readings below 70 mg/dL (false without readings). */
export function belowRangeFlag(below70: number, readings: number): boolean {
  return readings > 0 && 100 * below70 > BELOW_RANGE_LIMIT_PERCENT * readings;
}

/** Less than 70% of the readings in range (false without readings). */
export function lowTirFlag(inRange: number, readings: number): boolean {
  return readings > 0 && 100 * inRange < TIR_TARGET_PERCENT * readings;
}

/** More than `limit` percent of `readings` are `count` (false without readings). */
function over(count: number, readings: number, limit: number): boolean {
  return readings > 0 && 100 * count > limit * readings;
}

/** Less than 70% of the expected 5-minute slots hold a reading. */
export function lowWear(slots: number, expectedSlots: number): boolean {
  return 100 * slots < CATEGORY_LIMITS.wear * expectedSlots;
}

/**
 * Time in range fell by 15 points or more from the previous period, both periods worn at least
 * 70%: inRange / readings - prevInRange / prevReadings <= -0.15, compared on the counts as
 * 100 x (prevInRange x readings - inRange x prevReadings) >= 15 x readings x prevReadings.
 */
export function tirDropped(c: TriageCounts): boolean {
  if (c.readings === 0 || c.prevReadings === 0) return false;
  if (lowWear(c.slots, c.expectedSlots) || lowWear(c.prevSlots, c.prevExpectedSlots)) return false;
  return (
    100 * (c.prevInRange * c.readings - c.inRange * c.prevReadings) >=
    CATEGORY_LIMITS.tirDrop * c.readings * c.prevReadings
  );
}

/** The first category that applies to these counts (see the file comment). */
export function triageCategory(c: TriageCounts): TriageCategory {
  const n = c.readings;
  if (over(c.below54, n, CATEGORY_LIMITS.veryLow)) return "veryLow";
  if (over(c.below70, n, CATEGORY_LIMITS.low)) return "low";
  if (tirDropped(c)) return "tirDrop";
  if (over(c.above250, n, CATEGORY_LIMITS.veryHigh)) return "veryHigh";
  if (over(c.above180, n, CATEGORY_LIMITS.high)) return "high";
  if (n > 0 && lowWear(c.slots, c.expectedSlots)) return "lowWear";
  if (n === 0) return "noData";
  return "target";
}

/** Percent of `count` among `readings`, as app/metrics/ranges.ts computes it; null without readings. */
function percentOf(count: number, readings: number): number | null {
  return readings > 0 ? (count / readings) * 100 : null;
}

/** The figures and flags of one patient's counts at instant `now` (epoch ms). */
export function triageFigures(counts: TriageCounts, now: number): TriageFigures {
  const n = counts.readings;
  const flags: TriageFlag[] = [];
  if (noRecentUpload(counts.lastUploadAt, now)) flags.push("noUpload");
  if (belowRangeFlag(counts.below70, n)) flags.push("belowRange");
  if (lowTirFlag(counts.inRange, n)) flags.push("lowTir");
  return {
    tir: percentOf(counts.inRange, n),
    below70: percentOf(counts.below70, n),
    below54: percentOf(counts.below54, n),
    gmi: n > 0 && counts.meanMgdl !== null ? gmiOf(counts.meanMgdl) : null,
    daysWithData: counts.daysWithData,
    flags,
    above180: percentOf(counts.above180, n),
    above250: percentOf(counts.above250, n),
    wear: counts.expectedSlots > 0 ? (100 * counts.slots) / counts.expectedSlots : 0,
    prevTir: percentOf(counts.prevInRange, counts.prevReadings),
    tirChange:
      n > 0 && counts.prevReadings > 0
        ? (100 * counts.inRange) / n - (100 * counts.prevInRange) / counts.prevReadings
        : null,
    category: triageCategory(counts),
  };
}
