import { describe, expect, it } from "vitest";
import { buildBgRange } from "~/report/bg-range";
import { buildCgmDay } from "~/report/cgm-day";
import { buildPumpDay } from "~/report/pump-day";
import { pumpRecord } from "~/report/test-records";
import {
  bgRangeToWire,
  cgmDayToWire,
  glucoseSummaryToWire,
  insulinTotalsToWire,
  meterReadingsToWire,
  patientDayToWire,
  pumpDayToWire,
} from "./patient-data";

// The field names and their order are those of docs/api.md "Patient data reads", written out by hand.

const H = 3_600_000;
const DAY = Date.UTC(2026, 5, 15);
const limits = { low: 70, high: 180 };

const pump = buildPumpDay({
  date: "2026-06-15",
  timeZone: "UTC",
  records: [pumpRecord(DAY, { basal: 1 }), pumpRecord(DAY + 12 * H, { basal: 1 })],
});
const cgm = buildCgmDay({
  date: "2026-06-15",
  timeZone: "UTC",
  readings: [
    { time: DAY + H, mgdl: 100 },
    { time: DAY + H + 300_000, mgdl: 200 },
  ],
  limits,
});
const bg = buildBgRange({
  from: "2026-06-15",
  to: "2026-06-15",
  timeZone: "UTC",
  readings: [
    { time: DAY + 8 * H, mgdl: 60 },
    { time: DAY + 13 * H, mgdl: 150 },
  ],
  limits,
});

describe("summaries", () => {
  it("a glucose summary is sugarTotalCount: sugarAvg, size, high, highPercent, low, lowPercent", () => {
    expect(
      JSON.stringify(
        glucoseSummaryToWire({
          mean: 105,
          count: 2,
          high: 0,
          highPercent: 0,
          low: 1,
          lowPercent: 50,
        }),
      ),
    ).toBe('{"sugarAvg":105,"size":2,"high":0,"highPercent":0,"low":1,"lowPercent":50}');
  });

  it("insulin totals are PumpTotalCount: the record count is points", () => {
    expect(
      JSON.stringify(
        insulinTotalsToWire({
          total: 47,
          basal: 42,
          basalPercent: 89.4,
          bolus: 5,
          bolusPercent: 10.6,
          recordCount: 11,
        }),
      ),
    ).toBe('{"total":47,"basal":42,"basalPercent":89.4,"bolus":5,"bolusPercent":10.6,"points":11}');
  });
});

describe("day models", () => {
  it("the DAILY model answers its rounded totals as pumpTotalCount, between totals and device", () => {
    const wire = pumpDayToWire(pump);
    expect(Object.keys(wire)).toEqual([
      "window",
      "dataEnd",
      "hasData",
      "pdaVersion",
      "carbEncoding",
      "basal",
      "boluses",
      "showBolusMarkers",
      "carbs",
      "flaggedCalculations",
      "bg",
      "glucose",
      "alarms",
      "totals",
      "pumpTotalCount",
      "device",
      "table",
    ]);
    expect(wire.pumpTotalCount).toEqual({
      total: 24,
      basal: 24,
      basalPercent: 100,
      bolus: 0,
      bolusPercent: 0,
      points: 2,
    });
    expect(wire.device).toEqual({ time: DAY + 12 * H, battery: 80, reservoir: 150 });
  });

  it("the CGMS day model answers numberOfValue and periodAverage; no readings, no summary", () => {
    const wire = cgmDayToWire(cgm);
    expect(Object.keys(wire)).toEqual([
      "window",
      "hasData",
      "points",
      "targetBand",
      "latest",
      "trend",
      "alarm",
      "timeInRanges",
      "goal",
      "summary",
      "ticks",
    ]);
    expect(Object.keys(wire.summary!)).toEqual([
      "numberOfValue",
      "periodAverage",
      "highest",
      "lowest",
    ]);
    expect(wire.summary).toMatchObject({ numberOfValue: 2, periodAverage: 150 });
    const empty = buildCgmDay({ date: "2026-06-16", timeZone: "UTC", readings: [], limits });
    expect(cgmDayToWire(empty).summary).toBeNull();
  });

  it("the BG model answers its summary in sugarTotalCount's names", () => {
    const wire = bgRangeToWire(bg);
    expect(Object.keys(wire)).toEqual([
      "from",
      "to",
      "timeZone",
      "start",
      "end",
      "limits",
      "mealWindows",
      "days",
      "hasData",
      "summary",
      "classes",
      "byTag",
    ]);
    expect(wire.summary).toEqual({
      sugarAvg: 105,
      size: 2,
      high: 0,
      highPercent: 0,
      low: 1,
      lowPercent: 50,
    });
  });
});

describe("answers", () => {
  it("findPatientData: pid, date, timeZone, nearestWithData, pump, cgm, cgmStats, bg", () => {
    const stats = { mean: 150, sd: 70.7, cv: 47.1, gmi: 6.9 };
    const nearest = { pump: "2026-06-15", cgm: "2026-06-15", bg: "2026-06-15" };
    const wire = patientDayToWire({
      pid: 4,
      date: "2026-06-15",
      timeZone: "UTC",
      nearestWithData: nearest,
      pump,
      cgm,
      cgmStats: stats,
      bg,
    });
    expect(Object.keys(wire)).toEqual([
      "pid",
      "date",
      "timeZone",
      "nearestWithData",
      "pump",
      "cgm",
      "cgmStats",
      "bg",
    ]);
    expect(wire).toMatchObject({
      pid: 4,
      nearestWithData: nearest,
      cgmStats: stats,
      pump: { pumpTotalCount: { total: 24, points: 2 } },
      cgm: { summary: { numberOfValue: 2 } },
      bg: { summary: { sugarAvg: 105 } },
    });
  });

  it("sugarData: pid, timeZone, limits, sugarTotalCount, days, byTag", () => {
    const wire = meterReadingsToWire({
      pid: 4,
      timeZone: "UTC",
      limits: bg.limits,
      summary: bg.summary,
      days: bg.days,
      byTag: bg.byTag,
    });
    expect(Object.keys(wire)).toEqual([
      "pid",
      "timeZone",
      "limits",
      "sugarTotalCount",
      "days",
      "byTag",
    ]);
    expect(wire.sugarTotalCount).toMatchObject({ sugarAvg: 105, size: 2, low: 1 });
  });
});
