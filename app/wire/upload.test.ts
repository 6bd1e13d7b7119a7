import { describe, expect, it } from "vitest";
import type { PumpRecordInput } from "~/ingest/records";
import {
  cgmRecordSchema,
  meterRecordSchema,
  pumpRecordSchema,
  pumpSettingSchema,
} from "~/schemas/upload";
import {
  cgmRecordFromWire,
  cgmRecordToWire,
  meterRecordFromWire,
  meterRecordToWire,
  pumpRecordFromWire,
  pumpRecordToWire,
  pumpSettingsFromWire,
  recordsFromWire,
} from "./upload";

// The wire texts are the record fields of docs/api.md "Device uploads", written out by hand.

const BASAL: PumpRecordInput = {
  recordId: 12345,
  eventIndex: 7,
  eventPort: 4,
  eventType: 0,
  eventUrgency: 0,
  eventValue: 0,
  battery: 80,
  reservoir: 150,
  basalRateRaw: 160,
  bolusRateRaw: 9600,
  deviceTime: "2026-07-01 08:05:09",
};

describe("pump history records", () => {
  it("go out with the status fields by position; unset optional fields are left out", () => {
    expect(JSON.stringify(pumpRecordToWire(BASAL))).toBe(
      '{"recordId":12345,"eventIndex":7,"eventPort":4,"eventType":0,"eventUrgency":0,"eventValue":0,' +
        '"statusByte0":80,"statusByte1":150,"statusShort0":160,"statusShort1":9600,"deviceTime":"2026-07-01 08:05:09"}',
    );
    expect(
      pumpRecordToWire({ ...BASAL, pdaSn: "EQ01", pdaRecordTimeZone: "GMT+01:00" }),
    ).toMatchObject({ pdaSn: "EQ01", pdaRecordTimeZone: "GMT+01:00" });
  });

  it("come in under the app's names, the record number from recordId or historyId", () => {
    const wire = pumpRecordSchema.parse(
      JSON.parse(
        '{"historyId":99,"eventIndex":3,"eventPort":3,"eventType":0,"eventUrgency":0,"eventValue":0,' +
          '"statusByte0":55,"statusByte1":20,"statusShort0":123,"statusShort1":450,' +
          '"deviceTime":"2026-07-01 12:00:00","recordTimeZone":"Europe/Warsaw","transDateTime":"x"}',
      ),
    );
    expect(pumpRecordFromWire(wire)).toEqual({
      recordId: 99,
      eventIndex: 3,
      eventPort: 3,
      eventType: 0,
      eventUrgency: 0,
      eventValue: 0,
      battery: 55,
      reservoir: 20,
      basalRateRaw: 123,
      bolusRateRaw: 450,
      deviceTime: "2026-07-01 12:00:00",
      recordTimeZone: "Europe/Warsaw",
    });
    expect(pumpRecordFromWire(pumpRecordSchema.parse(pumpRecordToWire(BASAL)))).toEqual(BASAL);
  });
});

describe("CGM records", () => {
  it("carry the raw glucose value as eventData, both ways", () => {
    const record = {
      eventIndex: 513,
      historyId: 10000,
      sensorIndex: 5,
      eventType: 7,
      rawGlucose: 60,
      deviceTime: "2026-03-29 02:30:00",
      dataOrigin: 0,
    };
    expect(JSON.stringify(cgmRecordToWire(record))).toBe(
      '{"eventIndex":513,"historyId":10000,"sensorIndex":5,"eventType":7,"eventData":60,' +
        '"deviceTime":"2026-03-29 02:30:00","dataOrigin":0}',
    );
    const wire = cgmRecordSchema.parse({
      eventIndex: 4,
      eventType: 0,
      eventData: 78,
      deviceTime: "2026-11-05 19:45:07",
      dataOrigin: 3,
      deviceSn: "AX1",
    });
    expect(cgmRecordFromWire(wire)).toEqual({
      eventIndex: 4,
      eventType: 0,
      rawGlucose: 78,
      deviceTime: "2026-11-05 19:45:07",
      dataOrigin: 3,
      deviceSn: "AX1",
    });
  });
});

describe("meter readings", () => {
  it("carry the clock as dateTime, mg/dL as statusShort0 and the flags as statusByte0, both ways", () => {
    expect(
      JSON.stringify(meterRecordToWire({ deviceTime: "2026-07-01 08:15:00", mgdl: 123, flags: 1 })),
    ).toBe('{"dateTime":"2026-07-01 08:15:00","statusShort0":123,"statusByte0":1}');
    const wire = meterRecordSchema.parse({
      dateTime: "2026-07-01 08:15:00",
      statusShort0: 98,
      statusByte0: 0,
      deviceSn: "GC1",
    });
    expect(meterRecordFromWire(wire)).toEqual({
      deviceTime: "2026-07-01 08:15:00",
      mgdl: 98,
      flags: 0,
      deviceSn: "GC1",
    });
  });
});

describe("recordsFromWire", () => {
  it("maps a checked batch by the device kind", () => {
    const meter = { dateTime: "2026-07-01 08:15:00", statusShort0: 98, statusByte0: 0 };
    expect(recordsFromWire("gocheck", [meter])).toEqual([
      { deviceTime: "2026-07-01 08:15:00", mgdl: 98, flags: 0 },
    ]);
    expect(recordsFromWire("equil", [pumpRecordToWire(BASAL)])).toEqual([BASAL]);
    expect(
      recordsFromWire("aidex", [
        { eventIndex: 1, eventType: 7, eventData: 61, deviceTime: "2026-07-01 08:00:00" },
      ]),
    ).toEqual([{ eventIndex: 1, eventType: 7, rawGlucose: 61, deviceTime: "2026-07-01 08:00:00" }]);
  });
});

describe("pump settings", () => {
  it("come in under the device software's names, misspellings included", () => {
    const wire = pumpSettingSchema.parse(
      JSON.parse(
        '{"pdaSn":"EQ1001","pdaVersion":"5.3.0","lowBg":[700,800],"highBg":[1800],"defaultCho":[10,12],' +
          '"sensitiveSilver":[450],"originBasal":64,"bolusRate":1500,"maxBolus":1000,"doubleBolus":1,' +
          '"effectiveTime":240,"maxiumBasalRate":300,"bolusIncrement":5,"quickBolusIncrement":50,' +
          '"lowReseverThreshold":20,"tempBasalRate":0}',
      ),
    );
    expect(pumpSettingsFromWire(wire)).toEqual({
      pdaSn: "EQ1001",
      pdaVersion: "5.3.0",
      lowBg: [700, 800],
      highBg: [1800],
      carbRatio: [10, 12],
      sensitivity: [450],
      originBasal: 64,
      bolusRate: 1500,
      maxBolus: 1000,
      doubleBolus: true,
      effectiveTime: 240,
      maxBasalRate: 300,
      bolusIncrement: 5,
      quickBolusIncrement: 50,
      lowReserveThreshold: 20,
      tempBasalRate: 0,
    });
    const bare = pumpSettingsFromWire(
      pumpSettingSchema.parse({
        pid: 4,
        pdaSn: "EQ1",
        pdaVersion: "5.3.0",
        lowBg: [],
        highBg: [],
        defaultCho: [],
        sensitiveSilver: [],
        doubleBolus: false,
      }),
    );
    expect(bare).toEqual({
      pid: 4,
      pdaSn: "EQ1",
      pdaVersion: "5.3.0",
      lowBg: [],
      highBg: [],
      carbRatio: [],
      sensitivity: [],
      doubleBolus: false,
    });
  });
});
