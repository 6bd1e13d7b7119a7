import { describe, expect, it } from "vitest";
import { meterRecordSchema } from "~/schemas/upload";
import { meterRecordFromWire, meterRecordToWire } from "~/wire/upload";
import { parseMeterText } from "./meter-text";

const text = (t: string) => new TextEncoder().encode(t);

describe("parseMeterText", () => {
  it("reads one reading per line, with CR LF or LF, a serial line and other lines skipped", () => {
    const answer =
      "h\r\nGoChek memory\r\nSN:GC123456\r\n2026-07-01 08:15:00,123,0\r\n2026-07-01T12:30:05;98\n2026-07-02 07:00:00 65535\t255\r\nEND\r\n";
    expect(parseMeterText(text(answer))).toEqual({
      ok: true,
      value: {
        deviceSn: "GC123456",
        records: [
          { deviceTime: "2026-07-01 08:15:00", mgdl: 123, flags: 0 },
          { deviceTime: "2026-07-01 12:30:05", mgdl: 98, flags: 0 },
          { deviceTime: "2026-07-02 07:00:00", mgdl: 65535, flags: 255 },
        ],
      },
    });
  });

  it("answers no serial number when the meter sends none", () => {
    expect(parseMeterText(text("2026-07-01 08:15:00,123,1"))).toEqual({
      ok: true,
      value: {
        deviceSn: null,
        records: [{ deviceTime: "2026-07-01 08:15:00", mgdl: 123, flags: 1 }],
      },
    });
  });

  it("produces records the upload API accepts in its form, unchanged", () => {
    const record = { deviceTime: "2026-07-01 08:15:00", mgdl: 123, flags: 0 };
    expect(meterRecordFromWire(meterRecordSchema.parse(meterRecordToWire(record)))).toEqual(record);
  });

  it.each([
    ["nothing", ""],
    ["only blank lines", "\r\n\r\n  \n"],
    ["no reading", "h\r\nGoChek memory\r\nSN:GC1\r\n"],
  ])("refuses %s: not this meter", (_name, answer) => {
    expect(parseMeterText(text(answer))).toEqual({ ok: false, error: { kind: "sureSameDevice" } });
  });

  it.each([
    ["no value", "2026-07-01 08:15:00\n", 1],
    ["a value above 65535", "x\n2026-07-01 08:15:00,65536\n", 2],
    ["flags above 255", "2026-07-01 08:15:00,120,0\n2026-07-01 08:15:00,120,256\n", 2],
    ["a time without seconds", "2026-07-01 08:15,120\n", 1],
    ["a unit after the value", "2026-07-01 08:15:00,120 mg/dL\n", 1],
  ])("refuses a reading line with %s, naming the line", (_name, answer, line) => {
    expect(parseMeterText(text(answer))).toEqual({
      ok: false,
      error: { kind: "badMeterLine", detail: { line } },
    });
  });
});
