import { describe, expect, it } from "vitest";
import type { AgpReport } from "~/report/agp-report";
import { buildCgmReport, type CgmReport } from "~/report/cgm-report";
import { buildPumpReport } from "~/report/pump-report";
import type { PumpReport } from "~/report/pump-report-model";
import { pumpRecord as rec } from "~/report/test-records";
import { agpReportToWire, cgmReportToWire, pumpReportToWire } from "./reports";

// The field names and their order are those of docs/api.md "Reports", written out by hand.

const MIN = 60_000;
const H = 3_600_000;
const D1 = Date.UTC(2026, 5, 1);
const limits = { low: 70, high: 180 };
const settings = {
  pdaSn: "EQ-1",
  pdaVersion: "5.3",
  lowBg: [70],
  highBg: [180],
  carbRatio: [10],
  sensitivity: [40],
  originBasal: 0.8,
  bolusRate: 1.5,
  maxBolus: 12,
  doubleBolus: true,
  effectiveTime: 240,
  maxBasalRate: 3,
  bolusIncrement: 0.05,
  quickBolusIncrement: 0.5,
  lowReserveThreshold: 20,
  tempBasalRate: 0,
};

function pumpReport(pumpSettings: typeof settings | null): PumpReport {
  const built = buildPumpReport({
    from: "2026-06-01",
    to: "2026-06-01",
    timeZone: "UTC",
    now: Date.UTC(2026, 5, 10),
    records: [
      rec(D1 - H, { basal: 1 }),
      rec(D1 + 8 * H, { basal: 1, bolus: 60 }), // 3 min at 60 U/h: a 3 U normal bolus
      rec(D1 + 8 * H + 3 * MIN, { basal: 1 }),
      rec(D1 + 12 * H, { port: 3, type: 0, bg: 150 }),
      rec(D1 + 12 * H + 30 * MIN, { basal: 1, port: 3, type: 1, carbs: 50 }),
      rec(D1 + 13 * H, { basal: 1, port: 4, type: 2, urgency: 2 }), // occlusion
      rec(D1 + 24 * H + 30 * MIN, { basal: 1 }),
    ],
    meterReadings: [{ time: D1 + 7 * H, mgdl: 60, id: "m1" }],
    pdaVersion: "5.3.0",
    limits,
    setting: { unit: 1, nameStyle: 2 },
    pumpSettings,
  });
  if (built.status !== "ok") throw new Error(built.problem);
  return built.report;
}

describe("pumpReportToWire (pdf)", () => {
  const wire = pumpReportToWire(7, pumpReport(settings));

  it("answers the report response's fields in order, without the day models", () => {
    expect(Object.keys(wire)).toEqual([
      "pid",
      "from",
      "to",
      "timeZone",
      "start",
      "end",
      "dates",
      "hasData",
      "sugarList",
      "pumpList",
      "cho",
      "choAvg",
      "warmMsg",
      "sugarTotalCount",
      "PumpTotalCount",
      "setting",
      "patientInfo",
      "pdaSetting",
      "choTables",
      "warmMsgTables",
      "charts",
      "chartSections",
      "bigBoluses",
    ]);
    expect(wire.pid).toBe(7);
  });

  it("glucose per day is sugarList: patientData items with statusShort0 in mg/dL", () => {
    expect(JSON.stringify(wire.sugarList)).toBe(
      `[{"date":"2026-06-01","patientData":[` +
        `{"dateTime":${D1 + 7 * H},"clock":"07:00","statusShort0":60,"source":"meter","id":"m1"},` +
        `{"dateTime":${D1 + 12 * H},"clock":"12:00","statusShort0":150,"source":"pump"}]}]`,
    );
    expect(JSON.stringify(wire.sugarTotalCount)).toBe(
      '{"sugarAvg":105,"size":2,"high":0,"highPercent":0,"low":1,"lowPercent":50}',
    );
  });

  it("insulin per day is pumpList: pumps items and pumpTotalCount", () => {
    const day = wire.pumpList[0]!;
    expect(Object.keys(day)).toEqual(["date", "hasData", "pumps", "pumpTotalCount"]);
    const bolus = day.pumps.find((p) => p.dataType === "bolus")!;
    expect(JSON.stringify(bolus)).toBe(
      `{"deviceRecordTime":${D1 + 8 * H},"end":${D1 + 8 * H + 3 * MIN},"clock":"08:00",` +
        `"dataType":"bolus","bolusKind":"normal","basalRate":1,"totalBolusRate":3,"units":3,` +
        `"delayTime":0,"points":1}`,
    );
    expect(day.pumpTotalCount).toEqual({
      total: 27,
      basal: 24,
      basalPercent: 88.9,
      bolus: 3,
      bolusPercent: 11.1,
      points: 5,
    });
    expect(wire.PumpTotalCount).toEqual(day.pumpTotalCount);
    expect(wire.bigBoluses).toEqual({
      count: 1,
      shown: true,
      entries: [{ ...bolus, date: "2026-06-01" }],
    });
    expect(Object.keys(wire.bigBoluses.entries[0]!).at(-1)).toBe("date");
  });

  it("carbohydrate is cho (list, avg) and choAvg; alarms are warmMsg with the kind as remark", () => {
    const carb = `{"dateTime":${D1 + 12 * H + 30 * MIN},"date":"2026-06-01","clock":"12:30","grams":50,"source":"pump"}`;
    expect(JSON.stringify(wire.cho)).toBe(
      `{"list":[${carb}],"avg":50,"total":50,"daysWithData":1}`,
    );
    expect(wire.choAvg).toBe(50);
    expect(JSON.stringify(wire.choTables)).toBe(`[[${carb}]]`);
    const alarm = `{"dateTime":${D1 + 13 * H},"date":"2026-06-01","clock":"13:00","remark":"occlusion","severity":"alarm","code":"4/2/2"}`;
    expect(JSON.stringify(wire.warmMsg)).toBe(`[${alarm}]`);
    expect(JSON.stringify(wire.warmMsgTables)).toBe(`[[${alarm}]]`);
  });

  it("the limits are patientInfo; the pump settings pdaSetting, with the lists' spec names", () => {
    expect(JSON.stringify(wire.setting)).toBe('{"unit":1,"nameStyle":2}');
    expect(JSON.stringify(wire.patientInfo)).toBe('{"highLimit":180,"lowLimit":70}');
    expect(JSON.stringify(wire.pdaSetting)).toBe(
      '{"defaultChoArray":[10],"bolusRate":1.5,"doubleBolus":true,"effectiveTime":240,' +
        '"highBgArray":[180],"lowBgArray":[70],"maxBolus":12,"originBasal":0.8,"sensitiveSilverArray":[40]}',
    );
    expect(pumpReportToWire(7, pumpReport(null)).pdaSetting).toBeNull();
  });
});

describe("cgmReportToWire (sugarDevicePdf)", () => {
  const built = buildCgmReport({
    from: "2026-06-01",
    to: "2026-06-03",
    timeZone: "UTC",
    now: Date.UTC(2026, 5, 10),
    unit: 1,
    limits,
    readings: [
      { time: D1 + 8 * H, mgdl: 100, id: "a" },
      { time: D1 + 9 * H, mgdl: 200, id: "b" },
      { time: D1 + 10 * H, mgdl: 60 },
    ],
  });
  if (built.status !== "ok") throw new Error(built.problem);
  const report: CgmReport = built.report;
  const wire = cgmReportToWire(7, report);

  it("answers the CGM report response's names in order", () => {
    expect(Object.keys(wire)).toEqual([
      "pid",
      "from",
      "to",
      "timeZone",
      "start",
      "end",
      "hasData",
      "glucoseUnit",
      "glucoseUnitCode",
      "targetGlucoseRange",
      "highestValue",
      "lowestValue",
      "timeWhenTheHighestValueShows",
      "timeWhenTheLowestValueShows",
      "highestValueTime",
      "lowestValueTime",
      "numberOfValue",
      "periodAverage",
      "valuesAboveGoal",
      "valuesBelowGoal",
      "valuesWithinGoal",
      "goalCounts",
      "rows",
    ]);
    expect(wire).toMatchObject({
      targetGlucoseRange: { low: 70, high: 180 },
      highestValue: 200,
      lowestValue: 60,
      timeWhenTheHighestValueShows: "2026/06/01 09:00",
      timeWhenTheLowestValueShows: "2026/06/01 10:00",
      highestValueTime: D1 + 9 * H,
      lowestValueTime: D1 + 10 * H,
      numberOfValue: 3,
      periodAverage: 120,
    });
  });

  it("a row is pdid, dateTimeStr, time and statusShort0", () => {
    expect(JSON.stringify(wire.rows)).toBe(
      `[{"pdid":"a","dateTimeStr":"2026/06/01 08:00","time":${D1 + 8 * H},"statusShort0":100},` +
        `{"pdid":"b","dateTimeStr":"2026/06/01 09:00","time":${D1 + 9 * H},"statusShort0":200},` +
        `{"pdid":null,"dateTimeStr":"2026/06/01 10:00","time":${D1 + 10 * H},"statusShort0":60}]`,
    );
  });
});

describe("agpReportToWire (agp)", () => {
  it("puts pid first and leaves the daily profiles' points out", () => {
    const report = {
      from: "2026-06-01",
      dayCount: 1,
      dailyProfiles: [{ date: "2026-06-01", full: true, gridPoints: 288, points: [{ time: 0 }] }],
    } as unknown as AgpReport;
    expect(JSON.stringify(agpReportToWire(7, report))).toBe(
      '{"pid":7,"from":"2026-06-01","dayCount":1,"dailyProfiles":[{"date":"2026-06-01","full":true,"gridPoints":288}]}',
    );
  });
});
