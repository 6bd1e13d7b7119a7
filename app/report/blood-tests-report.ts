/**
 * The blood tests report: the meter logbook. One row per local day of the range, one column per
 * meal period of the patient's meal windows (meal-periods.ts), every finger-prick value of the
 * day and period in its cell (meter uploads, the CGM's finger-prick records, manual blood values,
 * strip values from imported files: the stored blood values, BgRecord), each classed against the
 * patient's target range; under the table each column's summary (average, count, values below
 * the range) and the whole period's.
 *
 * Glucose is mg/dL throughout and summaries are unrounded (the page converts and rounds for
 * display); classes are taken on the unrounded value (units.ts `classify`). A refused range is an
 * answer, not an exception (report-range.ts: at most 90 days, both ends counted, none in the
 * future).
 */
import { assertLimits, type GlucoseLimits } from "../metrics/alarm";
import { isValidReading } from "../metrics/readings";
import { ZoneOffsets } from "../metrics/timezone";
import {
  DEFAULT_MEAL_WINDOWS,
  glucoseSummary,
  type BgReadingInput,
  type GlucoseSummary,
  type MealWindows,
} from "./bg-range";
import { clockOf, rangeWindow, wallSeconds, type IsoDate } from "./day";
import {
  MEAL_PERIODS,
  mealPeriodBounds,
  mealPeriodOf,
  type MealPeriodBounds,
  type MealPeriodKey,
} from "./meal-periods";
import { checkReportRange, type InvalidRange } from "./report-range";
import { classify, type GlucoseClass } from "./units";

export interface BloodTestsInput {
  /** First day, "YYYY-MM-DD" or "YYYY/MM/DD" (inclusive). */
  readonly from: string;
  /** Last day (inclusive). */
  readonly to: string;
  readonly timeZone: string;
  /** Epoch ms: no range may end after today in `timeZone`. */
  readonly now: number;
  /** The patient's blood values (any order); those outside the range are left out. */
  readonly readings: readonly BgReadingInput[];
  /** The patient's target range, mg/dL. */
  readonly limits: GlucoseLimits;
  readonly mealWindows?: MealWindows;
}

/** One value in a cell. */
export interface LogbookValue {
  readonly time: number;
  /** "HH:mm" on the patient's wall clock. */
  readonly clock: string;
  readonly mgdl: number;
  readonly class: GlucoseClass;
  /** BgRecord.source ("meter", "cgm_fingerprick", "cgm_manual", "pump", "csv"). */
  readonly source?: string;
}

export interface LogbookDay {
  readonly date: IsoDate;
  /** One cell per period, in the order of {@link MEAL_PERIODS}; a cell's values in time order. */
  readonly cells: readonly (readonly LogbookValue[])[];
  readonly count: number;
}

export interface LogbookColumn extends MealPeriodBounds {
  readonly summary: GlucoseSummary;
}

export interface BloodTestsReport {
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly timeZone: string;
  /** Epoch ms: [start of `from`, end of `to`). */
  readonly start: number;
  readonly end: number;
  readonly dayCount: number;
  readonly limits: GlucoseLimits;
  readonly mealWindows: MealWindows;
  /** The periods (the table's columns) with their summaries, in the order of {@link MEAL_PERIODS}. */
  readonly columns: readonly LogbookColumn[];
  /** Every date of the range in order, with or without values. */
  readonly days: readonly LogbookDay[];
  readonly daysWithData: number;
  /** The whole range's summary: every value of every column. */
  readonly total: GlucoseSummary;
  readonly hasData: boolean;
}

export type BloodTestsResult =
  { readonly status: "ok"; readonly report: BloodTestsReport } | InvalidRange;

/**
 * Builds the logbook. Invalid values (non-finite, below 1 mg/dL: app/metrics readings.ts) are left
 * out; values at the same instant are all kept (they are separate records, possibly of different
 * devices). A row is a calendar day in the patient's zone, so its night cell holds both the small
 * hours and the late evening of that date.
 */
export function buildBloodTestsReport(input: BloodTestsInput): BloodTestsResult {
  const checked = checkReportRange(input.from, input.to, "long", {
    timeZone: input.timeZone,
    now: input.now,
  });
  if (!checked.ok) return checked.invalid;
  assertLimits(input.limits);
  const windows = input.mealWindows ?? DEFAULT_MEAL_WINDOWS;
  const bounds = mealPeriodBounds(windows);
  const column = new Map(MEAL_PERIODS.map((key, i) => [key, i]));
  const { start, end, days: dates } = rangeWindow(checked.from, checked.to, input.timeZone);
  const zone = new ZoneOffsets(input.timeZone, start, end);
  const firstDay = zone.localDay(start);

  const readings = input.readings
    .filter((r) => isValidReading(r.time, r.mgdl) && r.time >= start && r.time < end)
    .sort((a, b) => a.time - b.time);
  const cells: LogbookValue[][][] = dates.map(() => MEAL_PERIODS.map(() => []));
  const perColumn: number[][] = MEAL_PERIODS.map(() => []);
  for (const r of readings) {
    const period: MealPeriodKey = mealPeriodOf(wallSeconds(r.time, zone), bounds);
    const c = column.get(period)!;
    cells[zone.localDay(r.time) - firstDay]![c]!.push({
      time: r.time,
      clock: clockOf(r.time, zone),
      mgdl: r.mgdl,
      class: classify(r.mgdl, input.limits),
      ...(r.source === undefined ? {} : { source: r.source }),
    });
    perColumn[c]!.push(r.mgdl);
  }
  const days = dates.map((date, i) => ({
    date,
    cells: cells[i]!,
    count: cells[i]!.reduce((n, cell) => n + cell.length, 0),
  }));
  return {
    status: "ok",
    report: {
      from: checked.from,
      to: checked.to,
      timeZone: input.timeZone,
      start,
      end,
      dayCount: dates.length,
      limits: input.limits,
      mealWindows: windows,
      columns: bounds.map((b, i) => ({
        ...b,
        summary: glucoseSummary(perColumn[i]!, input.limits),
      })),
      days,
      daysWithData: days.filter((d) => d.count > 0).length,
      total: glucoseSummary(
        readings.map((r) => r.mgdl),
        input.limits,
      ),
      hasData: readings.length > 0,
    },
  };
}
