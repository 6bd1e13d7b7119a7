import { describe, expect, it } from "vitest";
import type { PumpRecordInput } from "./records";
import { CgmProcessor, MeterProcessor, PumpProcessor } from "./process";

const utc = (iso: string) => Date.parse(iso);
let nextId = 100;
const pump = (over: Partial<PumpRecordInput> = {}): PumpRecordInput => ({
  recordId: nextId++,
  eventIndex: 1,
  eventPort: 4,
  eventType: 0,
  eventUrgency: 0,
  eventValue: 0,
  battery: 90,
  reservoir: 150,
  basalRateRaw: 160, // 1.0 U/h
  bolusRateRaw: 0,
  deviceTime: "2026-07-01 12:00:00",
  ...over,
});

describe("PumpProcessor", () => {
  const target = { pid: 7, pdaSn: "EQ0001", version: "5.3.0" };

  it("stores raw fields, reads the handheld's zone string first, and derives carbohydrate and alarms", () => {
    const p = new PumpProcessor(target, "Europe/Warsaw");
    const added = p.add([
      pump({ recordId: 1, deviceTime: "2026-07-01 12:00:00", pdaRecordTimeZone: "GMT+08:00" }),
      pump({ recordId: 2, deviceTime: "2026-07-01 12:00:00" }),
      pump({
        recordId: 3,
        eventPort: 3,
        eventType: 1,
        bolusRateRaw: 260,
        deviceTime: "2026-07-01 13:00:00",
      }),
      pump({
        recordId: 4,
        eventPort: 4,
        eventType: 2,
        eventUrgency: 2,
        deviceTime: "2026-07-01 14:00:00",
        recordTimeZone: "America/New_York",
      }),
    ]);
    if (!added.ok) throw new Error(added.refusal.key);
    const [a, b, c, d] = added.rows;
    expect(a).toMatchObject({
      recordId: 1,
      dateTime: utc("2026-07-01T04:00:00Z"),
      recordTimeZone: "+08:00",
      pdaRecordTimeZone: "GMT+08:00",
      basalRateRaw: 160,
    });
    expect(b).toMatchObject({
      dateTime: utc("2026-07-01T10:00:00Z"),
      recordTimeZone: "Europe/Warsaw",
    });
    expect(c!.derived).toEqual({ carbGrams: 26, alarm: null }); // 260 > 200: ten times too large
    expect(d).toMatchObject({
      dateTime: utc("2026-07-01T18:00:00Z"),
      derived: { carbGrams: null, alarm: "occlusion" },
    });
    expect(p.counters).toMatchObject({
      first: utc("2026-07-01T04:00:00Z"),
      last: utc("2026-07-01T18:00:00Z"),
      dstGap: 0,
      dstOverlap: 0,
    });
  });

  it("counts daylight-saving gaps and overlaps across batches", () => {
    const p = new PumpProcessor(target, "Europe/Warsaw");
    expect(p.add([pump({ deviceTime: "2026-03-29 02:30:00" })]).ok).toBe(true);
    expect(
      p.add([
        pump({ deviceTime: "2026-10-25 02:30:00" }),
        pump({ deviceTime: "2026-10-25 02:15:00" }),
      ]).ok,
    ).toBe(true);
    expect(p.counters).toMatchObject({ dstGap: 1, dstOverlap: 2 });
  });

  it("refuses a record it cannot read, naming its position across the upload", () => {
    const p = new PumpProcessor(target, "UTC");
    expect(p.add([pump()]).ok).toBe(true);
    expect(p.add([pump(), pump({ eventPort: 4, eventType: 4 })])).toEqual({
      ok: false,
      refusal: { key: "errors.unknownEvent", values: { position: 3, code: "4/4" } },
    });
    const refusals = [
      pump({ pdaSn: "OTHER1" }),
      pump({ pid: 8 }),
      pump({ deviceTime: "2026-02-30 10:00:00" }),
      pump({ eventPort: 3, eventType: 0, basalRateRaw: 601 }),
      pump({ eventPort: 3, eventType: 1, bolusRateRaw: 20_100 }), // 2010 g, then 201 g: still too large
      pump({ recordTimeZone: "Mars/Base" }),
      pump({ pdaRecordTimeZone: "GMT+14:00" }),
    ].map((r) => {
      const out = new PumpProcessor(target, "UTC").add([r]);
      return out.ok ? "accepted" : out.refusal.key;
    });
    expect(refusals).toEqual([
      "errors.recordDevice",
      "errors.recordPatient",
      "errors.deviceTime",
      "errors.glucoseRange",
      "errors.carbRange",
      "errors.timeZone",
      "errors.timeZone",
    ]);
  });

  it("flags an inconsistent bolus calculation split across two batches", () => {
    const p = new PumpProcessor(target, "UTC");
    p.add([
      pump({ recordId: 1, eventPort: 0, eventType: 4, bolusRateRaw: 200 }),
      pump({ recordId: 2, eventPort: 0, eventType: 6, bolusRateRaw: 300 }),
    ]);
    p.add([
      pump({ recordId: 3, eventPort: 0, eventType: 7, bolusRateRaw: 600 }),
      pump({ recordId: 4 }),
    ]);
    expect(p.flagged()).toEqual([1, 2, 3]); // 3.00 U suggested, 6.00 U confirmed
  });
});

describe("CgmProcessor", () => {
  it("mg/dL is 1.8 x raw; types 7 and 8 are readings, dataOrigin 3 a manual blood value, the rest skipped", () => {
    const p = new CgmProcessor("AX01", "Europe/Warsaw");
    const out = p.add([
      { eventIndex: 1, eventType: 7, rawGlucose: 100, deviceTime: "2026-01-10 08:00:00" },
      { eventIndex: 2, eventType: 8, rawGlucose: 55, deviceTime: "2026-01-10 08:05:00" },
      { eventIndex: 3, eventType: 2, rawGlucose: 0, deviceTime: "2026-01-10 08:10:00" },
      {
        eventIndex: 4,
        eventType: 1,
        rawGlucose: 61,
        deviceTime: "2026-01-10 08:12:00",
        dataOrigin: 3,
      },
    ]);
    if (!out.ok) throw new Error(out.refusal.key);
    expect(out.rows.map((r) => [r.eventIndex, r.mgdl, r.manual, r.dateTime])).toEqual([
      [1, 180, false, utc("2026-01-10T07:00:00Z")],
      [2, 99, false, utc("2026-01-10T07:05:00Z")],
      [4, 109.8, true, utc("2026-01-10T07:12:00Z")],
    ]);
    expect(p.counters.skipped).toBe(1);
  });
  it("refuses values no sensor reports", () => {
    expect(
      new CgmProcessor("AX01", "UTC").add([
        { eventIndex: 1, eventType: 7, rawGlucose: 5, deviceTime: "2026-01-10 08:00:00" },
      ]),
    ).toMatchObject({ ok: false, refusal: { key: "errors.glucoseRange" } });
  });
});

describe("MeterProcessor", () => {
  it("keys readings by the meter's clock and keeps mg/dL", () => {
    const out = new MeterProcessor("GC01", "America/New_York").add([
      { deviceTime: "2026-03-08 02:15:00", mgdl: 142, flags: 0 },
    ]);
    expect(out).toEqual({
      ok: true,
      rows: [
        {
          recordKey: "2026-03-08 02:15:00",
          mgdl: 142,
          deviceTime: "2026-03-08 02:15:00",
          dateTime: utc("2026-03-08T07:15:00Z"),
        },
      ],
    });
  });
});
