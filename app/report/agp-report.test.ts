import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import { buildDemoData, DEMO_TIME_ZONE } from "../../prisma/demo-data";
import { computeAll } from "../metrics/index";
import { consensusTargetsOf, type TimeInRanges } from "../metrics/ranges";
import type { Reading } from "../metrics/types";
import {
  AGP_CV_GOAL_PERCENT,
  AGP_GOAL_BOUNDS,
  AGP_GOALS,
  AGP_MIN_FULL_DAYS,
  agpGoalsOf,
  buildAgpReport,
  FULL_DAY_FRACTION,
  type AgpReport,
  type AgpReportInput,
  type AgpReportResult,
} from "./agp-report";
import { dayWindow, datesBetween } from "./day";

const MIN = 60_000;
const H = 3_600_000;
const CYCLE = [50, 60, 100, 200, 300]; // one value in each consensus band

/** 5-minute readings over [from, to) ms, values cycling through CYCLE. */
function cgm(from: number, to: number): Reading[] {
  const out: Reading[] = [];
  for (let t = from, i = 0; t < to; t += 5 * MIN, i++)
    out.push({ time: t, mgdl: CYCLE[i % CYCLE.length]! });
  return out;
}

function ok(r: AgpReportResult): AgpReport {
  if (r.status !== "ok") throw new Error(`expected a report, got ${JSON.stringify(r)}`);
  return r.report;
}

describe("buildAgpReport: the 5-full-day rule", () => {
  const day = (d: number) => Date.UTC(2026, 5, 1 + d);
  const base = { from: "2026-06-01", to: "2026-06-07", timeZone: "UTC", now: Date.UTC(2026, 6, 1) };
  // Days 0-3 full (24 h), days 4 and 5 half (12 h: 50 % of the points), day 6 empty.
  const fourFull = [
    ...cgm(day(0), day(4)),
    ...cgm(day(4), day(4) + 12 * H),
    ...cgm(day(5), day(5) + 12 * H),
  ];

  it("4 full days: insufficient, with the counts the page explains", () => {
    expect(AGP_MIN_FULL_DAYS).toBe(5);
    expect(FULL_DAY_FRACTION).toBe(0.7);
    expect(buildAgpReport({ ...base, readings: fourFull })).toEqual({
      status: "insufficient",
      from: "2026-06-01",
      to: "2026-06-07",
      dayCount: 7,
      fullDays: 4,
      requiredFullDays: 5,
      fullDayFraction: 0.7,
      daysWithData: 6,
      readings: fourFull.length,
    });
  });

  it("a day with 17 h of data (71 %) is full, 16 h (67 %) is not", () => {
    const with17 = [...fourFull, ...cgm(day(6), day(6) + 17 * H)];
    expect(ok(buildAgpReport({ ...base, readings: with17 })).fullDays).toBe(5);
    const with16 = [...fourFull, ...cgm(day(6), day(6) + 16 * H)];
    expect(buildAgpReport({ ...base, readings: with16 })).toMatchObject({
      status: "insufficient",
      fullDays: 4,
      daysWithData: 7,
    });
  });

  it("5 full days: the report, with hand-computed statistics and bands", () => {
    const readings = [...cgm(day(0), day(5)), ...cgm(day(5), day(5) + 12 * H)];
    const r = ok(buildAgpReport({ ...base, readings }));
    expect(r.fullDays).toBe(5);
    expect(r.daysWithData).toBe(6);
    expect(r.dailyProfiles.map((p) => p.full)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(r.dailyProfiles.map((p) => p.date)).toEqual(datesBetween("2026-06-01", "2026-06-07"));
    expect(r.dailyProfiles[6]!.points).toEqual([]);
    expect(r.dailyProfiles[0]!.points[0]).toMatchObject({ minute: 0, mgdl: 50 });
    // 5 x 288 + 144 readings cycling through the five bands (about 20 % each).
    expect(r.statistics.readings).toBe(readings.length);
    const mean = readings.reduce((s, x) => s + x.mgdl, 0) / readings.length;
    expect(r.statistics.mean.value).toBeCloseTo(mean, 9);
    expect(r.statistics.gmi.value).toBeCloseTo(3.31 + 0.02392 * mean, 9);
    expect(r.statistics.mean.sufficient).toBe(false); // fewer than 14 days: flagged, still shown
    expect(r.statistics.activePercent).toEqual({ value: 100, sufficient: true });
    const total = r.timeInRanges.bands.reduce((s, b) => s + b.percent, 0);
    expect(total).toBeCloseTo(100, 10);
    expect(r.timeInRanges.bands.map((b) => b.key)).toEqual([
      "veryHigh",
      "high",
      "inRange",
      "low",
      "veryLow",
    ]);
    expect(r.timeInRanges.bands.map((b) => Math.round(b.percent))).toEqual([20, 20, 20, 20, 20]);
    // The bounds as the consensus writes them: > 250, 181-250, 70-180, 54-69, < 54 mg/dL.
    expect(r.timeInRanges.bands.map((b) => [b.fromMgdl, b.toMgdl])).toEqual([
      [250, null],
      [181, 250],
      [70, 180],
      [54, 69],
      [null, 54],
    ]);
    // Every goal missed: 20 % above 250 (< 5), 40 % above 180 (< 25), 20 % in range (> 70), 40 % below 70 (< 4), 20 % below 54 (< 1).
    expect(r.timeInRanges.goals.map((g) => [g.key, g.comparator, g.percent, g.met])).toEqual([
      ["above250", "lt", 5, false],
      ["above180", "lt", 25, false],
      ["inRange", "gt", 70, false],
      ["below70", "lt", 4, false],
      ["below54", "lt", 1, false],
    ]);
    expect(r.timeInRanges.targets!.all).toBe(false);
    expect(r.agp.timeOfDayMin).toHaveLength(288);
    expect(r.targetBand).toEqual({ low: 70, high: 180 });
  });

  it("3 to 14 days; other ranges are refused", () => {
    const status = (from: string, to: string) => {
      const r = buildAgpReport({ ...base, from, to, readings: [] });
      return r.status === "invalidRange" ? r.problem : r.status;
    };
    expect(status("2026-06-01", "2026-06-02")).toBe("tooShort");
    expect(status("2026-06-01", "2026-06-15")).toBe("tooLong");
    expect(status("2026-06-01", "2026-06-03")).toBe("insufficient");
    expect(status("2026-06-25", "2026-07-02")).toBe("future");
  });
});

describe("consensus goals", () => {
  it("count above 250 and 180, within 70-180, below 70 and 54 mg/dL", () => {
    expect(AGP_GOAL_BOUNDS).toEqual({
      above250: { fromMgdl: 250, toMgdl: null },
      above180: { fromMgdl: 180, toMgdl: null },
      above140: { fromMgdl: 140, toMgdl: null },
      inRange: { fromMgdl: 70, toMgdl: 180 },
      inRange63to140: { fromMgdl: 63, toMgdl: 140 },
      below70: { fromMgdl: null, toMgdl: 70 },
      below63: { fromMgdl: null, toMgdl: 63 },
      below54: { fromMgdl: null, toMgdl: 54 },
    });
  });

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
    range63to140: 0,
    range70to140: 0,
    ...o,
  });

  it("the goal table agrees with consensusTargetsOf at and around every threshold", () => {
    for (const population of ["standard", "olderHighRisk"] as const) {
      for (const g of AGP_GOALS[population]) {
        for (const delta of [-0.01, 0, 0.01]) {
          const v = g.percent + delta;
          const tr =
            g.key === "inRange"
              ? t({ range70to180: v })
              : g.key === "above250"
                ? t({ above250: v, above180: v })
                : g.key === "above180"
                  ? t({ above180: v })
                  : g.key === "below70"
                    ? t({ below70: v })
                    : t({ below54: v, below70: v });
          const goals = agpGoalsOf(tr, population);
          const goal = goals.find((x) => x.key === g.key)!;
          const targets = consensusTargetsOf(tr, 30, population);
          const field = {
            inRange: "tir",
            above250: "above250",
            above180: "above180",
            below70: "below70",
            below54: "below54",
          } as const;
          expect(goal.met).toBe(targets[field[g.key as keyof typeof field]]);
          expect(goal.met).toBe(g.comparator === "lt" ? v < g.percent : v > g.percent);
          expect(goal.actual).toBe(v);
        }
      }
    }
    expect(AGP_GOALS.olderHighRisk.map((g) => [g.key, g.percent])).toEqual([
      ["above250", 10],
      ["inRange", 50],
      ["below70", 1],
    ]);
    expect(consensusTargetsOf(t({}), AGP_CV_GOAL_PERCENT).cv).toBe(true);
    expect(consensusTargetsOf(t({}), AGP_CV_GOAL_PERCENT + 0.1).cv).toBe(false);
  });
});

describe("buildAgpReport on daylight-saving weeks (Europe/Warsaw)", () => {
  it("the 25-h and the 23-h days count as full days", () => {
    for (const [from, to] of [
      ["2026-10-21", "2026-10-27"],
      ["2026-03-26", "2026-04-01"],
    ] as const) {
      const start = dayWindow(from, "Europe/Warsaw").start;
      const end = dayWindow(to, "Europe/Warsaw").end;
      const r = ok(
        buildAgpReport({
          from,
          to,
          timeZone: "Europe/Warsaw",
          now: end + 86_400_000,
          readings: cgm(start, end),
        }),
      );
      expect(r.fullDays).toBe(7);
      expect(r.dailyProfiles.every((p) => p.full)).toBe(true);
      const dst = r.dailyProfiles.find(
        (p) => p.date === (from.startsWith("2026-10") ? "2026-10-25" : "2026-03-29"),
      )!;
      expect(dst.gridPoints).toBe(from.startsWith("2026-10") ? 300 : 276);
    }
  });
});

describe("buildAgpReport on the demo data, cross-checked with computeAll", () => {
  const data = buildDemoData(Temporal.PlainDate.from("2026-11-23"));
  const tz = DEMO_TIME_ZONE;
  const readings: Reading[] = data.cgm.map((p) => ({ time: p.at.epochMilliseconds, mgdl: p.mgdl }));
  const input: AgpReportInput = {
    from: "2026-11-09",
    to: "2026-11-22",
    timeZone: tz,
    now: Date.UTC(2026, 10, 23, 12),
    readings,
    limits: { low: 70, high: 180 },
  };
  const start = dayWindow("2026-11-09", tz).start;
  const end = dayWindow("2026-11-22", tz).end;
  const inRange = readings.filter((x) => x.time >= start && x.time < end);
  const all = computeAll(inRange, { timeZone: tz, kind: "cgm" });

  it("14 days: statistics, ranges, targets and the AGP equal app/metrics", () => {
    const r = ok(buildAgpReport(input));
    expect(r.dayCount).toBe(14);
    expect(r.fullDays).toBe(all.coverage.fullDays);
    expect(r.dailyProfiles.filter((p) => p.full)).toHaveLength(all.coverage.fullDays);
    expect(r.statistics.mean).toEqual(all.mean);
    expect(r.statistics.gmi).toEqual(all.gmi);
    expect(r.statistics.cv).toEqual(all.cv);
    expect(r.statistics.activePercent).toEqual(all.activePercent);
    expect(r.timeInRanges.value).toEqual(all.timeInRanges.value);
    expect(r.timeInRanges.targets).toEqual(all.targets.value);
    expect(r.statistics.cvGoalMet).toBe(all.targets.value!.cv);
    expect(r.agp).toEqual(all.agp.value);
    expect(r.dailyProfiles.reduce((s, p) => s + p.points.length, 0)).toBe(all.meta.readings);
  });

  it("only 4 demo days passed: insufficient", () => {
    const s = dayWindow("2026-11-19", tz).start;
    const r = buildAgpReport({ ...input, readings: readings.filter((x) => x.time >= s) });
    expect(r).toMatchObject({ status: "insufficient", fullDays: 4, daysWithData: 4, dayCount: 14 });
  });
});
