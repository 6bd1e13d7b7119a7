import { describe, expect, it } from "vitest";
import { cgmRecordSchema, pumpRecordSchema } from "~/schemas/upload";
import {
  cgmRecordFromWire,
  cgmRecordToWire,
  pumpRecordFromWire,
  pumpRecordToWire,
} from "~/wire/upload";
import {
  CGM_HISTORY_LAYOUT,
  MANUAL_BLOOD_LAYOUT,
  parseCgmHistory,
  parseManualBlood,
  parsePumpHistory,
  PUMP_HISTORY_LAYOUT,
  type RecordLayout,
} from "./records";

const hex = (text: string) =>
  Uint8Array.from(text.replace(/\s+/g, "").match(/../g) ?? [], (h) => parseInt(h, 16));
const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

/** Pump record: id 12345, serial "EQ0001", 2026-07-01 08:05:09, a basal record (4/0/0). */
const PUMP_A = hex(`
  39 30 00 00
  45 51 30 30 30 31
  1A 07 01 08 05 09
  50 96
  A0 00
  10 27
  07 00
  04 00 00 00`);
const PUMP_A_RECORD = {
  recordId: 12345,
  deviceTime: "2026-07-01 08:05:09",
  battery: 80,
  reservoir: 150,
  basalRateRaw: 160,
  bolusRateRaw: 10000,
  eventIndex: 7,
  eventPort: 4,
  eventType: 0,
  eventUrgency: 0,
  eventValue: 0,
};

/** Pump record at the edges: the largest id the server takes, the last second of 2099, u16 maxima. */
const PUMP_B = hex(`
  FF FF FF 7F
  00 00 00 00 00 00
  63 0C 1F 17 3B 3B
  FF 00
  FF FF
  00 01
  34 12
  03 01 02 FE`);
const PUMP_B_RECORD = {
  recordId: 2147483647,
  deviceTime: "2099-12-31 23:59:59",
  battery: 255,
  reservoir: 0,
  basalRateRaw: 65535,
  bolusRateRaw: 256,
  eventIndex: 4660,
  eventPort: 3,
  eventType: 1,
  eventUrgency: 2,
  eventValue: 254,
};

/** CGM record: number 513, 2026-03-29 02:30:00, sensor 5, history id 10000, type 7, raw 60 (108 mg/dL). */
const CGM_A = hex(`
  01 02 00 00
  1A 03 1D 02 1E 00
  05 00
  10 27 00 00
  07
  00
  3C 00
  AA BB`);
const CGM_A_RECORD = {
  eventIndex: 513,
  deviceTime: "2026-03-29 02:30:00",
  sensorIndex: 5,
  historyId: 10000,
  eventType: 7,
  dataOrigin: 0,
  rawGlucose: 60,
};

/** Manual blood record: number 42, 2026-11-05 19:45:07, raw 78 (140.4 mg/dL). */
const MANUAL_A = hex(`
  2A 00 00 00
  1A 0B 05 13 2D 07
  4E 00`);
const MANUAL_A_RECORD = {
  eventIndex: 42,
  deviceTime: "2026-11-05 19:45:07",
  rawGlucose: 78,
  eventType: 0,
  dataOrigin: 3,
};

describe("record layouts", () => {
  const widthOf = (width: 1 | 2 | 4 | "clock") => (width === "clock" ? 6 : width);
  it.each([
    ["pump history", PUMP_HISTORY_LAYOUT, 28],
    ["CGM history", CGM_HISTORY_LAYOUT, 22],
    ["manual blood", MANUAL_BLOOD_LAYOUT, 12],
  ] as [string, RecordLayout<unknown>, number][])(
    "%s: fields inside %i bytes, none overlapping",
    (_name, layout, size) => {
      expect(layout.size).toBe(size);
      const used = new Array<number>(size).fill(0);
      for (const f of layout.fields)
        for (let i = f.offset; i < f.offset + widthOf(f.width); i++) used[i]!++;
      expect(used.length).toBe(size);
      expect(Math.max(...used)).toBe(1);
    },
  );
});

describe("parsePumpHistory", () => {
  it("reads 28-byte records field by field", () => {
    expect(parsePumpHistory(concat(PUMP_A, PUMP_B))).toEqual({
      ok: true,
      value: [PUMP_A_RECORD, PUMP_B_RECORD],
    });
  });

  it("produces records the upload API accepts in its form, unchanged", () => {
    for (const record of [PUMP_A_RECORD, PUMP_B_RECORD])
      expect(pumpRecordFromWire(pumpRecordSchema.parse(pumpRecordToWire(record)))).toEqual(record);
  });

  it("reads records from a view into a larger buffer", () => {
    const buffer = concat(hex("EE EE EE"), PUMP_A);
    expect(parsePumpHistory(buffer.subarray(3))).toEqual({ ok: true, value: [PUMP_A_RECORD] });
  });

  it("answers no records for an empty log", () => {
    expect(parsePumpHistory(new Uint8Array(0))).toEqual({ ok: true, value: [] });
  });

  it.each([27, 29, 55, 22, 12])("refuses %i bytes (not a multiple of 28)", (length) => {
    expect(parsePumpHistory(new Uint8Array(length))).toEqual({
      ok: false,
      error: { kind: "recordSize", detail: { size: 28, length } },
    });
  });
});

describe("parseCgmHistory", () => {
  it("reads 22-byte records field by field; bytes 20-21 are not read", () => {
    const other = CGM_A.slice();
    other.set([0, 0], 20);
    expect(parseCgmHistory(concat(CGM_A, other))).toEqual({
      ok: true,
      value: [CGM_A_RECORD, CGM_A_RECORD],
    });
  });

  it("produces records the upload API accepts in its form, unchanged", () => {
    expect(cgmRecordFromWire(cgmRecordSchema.parse(cgmRecordToWire(CGM_A_RECORD)))).toEqual(
      CGM_A_RECORD,
    );
  });

  it.each([21, 23, 28, 12])("refuses %i bytes (not a multiple of 22)", (length) => {
    expect(parseCgmHistory(new Uint8Array(length))).toEqual({
      ok: false,
      error: { kind: "recordSize", detail: { size: 22, length } },
    });
  });
});

describe("parseManualBlood", () => {
  it("reads 12-byte records as CGM records of origin 3", () => {
    expect(parseManualBlood(concat(MANUAL_A, MANUAL_A))).toEqual({
      ok: true,
      value: [MANUAL_A_RECORD, MANUAL_A_RECORD],
    });
    expect(cgmRecordFromWire(cgmRecordSchema.parse(cgmRecordToWire(MANUAL_A_RECORD)))).toEqual(
      MANUAL_A_RECORD,
    );
  });

  it.each([28, 22, 13, 11])("refuses %i bytes: an Equil pump handheld answered", (length) => {
    expect(parseManualBlood(new Uint8Array(length))).toEqual({
      ok: false,
      error: { kind: "notManualBloodRecords", detail: { length } },
    });
  });
});
