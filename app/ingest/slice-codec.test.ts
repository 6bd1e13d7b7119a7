import { describe, expect, it } from "vitest";
import type { CgmRecordInput, MeterRecordInput, PumpRecordInput } from "./records";
import { decodeSlice, encodeSlice } from "./slice-codec";

const pump: PumpRecordInput = {
  recordId: 70_001,
  eventIndex: 12,
  eventPort: 3,
  eventType: 1,
  eventUrgency: 0,
  eventValue: 2,
  battery: 80,
  reservoir: 120,
  basalRateRaw: 160,
  bolusRateRaw: 50,
  deviceTime: "2026-03-29 02:30:00",
  pdaSn: "P-1",
  pid: 7,
  recordTimeZone: "Europe/Warsaw",
  pdaRecordTimeZone: "GMT+01:00",
};

describe("the stored form of a slice", () => {
  it("writes each record as its values in a fixed order, an absent field as null", () => {
    const { pdaSn: _, pid: __, ...withoutOptional } = pump;
    expect(encodeSlice("equil", [pump, withoutOptional])).toBe(
      '[[70001,12,3,1,0,2,80,120,160,50,"2026-03-29 02:30:00","P-1",7,"Europe/Warsaw","GMT+01:00"],' +
        '[70001,12,3,1,0,2,80,120,160,50,"2026-03-29 02:30:00",null,null,"Europe/Warsaw","GMT+01:00"]]',
    );
  });

  it("reads back every field of every device kind, leaving absent fields out", () => {
    const cgm: CgmRecordInput = {
      eventIndex: 9,
      historyId: 4,
      sensorIndex: 1,
      eventType: 7,
      rawGlucose: 61,
      deviceTime: "2026-06-01 00:05:00",
      deviceSn: "C-1",
      dataOrigin: 3,
    };
    const meter: MeterRecordInput = { deviceTime: "2026-06-01 07:00:00", mgdl: 104, flags: 0 };
    expect(decodeSlice("equil", encodeSlice("equil", [pump]))).toEqual([pump]);
    expect(decodeSlice("aidex", encodeSlice("aidex", [cgm]))).toEqual([cgm]);
    const [read] = decodeSlice("gocheck", encodeSlice("gocheck", [meter]));
    expect(read).toEqual(meter);
    expect(Object.keys(read!)).not.toContain("deviceSn");
  });

  it("is the same text for the same records, so a repeated slice can be compared as text", () => {
    const reordered = Object.fromEntries(Object.entries(pump).reverse()) as PumpRecordInput;
    expect(encodeSlice("equil", [reordered])).toBe(encodeSlice("equil", [pump]));
  });
});
