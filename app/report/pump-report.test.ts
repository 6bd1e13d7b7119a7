import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import { buildDemoData, pumpHistoryRecords, DEMO_TIME_ZONE } from "../../prisma/demo-data";
import { glucoseSummary } from "./bg-range";
import { dayWindow } from "./day";
import { BIG_BOLUS_MAX_SHOWN, buildPumpDay } from "./pump-day";
import { splitAroundDay, type PumpHistoryRecord } from "./pump-records";
import { buildPumpReport } from "./pump-report";
import type { PumpReport, PumpReportInput, PumpReportResult } from "./pump-report-model";
import { pumpRecord } from "./test-records";

const MIN = 60_000;
const H = 3_600_000;
const limits = { low: 70, high: 180 };
const setting = { unit: 0 as const, nameStyle: 1 as const };

const rec = pumpRecord;

function ok(r: PumpReportResult): PumpReport {
  if (r.status !== "ok") throw new Error(`expected a report, got ${JSON.stringify(r)}`);
  return r.report;
}

describe("buildPumpReport: a hand-computed two-day range (UTC)", () => {
  const d1 = Date.UTC(2026, 5, 1);
  const d2 = Date.UTC(2026, 5, 2);
  const records: PumpHistoryRecord[] = [
    rec(d1 - 1 * H, { basal: 1 }), // previous: 1.0 U/h at midnight
    rec(d1 + 6 * H, { basal: 0.5 }),
    rec(d1 + 7 * H + 55 * MIN, { basal: 0.5, port: 3, type: 1, carbs: 50 }), // 50 g
    rec(d1 + 8 * H, { basal: 0.5, bolus: 60 }), // 3 U normal bolus
    rec(d1 + 8 * H + 3 * MIN, { basal: 0.5 }),
    rec(d1 + 12 * H, { port: 3, type: 0, bg: 150 }), // BG 150 mg/dL on the pump
    rec(d1 + 12 * H + 30 * MIN, { basal: 0.5, port: 3, type: 1, carbs: 20 }), // 20 g
    rec(d1 + 18 * H, { basal: 1 }),
    rec(d2 + 10 * H, { basal: 1, bolus: 1 }), // extended 1 U/h for 2 h = 2 U
    rec(d2 + 12 * H, { basal: 1 }),
    rec(d2 + 13 * H, { basal: 1, port: 4, type: 2, urgency: 2 }), // occlusion
    rec(d2 + 20 * H, { basal: 1, port: 3, type: 1, carbs: 30 }), // 30 g
    rec(d2 + 24 * H + 30 * MIN, { basal: 1 }), // next
  ];
  const input: PumpReportInput = {
    from: "2026-06-01",
    to: "2026/06/02",
    timeZone: "UTC",
    now: Date.UTC(2026, 5, 10),
    records: [...records].reverse(), // any order
    meterReadings: [
      { time: d2 + 7 * H, mgdl: 60, id: "m1" },
      { time: d1 - 5 * MIN, mgdl: 300 }, // before the range: ignored
      { time: d2 + 8 * H, mgdl: 0 }, // invalid: ignored
    ],
    pdaVersion: "5.3.0",
    limits,
    setting,
    pumpSettings: null,
  };
  const r = ok(buildPumpReport(input));

  it("insulinTotals over the range: basal 18 + 24 U, bolus 3 + 2 U", () => {
    expect(r.insulinDays.map((d) => d.totals.total)).toEqual([21, 26]);
    expect(r.insulinTotals).toEqual({
      total: 47,
      basal: 42,
      basalPercent: 89.4,
      bolus: 5,
      bolusPercent: 10.6,
      recordCount: 11,
    });
    expect(r.from).toBe("2026-06-01");
    expect(r.to).toBe("2026-06-02");
    expect(r.dates).toEqual(["2026-06-01", "2026-06-02"]);
  });

  it("insulinDays: basal steps and boluses with rate, units, extended length and record counts", () => {
    const [a, b] = r.insulinDays;
    expect(a!.date).toBe("2026-06-01");
    expect(
      a!.entries.map((p) => [
        p.clock,
        p.dataType,
        p.bolusKind,
        p.basalRate,
        p.bolusUnitsDisplay,
        p.extendedDisplayMs,
        p.recordCount,
      ]),
    ).toEqual([
      ["00:00", "basal", null, 1, 0, 0, 0],
      ["06:00", "basal", null, 0.5, 0, 0, 6],
      ["08:00", "bolus", "normal", 0.5, 3, 0, 1],
      ["18:00", "basal", null, 1, 0, 0, 1],
    ]);
    expect(a!.entries.filter((p) => p.dataType === "basal").map((p) => p.units)).toEqual([6, 6, 6]);
    expect(a!.entries[1]!.end).toBe(d1 + 18 * H);
    expect(
      b!.entries.map((p) => [
        p.clock,
        p.dataType,
        p.bolusKind,
        p.basalRate,
        p.bolusUnitsDisplay,
        p.extendedDisplayMs,
        p.recordCount,
      ]),
    ).toEqual([
      ["00:00", "basal", null, 1, 0, 0, 4],
      ["10:00", "bolus", "extended", 1, 2, 2 * H, 1],
    ]);
    // The basal entries' record counts add up to the day's records when the basal line covers the day.
    expect(
      b!.entries.filter((p) => p.dataType === "basal").reduce((s, p) => s + p.recordCount, 0),
    ).toBe(b!.totals.recordCount);
  });

  it("carbs: entries, perDay per day with pump data, carbsPerEntry per entry", () => {
    expect(r.carbs.entries.map((c) => [c.date, c.clock, c.grams, c.source])).toEqual([
      ["2026-06-01", "07:55", 50, "pump"],
      ["2026-06-01", "12:30", 20, "pump"],
      ["2026-06-02", "20:00", 30, "pump"],
    ]);
    expect(r.carbs.total).toBe(100);
    expect(r.carbs.daysWithData).toBe(2);
    expect(r.carbs.perDay).toBe(50);
    expect(r.carbsPerEntry).toBeCloseTo(100 / 3, 12);
    expect(r.carbTables).toEqual([r.carbs.entries]);
  });

  it("glucoseDays: pump BG and meter readings per day; glucoseSummary over both", () => {
    expect(
      r.glucoseDays.map((d) => [d.date, d.readings.map((e) => [e.mgdl, e.source, e.clock])]),
    ).toEqual([
      ["2026-06-01", [[150, "pump", "12:00"]]],
      ["2026-06-02", [[60, "meter", "07:00"]]],
    ]);
    expect(r.glucoseDays[1]!.readings[0]!.id).toBe("m1");
    expect(r.glucoseSummary).toEqual({
      mean: 105,
      count: 2,
      high: 0,
      highPercent: 0,
      low: 1,
      lowPercent: 50,
    });
  });

  it("alarms: with the kind key", () => {
    expect(r.alarms).toEqual([
      {
        time: d2 + 13 * H,
        date: "2026-06-02",
        clock: "13:00",
        kind: "occlusion",
        severity: "alarm",
        code: "4/2/2",
      },
    ]);
    expect(r.alarmTables).toHaveLength(1);
  });

  it("setting, limits and pump settings pass through", () => {
    expect(r.setting).toEqual({ unit: 0, nameStyle: 1 });
    expect(r.limits).toEqual({ low: 70, high: 180 });
    expect(r.pumpSettings).toBeNull();
  });

  it("charts and big boluses: 2 boluses, shown", () => {
    expect(r.charts).toHaveLength(1);
    expect(r.charts[0]).toMatchObject({
      dates: ["2026-06-01", "2026-06-02"],
      tickStepMs: 3 * H,
      bolusCount: 2,
      showBolusMarkers: true,
    });
    expect(r.charts[0]!.ticks).toHaveLength(16);
    expect(r.bigBoluses.count).toBe(2);
    expect(r.bigBoluses.shown).toBe(true);
    expect(r.bigBoluses.entries.map((e) => [e.date, e.bolusKind])).toEqual([
      ["2026-06-01", "normal"],
      ["2026-06-02", "extended"],
    ]);
  });

  it("is plain data (survives JSON)", () => {
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });
});

describe("buildPumpReport: details", () => {
  it("an extended part cut at midnight is shown at least 480000 ms long", () => {
    const d1 = Date.UTC(2026, 5, 1);
    const records = [
      rec(d1, { basal: 1 }),
      rec(d1 + 23 * H, { basal: 1, bolus: 1.2 }),
      rec(d1 + 24 * H + 4 * MIN, { basal: 1 }),
    ];
    const r = ok(
      buildPumpReport({
        from: "2026-06-01",
        to: "2026-06-02",
        timeZone: "UTC",
        now: d1 + 5 * 24 * H,
        records,
        limits,
        setting,
      }),
    );
    const boluses = r.insulinDays.map((d) => d.entries.find((p) => p.dataType === "bolus")!);
    expect(boluses.map((b) => [b.bolusKind, b.extendedDisplayMs])).toEqual([
      ["extended", H],
      ["extended", 480_000],
    ]);
    expect(boluses[1]!.units).toBeCloseTo(1.2 * (4 / 60), 12);
  });

  it("today: nothing is counted after now", () => {
    const d1 = Date.UTC(2026, 5, 1);
    const records = [rec(d1 - H, { basal: 1 }), rec(d1 + 2 * H, { basal: 2 })];
    const r = ok(
      buildPumpReport({
        from: "2026-06-01",
        to: "2026-06-01",
        timeZone: "UTC",
        now: d1 + 6 * H,
        records,
        limits,
        setting,
      }),
    );
    expect(r.insulinTotals.basal).toBe(2 + 8); // 2 h at 1 U/h, 4 h at 2 U/h, none after 06:00
  });

  it("refused ranges are answered with a typed problem", () => {
    const now = Date.UTC(2026, 9, 25, 12);
    const base = { timeZone: "UTC", now, records: [], limits, setting };
    const problem = (from: string, to: string) => {
      const r = buildPumpReport({ ...base, from, to });
      return r.status === "invalidRange" ? r.problem : r.status;
    };
    expect(problem("2026-07-28", "2026-10-25")).toBe("ok"); // 90 days, both ends counted
    expect(problem("2026-07-27", "2026-10-25")).toBe("tooLong"); // 91 days
    expect(problem("2026-10-20", "2026-10-26")).toBe("future");
    expect(problem("2026-10-20", "2026-10-19")).toBe("order");
    expect(problem("2026-02-30", "2026-03-02")).toBe("invalidDate");
    expect(buildPumpReport({ ...base, from: "x", to: "2026-10-01" })).toMatchObject({
      status: "invalidRange",
      problem: "invalidDate",
      maxDays: 90,
      minDays: null,
    });
  });

  it("a range without records has no data and null averages", () => {
    const r = ok(
      buildPumpReport({
        from: "2026-06-01",
        to: "2026-06-03",
        timeZone: "UTC",
        now: Date.UTC(2026, 6, 1),
        records: [],
        limits,
        setting,
      }),
    );
    expect(r.hasData).toBe(false);
    expect(r.carbs.perDay).toBeNull();
    expect(r.carbsPerEntry).toBeNull();
    expect(r.insulinTotals).toEqual({
      total: 0,
      basal: 0,
      basalPercent: null,
      bolus: 0,
      bolusPercent: null,
      recordCount: 0,
    });
    expect(r.glucoseSummary.mean).toBeNull();
    expect(r.insulinDays.every((d) => d.entries.length === 0)).toBe(true);
  });
});

describe("buildPumpReport: chart sections", () => {
  const d = (n: number) => Date.UTC(2026, 5, n);
  const dates = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => `2026-06-${String(from + i).padStart(2, "0")}`);

  it("charts for runs of days with something to draw (pump records or glucose), one line per run of days without", () => {
    // June 1-2 pump records; 3-5 nothing; 6 a meter reading only; 7 nothing; 8-9 pump records.
    const records = [
      rec(d(1) + H, { basal: 1 }),
      rec(d(2) + H, { basal: 1 }),
      rec(d(8) + H, { basal: 1 }),
      rec(d(9) + H, { basal: 1 }),
    ];
    const r = ok(
      buildPumpReport({
        from: "2026-06-01",
        to: "2026-06-09",
        timeZone: "UTC",
        now: d(20),
        records,
        meterReadings: [{ time: d(6) + 8 * H, mgdl: 120 }],
        limits,
        setting,
      }),
    );
    // The basal rate runs on from the 2nd's record, but the 3rd-5th have no record of their own: no data.
    expect(
      r.chartSections.map((c) =>
        c.kind === "chart"
          ? `chart ${c.group.dates.join(" ")}`
          : `noData ${c.from} ${c.to} ${c.dayCount}`,
      ),
    ).toEqual([
      "chart 2026-06-01 2026-06-02",
      "noData 2026-06-03 2026-06-05 3",
      "chart 2026-06-06",
      "noData 2026-06-07 2026-06-07 1",
      "chart 2026-06-08 2026-06-09",
    ]);
    expect(r.charts.map((g) => g.dates)).toEqual([dates(1, 2), ["2026-06-06"], dates(8, 9)]);
    // A chart group starts and ends at its own days, with its own tick step (1-4 days: 3 h).
    expect(r.charts[1]).toMatchObject({ start: d(6), end: d(7), tickStepMs: 3 * H, bolusCount: 0 });
  });

  it("a run of 7 days with data is a chart of 5 days and one of 2; no data at all is one line", () => {
    const records = dates(1, 7).map((_, i) => rec(d(i + 1) + H, { basal: 1 }));
    const r = ok(
      buildPumpReport({
        from: "2026-06-01",
        to: "2026-06-07",
        timeZone: "UTC",
        now: d(20),
        records,
        limits,
        setting,
      }),
    );
    expect(r.chartSections.map((c) => c.kind)).toEqual(["chart", "chart"]);
    expect(r.charts.map((g) => g.dates)).toEqual([dates(1, 5), dates(6, 7)]);
    const none = ok(
      buildPumpReport({
        from: "2026-06-01",
        to: "2026-06-30",
        timeZone: "UTC",
        now: d(40),
        records: [],
        limits,
        setting,
      }),
    );
    expect(none.chartSections).toEqual([
      { kind: "noData", from: "2026-06-01", to: "2026-06-30", dayCount: 30 },
    ]);
    expect(none.charts).toEqual([]);
  });
});

describe("buildPumpReport on the demo data (Europe/Warsaw)", () => {
  const data = buildDemoData(Temporal.PlainDate.from("2026-11-23"));
  const tz = DEMO_TIME_ZONE;
  const pump = pumpHistoryRecords(data.pump);
  const meter = data.meter.map((m, i) => ({ time: m.at.epochMilliseconds, mgdl: m.mgdl, id: i }));
  const now = Temporal.PlainDate.from("2026-11-23").toZonedDateTime({
    timeZone: tz,
    plainTime: "12:00",
  }).epochMilliseconds;

  it("14 days: totals equal the day models summed, tables and charts follow the print rules", () => {
    const r = ok(
      buildPumpReport({
        from: "2026-11-09",
        to: "2026-11-22",
        timeZone: tz,
        now,
        records: pump,
        meterReadings: meter,
        pdaVersion: "5.3.0",
        limits,
        setting,
      }),
    );
    const days = r.dates.map((date) =>
      buildPumpDay({
        date,
        timeZone: tz,
        ...splitAroundDay(pump, dayWindow(date, tz)),
        pdaVersion: "5.3.0",
        limits,
      }),
    );
    const basal = days.reduce((s, d) => s + d.totals.basal, 0);
    const bolus = days.reduce((s, d) => s + d.totals.bolus, 0);
    expect(r.insulinTotals.total).toBeCloseTo(basal + bolus, 2);
    expect(r.insulinTotals.basal).toBeCloseTo(basal, 2);
    expect(r.insulinTotals.basalPercent! + r.insulinTotals.bolusPercent!).toBeCloseTo(100, 10);
    expect(r.insulinTotals.recordCount).toBe(
      days.reduce((s, d) => s + d.insulinTotals.recordCount, 0),
    );
    expect(r.days.map((d) => d.totals.insulin)).toEqual(days.map((d) => d.totals.insulin));
    expect(r.carbs.entries.length).toBe(days.reduce((s, d) => s + d.carbs.length, 0));
    expect(r.carbs.perDay).toBeCloseTo(days.reduce((s, d) => s + d.totals.carbs, 0) / 14, 10);
    expect(r.carbTables.every((t) => t.length <= 12)).toBe(true);
    expect(r.carbTables.flat()).toEqual(r.carbs.entries);
    expect(r.charts.map((c) => c.dates.length)).toEqual([5, 5, 4]);
    expect(r.charts.map((c) => c.tickStepMs / H)).toEqual([4, 4, 3]);
    expect(r.charts.every((c) => c.showBolusMarkers === c.bolusCount <= BIG_BOLUS_MAX_SHOWN)).toBe(
      true,
    );
    expect(r.bigBoluses.count).toBe(days.reduce((s, d) => s + d.boluses.length, 0));
    expect(r.bigBoluses.count).toBeGreaterThan(BIG_BOLUS_MAX_SHOWN);
    expect(r.bigBoluses).toMatchObject({ shown: false, entries: [] });
    // glucoseSummary over the meter readings of the range (the demo pump enters no BG).
    const start = dayWindow("2026-11-09", tz).start;
    const end = dayWindow("2026-11-22", tz).end;
    const inRange = meter.filter((m) => m.time >= start && m.time < end).map((m) => m.mgdl);
    expect(r.glucoseSummary).toEqual(glucoseSummary(inRange, limits));
    expect(r.glucoseDays.reduce((s, d) => s + d.readings.length, 0)).toBe(inRange.length);
  });

  it("90 days, of which the demo's 30 have data: one line for the 59 days before, 6 charts, one line for today", () => {
    const r = ok(
      buildPumpReport({
        from: "2026-08-26",
        to: "2026-11-23",
        timeZone: tz,
        now,
        records: pump,
        meterReadings: meter,
        pdaVersion: "5.3.0",
        limits,
        setting,
      }),
    );
    expect(r.dates).toHaveLength(90);
    expect(
      r.chartSections.map((c) =>
        c.kind === "chart"
          ? `${c.group.dates[0]} ${c.group.dates.length}`
          : `no data ${c.from} ${c.to} ${c.dayCount}`,
      ),
    ).toEqual([
      "no data 2026-08-26 2026-10-23 59",
      "2026-10-24 5",
      "2026-10-29 5",
      "2026-11-03 5",
      "2026-11-08 5",
      "2026-11-13 5",
      "2026-11-18 5",
      "no data 2026-11-23 2026-11-23 1",
    ]);
  });

  it("a one-day range gives that day's insulinTotals exactly", () => {
    for (const date of ["2026-11-22", "2026-10-25"]) {
      const r = ok(
        buildPumpReport({
          from: date,
          to: date,
          timeZone: tz,
          now,
          records: pump,
          pdaVersion: "5.3.0",
          limits,
          setting,
        }),
      );
      const day = buildPumpDay({
        date,
        timeZone: tz,
        ...splitAroundDay(pump, dayWindow(date, tz)),
        pdaVersion: "5.3.0",
        limits,
      });
      expect(r.insulinTotals).toEqual(day.insulinTotals);
      expect(r.alarms.length).toBe(day.alarms.length);
    }
  });
});
