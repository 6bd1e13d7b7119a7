import type { StoredPumpSettings } from "./pump-report-model";

/**
 * The rows of the pump report's settings table: every stored setting of the newest settings
 * upload, in the handheld's order of topics (device, basal, bolus, reservoir, the half-hour
 * lists), each with the unit its number is shown in.
 */

export type PumpSettingKey =
  | "serialNumber"
  | "firmware"
  | "originBasal"
  | "maxBasalRate"
  | "tempBasalRate"
  | "bolusRate"
  | "maxBolus"
  | "bolusIncrement"
  | "quickBolusIncrement"
  | "doubleBolus"
  | "effectiveTime"
  | "lowReserveThreshold"
  | "lowBg"
  | "highBg"
  | "defaultCho"
  | "sensitivity";

/**
 * The unit a row's label names: insulin per hour, insulin units, percent, grams of carbohydrate
 * per unit, the reader's glucose unit, the reader's glucose unit per insulin unit; null: none.
 */
export type PumpSettingUnit = "U/h" | "U" | "%" | "g/U" | "glucose" | "glucose/U";

export type PumpSettingValue =
  | { readonly kind: "text"; readonly text: string | null }
  | { readonly kind: "number"; readonly value: number | null; readonly decimals: number }
  | { readonly kind: "onOff"; readonly on: boolean | null }
  | { readonly kind: "minutes"; readonly value: number | null }
  | { readonly kind: "numbers"; readonly values: readonly number[]; readonly decimals: number }
  /** mg/dL values, shown in the reader's unit. */
  | { readonly kind: "glucose"; readonly values: readonly number[] };

export interface PumpSettingRow {
  readonly key: PumpSettingKey;
  readonly unit: PumpSettingUnit | null;
  readonly value: PumpSettingValue;
}

const text = (t: string | null): PumpSettingValue => ({ kind: "text", text: t });
const num = (value: number | null, decimals: number): PumpSettingValue => ({
  kind: "number",
  value,
  decimals,
});

/** The settings table: one row per stored setting, empty settings included (shown as "—"). */
export function pumpSettingRows(s: StoredPumpSettings): PumpSettingRow[] {
  return [
    { key: "serialNumber", unit: null, value: text(s.pdaSn) },
    { key: "firmware", unit: null, value: text(s.pdaVersion) },
    { key: "originBasal", unit: "U/h", value: num(s.originBasal, 3) },
    { key: "maxBasalRate", unit: "U/h", value: num(s.maxBasalRate, 3) },
    { key: "tempBasalRate", unit: "%", value: num(s.tempBasalRate, 0) },
    { key: "bolusRate", unit: null, value: num(s.bolusRate, 2) },
    { key: "maxBolus", unit: "U", value: num(s.maxBolus, 2) },
    { key: "bolusIncrement", unit: "U", value: num(s.bolusIncrement, 2) },
    { key: "quickBolusIncrement", unit: "U", value: num(s.quickBolusIncrement, 2) },
    { key: "doubleBolus", unit: null, value: { kind: "onOff", on: s.doubleBolus } },
    { key: "effectiveTime", unit: null, value: { kind: "minutes", value: s.effectiveTime } },
    { key: "lowReserveThreshold", unit: "U", value: num(s.lowReserveThreshold, 0) },
    { key: "lowBg", unit: "glucose", value: { kind: "glucose", values: s.lowBg } },
    { key: "highBg", unit: "glucose", value: { kind: "glucose", values: s.highBg } },
    {
      key: "defaultCho",
      unit: "g/U",
      value: { kind: "numbers", values: s.carbRatio, decimals: 1 },
    },
    { key: "sensitivity", unit: "glucose/U", value: { kind: "glucose", values: s.sensitivity } },
  ];
}
