/**
 * The institution dashboard's figures: how the patients who share their data with a clinic divide
 * by gender, by age band and by type of diabetes. Pure: the caller reads one row per patient and
 * the list of diabetes types; counts come back in a fixed order (every category, zeros included),
 * so that a chart, its table and the API list the same categories in the same order.
 */
import type { IsoDate } from "./day";

/** What the dashboard knows of one patient (the account's gender and birth date, the record's diabetes type). */
export interface DashboardPatient {
  /** The account's gender (`male`, `female`, `other`, `unknown`), or null when not given. */
  readonly gender: string | null;
  /** The birth date, or null when not given. */
  readonly birthDate: IsoDate | null;
  /** The code of the record's type of diabetes (an option of type 0), or null when not given. */
  readonly diabetesType: string | null;
}

/** One category and how many patients fall in it. */
export interface CategoryCount {
  readonly key: string;
  readonly count: number;
}

/** The genders in the order they are shown; a patient with none given counts as `unknown`. */
export const GENDER_KEYS = ["female", "male", "other", "unknown"] as const;

/**
 * Age bands in whole years, both ends counted (`max` null: no upper end): children and
 * adolescents, then adults in bands of about fifteen years, then the oldest.
 */
export const AGE_BANDS = [
  { key: "0-17", min: 0, max: 17 },
  { key: "18-29", min: 18, max: 29 },
  { key: "30-44", min: 30, max: 44 },
  { key: "45-59", min: 45, max: 59 },
  { key: "60-74", min: 60, max: 74 },
  { key: "75+", min: 75, max: null },
] as const;

/** The category of a patient whose birth date (or diabetes type) is not given. */
export const UNKNOWN_KEY = "unknown";
/** The category of a patient whose record names no type of diabetes. */
export const NO_TYPE_KEY = "none";

/**
 * Age in whole years on `today`: the birthdays passed. A birthday on 29 February is passed on 1
 * March in a common year. null for a birth date after today.
 */
export function ageOn(birthDate: IsoDate, today: IsoDate): number | null {
  const [by, bm, bd] = birthDate.split("-").map(Number) as [number, number, number];
  const [ty, tm, td] = today.split("-").map(Number) as [number, number, number];
  const birthdayPassed = tm > bm || (tm === bm && td >= bd);
  const age = ty - by - (birthdayPassed ? 0 : 1);
  return age < 0 ? null : age;
}

/** The age band of an age in whole years, or `unknown` without one. */
export function ageBandOf(age: number | null): string {
  if (age === null) return UNKNOWN_KEY;
  const band = AGE_BANDS.find((b) => age >= b.min && (b.max === null || age <= b.max));
  return band ? band.key : UNKNOWN_KEY;
}

function countInto(keys: readonly string[], values: readonly string[]): CategoryCount[] {
  const counts = new Map(keys.map((k) => [k, 0]));
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([key, count]) => ({ key, count }));
}

/** Patients by gender, in {@link GENDER_KEYS} order; a gender outside that list counts as `unknown`. */
export function genderCounts(patients: readonly DashboardPatient[]): CategoryCount[] {
  const known = new Set<string>(GENDER_KEYS);
  return countInto(
    GENDER_KEYS,
    patients.map((p) => (p.gender !== null && known.has(p.gender) ? p.gender : UNKNOWN_KEY)),
  );
}

/** Patients by age band on `today`, the bands in order, then `unknown` (no or a future birth date). */
export function ageCounts(patients: readonly DashboardPatient[], today: IsoDate): CategoryCount[] {
  return countInto(
    [...AGE_BANDS.map((b) => b.key), UNKNOWN_KEY],
    patients.map((p) => ageBandOf(p.birthDate === null ? null : ageOn(p.birthDate, today))),
  );
}

/**
 * Patients by type of diabetes: one category per type in `types` (the option codes in their
 * order), then `none` for a record that names no type (or a type not in the list).
 */
export function diabetesCounts(
  patients: readonly DashboardPatient[],
  types: readonly string[],
): CategoryCount[] {
  const known = new Set(types);
  return countInto(
    [...types, NO_TYPE_KEY],
    patients.map((p) =>
      p.diabetesType !== null && known.has(p.diabetesType) ? p.diabetesType : NO_TYPE_KEY,
    ),
  );
}

/** The three counts of the dashboard. */
export interface DashboardCounts {
  readonly total: number;
  readonly sex: readonly CategoryCount[];
  readonly age: readonly CategoryCount[];
  readonly ill: readonly CategoryCount[];
}

export function dashboardCounts(
  patients: readonly DashboardPatient[],
  types: readonly string[],
  today: IsoDate,
): DashboardCounts {
  return {
    total: patients.length,
    sex: genderCounts(patients),
    age: ageCounts(patients, today),
    ill: diabetesCounts(patients, types),
  };
}
