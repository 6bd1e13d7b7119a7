import { describe, expect, it } from "vitest";
import type { ExportRow } from "../csv/write";
import {
  numberFormat,
  offsetText,
  PatientClock,
  pumpEventOf,
  recordColumns,
  recordRow,
  sheetName,
  summaryColumns,
  summaryRow,
  SUMMARY_METRICS,
  type PatientSummary,
  type RowTexts,
} from "./excel-sheets";
import { buildStatisticsReport } from "./statistics-report";

const texts: RowTexts = {
  pumpEvent: (e) => `event:${e}`,
  bgSource: (s) => `source:${s}`,
  insulinKind: (k) => `insulin:${k}`,
};

const base = {
  localTime: "",
  timeZone: "",
  deviceKind: null,
  source: null,
  recordKey: null,
  firmware: null,
};

/** The cell of an Excel date-time as its wall clock "YYYY-MM-DD HH:mm:ss" (exceljs reads a Date by its UTC fields). */
const wall = (d: unknown) => (d as Date).toISOString().slice(0, 19).replace("T", " ");

describe("offsetText", () => {
  it("writes the sign, hours and minutes", () => {
    expect(offsetText(0)).toBe("+00:00");
    expect(offsetText(5.5 * 3_600_000)).toBe("+05:30");
    expect(offsetText(-3 * 3_600_000)).toBe("-03:00");
    expect(offsetText(-9.5 * 3_600_000)).toBe("-09:30");
  });
});

describe("PatientClock", () => {
  it("gives the wall clock of the patient's zone and its offset, both readings of a repeated autumn hour told apart", () => {
    // Europe/Warsaw left summer time on 2026-10-25 at 03:00 CEST = 01:00 UTC: 02:30 local came twice.
    const zone = "Europe/Warsaw";
    const first = Date.UTC(2026, 9, 25, 0, 30); // 02:30 CEST (+02:00)
    const second = Date.UTC(2026, 9, 25, 1, 30); // 02:30 CET (+01:00)
    const clock = PatientClock.of(zone, first - 86_400_000, second + 86_400_000);
    const [t1, o1] = clock.cells(first);
    const [t2, o2] = clock.cells(second);
    expect([wall(t1), o1]).toEqual(["2026-10-25 02:30:00", "+02:00"]);
    expect([wall(t2), o2]).toEqual(["2026-10-25 02:30:00", "+01:00"]);
  });
});

describe("recordRow", () => {
  // Asia/Kolkata is UTC+05:30 all year: 2026-11-20 08:00 local is 02:30 UTC.
  const utc = Date.UTC(2026, 10, 20, 2, 30);
  const clock = PatientClock.of("Asia/Kolkata", utc - 86_400_000, utc + 86_400_000);
  const time = "2026-11-20 08:00:00";

  it("a CGM reading: glucose in the unit chosen, mmol/L = mg/dL / 18 unrounded", () => {
    const row: ExportRow = { ...base, kind: "cgm", utc, mgdl: 153, deviceSerial: "AX1" };
    const mmol = recordRow(7, row, clock, 0, texts);
    expect([mmol[0], wall(mmol[1]), ...mmol.slice(2)]).toEqual([7, time, "+05:30", 8.5, "AX1"]);
    expect(recordRow(7, row, clock, 1, texts)[3]).toBe(153);
    expect(recordRow(7, { ...row, mgdl: 100 }, clock, 0, texts)[3]).toBeCloseTo(5.5556, 4);
  });

  it("a blood value names its source", () => {
    const row: ExportRow = {
      ...base,
      kind: "bg",
      utc,
      mgdl: 90,
      source: "meter",
      deviceSerial: "GC1",
    };
    expect(recordRow(7, row, clock, 0, texts).slice(3)).toEqual([5, "source:meter", "GC1"]);
  });

  it("carbohydrate entries and insulin doses", () => {
    const carbs: ExportRow = { ...base, kind: "carbs", utc, grams: 45, deviceSerial: "F1" };
    expect(recordRow(7, carbs, clock, 0, texts).slice(3)).toEqual([45, "F1"]);
    const insulin: ExportRow = {
      ...base,
      kind: "insulin",
      utc,
      units: 4.5,
      insulin: "rapid",
      deviceSerial: "P1",
    };
    expect(recordRow(7, insulin, clock, 0, texts).slice(3)).toEqual([4.5, "insulin:rapid", "P1"]);
  });

  const pump = (
    port: number,
    type: number,
    urgency: number,
    s0: number,
    s1: number,
  ): ExportRow => ({
    ...base,
    kind: "pump",
    utc,
    deviceSerial: "EQ1",
    record: {
      recordId: 12,
      eventIndex: 12,
      eventPort: port,
      eventType: type,
      eventUrgency: urgency,
      eventValue: 0,
      battery: 80,
      reservoir: 150,
      basalRateRaw: s0,
      bolusRateRaw: s1,
    },
  });
  // Columns after the time and offset: event, basal U/h, bolus U/h, calculator U, carbs g,
  // glucose, battery, reservoir, serial, record number, code.

  it("a rate-carrying pump record: basal 160 x 0.00625 = 1 U/h, bolus 9600 x 0.00625 = 60 U/h", () => {
    expect(recordRow(7, pump(4, 0, 0, 160, 9600), clock, 0, texts).slice(3)).toEqual([
      "event:rates",
      1,
      60,
      null,
      null,
      null,
      80,
      150,
      "EQ1",
      12,
      "4/0/0",
    ]);
  });

  it("a carbohydrate record (3/1) keeps the basal rate and gives the grams, not a bolus rate", () => {
    expect(recordRow(7, pump(3, 1, 0, 160, 45), clock, 0, texts).slice(3, 9)).toEqual([
      "event:carbs",
      1,
      null,
      null,
      45,
      null,
    ]);
  });

  it("a BG record (3/0): the glucose in the unit chosen, no basal rate", () => {
    expect(recordRow(7, pump(3, 0, 0, 126, 0), clock, 0, texts).slice(3, 9)).toEqual([
      "event:bg",
      null,
      0,
      null,
      null,
      7,
    ]);
  });

  it("the bolus calculator's confirmed bolus (0/7) in hundredths of a unit: 350 = 3.5 U", () => {
    expect(recordRow(7, pump(0, 7, 0, 0, 350), clock, 0, texts).slice(3, 9)).toEqual([
      "event:calculator",
      null,
      null,
      3.5,
      null,
      null,
    ]);
  });

  it("an alarm record names its kind", () => {
    expect(pumpEventOf({ eventPort: 4, eventType: 2, eventUrgency: 0 })).toBe("alarm:occlusion");
    expect(recordRow(7, pump(4, 1, 2, 160, 0), clock, 0, texts)[3]).toBe("event:alarm:no_insulin");
  });
});

describe("sheets", () => {
  it("every row has as many cells as its sheet has columns", () => {
    expect(recordColumns("cgm", "mmol/L")).toHaveLength(5);
    expect(recordColumns("bg", "mmol/L")).toHaveLength(6);
    expect(recordColumns("pump", "mmol/L")).toHaveLength(14);
    expect(recordColumns("carbs", "mmol/L")).toHaveLength(5);
    expect(recordColumns("insulin", "mmol/L")).toHaveLength(6);
  });

  it("a kind's further sheets are numbered", () => {
    expect(sheetName("CGM", 1)).toBe("CGM");
    expect(sheetName("CGM", 2)).toBe("CGM (2)");
  });

  it("glucose shows 1 decimal in mmol/L and none in mg/dL", () => {
    expect(numberFormat("glucose", 0)).toBe("0.0");
    expect(numberFormat("glucose", 1)).toBe("0");
    expect(numberFormat("text", 0)).toBeNull();
  });
});

describe("summaryRow", () => {
  // Two local days in UTC, a reading every 5 minutes alternating 100 and 200 mg/dL: mean 150
  // mg/dL (8.333 mmol/L); 70-180 holds half of them, so TIR = 50 %.
  const from = "2026-11-01";
  const to = "2026-11-02";
  const start = Date.UTC(2026, 10, 1);
  const readings = Array.from({ length: 576 }, (_, i) => ({
    time: start + i * 300_000,
    mgdl: i % 2 === 0 ? 100 : 200,
  }));
  const built = buildStatisticsReport({
    from,
    to,
    timeZone: "UTC",
    now: Date.UTC(2026, 10, 26),
    readings,
    previousReadings: [],
  });
  if (built.status !== "ok") throw new Error("no report");
  const summary: PatientSummary = {
    pid: 3,
    name: "Anna K",
    timeZone: "UTC",
    from,
    to,
    counts: { cgm: 576, bg: 2, pump: 0, carbs: 0, insulin: 0 },
    source: "cgm",
    report: built.report,
  };
  const columns = summaryColumns((key) => key);
  const metric = (row: unknown[], key: string) => row[columns.findIndex((c) => c.header === key)];

  it("the patient, the dates, the counts, the source and the readings lead the row", () => {
    const row = summaryRow(summary, 0, (s) => `from:${s}`);
    expect(row).toHaveLength(columns.length);
    expect(row.slice(0, 12)).toEqual([
      3,
      "Anna K",
      "UTC",
      from,
      to,
      576,
      2,
      0,
      0,
      0,
      "from:cgm",
      576,
    ]);
  });

  it("the metrics follow in the unit chosen: MBG 150 mg/dL = 8.333 mmol/L, TIR 50 % in both", () => {
    const mmol = summaryRow(summary, 0, String);
    const mgdl = summaryRow(summary, 1, String);
    expect(metric(mmol, "MBG")).toBeCloseTo(150 / 18, 6);
    expect(metric(mgdl, "MBG")).toBeCloseTo(150, 6);
    expect(metric(mmol, "TIR")).toBeCloseTo(50, 6);
    expect(metric(mgdl, "TIR")).toBeCloseTo(50, 6);
    expect(SUMMARY_METRICS.map((m) => m.key)).toContain("GMI");
  });

  it("a patient without readings has empty metric cells", () => {
    const row = summaryRow({ ...summary, source: null, report: null }, 0, () => "none");
    expect(row.slice(10, 12)).toEqual(["none", 0]);
    expect(row.slice(12).every((v) => v === null)).toBe(true);
  });
});
