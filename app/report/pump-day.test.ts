import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import { buildDemoData, pumpHistoryRecords, DEMO_TIME_ZONE } from "../../prisma/demo-data";
import { dayWindow } from "./day";
import {
  BIG_BOLUS_MAX_SHOWN,
  buildPumpDay,
  insulinTotalsOf,
  MIN_EXTENSION_DISPLAY_MS,
} from "./pump-day";
import {
  carriesBasalRate,
  carriesBolusRate,
  splitAroundDay,
  type PumpHistoryRecord,
} from "./pump-records";
import { pumpRecord } from "./test-records";

const MIN = 60_000;
const H = 3_600_000;
const WAW = "Europe/Warsaw";

/** A record at `time` carrying the given rates (U/h) and event code. */
const rec = pumpRecord;

/** Epoch ms of a local wall time in Warsaw. */
function waw(date: string, hh: number, mm = 0, ss = 0): number {
  return Temporal.PlainDateTime.from(
    `${date}T${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}:${String(ss).padStart(2, "0")}`,
  ).toZonedDateTime(WAW).epochMilliseconds;
}

describe("buildPumpDay: empty day", () => {
  it("no records: no data, zero totals, null percents", () => {
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: WAW,
      records: [],
      previous: rec(waw("2026-06-14", 22), { basal: 1 }),
    });
    expect(m.hasData).toBe(false);
    expect(m.basal.steps).toEqual([]);
    expect(m.basal.rateAtStart).toBeNull();
    expect(m.boluses).toEqual([]);
    expect(m.carbs).toEqual([]);
    expect(m.alarms).toEqual([]);
    expect(m.device).toBeNull();
    expect(m.table).toEqual([]);
    expect(m.showBolusMarkers).toBe(true);
    expect(m.totals).toEqual({
      insulin: 0,
      basal: 0,
      bolus: 0,
      basalPercent: null,
      bolusPercent: null,
      carbs: 0,
      bolusCount: 0,
      carbCount: 0,
    });
    expect(m.insulinTotals).toEqual({
      total: 0,
      basal: 0,
      basalPercent: null,
      bolus: 0,
      bolusPercent: null,
      recordCount: 0,
    });
  });
});

describe("buildPumpDay: basal step series", () => {
  const day = Date.UTC(2026, 5, 15);
  const records = [
    rec(day + 3 * H, { basal: 1.1 }),
    rec(day + 8 * H, { basal: 0.9 }),
    rec(day + 17 * H, { basal: 0.85 }),
    rec(day + 22 * H, { basal: 0.8 }),
  ];

  it("the rate at midnight comes from the previous record; steps cover the day; total = sum(rate x h)", () => {
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      records,
      previous: rec(day - 4 * H, { basal: 0.8 }),
    });
    expect(m.hasData).toBe(true);
    expect(m.basal.rateAtStart).toBe(0.8);
    expect(m.basal.steps).toEqual([
      { start: day, end: day + 3 * H, rateUh: 0.8 },
      { start: day + 3 * H, end: day + 8 * H, rateUh: 1.1 },
      { start: day + 8 * H, end: day + 17 * H, rateUh: 0.9 },
      { start: day + 17 * H, end: day + 22 * H, rateUh: 0.85 },
      { start: day + 22 * H, end: day + 24 * H, rateUh: 0.8 },
    ]);
    // 3 x 0.8 + 5 x 1.1 + 9 x 0.9 + 5 x 0.85 + 2 x 0.8 = 21.85
    expect(m.basal.units).toBeCloseTo(21.85, 12);
    expect(m.totals.basal).toBeCloseTo(21.85, 12);
    expect(m.totals.basalPercent).toBe(100);
    expect(m.totals.bolusPercent).toBe(0);
    expect(m.table.filter((r) => r.kind === "basal").map((r) => r.clock)).toEqual([
      "00:00",
      "03:00",
      "08:00",
      "17:00",
      "22:00",
    ]);
  });

  it("without a previous record the line starts at the first record", () => {
    const m = buildPumpDay({ date: "2026-06-15", timeZone: "UTC", records });
    expect(m.basal.rateAtStart).toBeNull();
    expect(m.basal.steps[0]).toEqual({ start: day + 3 * H, end: day + 8 * H, rateUh: 1.1 });
    expect(m.basal.units).toBeCloseTo(21.85 - 2.4, 12);
  });

  it("records that do not change the rate do not split a step; `until` ends the line (today)", () => {
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      records: [
        rec(day + 1 * H, { basal: 1 }),
        rec(day + 2 * H, { basal: 1, port: 4, type: 8 }),
        rec(day + 5 * H, { basal: 1 }),
      ],
      previous: rec(day - H, { basal: 1 }),
      until: day + 10 * H + 30 * MIN,
    });
    expect(m.dataEnd).toBe(day + 10.5 * H);
    expect(m.basal.steps).toEqual([{ start: day, end: day + 10.5 * H, rateUh: 1 }]);
    expect(m.basal.units).toBe(10.5);
  });

  it("a BG record (3/0) keeps the basal rate: its basalRateRaw is glucose", () => {
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      records: [rec(day + 6 * H, { port: 3, type: 0, bg: 145 })],
      previous: rec(day - H, { basal: 0.5 }),
      limits: { low: 70, high: 180 },
    });
    expect(m.basal.steps).toEqual([{ start: day, end: day + 24 * H, rateUh: 0.5 }]);
    expect(m.basal.units).toBe(12);
    expect(m.bg).toEqual([{ time: day + 6 * H, clock: "06:00", mgdl: 145, class: "inRange" }]);
  });

  it("glucose: the pump's BG entries and the day's valid meter readings, in time order, classed, with their source; the table lists them", () => {
    const meterReadings = [
      { time: day + 20 * H, mgdl: 250.5, id: "m3" }, // above 250: very high
      { time: day + 6 * H, mgdl: 60, id: "m1" }, // same instant as the pump entry: after it
      { time: day - MIN, mgdl: 100 }, // the evening before: not this day
      { time: day + 24 * H, mgdl: 100 }, // next midnight: not this day
      { time: day + 9 * H, mgdl: 0.5 }, // below 1 mg/dL: not a reading
      { time: day + 9 * H, mgdl: Number.NaN },
      { time: day + 23 * H + 59 * MIN, mgdl: 180 }, // the high limit is in range
    ];
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      records: [rec(day + 6 * H, { port: 3, type: 0, bg: 145 })],
      previous: rec(day - H, { basal: 0.5 }),
      limits: { low: 70, high: 180 },
      meterReadings,
    });
    expect(m.bg).toEqual([{ time: day + 6 * H, clock: "06:00", mgdl: 145, class: "inRange" }]);
    expect(m.glucose).toEqual([
      { time: day + 6 * H, clock: "06:00", mgdl: 145, class: "inRange", source: "pump" },
      { time: day + 6 * H, clock: "06:00", mgdl: 60, class: "low", source: "meter", id: "m1" },
      {
        time: day + 20 * H,
        clock: "20:00",
        mgdl: 250.5,
        class: "veryHigh",
        source: "meter",
        id: "m3",
      },
      {
        time: day + 23 * H + 59 * MIN,
        clock: "23:59",
        mgdl: 180,
        class: "inRange",
        source: "meter",
      },
    ]);
    expect(
      m.table
        .filter((r) => r.kind === "bg")
        .map((r) => (r.kind === "bg" ? `${r.clock} ${r.bg.mgdl} ${r.bg.source}` : "")),
    ).toEqual(["06:00 145 pump", "06:00 60 meter", "20:00 250.5 meter", "23:59 180 meter"]);
    // Meter readings alone do not make a pump day: no records, no pump data.
    const meterOnly = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      records: [],
      meterReadings,
    });
    expect([meterOnly.hasData, meterOnly.glucose.length, meterOnly.glucose[0]!.class]).toEqual([
      false,
      3,
      null,
    ]);
  });

  it("suspend: the suspend record carries basal 0 until delivery resumes", () => {
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      records: [
        rec(day + 15 * H, { basal: 0, port: 4, type: 5, urgency: 0 }),
        rec(day + 16 * H, { basal: 1 }),
      ],
      previous: rec(day - H, { basal: 1 }),
    });
    expect(m.basal.steps.map((s) => s.rateUh)).toEqual([1, 0, 1]);
    expect(m.basal.units).toBe(23);
    expect(m.alarms.map((a) => [a.kind, a.clock, a.code])).toEqual([["suspend", "15:00", "4/5/0"]]);
  });

  it("DST spring forward (Warsaw 2026-03-29, 23 h): midnight to 03:00 is 2 h", () => {
    const m = buildPumpDay({
      date: "2026-03-29",
      timeZone: WAW,
      records: [
        rec(waw("2026-03-29", 3), { basal: 1.1 }),
        rec(waw("2026-03-29", 8), { basal: 0.9 }),
      ],
      previous: rec(waw("2026-03-28", 22), { basal: 0.8 }),
    });
    expect(m.window.hours).toBe(23);
    expect(m.basal.steps).toEqual([
      { start: Date.UTC(2026, 2, 28, 23), end: Date.UTC(2026, 2, 29, 1), rateUh: 0.8 },
      { start: Date.UTC(2026, 2, 29, 1), end: Date.UTC(2026, 2, 29, 6), rateUh: 1.1 },
      { start: Date.UTC(2026, 2, 29, 6), end: Date.UTC(2026, 2, 29, 22), rateUh: 0.9 },
    ]);
    // 2 h x 0.8 + 5 h x 1.1 + 16 h x 0.9 = 1.6 + 5.5 + 14.4
    expect(m.basal.units).toBeCloseTo(21.5, 12);
  });

  it("DST fall back (Warsaw 2026-10-25, 25 h): a constant 1 U/h gives 25 U", () => {
    const m = buildPumpDay({
      date: "2026-10-25",
      timeZone: WAW,
      records: [rec(waw("2026-10-25", 12), { basal: 1, port: 3, type: 1, carbs: 40 })],
      previous: rec(waw("2026-10-24", 20), { basal: 1 }),
      pdaVersion: "5.3.0",
    });
    expect(m.window.hours).toBe(25);
    expect(m.basal.steps).toEqual([
      { start: Date.UTC(2026, 9, 24, 22), end: Date.UTC(2026, 9, 25, 23), rateUh: 1 },
    ]);
    expect(m.basal.units).toBe(25);
    expect(m.totals.carbs).toBe(40);
  });
});

describe("buildPumpDay: boluses", () => {
  const day = Date.UTC(2026, 5, 15);
  const previous = rec(day - H, { basal: 1 });

  it("normal: 3 U at 60 U/h over 3 min", () => {
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      previous,
      records: [
        rec(day + 7 * H, { basal: 1, bolus: 60 }),
        rec(day + 7 * H + 3 * MIN, { basal: 1 }),
      ],
    });
    expect(m.boluses).toHaveLength(1);
    const b = m.boluses[0]!;
    expect(b.kind).toBe("normal");
    expect(b.clock).toBe("07:00");
    expect(b.units).toBeCloseTo(3, 12);
    expect(b.unitsDisplay).toBe(3);
    expect(b.immediate).toMatchObject({
      start: day + 7 * H,
      end: day + 7 * H + 3 * MIN,
      durationMs: 3 * MIN,
      rateUh: 60,
    });
    expect(b.extended).toBeNull();
    expect([b.startsBeforeDay, b.endsAfterDay, b.open]).toEqual([false, false, false]);
    expect(m.totals.bolus).toBeCloseTo(3, 12);
    expect(m.totals.insulin).toBeCloseTo(27, 12);
    expect(m.totals.bolusPercent).toBeCloseTo((3 / 27) * 100, 12);
    expect(m.insulinTotals).toEqual({
      total: 27,
      basal: 24,
      basalPercent: 88.9,
      bolus: 3,
      bolusPercent: 11.1,
      recordCount: 2,
    });
  });

  it("extended: 1.2 U/h over 45 min = 0.9 U", () => {
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      previous,
      records: [
        rec(day + 12 * H, { basal: 1, bolus: 1.2 }),
        rec(day + 12 * H + 45 * MIN, { basal: 1 }),
      ],
    });
    const b = m.boluses[0]!;
    expect(b.kind).toBe("extended");
    expect(b.units).toBeCloseTo(0.9, 12);
    expect(b.unitsDisplay).toBe(0.9);
    expect(b.immediate).toBeNull();
    expect(b.extended).toMatchObject({
      start: day + 12 * H,
      durationMs: 45 * MIN,
      displayDurationMs: 45 * MIN,
      displayEnd: day + 12.75 * H,
    });
    expect(b.extended!.rateUh).toBeCloseTo(1.2, 12);
  });

  it("dual wave: 3 U at 60 U/h, then 1.5 U/h for 2 h (3 U); a basal change inside does not split it", () => {
    const t = day + 18 * H;
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      previous,
      records: [
        rec(t, { basal: 1, bolus: 60 }),
        rec(t + 3 * MIN, { basal: 1, bolus: 1.5 }),
        rec(t + 1 * H, { basal: 0.85, bolus: 1.5 }),
        rec(t + 3 * MIN + 2 * H, { basal: 0.85 }),
      ],
    });
    expect(m.boluses).toHaveLength(1);
    const b = m.boluses[0]!;
    expect(b.kind).toBe("dual");
    expect(b.units).toBeCloseTo(6, 12);
    expect(b.immediate!.units).toBeCloseTo(3, 12);
    expect(b.extended!.units).toBeCloseTo(3, 12);
    expect(b.extended!.start).toBe(t + 3 * MIN);
    expect(b.extended!.durationMs).toBe(2 * H);
    expect(b.steps).toEqual([
      { start: t, end: t + 3 * MIN, rateUh: 60 },
      { start: t + 3 * MIN, end: t + 3 * MIN + 2 * H, rateUh: 1.5 },
    ]);
    expect(m.totals.bolus).toBeCloseTo(6, 12);
  });

  it("a normal bolus given while an extended one runs starts a new event", () => {
    const t = day + 12 * H;
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      previous,
      records: [
        rec(t, { basal: 1, bolus: 1 }),
        rec(t + 1 * H, { basal: 1, bolus: 61 }),
        rec(t + 1 * H + 2 * MIN, { basal: 1, bolus: 1 }),
        rec(t + 2 * H, { basal: 1 }),
      ],
    });
    expect(m.boluses.map((b) => b.kind)).toEqual(["extended", "dual"]);
    expect(m.boluses[0]!.units).toBeCloseTo(1, 12);
    // 61 U/h x 2 min + 1 U/h x 58 min
    expect(m.boluses[1]!.units).toBeCloseTo(61 / 30 + 58 / 60, 12);
    expect(m.totals.bolus).toBeCloseTo(1 + 61 / 30 + 58 / 60, 12);
  });

  it("a fast stretch of 35 min (35 U at 60 U/h) is still a normal bolus", () => {
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      previous,
      records: [
        rec(day + 9 * H, { basal: 1, bolus: 60 }),
        rec(day + 9 * H + 35 * MIN, { basal: 1 }),
      ],
    });
    expect(m.boluses[0]!.kind).toBe("normal");
    expect(m.boluses[0]!.units).toBeCloseTo(35, 12);
  });

  it("a bolus still running at the end of the known data is open", () => {
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      previous,
      records: [rec(day + 10 * H, { basal: 1, bolus: 2 })],
      until: day + 11 * H,
    });
    expect(m.boluses[0]).toMatchObject({
      kind: "extended",
      open: true,
      endsAfterDay: false,
      end: day + 11 * H,
    });
    expect(m.boluses[0]!.units).toBe(2);
  });

  it("a step still running has no known length: its rate decides (dual from 23:50 without a next record)", () => {
    const t = day + 23 * H + 50 * MIN;
    const dual = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      previous,
      records: [rec(t, { basal: 1, bolus: 60 }), rec(t + 3 * MIN, { basal: 1, bolus: 1.5 })],
    });
    expect(dual.boluses[0]).toMatchObject({ kind: "dual", open: true, endsAfterDay: true });
    expect(dual.boluses[0]!.immediate!.units).toBeCloseTo(3, 12);
    expect(dual.boluses[0]!.extended!.units).toBeCloseTo(1.5 * (7 / 60), 12);
    const now = day + 8 * H + 2 * MIN;
    const running = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      previous,
      records: [rec(day + 8 * H, { basal: 1, bolus: 60 })],
      until: now,
    });
    expect(running.boluses[0]).toMatchObject({
      kind: "normal",
      open: true,
      endsAfterDay: false,
      end: now,
    });
    expect(running.boluses[0]!.units).toBeCloseTo(2, 12);
  });

  it("at most 25 boluses show markers", () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => [
        rec(day + i * 20 * MIN, { basal: 1, bolus: 60 }),
        rec(day + i * 20 * MIN + MIN, { basal: 1 }),
      ]).flat();
    const at25 = buildPumpDay({ date: "2026-06-15", timeZone: "UTC", previous, records: many(25) });
    const at26 = buildPumpDay({ date: "2026-06-15", timeZone: "UTC", previous, records: many(26) });
    expect(BIG_BOLUS_MAX_SHOWN).toBe(25);
    expect(at25.boluses).toHaveLength(25);
    expect(at25.showBolusMarkers).toBe(true);
    expect(at26.boluses).toHaveLength(26);
    expect(at26.showBolusMarkers).toBe(false);
    expect(at26.totals.bolus).toBeCloseTo(26, 9);
  });
});

describe("buildPumpDay: a bolus over midnight is split at the day boundary", () => {
  it("extended 1 U/h from 23:00 to 01:00 local into the 23 h DST day: 1 U on each day", () => {
    const startRec = rec(waw("2026-03-28", 23), { basal: 0.8, bolus: 1 });
    const endRec = rec(waw("2026-03-29", 1), { basal: 0.8 });
    const march29 = buildPumpDay({
      date: "2026-03-29",
      timeZone: WAW,
      previous: startRec,
      records: [endRec],
    });
    expect(march29.boluses).toHaveLength(1);
    const b29 = march29.boluses[0]!;
    expect(b29).toMatchObject({
      kind: "extended",
      start: Date.UTC(2026, 2, 28, 23),
      end: Date.UTC(2026, 2, 29, 0),
      startsBeforeDay: true,
      endsAfterDay: false,
      clock: "00:00",
    });
    expect(b29.units).toBe(1);

    const march28 = buildPumpDay({
      date: "2026-03-28",
      timeZone: WAW,
      records: [startRec],
      next: endRec,
      previous: rec(waw("2026-03-27", 23), { basal: 0.8 }),
    });
    const b28 = march28.boluses[0]!;
    expect(b28).toMatchObject({
      kind: "extended",
      start: Date.UTC(2026, 2, 28, 22),
      end: Date.UTC(2026, 2, 28, 23),
      startsBeforeDay: false,
      endsAfterDay: true,
      open: false,
    });
    expect(b28.units).toBe(1);
    expect(b28.units + b29.units).toBe(2);
  });

  it("a normal bolus at 23:58 local before the 25 h day keeps its kind: 2 U + 2 U", () => {
    const startRec = rec(waw("2026-10-24", 23, 58), { basal: 1, bolus: 60 });
    const endRec = rec(waw("2026-10-25", 0, 2), { basal: 1 });
    const d25 = buildPumpDay({
      date: "2026-10-25",
      timeZone: WAW,
      previous: startRec,
      records: [endRec],
    });
    expect(d25.boluses[0]).toMatchObject({
      kind: "normal",
      startsBeforeDay: true,
      start: Date.UTC(2026, 9, 24, 22),
      end: Date.UTC(2026, 9, 24, 22, 2),
    });
    expect(d25.boluses[0]!.units).toBeCloseTo(2, 12);
    expect(d25.basal.units).toBe(25);
    const d24 = buildPumpDay({
      date: "2026-10-24",
      timeZone: WAW,
      records: [startRec],
      next: endRec,
    });
    expect(d24.boluses[0]).toMatchObject({ kind: "normal", endsAfterDay: true });
    expect(d24.boluses[0]!.units).toBeCloseTo(2, 12);
  });

  it("the 3 minutes of an extended bolus after midnight are drawn at least 480000 ms long", () => {
    const day = Date.UTC(2026, 5, 15);
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      previous: rec(day - 2 * H, { basal: 1, bolus: 1 }),
      records: [rec(day + 3 * MIN, { basal: 1 })],
    });
    const ext = m.boluses[0]!.extended!;
    expect(m.boluses[0]!.kind).toBe("extended");
    expect(ext.durationMs).toBe(3 * MIN);
    expect(ext.units).toBeCloseTo(0.05, 12);
    expect(MIN_EXTENSION_DISPLAY_MS).toBe(480_000);
    expect(ext.displayDurationMs).toBe(480_000);
    expect(ext.displayEnd).toBe(day + 8 * MIN);
  });
});

describe("buildPumpDay: carbohydrate, BG, alarms, device and table", () => {
  const day = Date.UTC(2026, 5, 15);
  const previous = rec(day - H, { basal: 1 });
  const records = [
    rec(day + 7 * H, { basal: 1, port: 3, type: 1, carbs: 450 }),
    rec(day + 7 * H + 30 * 1000, { basal: 1, port: 0, type: 5, carbs: 450 }), // same meal from the calculator
    rec(day + 12 * H, { basal: 1, port: 0, type: 5, carbs: 300 }),
    rec(day + 13 * H, { basal: 1, port: 3, type: 1, carbs: 0 }),
    rec(day + 6 * H, { port: 3, type: 0, bg: 52 }),
    rec(day + 9 * H, { basal: 1, port: 4, type: 8 }),
    rec(day + 9 * H + 4 * MIN, { basal: 1, port: 4, type: 7, reservoir: 200 }),
    rec(day + 14 * H, { basal: 1, port: 4, type: 2, urgency: 2 }),
    rec(day + 20 * H, { basal: 1, port: 5, type: 0, urgency: 1, battery: 15, reservoir: 120 }),
  ];

  it("5.1.9: values divided by 10; the calculator copy of a meal counted once", () => {
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      previous,
      records,
      pdaVersion: "5.1.9",
      limits: { low: 70, high: 180 },
    });
    expect(m.carbEncoding).toBe("x10");
    expect(m.carbs.map((c) => [c.clock, c.grams, c.source, c.byVersion, c.byLimit])).toEqual([
      ["07:00", 45, "pump", true, false],
      ["12:00", 30, "calculator", true, false],
    ]);
    expect(m.totals.carbs).toBe(75);
    expect(m.totals.carbCount).toBe(2);
    expect(m.bg).toEqual([{ time: day + 6 * H, clock: "06:00", mgdl: 52, class: "veryLow" }]);
    expect(m.alarms.map((a) => [a.clock, a.kind, a.severity])).toEqual([
      ["09:00", "rewind", "event"],
      ["09:04", "prime", "event"],
      ["14:00", "occlusion", "alarm"],
      ["20:00", "low_power", "warning"],
    ]);
    expect(m.device).toEqual({ time: day + 20 * H, battery: 15, reservoir: 120 });
    expect(m.insulinTotals.recordCount).toBe(9);
    expect(m.table.map((r) => `${r.clock} ${r.kind}`)).toEqual([
      "00:00 basal",
      "06:00 bg",
      "07:00 carbs",
      "09:00 alarm",
      "09:04 alarm",
      "12:00 carbs",
      "14:00 alarm",
      "20:00 alarm",
    ]);
  });

  it("5.2.0: grams as stored, 450 and 300 are above 200 so ten times too large", () => {
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      previous,
      records,
      pdaVersion: "5.2.0",
    });
    expect(m.carbs.map((c) => [c.grams, c.byVersion, c.byLimit])).toEqual([
      [45, false, true],
      [30, false, true],
    ]);
    expect(m.bg[0]!.class).toBeNull();
  });

  it("grams are in bolusRateRaw (values above 255 occur), and a carbohydrate record does not stop a running bolus", () => {
    // 5.1.9 stores tenths: 1200 -> 120 g. A 60 U/h bolus from 07:00 to 07:05 (5 U) with the
    // carbohydrate record at 07:02, whose bolusRateRaw holds grams, not a rate.
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      previous,
      records: [
        rec(day + 7 * H, { basal: 1, bolus: 60 }),
        rec(day + 7 * H + 2 * MIN, { basal: 1, port: 3, type: 1, carbs: 1200 }),
        rec(day + 7 * H + 5 * MIN, { basal: 1 }),
      ],
      pdaVersion: "5.1.9",
    });
    expect(m.carbs.map((c) => [c.clock, c.grams, c.raw])).toEqual([["07:02", 120, 1200]]);
    expect(m.boluses.map((b) => [b.clock, b.units])).toEqual([["07:00", 5]]);
  });

  it("5.0.10 and 5.0.3C (special): grams as stored", () => {
    const meal = [rec(day + 7 * H, { basal: 1, port: 3, type: 1, carbs: 60 })];
    for (const v of ["5.0.10", "5.0.3C"]) {
      const m = buildPumpDay({
        date: "2026-06-15",
        timeZone: "UTC",
        previous,
        records: meal,
        pdaVersion: v,
      });
      expect(m.carbs[0]!.grams).toBe(60);
    }
    expect(
      buildPumpDay({
        date: "2026-06-15",
        timeZone: "UTC",
        previous,
        records: meal,
        pdaVersion: "5.1.9",
      }).carbs[0]!.grams,
    ).toBe(6);
  });
});

describe("buildPumpDay: bolus calculations marked at upload", () => {
  const day = Date.UTC(2026, 5, 15);
  const previous = rec(day - H, { basal: 1 });
  /** A calculator record (port 0) with bolusRateRaw = `value` (grams for type 5, hundredths of a unit for 6 and 7). */
  const calc = (
    time: number,
    type: number,
    value: number,
    eventIndex: number,
    flagged: boolean,
  ): PumpHistoryRecord => ({
    ...rec(time, { port: 0, type, carbs: value }),
    eventIndex,
    flagged,
  });

  it("a flagged run is one table row with its suggestion, confirmation and difference; its carbohydrate is marked too", () => {
    const records = [
      // 12:00 flagged: 30 g, suggested 300 = 3.00 U, confirmed 550 = 5.50 U; |5.50 - 3.00| = 2.50 U.
      calc(day + 12 * H, 4, 150, 10, true),
      calc(day + 12 * H, 5, 30, 11, true),
      calc(day + 12 * H, 6, 300, 12, true),
      calc(day + 12 * H, 7, 550, 13, true),
      // 18:00 not flagged (4.00 U suggested, 5.00 U confirmed): no row.
      calc(day + 18 * H, 6, 400, 20, false),
      calc(day + 18 * H, 7, 500, 21, false),
      // 20:00 and 20:00:30 flagged, back to back: the types start again, so two calculations.
      calc(day + 20 * H, 6, 100, 30, true),
      calc(day + 20 * H, 7, 400, 31, true),
      calc(day + 20 * H + 30_000, 6, 800, 32, true),
      calc(day + 20 * H + 30_000, 7, 250, 33, true),
    ];
    const m = buildPumpDay({
      date: "2026-06-15",
      timeZone: "UTC",
      previous,
      records,
      pdaVersion: "5.3.0",
    });
    expect(m.flaggedCalculations).toEqual([
      { time: day + 12 * H, clock: "12:00", suggestedU: 3, confirmedU: 5.5, differenceU: 2.5 },
      // 1.00 U suggested, 4.00 U confirmed: 3.00 U apart.
      { time: day + 20 * H, clock: "20:00", suggestedU: 1, confirmedU: 4, differenceU: 3 },
      // 8.00 U suggested, 2.50 U confirmed: 5.50 U apart.
      {
        time: day + 20 * H + 30_000,
        clock: "20:00",
        suggestedU: 8,
        confirmedU: 2.5,
        differenceU: 5.5,
      },
    ]);
    expect(m.carbs.map((c) => [c.clock, c.grams, c.source, c.flagged])).toEqual([
      ["12:00", 30, "calculator", true],
    ]);
    expect(m.table.map((r) => `${r.clock} ${r.kind}`)).toEqual([
      "00:00 basal",
      "12:00 carbs",
      "12:00 check",
      "20:00 check",
      "20:00 check",
    ]);
    // Calculator records carry no rates: the day stays 24 h at 1 U/h, no bolus.
    expect(m.totals.basal).toBe(24);
    expect(m.totals.bolusCount).toBe(0);
  });

  it("records without the mark (or from before the column was read) give no calculation rows", () => {
    const records = [
      calc(day + 12 * H, 5, 30, 11, false),
      calc(day + 12 * H, 6, 300, 12, false),
      calc(day + 12 * H, 7, 550, 13, false),
      rec(day + 13 * H, { port: 0, type: 7, carbs: 900 }),
    ];
    const m = buildPumpDay({ date: "2026-06-15", timeZone: "UTC", previous, records });
    expect(m.flaggedCalculations).toEqual([]);
    expect(m.carbs.map((c) => c.flagged)).toEqual([false]);
    expect(m.table.filter((r) => r.kind === "check")).toEqual([]);
  });
});

describe("buildPumpDay on the seeded demo history", () => {
  const data = buildDemoData(Temporal.PlainDate.from("2026-11-23"));
  const records: PumpHistoryRecord[] = pumpHistoryRecords(data.pump);
  const modelOf = (date: string) => {
    const window = dayWindow(date, DEMO_TIME_ZONE);
    return buildPumpDay({
      date,
      timeZone: DEMO_TIME_ZONE,
      ...splitAroundDay(records, window),
      pdaVersion: "5.3.0",
    });
  };
  const mealsOn = (date: string) =>
    data.meals.filter((m) => m.at.toPlainDate().toString() === date);
  const unitsOf = (grams: number) => Math.round((grams / 10) * 20) / 20;

  it("2026-10-25 (25 h): the standard profile integrates to 22.65 U; boluses and carbs match the meals", () => {
    const m = modelOf("2026-10-25");
    expect(m.window.hours).toBe(25);
    // 00-03 local is 4 h at 0.8, then 5 h x 1.1, 9 h x 0.9, 5 h x 0.85, 2 h x 0.8
    expect(m.basal.units).toBeCloseTo(3.2 + 5.5 + 8.1 + 4.25 + 1.6, 9);
    const meals = mealsOn("2026-10-25");
    expect(m.boluses.map((b) => b.kind)).toEqual(
      meals.map((x) => (x.extended ? "dual" : "normal")),
    );
    m.boluses.forEach((b, i) => expect(b.unitsDisplay).toBe(unitsOf(meals[i]!.grams)));
    expect(m.totals.bolus).toBeCloseTo(
      meals.reduce((s, x) => s + unitsOf(x.grams), 0),
      9,
    );
    expect(m.carbs.map((c) => c.grams)).toEqual(meals.map((x) => x.grams));
    expect(m.insulinTotals.basalPercent! + m.insulinTotals.bolusPercent!).toBeCloseTo(100, 9);
  });

  it("records that repeat the rates in force change nothing (one a minute, as a busier history would log)", () => {
    const date = "2026-11-21";
    const window = dayWindow(date, DEMO_TIME_ZONE);
    const split = splitAroundDay(records, window);
    const dense: PumpHistoryRecord[] = [...split.records];
    // The rates in force: each from the last record that carries it.
    let current = split.previous!;
    let k = 0;
    for (let t = window.start; t < window.end; t += MIN) {
      while (k < split.records.length && split.records[k]!.dateTime <= t) {
        const r = split.records[k++]!;
        current = {
          ...current,
          basalRateRaw: carriesBasalRate(r) ? r.basalRateRaw : current.basalRateRaw,
          bolusRateRaw: carriesBolusRate(r) ? r.bolusRateRaw : current.bolusRateRaw,
        };
      }
      dense.push({
        ...current,
        eventPort: 4,
        eventType: 0,
        eventUrgency: 0,
        eventValue: 0,
        dateTime: t + 1,
      });
    }
    const a = modelOf(date);
    const b = buildPumpDay({
      date,
      timeZone: DEMO_TIME_ZONE,
      previous: split.previous,
      next: split.next,
      records: dense,
      pdaVersion: "5.3.0",
    });
    expect(dense.length).toBeGreaterThan(1440);
    expect(b.basal.steps).toEqual(a.basal.steps);
    expect(b.boluses).toEqual(a.boluses);
    expect(b.totals).toEqual(a.totals);
    expect(b.insulinTotals.recordCount).toBe(dense.length);
  });

  it("an even day has a dual-wave supper over 2 h; the suspend day has 0 U/h from the suspend record to the next rate record", () => {
    const even = modelOf("2026-10-26"); // day index 2
    const supper = even.boluses[even.boluses.length - 1]!;
    expect(supper.kind).toBe("dual");
    expect(supper.extended!.durationMs).toBe(2 * H);
    const meals = mealsOn("2026-10-26");
    expect(supper.unitsDisplay).toBe(unitsOf(meals[meals.length - 1]!.grams));

    const suspend = modelOf("2026-11-02"); // day index 9
    const zero = suspend.basal.steps.filter((s) => s.rateUh === 0);
    expect(zero).toHaveLength(1);
    // The demo script suspends from 15:00 to 16:00.
    expect(zero[0]!.start).toBe(
      Temporal.ZonedDateTime.from("2026-11-02T15:00[Europe/Warsaw]").epochMilliseconds,
    );
    const resume = records.find(
      (r) =>
        r.dateTime > zero[0]!.start && r.eventPort === 4 && r.eventType === 0 && r.basalRateRaw > 0,
    )!;
    expect(zero[0]!.end).toBe(resume.dateTime);
    expect(zero[0]!.end - zero[0]!.start).toBe(1 * H);
    expect(suspend.alarms.map((a) => a.kind)).toContain("suspend");
  });
});

describe("insulinTotalsOf", () => {
  it("rounds to 0.01 U and 0.1 % and keeps the percents summing to 100", () => {
    expect(insulinTotalsOf(42, 5, 11)).toEqual({
      total: 47,
      basal: 42,
      basalPercent: 89.4,
      bolus: 5,
      bolusPercent: 10.6,
      recordCount: 11,
    });
    expect(insulinTotalsOf(0, 0, 0)).toEqual({
      total: 0,
      basal: 0,
      basalPercent: null,
      bolus: 0,
      bolusPercent: null,
      recordCount: 0,
    });
    expect(insulinTotalsOf(1.005, 2.004, 3)).toMatchObject({ total: 3.01, basal: 1.01, bolus: 2 });
  });
});
