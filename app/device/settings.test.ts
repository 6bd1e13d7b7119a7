import { describe, expect, it } from "vitest";
import { basalSaveSchema, pumpSettingSchema } from "~/schemas/upload";
import { parseBasalProgram, parsePumpSettings, parseSerialNumber, u16List } from "./settings";

const hex = (text: string) =>
  Uint8Array.from(text.replace(/\s+/g, "").match(/../g) ?? [], (h) => parseInt(h, 16));
const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

/** 48 slots holding 80, 81, ... 127 (1.0 U/h rising by 0.0125 U/h), each u16 LE: 50 00, 51 00, ... */
const RATES = Uint8Array.from({ length: 96 }, (_, i) => (i % 2 === 0 ? 0x50 + i / 2 : 0));
const RATE_VALUES = Array.from({ length: 48 }, (_, i) => 80 + i);

describe("u16List", () => {
  it.each([
    ["", []],
    ["01 00", [1]],
    ["FF FF 00 01 84 03", [65535, 256, 900]],
  ])("%s -> %j", (bytes, values) => {
    expect(u16List(hex(bytes))).toEqual(values);
  });

  it("refuses an odd length", () => {
    expect(u16List(hex("01 00 02"))).toBeNull();
  });
});

describe("parseBasalProgram", () => {
  it.each([
    ["a NUL-padded name", hex("44 61 79 00 00 00"), "Day"],
    ["a UTF-8 name", hex("C3 9C 62 65 72"), "Über"],
    ["a name of 32 characters", ascii("A".repeat(32)), "A".repeat(32)],
    ["a name in spaces", ascii("  Work  "), "Work"],
  ])("reads the rates and %s", (_name, nameBytes, name) => {
    expect(parseBasalProgram(2, concat(RATES, nameBytes))).toEqual({
      ok: true,
      value: { settingIndex: 2, valueArray: RATE_VALUES, name },
    });
  });

  it.each([
    ["no name bytes", hex("")],
    ["only NULs", hex("00 00 00 00")],
    ["a control character", hex("44 07 79")],
    ["33 characters", ascii("A".repeat(33))],
    ["bytes that are not UTF-8", hex("44 FF 79")],
    ["a bidirectional override", hex("E2 80 AE 41")],
  ])("leaves out a name with %s", (_name, nameBytes) => {
    expect(parseBasalProgram(0, concat(RATES, nameBytes))).toEqual({
      ok: true,
      value: { settingIndex: 0, valueArray: RATE_VALUES },
    });
  });

  it("reads the largest raw rate", () => {
    const rates = RATES.slice();
    rates.set([0xff, 0xff], 94);
    const result = parseBasalProgram(6, rates);
    expect(result.ok && result.value.valueArray[47]).toBe(65535);
  });

  it("produces presets the upload API accepts", () => {
    const preset = parseBasalProgram(1, concat(RATES, ascii("Day")));
    expect(preset.ok).toBe(true);
    if (preset.ok)
      expect(
        basalSaveSchema.safeParse({ list: [preset.value], pdaVersion: "5.2.0", pdaSn: "EQ0001" })
          .success,
      ).toBe(true);
  });

  it("refuses a reply shorter than 48 rates", () => {
    expect(parseBasalProgram(3, RATES.subarray(0, 95))).toEqual({
      ok: false,
      error: { kind: "badSetting", detail: { setting: "basal3" } },
    });
  });
});

describe("parsePumpSettings", () => {
  const device = { pdaSn: "EQ0001", pdaVersion: "5.2.0" };
  const lists = {
    lowBg: hex("84 03 84 03 20 03"), // 900, 900, 800: 90, 90, 80 mg/dL
    highBg: hex("DC 05"), // 1500: 150 mg/dL
    defaultCho: hex("0A 00 0C 00"), // 10, 12 g/U
    sensitiveSilver: hex("F4 01"), // 500: 50 mg/dL per U
  };

  it("reads the lists and the first value of one-number settings", () => {
    const replies = {
      ...lists,
      originBasal: hex("50 00 64 00"),
      doubleBolus: hex("01 00"),
      effectiveTime: hex("E0 01"),
      bolusRate: hex(""),
    };
    const expected = {
      pdaSn: "EQ0001",
      pdaVersion: "5.2.0",
      lowBg: [900, 900, 800],
      highBg: [1500],
      defaultCho: [10, 12],
      sensitiveSilver: [500],
      originBasal: 80,
      doubleBolus: 1,
      effectiveTime: 480,
    };
    const result = parsePumpSettings(replies, device);
    expect(result).toEqual({ ok: true, value: expected });
    expect(pumpSettingSchema.parse(expected)).toEqual(expected);
  });

  it("accepts lists of 49 values and empty lists", () => {
    const result = parsePumpSettings(
      { ...lists, lowBg: new Uint8Array(98), highBg: hex("") },
      device,
    );
    expect(result.ok && [result.value.lowBg.length, result.value.highBg.length]).toEqual([49, 0]);
  });

  it.each([
    ["an odd list", { lowBg: hex("84 03 84") }, "lowBg"],
    ["a list of 50 values", { highBg: new Uint8Array(100) }, "highBg"],
    ["doubleBolus 2", { doubleBolus: hex("02 00") }, "doubleBolus"],
    ["a one-byte value", { maxBolus: hex("05") }, "maxBolus"],
  ])("refuses %s", (_name, replies, setting) => {
    expect(parsePumpSettings({ ...lists, ...replies }, device)).toEqual({
      ok: false,
      error: { kind: "badSetting", detail: { setting } },
    });
  });
});

describe("parseSerialNumber", () => {
  it.each([
    ["45 51 30 30 30 31", "EQ0001"],
    ["45 51 30 30 30 31 00 00 FF", "EQ0001"],
    ["20 41 42 43 2D 31 32 5F 78 20", "ABC-12_x"],
  ])("%s -> %s", (bytes, serial) => {
    expect(parseSerialNumber(hex(bytes))).toEqual({ ok: true, value: serial });
  });

  it.each([
    ["empty", hex("")],
    ["NULs only", hex("00 00")],
    ["a space inside", ascii("AB CD")],
    ["33 characters", ascii("A".repeat(33))],
    ["a byte that is not ASCII", hex("41 E9 42")],
  ])("refuses %s", (_name, bytes) => {
    expect(parseSerialNumber(bytes)).toEqual({
      ok: false,
      error: { kind: "badSetting", detail: { setting: "serialNumber" } },
    });
  });
});
