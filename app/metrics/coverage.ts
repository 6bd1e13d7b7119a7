/**
 * Data sufficiency: how much data there is, and the rules that decide each metric's
 * `sufficient` flag.
 *
 * Rules (each metric's comment names the one it uses):
 * - STANDARD, CGM data: at least 14 local calendar days from the first to the last reading and
 *   sensor wear >= 70% (Battelino T, et al. Clinical Targets for Continuous Glucose
 *   Monitoring Data Interpretation: Recommendations From the International Consensus on Time in
 *   Range. Diabetes Care 2019;42:1593-1603, doi:10.2337/dci19-0028; the same 14 days / 70% is
 *   what GMI needs: Bergenstal RM, et al. Diabetes Care 2018;41:2275-2280,
 *   doi:10.2337/dc18-1581).
 * - STANDARD, meter (SMBG) data: at least 14 local days with >= 3 readings each. This is
 *   DiaCare's rule, not a published cut-off: the meter-based indices (LBGI, HBGI, ADRR) were
 *   developed on weeks of routine SMBG with several readings a day (Kovatchev BP, et al.
 *   Evaluation of a New Measure of Blood Glucose Variability in Diabetes. Diabetes Care
 *   2006;29:2433-2438, doi:10.2337/dc06-1085), and 14 days matches the CGM rule.
 * - GRID metrics (MAGE, MODD, CONGA, MAG, AUC100/AAC100) are CGM metrics: sufficient only for CGM
 *   data that meets the STANDARD rule.
 * - AGP: at least 5 full local days (DiaCare's rule); a day is full when at least 70% of its 288
 *   five-minute grid points have a value (the consensus' 70% wear applied to one day).
 *
 * Data kind: "cgm" when the median interval between readings is at most 15 minutes (every CGM
 * samples every 1-15 min), otherwise "meter"; callers may force it.
 * Wear: iglu's active percent (active.ts), whose expected interval is the median interval itself;
 * when that is over 15 min (sparse data forced to "cgm") the expected interval is capped at
 * 15 min, so sparse data cannot pass as well-worn CGM. For any CGM it equals active percent.
 */
import { activePercentValue, samplingIntervalMin } from "./active";
import type { Grid } from "./grid";
import type { Series } from "./readings";
import type { ZoneOffsets } from "./timezone";

export type DataKind = "cgm" | "meter";

export const CONSENSUS_MIN_DAYS = 14;
export const CONSENSUS_MIN_ACTIVE_PERCENT = 70;
export const METER_MIN_DAYS = 14;
export const METER_MIN_READINGS_PER_DAY = 3;
export const AGP_MIN_FULL_DAYS = 5;
export const FULL_DAY_FRACTION = 0.7;
/** Largest median sampling interval (minutes) still treated as CGM by auto-detection. */
export const CGM_MAX_INTERVAL_MIN = 15;

export interface Coverage {
  readonly kind: DataKind;
  readonly readings: number;
  /** Median sampling interval (minutes, rounded like iglu's dt0); null with < 2 readings. */
  readonly samplingIntervalMin: number | null;
  /** Local calendar days from the first to the last reading, both included (0 without data). */
  readonly periodDays: number;
  /** Local days with at least one reading. */
  readonly daysWithData: number;
  /** Local days with at least 3 readings. */
  readonly daysWithThreeReadings: number;
  /** iglu active_percent; null with < 2 readings. */
  readonly activePercent: number | null;
  /** Active percent with the expected interval capped at 15 min (the CGM wear of the rule). */
  readonly wearPercent: number | null;
  /** Local days whose grid points are at least 70% filled. */
  readonly fullDays: number;
  /** The STANDARD rule for this data kind. */
  readonly standard: boolean;
  /** STANDARD and CGM: the rule of the grid metrics. */
  readonly grid: boolean;
  /** The AGP rule. */
  readonly agp: boolean;
}

export function computeCoverage(
  series: Series,
  zone: ZoneOffsets,
  grid: Grid,
  kind: DataKind | "auto" = "auto",
): Coverage {
  const n = series.length;
  const interval = samplingIntervalMin(series);
  const resolvedKind: DataKind =
    kind !== "auto"
      ? kind
      : Number.isFinite(interval) && interval <= CGM_MAX_INTERVAL_MIN
        ? "cgm"
        : "meter";
  const active = activePercentValue(series, interval);
  const wear =
    interval > CGM_MAX_INTERVAL_MIN ? activePercentValue(series, CGM_MAX_INTERVAL_MIN) : active;

  let periodDays = 0;
  let daysWithData = 0;
  let daysWithThree = 0;
  if (n > 0) {
    const firstDay = zone.localDay(series.time[0]!);
    const lastDay = zone.localDay(series.time[n - 1]!);
    periodDays = lastDay - firstDay + 1;
    let current = Number.NaN;
    let count = 0;
    for (let i = 0; i <= n; i++) {
      const d = i < n ? zone.localDay(series.time[i]!) : Number.NaN;
      if (d !== current) {
        if (count > 0) {
          daysWithData++;
          if (count >= METER_MIN_READINGS_PER_DAY) daysWithThree++;
        }
        current = d;
        count = 0;
      }
      count++;
    }
  }

  let fullDays = 0;
  if (grid.length > 0) {
    const firstDay = grid.day[0]!;
    const counts = new Int32Array(grid.day[grid.length - 1]! - firstDay + 1);
    for (let k = 0; k < grid.length; k++) {
      const v = grid.values[k]!;
      if (v === v) counts[grid.day[k]! - firstDay]!++;
    }
    const need = FULL_DAY_FRACTION * grid.columnsPerDay;
    for (let d = 0; d < counts.length; d++) if (counts[d]! >= need) fullDays++;
  }

  const standard =
    resolvedKind === "cgm"
      ? periodDays >= CONSENSUS_MIN_DAYS &&
        Number.isFinite(wear) &&
        wear >= CONSENSUS_MIN_ACTIVE_PERCENT
      : daysWithThree >= METER_MIN_DAYS;

  return {
    kind: resolvedKind,
    readings: n,
    samplingIntervalMin: Number.isFinite(interval) ? interval : null,
    periodDays,
    daysWithData,
    daysWithThreeReadings: daysWithThree,
    activePercent: Number.isFinite(active) ? active : null,
    wearPercent: Number.isFinite(wear) ? wear : null,
    fullDays,
    standard,
    grid: standard && resolvedKind === "cgm",
    agp: fullDays >= AGP_MIN_FULL_DAYS,
  };
}
