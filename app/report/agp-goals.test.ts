/**
 * The glucose profile's goal verdicts on hand-made 14-day cases, for the three goal sets, and its
 * figures on iglu's reference data. Every expected value is worked out by hand (the arithmetic is
 * beside it) or read from iglu_expected.json; none comes from the code under test.
 */
import { describe, expect, it } from "vitest";
import type { Reading } from "../metrics/types";
import { loadIgluExpected, loadIgluReadings } from "../metrics/test-utils";
import type { CgmGoalSet } from "../domain/cgm-goal-set";
import {
  agpGoalsOf,
  buildAgpReport,
  GMI_MIN_ACTIVE_PERCENT,
  type AgpReport,
  type AgpReportResult,
} from "./agp-report";
import type { TimeInRanges } from "../metrics/ranges";

const MIN = 60_000;
const DAY = 86_400_000;
const FROM = "2026-03-01";
const TO = "2026-03-14";
const NOW = Date.UTC(2026, 3, 1);

/**
 * A reading every 5 minutes from 00:00 to 23:55 UTC (288 a day) on each day of `days` (0 = FROM),
 * each day the same values: `counts` of each value, in the order given.
 */
function days(dayIndexes: readonly number[], counts: readonly [number, number][]): Reading[] {
  const day = counts.flatMap(([mgdl, n]) => Array<number>(n).fill(mgdl));
  expect(day).toHaveLength(288);
  const start = Date.UTC(2026, 2, 1);
  return dayIndexes.flatMap((d) =>
    day.map((mgdl, i) => ({ time: start + d * DAY + i * 5 * MIN, mgdl })),
  );
}
const ALL_DAYS = Array.from({ length: 14 }, (_, i) => i);

function report(readings: Reading[], goalSet: CgmGoalSet): AgpReport {
  const r: AgpReportResult = buildAgpReport({
    from: FROM,
    to: TO,
    timeZone: "UTC",
    now: NOW,
    readings,
    goalSet,
  });
  if (r.status !== "ok") throw new Error(`expected a report, got ${r.status}`);
  return r.report;
}

const verdicts = (r: AgpReport) =>
  Object.fromEntries(r.timeInRanges.goals.map((g) => [g.key, g.met]));

/**
 * Good 14 days, each day: 274 x 100, 10 x 200, 2 x 260, 2 x 60 mg/dL (288).
 *   > 250: 2/288 = 0.69 %; 181-250: 10/288 = 3.47 %; > 180: 12/288 = 4.17 %;
 *   70-180: 274/288 = 95.14 %; 54-69: 2/288 = 0.69 %; < 70: 0.69 %; < 54: 0 %;
 *   pregnancy: 63-140: 274/288 = 95.14 %; > 140: 12/288 = 4.17 %; < 63: 2/288 = 0.69 %.
 *   mean (274 x 100 + 10 x 200 + 2 x 260 + 2 x 60) / 288 = 30040 / 288 = 104.31 mg/dL;
 *   GMI 3.31 + 0.02392 x 104.31 = 5.80 %; sample SD 22.753 (R: sd), CV 21.81 %.
 */
const GOOD = days(ALL_DAYS, [
  [100, 274],
  [200, 10],
  [260, 2],
  [60, 2],
]);
/**
 * Poor 14 days, each day: 20 x 50, 120 x 100, 88 x 200, 60 x 300 mg/dL (288).
 *   > 250: 60/288 = 20.83 %; > 180: 148/288 = 51.39 %; 70-180: 120/288 = 41.67 %;
 *   < 70 = < 54 = < 63: 20/288 = 6.94 %; 63-140: 120/288 = 41.67 %; > 140: 148/288 = 51.39 %.
 *   mean (1000 + 12000 + 17600 + 18000) / 288 = 168.75 mg/dL; GMI 3.31 + 0.02392 x 168.75 =
 *   7.35 %; sample SD 82.690, CV 49.00 %.
 */
const POOR = days(ALL_DAYS, [
  [50, 20],
  [100, 120],
  [200, 88],
  [300, 60],
]);

describe("goal verdicts on hand-made 14-day cases", () => {
  it("standard: every goal met on the good days, none on the poor ones", () => {
    expect(verdicts(report(GOOD, "standard"))).toEqual({
      above250: true, // 0.69 < 5
      above180: true, // 4.17 < 25
      inRange: true, // 95.14 > 70
      below70: true, // 0.69 < 4
      below54: true, // 0 < 1
    });
    expect(verdicts(report(POOR, "standard"))).toEqual({
      above250: false, // 20.83
      above180: false, // 51.39
      inRange: false, // 41.67
      below70: false, // 6.94
      below54: false, // 6.94
    });
  });

  it("older or high-risk: three goals, met and not met", () => {
    expect(verdicts(report(GOOD, "olderHighRisk"))).toEqual({
      above250: true, // 0.69 < 10
      inRange: true, // 95.14 > 50
      below70: true, // 0.69 < 1
    });
    expect(verdicts(report(POOR, "olderHighRisk"))).toEqual({
      above250: false, // 20.83
      inRange: false, // 41.67
      below70: false, // 6.94
    });
  });

  it("pregnancy: 63-140 mg/dL goals, met and not met, and the bar's bands", () => {
    const good = report(GOOD, "pregnancy");
    expect(verdicts(good)).toEqual({
      above140: true, // 4.17 < 25
      inRange63to140: true, // 95.14 > 70
      below63: true, // 0.69 < 4
      below54: true, // 0 < 1
    });
    expect(verdicts(report(POOR, "pregnancy"))).toEqual({
      above140: false, // 51.39
      inRange63to140: false, // 41.67
      below63: false, // 6.94
      below54: false, // 6.94
    });
    // Bands > 250, 141-250, 63-140, 54-62, < 54: 2, 10, 274, 2 (the 60s), 0 of 288.
    const bands = good.timeInRanges.bands.map((b) => [
      b.key,
      b.fromMgdl,
      b.toMgdl,
      Number(b.percent.toFixed(4)),
      b.minutesPerDay,
    ]);
    expect(bands).toEqual([
      ["veryHigh", 250, null, 0.6944, 10],
      ["high", 141, 250, 3.4722, 50],
      ["inRange", 63, 140, 95.1389, 1370],
      ["low", 54, 62, 0.6944, 10],
      ["veryLow", null, 54, 0, 0],
    ]);
    expect(good.targetBand).toEqual({ low: 63, high: 140 });
  });

  it("the time per day of each band: its share of 1440 minutes", () => {
    // Standard bands of the poor days: 60, 88, 120, 0, 20 of 288 readings -> x 5 min a day.
    expect(report(POOR, "standard").timeInRanges.bands.map((b) => b.minutesPerDay)).toEqual([
      300, 440, 600, 0, 100,
    ]);
  });

  it("mean, GMI and CV against their goals (< 154 mg/dL, < 7 %, <= 36 %)", () => {
    const good = report(GOOD, "standard").statistics;
    expect(good.mean.value).toBeCloseTo(104.3056, 3);
    expect(good.gmi.value).toBeCloseTo(5.805, 3);
    expect(good.cv.value).toBeCloseTo(21.8139, 3);
    expect([good.meanGoalMet, good.gmiGoalMet, good.cvGoalMet]).toEqual([true, true, true]);
    expect(good.periodActivePercent).toBeCloseTo(100, 9);
    const poor = report(POOR, "standard").statistics;
    expect(poor.mean.value).toBeCloseTo(168.75, 9);
    expect(poor.gmi.value).toBeCloseTo(7.3465, 4);
    expect(poor.cv.value).toBeCloseTo(49.0015, 3);
    expect([poor.meanGoalMet, poor.gmiGoalMet, poor.cvGoalMet]).toEqual([false, false, false]);
  });

  it("GMI is withheld below 70 % of the period with CGM active: 9 of 14 days is 64.3 %, 10 is 71.4 %", () => {
    const counts: [number, number][] = [[120, 288]];
    // 9 whole days of 288 readings: 9 x 288 / (14 x 288) = 64.29 %.
    const nine = report(days([0, 1, 2, 3, 4, 5, 6, 7, 8], counts), "standard").statistics;
    expect(nine.periodActivePercent).toBeCloseTo((9 / 14) * 100, 9);
    expect(nine.gmiWithheld).toBe("lowWear");
    expect(nine.gmi.value).toBeNull();
    expect(nine.gmiGoalMet).toBeNull();
    // 10 days, with a gap between them (days 0-4 and 9-13): 10 / 14 = 71.43 %; GMI of 120 mg/dL:
    // 3.31 + 0.02392 x 120 = 6.1804 %.
    const ten = report(days([0, 1, 2, 3, 4, 9, 10, 11, 12, 13], counts), "standard").statistics;
    expect(ten.periodActivePercent).toBeCloseTo((10 / 14) * 100, 9);
    expect(ten.periodActivePercent).toBeGreaterThanOrEqual(GMI_MIN_ACTIVE_PERCENT);
    expect(ten.gmiWithheld).toBeNull();
    expect(ten.gmi.value).toBeCloseTo(6.1804, 9);
  });

  it("pregnancy goals at their thresholds: strict, as the consensus writes them", () => {
    const t = (o: Partial<TimeInRanges>): TimeInRanges => ({
      below54: 0,
      below63: 0,
      below70: 0,
      range54to69: 0,
      range70to180: 100,
      range181to250: 0,
      above180: 0,
      above250: 0,
      above140: 0,
      range63to140: 100,
      range70to140: 100,
      ...o,
    });
    const met = (o: Partial<TimeInRanges>) =>
      Object.fromEntries(agpGoalsOf(t(o), "pregnancy").map((g) => [g.key, g.met]));
    expect(met({ above140: 25, range63to140: 70, below63: 4, below54: 1 })).toEqual({
      above140: false,
      inRange63to140: false,
      below63: false,
      below54: false,
    });
    expect(met({ above140: 24.99, range63to140: 70.01, below63: 3.99, below54: 0.99 })).toEqual({
      above140: true,
      inRange63to140: true,
      below63: true,
      below54: true,
    });
  });
});

describe("the glucose profile on iglu's reference data (iglu 4.3.0, UTC days)", () => {
  const expected = loadIgluExpected();
  const readings = loadIgluReadings();
  // Subject 2's readings span 18 days, more than a profile's 14; the others fit one profile.
  const SUBJECTS = ["Subject 1", "Subject 3", "Subject 4", "Subject 5"];
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

  it.each(SUBJECTS)("%s: time in ranges, mean, CV, GMI and the five percentiles", (id) => {
    const own = readings.get(id)!;
    const e = expected.subjects[id]!;
    const build = (goalSet: CgmGoalSet) => {
      const r = buildAgpReport({
        from: day(own[0]!.time),
        to: day(own.at(-1)!.time),
        timeZone: "UTC",
        now: NOW,
        readings: own,
        goalSet,
      });
      if (r.status !== "ok") throw new Error(`${id}: ${r.status}`);
      return r.report;
    };
    const std = build("standard");
    const band = (r: AgpReport, key: string) =>
      r.timeInRanges.bands.find((b) => b.key === key)!.percent;
    const close = (actual: number | null, value: number) => expect(actual).toBeCloseTo(value, 6);
    close(band(std, "veryHigh"), e.above_250!);
    close(band(std, "high"), e.above_180! - e.above_250!);
    close(band(std, "inRange"), e.in_range_70_180!);
    close(band(std, "low"), e.below_70! - e.below_54!);
    close(band(std, "veryLow"), e.below_54!);
    const preg = build("pregnancy");
    close(band(preg, "inRange"), e.in_range_63_140!);
    close(band(preg, "high"), e.above_140! - e.above_250!);
    close(band(preg, "low") + band(preg, "veryLow"), 100 - e.in_range_63_140! - e.above_140!);
    close(std.statistics.mean.value, e.mean_glucose!);
    close(std.statistics.cv.value, e.cv_glucose!);
    // Each wears the sensor over 70 % of its period (iglu's active % over its first-to-last span
    // times span / period: 1: 79.8 x 12.7 / 14 = 72 %; 3: 92.1 x 5.8 / 7 = 76 %; 4: 98.7 x 12.9 /
    // 14 = 91 %; 5: 95.8 x 10.6 / 12 = 85 %), so GMI is shown.
    expect(std.statistics.gmiWithheld).toBeNull();
    close(std.statistics.gmi.value, e.gmi!);
    const agp = expected.agp[id]!;
    for (const p of ["p5", "p25", "p50", "p75", "p95"] as const)
      agp[p].forEach((v, i) => {
        const mine = std.agp[p][i];
        if (v === null) expect(mine).toBeNull();
        else expect(Math.abs(mine! - v)).toBeLessThan(1e-6);
      });
  });
});
