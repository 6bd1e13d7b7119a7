/**
 * Glucose units. Glucose is stored and computed in mg/dL; 1 mmol/L is 18 mg/dL, and mmol/L is
 * only a conversion: for display, and for values typed or imported in mmol/L. Every conversion
 * between the two goes through this module. Pure: imported by browser and server code alike.
 */

/** mg/dL per mmol/L. */
export const MGDL_PER_MMOL = 18;

/** mg/dL as mmol/L, unrounded. */
export function mgdlToMmol(mgdl: number): number {
  return mgdl / MGDL_PER_MMOL;
}

/** mmol/L as mg/dL, unrounded. */
export function mmolToMgdl(mmol: number): number {
  return mmol * MGDL_PER_MMOL;
}

/** A user's glucose unit setting (`Setting.unit`): mmol/L unless they chose mg/dL. */
export const GlucoseUnit = { Mmol: 0, Mgdl: 1 } as const;
export type GlucoseUnit = (typeof GlucoseUnit)[keyof typeof GlucoseUnit];

/** The unit setting of any stored or sent value: 1 (or "1") means mg/dL, anything else mmol/L. */
export function toGlucoseUnit(value: unknown): GlucoseUnit {
  return value === GlucoseUnit.Mgdl || value === String(GlucoseUnit.Mgdl)
    ? GlucoseUnit.Mgdl
    : GlucoseUnit.Mmol;
}

/** mg/dL in the display unit, unrounded (chart coordinates; round only for text). */
export function toUnit(mgdl: number, unit: GlucoseUnit): number {
  return unit === GlucoseUnit.Mgdl ? mgdl : mgdlToMmol(mgdl);
}

/** A value in the display unit as mg/dL, unrounded (a limit typed in mmol/L). */
export function fromUnit(value: number, unit: GlucoseUnit): number {
  return unit === GlucoseUnit.Mgdl ? value : mmolToMgdl(value);
}
