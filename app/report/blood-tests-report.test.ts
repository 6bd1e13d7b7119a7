import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import { buildBloodTestsReport, type BloodTestsReport } from "./blood-tests-report";
import { MEAL_PERIODS } from "./meal-periods";

const WAW = "Europe/Warsaw";
const LIMITS = { low: 70, high: 180 };
/** An instant of a wall-clock time in Warsaw. */
const at = (date: string, time: string) =>
  Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(WAW).epochMilliseconds;
/** Noon on 2026-04-10 in Warsaw: "today" for these tests. */
const NOW = at("2026-04-10", "12:00");

/**
 * Three days over the spring change (2026-03-29, 02:00 -> 03:00, a 23-hour day) with the default
 * meal windows (before breakfast 05:00-08:00, after breakfast 08:00-10:00, before lunch
 * 10:00-12:30, after lunch 12:30-16:00, before supper 16:00-18:30, after supper 18:30-22:00, night
 * 22:00-05:00).
 */
const READINGS = [
  { time: at("2026-03-27", "23:59"), mgdl: 300, source: "meter" }, // the day before: left out
  { time: at("2026-03-28", "07:30"), mgdl: 60, source: "meter" },
  { time: at("2026-03-28", "07:00"), mgdl: 100, source: "meter" },
  { time: at("2026-03-28", "09:00"), mgdl: 200, source: "cgm_fingerprick" },
  { time: at("2026-03-28", "23:30"), mgdl: 50, source: "cgm_manual" },
  { time: at("2026-03-29", "03:30"), mgdl: 120, source: "csv" },
  { time: at("2026-03-29", "12:30"), mgdl: 140, source: "meter" },
  { time: at("2026-03-30", "18:29"), mgdl: 69.9, source: "meter" },
  { time: at("2026-03-30", "19:00"), mgdl: 180, source: "meter" },
  { time: at("2026-03-30", "20:00"), mgdl: Number.NaN, source: "meter" }, // invalid: left out
  { time: at("2026-03-31", "00:00"), mgdl: 300, source: "meter" }, // the day after: left out
];

function build(from = "2026-03-28", to = "2026-03-30"): BloodTestsReport {
  const result = buildBloodTestsReport({
    from,
    to,
    timeZone: WAW,
    now: NOW,
    readings: READINGS,
    limits: LIMITS,
  });
  if (result.status !== "ok") throw new Error(result.problem);
  return result.report;
}

describe("buildBloodTestsReport", () => {
  it("puts each value in its day and meal period, in time order, with its class", () => {
    const report = build();
    const cells = report.days.map((d) =>
      d.cells.map((cell) => cell.map((v) => `${v.clock} ${v.mgdl} ${v.class}`)),
    );
    expect(report.days.map((d) => d.date)).toEqual(["2026-03-28", "2026-03-29", "2026-03-30"]);
    expect(cells).toEqual([
      [
        ["07:00 100 inRange", "07:30 60 low"],
        ["09:00 200 high"],
        [],
        [],
        [],
        [],
        ["23:30 50 veryLow"],
      ],
      // 03:30 is an hour after 02:00 on the clock, which skipped from 02:00 to 03:00.
      [[], [], [], ["12:30 140 inRange"], [], [], ["03:30 120 inRange"]],
      // 69.9 mg/dL is low (classed before rounding); 180 is the high limit, in range.
      [[], [], [], [], ["18:29 69.9 low"], ["19:00 180 inRange"], []],
    ]);
    expect(report.days.map((d) => d.count)).toEqual([4, 2, 2]);
    expect(report.days[0]!.cells[2]).toEqual([]);
    expect(report.days[0]!.cells[1]![0]!.source).toBe("cgm_fingerprick");
    expect([report.dayCount, report.daysWithData, report.hasData]).toEqual([3, 3, true]);
  });

  it("sums up each column and the whole period (hand-computed, unrounded, mg/dL)", () => {
    const report = build();
    expect(report.columns.map((c) => c.key)).toEqual(MEAL_PERIODS);
    const figures = report.columns.map((c) => [
      c.key,
      c.summary.mean,
      c.summary.count,
      c.summary.low,
    ]);
    expect(figures).toEqual([
      ["beforeBreakfast", (100 + 60) / 2, 2, 1], // 80
      ["afterBreakfast", 200, 1, 0],
      ["beforeLunch", null, 0, 0],
      ["afterLunch", 140, 1, 0],
      ["beforeSupper", 69.9, 1, 1],
      ["afterSupper", 180, 1, 0],
      ["night", (50 + 120) / 2, 2, 1], // 85
    ]);
    expect(report.columns[1]!.summary.high).toBe(1);
    // 100 + 60 + 200 + 50 + 120 + 140 + 69.9 + 180 = 919.9 over 8 values = 114.9875 mg/dL;
    // below 70: 60, 50, 69.9; above 180: 200.
    expect(report.total.count).toBe(8);
    expect(report.total.mean).toBeCloseTo(114.9875, 10);
    expect([report.total.low, report.total.high]).toEqual([3, 1]);
    expect(report.total.lowPercent).toBeCloseTo(37.5, 10);
    // The columns' counts add up to the period's.
    expect(report.columns.reduce((n, c) => n + c.summary.count, 0)).toBe(report.total.count);
  });

  it("the columns carry their wall-clock bounds from the patient's meal windows", () => {
    const result = buildBloodTestsReport({
      from: "2026-03-30",
      to: "2026-03-30",
      timeZone: WAW,
      now: NOW,
      readings: READINGS,
      limits: LIMITS,
      // Supper 18:00-19:00: before supper from 17:00 to 18:30, after it from 18:30 to 21:00.
      mealWindows: {
        breakfastStart: 6 * 3600,
        breakfastEnd: 10 * 3600,
        lunchStart: 11 * 3600,
        lunchEnd: 14 * 3600,
        supperStart: 18 * 3600,
        supperEnd: 19 * 3600,
      },
    });
    if (result.status !== "ok") throw new Error(result.problem);
    const supper = result.report.columns.slice(4, 6);
    expect(supper.map((c) => [c.key, c.start / 3600, c.end / 3600])).toEqual([
      ["beforeSupper", 17, 18.5],
      ["afterSupper", 18.5, 21],
    ]);
    // 18:29 is now before supper still, 19:00 after it.
    expect(result.report.days[0]!.cells.map((c) => c.length)).toEqual([0, 0, 0, 0, 1, 1, 0]);
  });

  it("a range without values is a report without data, every day listed", () => {
    const report = build("2026-04-01", "2026-04-07");
    expect([report.hasData, report.daysWithData, report.days.length]).toEqual([false, 0, 7]);
    expect(report.total).toMatchObject({ mean: null, count: 0, low: 0 });
  });

  it("refuses ranges over 90 days (both ends counted), in the future, or backwards, without throwing", () => {
    const refuse = (from: string, to: string) => {
      const result = buildBloodTestsReport({
        from,
        to,
        timeZone: WAW,
        now: NOW,
        readings: [],
        limits: LIMITS,
      });
      return result.status === "ok" ? null : result.problem;
    };
    // 2026-01-11 .. 2026-04-10: 21 + 28 + 31 + 10 = 90 days.
    expect(refuse("2026-01-11", "2026-04-10")).toBeNull();
    expect(refuse("2026-01-10", "2026-04-10")).toBe("tooLong");
    expect(refuse("2026-04-10", "2026-04-11")).toBe("future");
    expect(refuse("2026-04-05", "2026-04-01")).toBe("order");
    expect(refuse("2026-02-30", "2026-03-01")).toBe("invalidDate");
  });
});
