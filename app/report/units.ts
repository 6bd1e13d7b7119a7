/**
 * Glucose display and classification.
 *
 * Glucose is stored and computed in mg/dL and converted to the user's unit only for display
 * (app/domain/glucose-unit.ts). mmol/L is shown with one decimal, mg/dL as an integer, with the
 * locale's decimal separator (Intl.NumberFormat).
 *
 * Classification always uses the unrounded mg/dL value (classify before rounding): 69.9 mg/dL
 * displays as "3.9" mmol/L yet is low against a 70 mg/dL limit.
 *
 * Unit labels are not translated here: {@link unitCode} gives a code; the label is the
 * translation `common:units.<unit>`.
 */
import { GlucoseUnit, toUnit } from "../domain/glucose-unit";
import { assertLimits, VERY_LOW_MGDL, type GlucoseLimits } from "../metrics/alarm";

/** Symbol-like code of a unit (not a translated label). */
export type UnitCode = "mmol/L" | "mg/dL";

/**
 * Level 2 hyperglycaemia threshold, mg/dL (> 250 mg/dL = 13.9 mmol/L; Battelino T, et al.
 * Diabetes Care 2019;42:1593-1603, doi:10.2337/dci19-0028).
 */
export const VERY_HIGH_MGDL = 250;
export { VERY_LOW_MGDL };

export function unitCode(unit: GlucoseUnit): UnitCode {
  return unit === GlucoseUnit.Mgdl ? "mg/dL" : "mmol/L";
}

/** Decimals shown for a unit: 1 for mmol/L, 0 for mg/dL. */
export function unitDecimals(unit: GlucoseUnit): number {
  return unit === GlucoseUnit.Mgdl ? 0 : 1;
}

/**
 * Rounds half away from zero to `decimals`, after removing binary noise at 12 significant
 * digits, so that decimal halves round as written: 71.1 mg/dL / 18 = 3.95 (3.9499999999999997 in
 * binary) becomes 4.0, as on paper.
 */
export function roundHalfUp(x: number, decimals: number): number {
  if (!Number.isFinite(x)) return x;
  const f = 10 ** decimals;
  const scaled = Number((Math.abs(x) * f).toPrecision(12));
  return (Math.sign(x) * Math.round(scaled)) / f || 0;
}

/** The number shown for a glucose value: mmol/L to 0.1, mg/dL to 1. */
export function displayGlucose(mgdl: number, unit: GlucoseUnit): number {
  return roundHalfUp(toUnit(mgdl, unit), unitDecimals(unit));
}

const formatters = new Map<string, Intl.NumberFormat>();

/** A cached Intl.NumberFormat with fixed decimals; an unknown locale falls back to "en". */
export function numberFormat(locale: string, decimals: number): Intl.NumberFormat {
  const key = `${locale}|${decimals}`;
  let f = formatters.get(key);
  if (!f) {
    const options: Intl.NumberFormatOptions = {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      useGrouping: false,
    };
    try {
      f = new Intl.NumberFormat(locale, options);
    } catch {
      f = new Intl.NumberFormat("en", options);
    }
    formatters.set(key, f);
  }
  return f;
}

/** Text shown for a missing or non-finite value. */
export const NO_VALUE_TEXT = "—";

/**
 * A glucose value (mg/dL) as text in the display unit and locale: "5.5" (en, mmol/L),
 * "5,5" (pl, mmol/L), "99" (mg/dL). Non-finite or null values give "—".
 */
export function formatGlucose(
  mgdl: number | null | undefined,
  unit: GlucoseUnit,
  locale: string,
): string {
  if (mgdl === null || mgdl === undefined || !Number.isFinite(mgdl)) return NO_VALUE_TEXT;
  return numberFormat(locale, unitDecimals(unit)).format(displayGlucose(mgdl, unit));
}

/** Any number with fixed decimals in the locale (insulin units, grams, percentages). */
export function formatNumber(
  value: number | null | undefined,
  decimals: number,
  locale: string,
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_VALUE_TEXT;
  return numberFormat(locale, decimals).format(roundHalfUp(value, decimals));
}

const quantityFormats = new Map<string, Intl.NumberFormat>();

/**
 * A count or amount as the language writes it in running text: its decimal separator and its
 * grouping of thousands ("2,016" in English, "2 016" in Russian, "2.016" in Romanian; Polish and
 * Italian group from five digits: "2016", "12 016"), at most three decimals, none added. The
 * grouping space is a no-break one, so that a number never breaks across lines.
 */
export function formatQuantity(value: number, locale: string): string {
  let f = quantityFormats.get(locale);
  if (!f) {
    try {
      f = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
    } catch {
      f = new Intl.NumberFormat("en", { maximumFractionDigits: 3 });
    }
    quantityFormats.set(locale, f);
  }
  return f.format(value);
}

/** Glucose class of one reading against the patient's range. */
export type GlucoseClass = "veryLow" | "low" | "inRange" | "high" | "veryHigh";

/**
 * Class of an unrounded mg/dL value:
 *   g < 54              veryLow  (level 2 hypoglycaemia, Battelino 2019)
 *   g < limits.low      low
 *   g > 250             veryHigh (level 2 hyperglycaemia, Battelino 2019)
 *   g > limits.high     high
 *   otherwise           inRange  (both limits are in range, as in app/metrics alarm.ts)
 * The fixed 54 / 250 bands apply whatever the patient's limits (a limit below 54 or above 250
 * does not hide level 2 values), like the very-low rule of app/metrics/alarm.ts.
 * Limits are mg/dL with low < high (RangeError otherwise).
 */
export function classify(mgdl: number, limits: GlucoseLimits): GlucoseClass {
  assertLimits(limits);
  if (mgdl < VERY_LOW_MGDL) return "veryLow";
  if (mgdl < limits.low) return "low";
  if (mgdl > VERY_HIGH_MGDL) return "veryHigh";
  if (mgdl > limits.high) return "high";
  return "inRange";
}

/** True for the classes below the patient's range. */
export function isBelowRange(c: GlucoseClass): boolean {
  return c === "veryLow" || c === "low";
}

/** True for the classes above the patient's range. */
export function isAboveRange(c: GlucoseClass): boolean {
  return c === "high" || c === "veryHigh";
}

/** Everything a cell needs to show one glucose value. */
export interface GlucoseDisplay {
  readonly mgdl: number;
  /** Rounded number in the display unit. */
  readonly value: number;
  /** Localised text of `value`. */
  readonly text: string;
  readonly unit: GlucoseUnit;
  readonly unitCode: UnitCode;
  readonly class: GlucoseClass;
}

export function glucoseDisplay(
  mgdl: number,
  unit: GlucoseUnit,
  locale: string,
  limits: GlucoseLimits,
): GlucoseDisplay {
  return {
    mgdl,
    value: displayGlucose(mgdl, unit),
    text: formatGlucose(mgdl, unit, locale),
    unit,
    unitCode: unitCode(unit),
    class: classify(mgdl, limits),
  };
}
