import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nsCallOf, nsReadQuery } from "~/schemas/nightscout";
import { nsObjectId, segmentsOf, sgvEntry, treatmentOf, utcOffsetMinutes } from "~/wire/nightscout";
import { wallClockAt } from "./device-time";
import { entriesToRows, nsDeviceSerial, treatmentsToRows } from "./nightscout";

const NOW = Date.UTC(2026, 6, 15, 12, 0, 0);
const MIN = 60_000;
const DAY = 86_400_000;

describe("entriesToRows", () => {
  it("reads sgv and mbg entries with numbers as numbers or strings and times as date or dateString", () => {
    const out = entriesToRows(
      [
        { type: "sgv", sgv: 120, date: NOW - 5 * MIN, direction: "Flat", device: "xDrip-DexcomG6" },
        { sgv: "98", dateString: new Date(NOW - 10 * MIN).toISOString(), direction: "Sideways" },
        { type: "mbg", mbg: 104, date: NOW - MIN, device: "Contour Next" },
      ],
      NOW,
      "Europe/Warsaw",
    );
    expect(out.refused).toEqual([]);
    // 2026-07-15 12:00 UTC is 14:00 in Warsaw (UTC+2 in summer); the number is the second since 2000-01-01.
    expect(out.rows.cgm).toEqual([
      {
        deviceSn: "xDrip-DexcomG6",
        eventIndex: (NOW - 5 * MIN - Date.UTC(2000, 0, 1)) / 1000,
        mgdl: 120,
        dateTime: NOW - 5 * MIN,
        deviceTime: "2026-07-15 13:55:00",
        direction: "Flat",
      },
      {
        deviceSn: "nightscout",
        eventIndex: (NOW - 10 * MIN - Date.UTC(2000, 0, 1)) / 1000,
        mgdl: 98,
        dateTime: NOW - 10 * MIN,
        deviceTime: "2026-07-15 13:50:00",
        // Not one of Nightscout's arrows: kept as none.
        direction: null,
      },
    ]);
    expect(out.rows.bg).toEqual([
      {
        deviceSn: "Contour-Next",
        recordKey: `ns:${NOW - MIN}`,
        mgdl: 104,
        dateTime: NOW - MIN,
        deviceTime: "2026-07-15 13:59:00",
      },
    ]);
  });

  it("refuses, one by one: too old, ahead of the clock, calibrations, out of range, unreadable", () => {
    const out = entriesToRows(
      [
        { type: "sgv", sgv: 100, date: NOW - 90 * DAY },
        { type: "sgv", sgv: 100, date: NOW - 90 * DAY - 1 },
        { type: "sgv", sgv: 100, date: NOW + 5 * MIN },
        { type: "sgv", sgv: 100, date: NOW + 5 * MIN + 1 },
        { type: "cal", slope: 1, date: NOW },
        { type: "sgv", sgv: 9, date: NOW },
        { type: "sgv", sgv: 601, date: NOW },
        { type: "sgv", date: NOW },
        { type: "sgv", sgv: 100 },
        { type: "sgv", sgv: 100, dateString: "yesterday" },
        null,
      ],
      NOW,
      "UTC",
    );
    expect(out.accepted.map((a) => a.index)).toEqual([0, 2]);
    expect(out.refused).toEqual([
      { index: 1, reason: "tooOld" },
      { index: 3, reason: "future" },
      { index: 4, reason: "unsupportedType" },
      { index: 5, reason: "glucoseRange" },
      { index: 6, reason: "glucoseRange" },
      { index: 7, reason: "invalid" },
      { index: 8, reason: "invalid" },
      { index: 9, reason: "invalid" },
      { index: 10, reason: "invalid" },
    ]);
  });
});

describe("treatmentsToRows", () => {
  it("maps insulin, carbohydrate and BG checks (mmol/L x 18), and refuses what has no place", () => {
    const at = new Date(NOW - 30 * MIN).toISOString();
    const out = treatmentsToRows(
      [
        { eventType: "Meal Bolus", insulin: 3.5, carbs: 45, created_at: at, enteredBy: "Loop" },
        { eventType: "BG Check", glucose: 6.1, units: "mmol", created_at: at, enteredBy: "x" },
        { eventType: "BG Check", glucose: 180, units: "mg/dl", mills: NOW - MIN },
        { eventType: "Temp Basal", absolute: 0.8, duration: 30, created_at: at },
        { eventType: "Correction Bolus", insulin: 150, created_at: at },
        { eventType: "Carb Correction", carbs: -5, created_at: at },
        { eventType: "Note", notes: "x" },
      ],
      NOW,
      "UTC",
    );
    expect(out.rows.insulin).toEqual([
      { deviceSn: "Loop", recordKey: `ns:${NOW - 30 * MIN}`, units: 3.5, dateTime: NOW - 30 * MIN },
    ]);
    expect(out.rows.carbs).toEqual([
      { deviceSn: "Loop", recordKey: `ns:${NOW - 30 * MIN}`, grams: 45, dateTime: NOW - 30 * MIN },
    ]);
    // 6.1 x 18 = 109.8, rounded to 110 mg/dL.
    expect(out.rows.bg.map((r) => [r.deviceSn, r.recordKey, r.mgdl])).toEqual([
      ["x", `nst:${NOW - 30 * MIN}`, 110],
      ["nightscout", `nst:${NOW - MIN}`, 180],
    ]);
    expect(out.refused).toEqual([
      { index: 3, reason: "unsupportedEventType" },
      { index: 4, reason: "amount" },
      { index: 5, reason: "amount" },
      { index: 6, reason: "invalid" },
    ]);
  });
});

describe("device serials, calls and queries", () => {
  it("keeps a device name to the characters of a serial", () => {
    expect(nsDeviceSerial(" xDrip+ (G6) ")).toBe("xDrip-G6");
    expect(nsDeviceSerial("")).toBe("nightscout");
    expect(nsDeviceSerial("a".repeat(80))).toHaveLength(64);
  });

  it("names the calls with or without .json, and nothing else", () => {
    expect(nsCallOf("entries.json")).toBe("entries");
    expect(nsCallOf("entries/sgv.json")).toBe("sgv");
    expect(nsCallOf("entries/current.json")).toBe("current");
    expect(nsCallOf("treatments")).toBe("treatments");
    expect(nsCallOf("status.json")).toBe("status");
    expect(nsCallOf("food.json")).toBeNull();
    expect(nsCallOf("__proto__")).toBeNull();
  });

  it("reads count and date bounds as Nightscout tools send them", () => {
    const q = (s: string, d?: { count: number; findCount?: number }) =>
      nsReadQuery(new URLSearchParams(s), d);
    expect(q("")).toEqual({ ok: true, count: 10, from: null, to: null });
    expect(q("count=288&find[date][$gte]=1000&find[date][$lt]=2000")).toEqual({
      ok: true,
      count: 288,
      from: 1000,
      to: 1999,
    });
    expect(
      q("find[created_at][$gte]=2026-07-01T00:00:00Z", { count: 100, findCount: 1000 }),
    ).toEqual({
      ok: true,
      count: 1000,
      from: Date.UTC(2026, 6, 1),
      to: null,
    });
    expect(q("", { count: 100, findCount: 1000 })).toMatchObject({ count: 100 });
    expect(q("count=9999999")).toMatchObject({ count: 100_000 });
    expect(q("count=-1")).toEqual({ ok: false, field: "count" });
    expect(q("find[date][$gte]=soon")).toEqual({ ok: false, field: "find[date][$gte]" });
  });
});

describe("answers", () => {
  it("gives a stored reading the same 24-hex _id as when it was posted, and its zone offset", () => {
    const row = {
      deviceSn: "d",
      eventIndex: 1,
      mgdl: 120.4,
      dateTime: NOW,
      deviceTime: wallClockAt(NOW, "Europe/Warsaw"),
      direction: null,
    };
    const entry = sgvEntry(row);
    expect(entry).toMatchObject({ sgv: 120, direction: "NONE", utcOffset: 120 });
    expect(entry._id).toBe(nsObjectId("cgm", "d", 1));
    expect(entry._id).toMatch(/^[0-9a-f]{24}$/);
    expect(nsObjectId("cgm", "d", 2)).not.toBe(entry._id);
    expect(utcOffsetMinutes(NOW, "2026-07-15 08:00:00")).toBe(-240);
  });

  it("names a treatment read back by what it holds", () => {
    const base = { deviceSn: "d", recordKey: "ns:1", dateTime: 1 };
    const kind = (insulin: number | null, carbs: number | null, glucose: number | null) =>
      treatmentOf({ ...base, insulin, carbs, glucose }).eventType;
    expect(kind(2, 30, null)).toBe("Meal Bolus");
    expect(kind(2, null, null)).toBe("Correction Bolus");
    expect(kind(null, 30, null)).toBe("Carb Correction");
    expect(kind(null, null, 100)).toBe("BG Check");
  });

  it("joins equal neighbouring segments of a day", () => {
    expect(segmentsOf([1, 1, 2, 2])).toEqual([
      { time: "00:00", timeAsSeconds: 0, value: 1 },
      { time: "12:00", timeAsSeconds: 43_200, value: 2 },
    ]);
    expect(segmentsOf(Array.from({ length: 48 }, (_, i) => (i === 3 ? 5 : 1)))).toEqual([
      { time: "00:00", timeAsSeconds: 0, value: 1 },
      { time: "01:30", timeAsSeconds: 5400, value: 5 },
      { time: "02:00", timeAsSeconds: 7200, value: 1 },
    ]);
  });
});

describe("the common case read without the schema", () => {
  it("answers what the schema answers (a reading's sgv sent as text takes the schema's path)", () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            type: fc.constantFrom("sgv", undefined),
            sgv: fc.integer({ min: -5, max: 900 }),
            date: fc.integer({ min: NOW - 100 * DAY, max: NOW + 10 * MIN }),
            dateString: fc.oneof(fc.constant("2026-07-15T10:00:00Z"), fc.string({ maxLength: 70 })),
            direction: fc.oneof(
              fc.constantFrom("Flat", "DoubleDown", "x"),
              fc.string({ maxLength: 40 }),
            ),
            device: fc.string({ maxLength: 110 }),
          },
          { requiredKeys: ["sgv", "date"] },
        ),
        (record) => {
          const direct = entriesToRows([record], NOW, "Europe/Warsaw");
          const viaSchema = entriesToRows(
            [{ ...record, sgv: String(record.sgv) }],
            NOW,
            "Europe/Warsaw",
          );
          expect(direct).toEqual(viaSchema);
        },
      ),
      { numRuns: 300 },
    );
  });
});
