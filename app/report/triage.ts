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
 */
import { gmiOf } from "../metrics/a1c";
import { DAY_MS } from "../metrics/types";
import type { TriageFlag } from "../schemas/triage";
import { AGP_GOALS, AGP_GOAL_BOUNDS } from "./agp-report";

export type { TriageFlag };

/** Local days in the window, today included. */
export const TRIAGE_DAYS = 14;
/** Days without a finished upload that raise the noUpload flag. */
export const NO_UPLOAD_DAYS = 7;
/** The consensus goal (standard population) of a time-in-ranges figure, percent. */
function goal(key: "inRange" | "below70"): number {
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
} as const;

/** The numbers each flag's words name (its days or percent). */
export const FLAG_VALUES: Readonly<Record<TriageFlag, Readonly<Record<string, number>>>> = {
  noUpload: { days: NO_UPLOAD_DAYS },
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
  };
}
