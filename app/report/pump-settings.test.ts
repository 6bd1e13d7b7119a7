import { describe, expect, it } from "vitest";
import type { StoredPumpSettings } from "./pump-report-model";
import { pumpSettingRows } from "./pump-settings";

const stored: StoredPumpSettings = {
  pdaSn: "EQ12345678",
  pdaVersion: "5.3.1",
  lowBg: [80, 90],
  highBg: [140, 160],
  carbRatio: [10, 12.5],
  sensitivity: [40],
  originBasal: 0.8,
  bolusRate: 1.5,
  maxBolus: 15,
  doubleBolus: true,
  effectiveTime: 240,
  maxBasalRate: 3,
  bolusIncrement: 0.05,
  quickBolusIncrement: 0.5,
  lowReserveThreshold: 20,
  tempBasalRate: 150,
};

describe("pumpSettingRows", () => {
  it("one row per stored setting, in order, each with its unit and value", () => {
    expect(pumpSettingRows(stored)).toEqual([
      { key: "serialNumber", unit: null, value: { kind: "text", text: "EQ12345678" } },
      { key: "firmware", unit: null, value: { kind: "text", text: "5.3.1" } },
      { key: "originBasal", unit: "U/h", value: { kind: "number", value: 0.8, decimals: 3 } },
      { key: "maxBasalRate", unit: "U/h", value: { kind: "number", value: 3, decimals: 3 } },
      { key: "tempBasalRate", unit: "%", value: { kind: "number", value: 150, decimals: 0 } },
      { key: "bolusRate", unit: null, value: { kind: "number", value: 1.5, decimals: 2 } },
      { key: "maxBolus", unit: "U", value: { kind: "number", value: 15, decimals: 2 } },
      { key: "bolusIncrement", unit: "U", value: { kind: "number", value: 0.05, decimals: 2 } },
      {
        key: "quickBolusIncrement",
        unit: "U",
        value: { kind: "number", value: 0.5, decimals: 2 },
      },
      { key: "doubleBolus", unit: null, value: { kind: "onOff", on: true } },
      { key: "effectiveTime", unit: null, value: { kind: "minutes", value: 240 } },
      {
        key: "lowReserveThreshold",
        unit: "U",
        value: { kind: "number", value: 20, decimals: 0 },
      },
      { key: "lowBg", unit: "glucose", value: { kind: "glucose", values: [80, 90] } },
      { key: "highBg", unit: "glucose", value: { kind: "glucose", values: [140, 160] } },
      {
        key: "defaultCho",
        unit: "g/U",
        value: { kind: "numbers", values: [10, 12.5], decimals: 1 },
      },
      { key: "sensitivity", unit: "glucose/U", value: { kind: "glucose", values: [40] } },
    ]);
  });

  it("settings the upload left out stay rows, with no value", () => {
    const rows = pumpSettingRows({
      ...stored,
      pdaVersion: null,
      lowBg: [],
      doubleBolus: null,
      effectiveTime: null,
      maxBasalRate: null,
      bolusIncrement: null,
      quickBolusIncrement: null,
      lowReserveThreshold: null,
      tempBasalRate: null,
    });
    expect(rows).toHaveLength(16);
    const value = (key: string) => rows.find((r) => r.key === key)?.value;
    expect(value("firmware")).toEqual({ kind: "text", text: null });
    expect(value("lowBg")).toEqual({ kind: "glucose", values: [] });
    expect(value("doubleBolus")).toEqual({ kind: "onOff", on: null });
    expect(value("effectiveTime")).toEqual({ kind: "minutes", value: null });
    for (const key of [
      "maxBasalRate",
      "bolusIncrement",
      "quickBolusIncrement",
      "lowReserveThreshold",
      "tempBasalRate",
    ]) {
      expect(value(key)).toMatchObject({ kind: "number", value: null });
    }
    expect(value("serialNumber")).toEqual({ kind: "text", text: "EQ12345678" });
  });
});
