import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import { buildDemoData, DEMO_TIME_ZONE } from "../../prisma/demo-data";
import { AREA_THRESHOLD_MGDL } from "../metrics/area";
import { createContext } from "../metrics/context";
import { computeAll, type AllMetrics } from "../metrics/index";
import { mageMaDirections } from "../metrics/mage";
import { M_VALUE_DEFAULT_REF } from "../metrics/risk";
import type { Reading } from "../metrics/types";
import { conga, modd } from "../metrics/variability";
import { dayWindow } from "./day";
import {
  buildStatisticsReport,
  CONGA_HOURS,
  convertsWithUnit,
  MAGE_PARAMETERS,
  MODD_LAG_DAYS,
  previousPeriod,
  STATISTIC_DEFINITIONS,
  statisticInUnit,
  statisticRowInUnit,
  statisticUnitCode,
  type StatisticKey,
  type StatisticRow,
  type StatisticsReport,
  type StatisticsReportResult,
} from "./statistics-report";

const MIN = 60_000;

function ok(r: StatisticsReportResult): StatisticsReport {
  if (r.status !== "ok") throw new Error(`expected a report, got ${JSON.stringify(r)}`);
  return r.report;
}

function row(r: StatisticsReport, key: StatisticKey): StatisticRow {
  const x = r.rows.find((y) => y.key === key);
  if (!x) throw new Error(`no row ${key}`);
  return x;
}

function every5(from: number, to: number, f: (i: number) => number): Reading[] {
  const out: Reading[] = [];
  for (let t = from, i = 0; t < to; t += 5 * MIN, i++) out.push({ time: t, mgdl: f(i) });
  return out;
}

const SPEC_KEYS: StatisticKey[] = [
  "MBG",
  "M-value",
  "LBGI",
  "HBGI",
  "ADRR",
  "GRADE",
  "MAGE",
  "MODD",
  "SDBG",
  "CV",
  "J-index",
  "IQR",
  "AAC100",
  "AUC100",
  "LAGE",
  "MAG",
  "CONGA4",
  "eHbA1c",
  "TIR",
];

describe("unit kinds", () => {
  it("the 19 main metrics in their order, then the other computeAll metrics with GMI and GRI", () => {
    expect(SPEC_KEYS).toHaveLength(19);
    expect(STATISTIC_DEFINITIONS.filter((d) => d.inSpec).map((d) => d.key)).toEqual(SPEC_KEYS);
    expect(STATISTIC_DEFINITIONS.filter((d) => !d.inSpec).map((d) => d.key)).toEqual([
      "median",
      "min",
      "Q25",
      "Q75",
      "max",
      "MAGE-naive",
      "CONGA1",
      "GMI",
      "GRI",
      "sensorActive",
    ]);
  });

  it("LBGI, HBGI, ADRR, GRADE, M-value, J-index (and GRI) are unitless and never converted", () => {
    const kind = (k: StatisticKey) => STATISTIC_DEFINITIONS.find((d) => d.key === k)!.unitKind;
    for (const k of ["LBGI", "HBGI", "ADRR", "GRADE", "M-value", "J-index", "GRI"] as const) {
      expect(kind(k)).toBe("unitless");
      expect(convertsWithUnit(kind(k))).toBe(false);
      expect(statisticInUnit(12.5, kind(k), 0)).toBe(12.5);
      expect(statisticUnitCode(kind(k), 0)).toBe("");
    }
    for (const k of ["CV", "GMI", "eHbA1c", "TIR", "sensorActive"] as const) {
      expect(kind(k)).toBe("percent");
      expect(statisticInUnit(40, kind(k), 0)).toBe(40);
    }
    for (const k of [
      "MBG",
      "SDBG",
      "IQR",
      "LAGE",
      "MAGE",
      "MODD",
      "CONGA4",
      "median",
      "min",
      "max",
      "Q25",
      "Q75",
      "MAGE-naive",
      "CONGA1",
    ] as const) {
      expect(kind(k)).toBe("glucose");
      expect(statisticInUnit(180, kind(k), 0)).toBe(10);
      expect(statisticInUnit(180, kind(k), 1)).toBe(180);
    }
    expect(kind("MAG")).toBe("glucosePerHour");
    expect(kind("AUC100")).toBe("glucoseHoursPerDay");
    expect(kind("AAC100")).toBe("glucoseHoursPerDay");
    expect(statisticInUnit(1200, "glucoseHoursPerDay", 0)).toBeCloseTo(66.667, 3);
    expect(statisticUnitCode("glucoseHoursPerDay", 0)).toBe("mmol/L·h/day");
    expect(statisticUnitCode("glucosePerHour", 1)).toBe("mg/dL/h");
    expect(statisticInUnit(null, "glucose", 0)).toBeNull();
  });
});

describe("buildStatisticsReport: hand-computed periods", () => {
  const day = (d: number) => Date.UTC(2026, 5, d);
  // Previous period 2026-06-01..03 at a steady 126 mg/dL, current 2026-06-04..06 at 144 mg/dL.
  const previousReadings = every5(day(1), day(4), () => 126);
  const readings = every5(day(4), day(7), () => 144);
  const r = ok(
    buildStatisticsReport({
      from: "2026-06-04",
      to: "2026-06-06",
      timeZone: "UTC",
      now: day(20),
      readings: [...previousReadings, ...readings], // a superset: each period keeps its own days
      previousReadings: [...previousReadings, ...readings],
    }),
  );

  it("the previous period has equal length and ends the day before", () => {
    expect(previousPeriod("2026-06-04", "2026-06-06")).toEqual({
      from: "2026-06-01",
      to: "2026-06-03",
    });
    expect(previousPeriod("2026-03-01", "2026-03-01")).toEqual({
      from: "2026-02-28",
      to: "2026-02-28",
    });
    expect(r.previous.from).toBe("2026-06-01");
    expect(r.previous.to).toBe("2026-06-03");
    expect(r.current.readings).toBe(readings.length);
    expect(r.previous.readings).toBe(previousReadings.length);
    expect(r.dayCount).toBe(3);
  });

  it("value, previous and change", () => {
    const mbg = row(r, "MBG");
    expect([mbg.value, mbg.previous, mbg.change]).toEqual([144, 126, 18]);
    expect(statisticInUnit(mbg.change, mbg.unitKind, 0)).toBe(1); // 18 mg/dL = 1 mmol/L
    expect(mbg.convertsWithUnit).toBe(true);
    const gmi = row(r, "GMI");
    expect(gmi.value).toBeCloseTo(3.31 + 0.02392 * 144, 12);
    expect(gmi.change).toBeCloseTo(0.02392 * 18, 12);
    const m = row(r, "M-value");
    const mv = (g: number) => 1000 * Math.abs(Math.log10(g / 90)) ** 3;
    expect(m.value).toBeCloseTo(mv(144), 9);
    expect(m.previous).toBeCloseTo(mv(126), 9);
    expect(m.change).toBeCloseTo(mv(144) - mv(126), 9);
    expect(m.convertsWithUnit).toBe(false);
    expect(row(r, "SDBG")).toMatchObject({ value: 0, previous: 0, change: 0 });
    expect(row(r, "TIR")).toMatchObject({ value: 100, previous: 100, change: 0 });
  });

  it("sufficiency: 3 days do not meet the 14-day rule, flagged but shown", () => {
    expect(row(r, "MBG").sufficient).toBe(false);
    expect(row(r, "MBG").previousSufficient).toBe(false);
    expect(row(r, "sensorActive")).toMatchObject({ value: 100, sufficient: true });
    expect(r.sufficiencyRule.params).toEqual({
      cgmMinDays: 14,
      cgmMinActivePercent: 70,
      meterMinDays: 14,
      meterMinReadingsPerDay: 3,
    });
  });

  it("levels: risk levels on LBGI / HBGI / ADRR, the control level on GRI", () => {
    expect(row(r, "LBGI").level).toMatchObject({
      kind: "risk",
      current: "extremelyLow",
      previous: "extremelyLow",
    });
    expect(row(r, "HBGI").level?.kind).toBe("risk");
    expect(row(r, "ADRR").level?.kind).toBe("risk");
    expect(row(r, "GRI").level).toMatchObject({
      kind: "control",
      current: "ideal",
      previous: "ideal",
    });
    expect(row(r, "MBG").level).toBeNull();
    expect(r.current.controlLevel.value).toBe("ideal");
  });

  it("a period without readings: null values and no change", () => {
    const e = ok(
      buildStatisticsReport({
        from: "2026-06-04",
        to: "2026-06-06",
        timeZone: "UTC",
        now: day(20),
        readings,
        previousReadings: [],
      }),
    );
    expect(row(e, "MBG")).toMatchObject({
      value: 144,
      previous: null,
      change: null,
      previousSufficient: false,
    });
    expect(row(e, "LBGI").level).toMatchObject({ previous: null });
  });

  it("a row in mmol/L: glucose values, the change and glucose parameters / 18; unitless rows and other parameters unchanged", () => {
    const mbg = statisticRowInUnit(row(r, "MBG"), 0);
    expect([mbg.value, mbg.previous, mbg.change]).toEqual([8, 7, 1]);
    const tir = statisticRowInUnit(row(r, "TIR"), 0);
    expect([tir.value, tir.method.params]).toEqual([100, { lowMgdl: 70 / 18, highMgdl: 10 }]);
    expect(statisticRowInUnit(row(r, "M-value"), 0)).toEqual({
      ...row(r, "M-value"),
      method: { ...row(r, "M-value").method, params: { referenceMgdl: 5 } },
    });
    expect(statisticRowInUnit(row(r, "MAGE"), 0).method).toEqual(row(r, "MAGE").method);
    const lbgi = statisticRowInUnit(row(r, "LBGI"), 0);
    expect([lbgi.value, lbgi.previous, lbgi.level, lbgi.method.params]).toEqual([
      row(r, "LBGI").value,
      row(r, "LBGI").previous,
      row(r, "LBGI").level,
      { splitMgdl: 6.25 },
    ]);
    expect(statisticRowInUnit(row(r, "MBG"), 1)).toEqual(row(r, "MBG"));
  });

  it("refused ranges are answered", () => {
    const base = { timeZone: "UTC", now: day(20), readings: [], previousReadings: [] };
    expect(buildStatisticsReport({ ...base, from: "2026-01-01", to: "2026-06-10" })).toMatchObject({
      status: "invalidRange",
      problem: "tooLong",
      maxDays: 90,
    });
    expect(buildStatisticsReport({ ...base, from: "2026-06-10", to: "2026-06-30" })).toMatchObject({
      status: "invalidRange",
      problem: "future",
    });
  });
});

describe("MAGE parameters", () => {
  it("the printed parameters are computeAll's, and each of them changes MAGE on a noisy trace", () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const t0 = Date.UTC(2026, 0, 1);
    const trace: Reading[] = [];
    for (let i = 0; i < 288 * 3; i++) {
      if (i > 300 && i < 330) continue; // a 2.5-h gap
      trace.push({
        time: t0 + i * 5 * MIN,
        mgdl: 140 + 60 * Math.sin(i / 20) + 25 * Math.sin(i / 3.1) + 20 * (rnd() - 0.5),
      });
    }
    const ctx = createContext(trace, { timeZone: "UTC" });
    const mage = (o: object) => mageMaDirections(ctx.grid.values, ctx.grid.stepMin, o).avg;
    const reference = computeAll(trace, { timeZone: "UTC" }).mage.value;
    expect(reference).not.toBeNull();
    expect(mage(MAGE_PARAMETERS)).toBe(reference);
    expect(mage({ ...MAGE_PARAMETERS, shortMa: 4 })).not.toBe(reference);
    expect(mage({ ...MAGE_PARAMETERS, longMa: 31 })).not.toBe(reference);
    expect(mage({ ...MAGE_PARAMETERS, maxGapMin: 120 })).not.toBe(reference);
  });
});

describe("buildStatisticsReport on 14 + 14 demo days", () => {
  const data = buildDemoData(Temporal.PlainDate.from("2026-11-23"));
  const tz = DEMO_TIME_ZONE;
  const readings: Reading[] = data.cgm.map((p) => ({ time: p.at.epochMilliseconds, mgdl: p.mgdl }));
  const limits = { low: 70, high: 180 };
  const within = (from: string, to: string) => {
    const s = dayWindow(from, tz).start;
    const e = dayWindow(to, tz).end;
    return readings.filter((x) => x.time >= s && x.time < e);
  };
  const cur = within("2026-11-09", "2026-11-22");
  const prev = within("2026-10-26", "2026-11-08");
  const allCur = computeAll(cur, { timeZone: tz, limits });
  const allPrev = computeAll(prev, { timeZone: tz, limits });
  const r = ok(
    buildStatisticsReport({
      from: "2026-11-09",
      to: "2026-11-22",
      timeZone: tz,
      now: Date.UTC(2026, 10, 23, 12),
      readings,
      previousReadings: readings,
      limits,
    }),
  );

  const field: Record<
    StatisticKey,
    (m: AllMetrics) => { value: number | null; sufficient: boolean }
  > = {
    MBG: (m) => m.mean,
    "M-value": (m) => m.mValue,
    LBGI: (m) => m.lbgi,
    HBGI: (m) => m.hbgi,
    ADRR: (m) => m.adrr,
    GRADE: (m) => m.grade,
    MAGE: (m) => m.mage,
    MODD: (m) => m.modd,
    SDBG: (m) => m.sd,
    CV: (m) => m.cv,
    "J-index": (m) => m.jIndex,
    IQR: (m) => m.iqr,
    AAC100: (m) => m.aac100,
    AUC100: (m) => m.auc100,
    LAGE: (m) => m.lage,
    MAG: (m) => m.mag,
    CONGA4: (m) => m.conga4,
    eHbA1c: (m) => m.ea1c,
    TIR: (m) => ({
      value: m.timeInRanges.value!.range70to180,
      sufficient: m.timeInRanges.sufficient,
    }),
    GMI: (m) => m.gmi,
    median: (m) => m.median,
    min: (m) => m.min,
    Q25: (m) => m.q25,
    Q75: (m) => m.q75,
    max: (m) => m.max,
    "MAGE-naive": (m) => m.mageNaive,
    CONGA1: (m) => m.conga1,
    GRI: (m) => m.gri,
    sensorActive: (m) => m.activePercent,
  };

  it("every row equals computeAll on each period; the change is their difference", () => {
    expect(r.rows).toHaveLength(STATISTIC_DEFINITIONS.length);
    for (const x of r.rows) {
      const a = field[x.key](allCur);
      const b = field[x.key](allPrev);
      expect([x.key, x.value, x.sufficient]).toEqual([x.key, a.value, a.sufficient]);
      expect([x.key, x.previous, x.previousSufficient]).toEqual([x.key, b.value, b.sufficient]);
      expect(x.value).not.toBeNull();
      expect(x.change).toBe(a.value! - b.value!);
    }
    expect(row(r, "MBG").sufficient).toBe(true); // 14 demo days with good wear meet the consensus rule
    expect(row(r, "LBGI").level).toMatchObject({
      current: allCur.riskLevels.lbgi.value,
      previous: allPrev.riskLevels.lbgi.value,
    });
    expect(row(r, "GRI").level).toMatchObject({
      current: allCur.controlLevel.value,
      previous: allPrev.controlLevel.value,
    });
    expect(r.current.coverage).toEqual(allCur.coverage);
    expect(r.previous.targets).toEqual(allPrev.targets);
  });

  it("method parameters are the ones app/metrics used", () => {
    const ctx = createContext(cur, { timeZone: tz });
    // MAGE: passing the printed parameters explicitly reproduces computeAll's MAGE; other windows do not.
    expect(row(r, "MAGE").method).toEqual({
      textKey: "statistics.method.mage",
      params: {
        shortMa: 5,
        longMa: 32,
        maxGapMin: 180,
        direction: "avg",
        gridStepMin: 5,
        interGapMin: 45,
      },
      glucoseParams: [],
    });
    expect(mageMaDirections(ctx.grid.values, ctx.grid.stepMin, MAGE_PARAMETERS).avg).toBe(
      allCur.mage.value,
    );
    expect(
      mageMaDirections(ctx.grid.values, ctx.grid.stepMin, { ...MAGE_PARAMETERS, longMa: 16 }).avg,
    ).not.toBe(allCur.mage.value);
    // CONGA n = 4 h, MODD lag 1 day.
    expect(row(r, "CONGA4").method.params).toMatchObject({ hours: 4 });
    expect(conga(ctx, CONGA_HOURS.conga4).value).toBe(allCur.conga4.value);
    expect(conga(ctx, CONGA_HOURS.conga1).value).toBe(allCur.conga1.value);
    expect(modd(ctx, MODD_LAG_DAYS).value).toBe(allCur.modd.value);
    // M-value reference, AUC/AAC threshold (glucose parameters, converted for display).
    expect(row(r, "M-value").method).toMatchObject({
      params: { referenceMgdl: M_VALUE_DEFAULT_REF },
      glucoseParams: ["referenceMgdl"],
    });
    expect(M_VALUE_DEFAULT_REF).toBe(90);
    expect(row(r, "AUC100").method).toMatchObject({
      textKey: "statistics.method.auc",
      params: { thresholdMgdl: 100 },
      glucoseParams: ["thresholdMgdl"],
    });
    expect(AREA_THRESHOLD_MGDL).toBe(100);
    expect(row(r, "AAC100").method.params).toMatchObject({ thresholdMgdl: 100 });
  });

  it("a different M-value reference is used and printed", () => {
    const r120 = ok(
      buildStatisticsReport({
        from: "2026-11-09",
        to: "2026-11-22",
        timeZone: tz,
        now: Date.UTC(2026, 10, 23, 12),
        readings,
        previousReadings: readings,
        limits,
        mValueRef: 120,
      }),
    );
    expect(row(r120, "M-value").method.params).toEqual({ referenceMgdl: 120 });
    expect(row(r120, "M-value").value).toBe(
      computeAll(cur, { timeZone: tz, limits, mValueRef: 120 }).mValue.value,
    );
    expect(row(r120, "M-value").value).not.toBe(row(r, "M-value").value);
  });
});
