/**
 * Height and weight in the units a user chose: stored in centimetres and kilograms, shown and typed
 * in cm or feet and inches (`heightUnit` 0 or 1) and in kg or lb (`weightUnit` 0 or 1).
 * International yard and pound agreement (1959): 1 in = 2.54 cm exactly, 1 lb = 0.45359237 kg.
 */
export const CM_PER_INCH = 2.54;
export const KG_PER_POUND = 0.45359237;
const INCHES_PER_FOOT = 12;

export const HeightUnit = { Cm: 0, FtIn: 1 } as const;
export type HeightUnit = (typeof HeightUnit)[keyof typeof HeightUnit];
export const WeightUnit = { Kg: 0, Lb: 1 } as const;
export type WeightUnit = (typeof WeightUnit)[keyof typeof WeightUnit];

/** The units a user reads and types heights and weights in. */
export type BodyUnits = { height: HeightUnit; weight: WeightUnit };

/** The heights and weights a record accepts, the same as at registration. */
export const HEIGHT_BOUNDS_CM = { min: 40, max: 250 } as const;
export const WEIGHT_BOUNDS_KG = { min: 2, max: 400 } as const;

const tenth = (value: number) => Math.round(value * 10) / 10;
/** Stored to 0.01, so that a height or weight typed to 0.1 in either unit is shown back as typed. */
const hundredth = (value: number) => Math.round(value * 100) / 100;

/** Kilograms (to 0.01) of a weight typed in `unit`. */
export function weightToKg(value: number, unit: WeightUnit): number {
  return hundredth(unit === WeightUnit.Lb ? value * KG_PER_POUND : value);
}

/** A stored weight in `unit`, to 0.1. */
export function weightIn(kg: number, unit: WeightUnit): number {
  return tenth(unit === WeightUnit.Lb ? kg / KG_PER_POUND : kg);
}

/** Centimetres (to 0.01) of a height typed in cm. */
export function centimetres(value: number): number {
  return hundredth(value);
}

/** A stored height in cm, to 0.1. */
export function heightInCm(cm: number): number {
  return tenth(cm);
}

/** Centimetres (to 0.01) of feet and inches. */
export function feetInchesToCm(feet: number, inches: number): number {
  return hundredth((feet * INCHES_PER_FOOT + inches) * CM_PER_INCH);
}

/** A stored height as whole feet and inches to 0.1 (5 ft 9.3 in). */
export function cmToFeetInches(cm: number): { feet: number; inches: number } {
  const total = tenth(cm / CM_PER_INCH);
  const feet = Math.floor(total / INCHES_PER_FOOT);
  return { feet, inches: tenth(total - feet * INCHES_PER_FOOT) };
}
