import { mmolToMgdl } from "~/domain/glucose-unit";
import { CSV_RANGES, type GlucoseUnit } from "./types";

/**
 * Numbers and units of the vendor files. A number is digits with at most one decimal separator,
 * optionally signed ("106", "5.4", "-1"); the separator is a point, or also a comma where the file
 * is not comma-delimited (a `;` or tab file written with a decimal comma: "5,4"). No thousands
 * separators, no exponents, no spaces inside.
 */

const DECIMAL_POINT = /^[+-]?\d+(?:\.\d+)?$/;
const DECIMAL_POINT_OR_COMMA = /^[+-]?\d+(?:[.,]\d+)?$/;

/** A number as written: its value and how many decimal digits it had. */
export type Decimal = { value: number; decimals: number };

export function parseDecimal(text: string, decimalComma: boolean): Decimal | null {
  const t = text.trim();
  if (!(decimalComma ? DECIMAL_POINT_OR_COMMA : DECIMAL_POINT).test(t)) return null;
  const normal = t.replace(",", ".");
  const dot = normal.indexOf(".");
  return { value: Number(normal), decimals: dot < 0 ? 0 : normal.length - dot - 1 };
}

/**
 * mg/dL of a glucose value written in `unit`. mmol/L become mg/dL by a whole factor, and the
 * product of a number with d decimals and an integer has at most d decimals, so it is rounded to d
 * decimals, which removes the binary floating-point noise (7.8 mmol/L is 140.4 mg/dL, not 140.39999999999998).
 */
export function toMgdl(d: Decimal, unit: GlucoseUnit): number {
  if (unit === "mg/dL") return d.value;
  return Number(mmolToMgdl(d.value).toFixed(Math.min(d.decimals, 12)));
}

export const inGlucoseRange = (mgdl: number) =>
  mgdl >= CSV_RANGES.glucose.min && mgdl <= CSV_RANGES.glucose.max;
export const inCarbRange = (g: number) => g >= CSV_RANGES.carbs.min && g <= CSV_RANGES.carbs.max;
export const inInsulinRange = (u: number) =>
  u >= CSV_RANGES.insulin.min && u <= CSV_RANGES.insulin.max;

/**
 * The unit a header cell or unit cell names: "mmol/L" when it mentions mmol, "mg/dL" when it
 * mentions mg/dL (any case, with or without the slash), else null.
 */
export function unitIn(text: string): GlucoseUnit | null {
  if (/mmol/i.test(text)) return "mmol/L";
  if (/mg\s*\/?\s*dl/i.test(text)) return "mg/dL";
  return null;
}
