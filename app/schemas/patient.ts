import { z } from "zod";
import {
  centimetres,
  feetInchesToCm,
  HEIGHT_BOUNDS_CM,
  HeightUnit,
  WEIGHT_BOUNDS_KG,
  weightToKg,
  WeightUnit,
} from "~/domain/body-measures";
import { fromUnit, GlucoseUnit, mgdlToMmol, toGlucoseUnit } from "~/domain/glucose-unit";
import { isTimeZone } from "~/utils/time-zones";
import { CGM_GOAL_SETS } from "~/domain/cgm-goal-set";
import { blankToUndefined, idNumber, INT4_MAX, numberInput, numberOf, safeText } from "./fields";

/**
 * The patient health record (profile, target range, diseases, time zone, meal times): one schema
 * for the `/patient` and `/patientAdd` forms (conform, in the browser and in the actions) and for
 * `POST /api/patient/save`. Messages are keys of the `record` namespace
 * (`locales/{lng}/record.json`), translated on display.
 *
 * Glucose limits are typed in the user's unit (0 mmol/L, 1 mg/dL) and stored in mg/dL as whole
 * numbers, so that a value shown in mmol/L with one decimal and saved again does not drift.
 */

export const GENDERS = ["male", "female", "other", "unknown"] as const;
export const PRONOUNS = ["he", "she", "they", "other"] as const;
export type Gender = (typeof GENDERS)[number];
export type Pronoun = (typeof PRONOUNS)[number];
/** Plausible target-range limits in mg/dL (2.2-22.2 mmol/L). */
export const GLUCOSE_BOUNDS_MGDL = { min: 40, max: 400 } as const;
export const NAME_MAX = 60;
/** The meals of the meal-time settings, each a window [start, end) after local midnight. */
export const MEALS = ["breakfast", "lunch", "supper"] as const;
export type Meal = (typeof MEALS)[number];
export const MEAL_FIELDS = MEALS.flatMap((m) => [`${m}Start`, `${m}End`] as const);
export type MealField = `${Meal}Start` | `${Meal}End`;

// ---- conversions (pure, used by the forms, the model and the API) --------------------------

/** mg/dL as stored: the typed limit converted and rounded to a whole mg/dL. */
export function limitToMgdl(value: number, unit: number): number {
  return Math.round(fromUnit(value, toGlucoseUnit(unit)));
}

/** A stored mg/dL limit in the user's unit: mmol/L with one decimal, mg/dL whole. */
export function limitFromMgdl(mgdl: number, unit: number): number {
  return unit === GlucoseUnit.Mgdl ? Math.round(mgdl) : Math.round(mgdlToMmol(mgdl) * 10) / 10;
}

/** "HH:mm" or "HH:mm:ss" as seconds after midnight; null for anything else. */
export function timeToSeconds(text: string): number | null {
  const match = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!match) return null;
  const [h, m, s] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  if (h > 23 || m > 59 || s > 59) return null;
  return h * 3600 + m * 60 + s;
}

/** Seconds after midnight as "HH:mm" (forms) or "HH:mm:ss" (the API). */
export function secondsToTime(seconds: number, withSeconds = false): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const hm = `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}`;
  return withSeconds ? `${hm}:${pad(seconds % 60)}` : hm;
}

/** "YYYY-MM-DD" or the API's "YYYY/MM/DD" (month and day may have one digit) as "YYYY-MM-DD"; null if not a real date. */
export function normaliseDate(text: string): string | null {
  const match = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(text.trim());
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return null;
  return date.toISOString().slice(0, 10);
}

/** A stored date as the API's "YYYY/MM/DD". */
export function apiDate(date: Date | null): string | null {
  return date ? date.toISOString().slice(0, 10).replace(/-/g, "/") : null;
}

/**
 * The latest calendar date that is "today" somewhere (UTC+14): a birth date after it is in the
 * future for everyone, and nobody is refused their own today.
 */
export function latestToday(now = new Date()): string {
  return new Date(now.getTime() + 14 * 3600_000).toISOString().slice(0, 10);
}

/**
 * Option ids from the API's comma-joined text ("3,5"), a JSON list, or repeated form fields
 * (checkboxes); blanks are dropped, duplicates removed. null when an item is not a positive id.
 */
export function parseIdList(value: unknown): number[] | null {
  const items = (Array.isArray(value) ? value : [value]).flatMap((item) =>
    typeof item === "string" ? item.split(",") : [item],
  );
  const ids: number[] = [];
  for (const item of items) {
    if (item === undefined || item === null || (typeof item === "string" && item.trim() === ""))
      continue;
    const id =
      typeof item === "number"
        ? item
        : typeof item === "string" && /^\s*\d+\s*$/.test(item)
          ? Number(item)
          : NaN;
    if (!Number.isSafeInteger(id) || id <= 0 || id > INT4_MAX) return null;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

// ---- fields --------------------------------------------------------------------------------

const required = (key: string) => ({ required_error: key, invalid_type_error: key });

const idListField = z.preprocess(
  (value) => value ?? [],
  z.unknown().transform((value, ctx) => {
    const ids = parseIdList(value);
    if (ids === null) {
      ctx.addIssue({ code: "custom", message: "errors.optionInvalid" });
      return z.NEVER;
    }
    return ids;
  }),
);

const limitField = z.preprocess(numberInput, numberOf("errors.glucoseRangeInvalid").optional());

/** A measure that may be left out: a number from 0 up, in the unit the form names. */
const measureField = (message: string) =>
  z.preprocess(numberInput, numberOf(message).min(0, message).optional());

/** The unit a form's height or weight is typed in: 0 (cm, kg) unless 1 (ft/in, lb). */
const bodyUnitField = z.preprocess(
  numberInput,
  numberOf("errors.unitInvalid")
    .int("errors.unitInvalid")
    .min(0, "errors.unitInvalid")
    .max(1, "errors.unitInvalid")
    .default(0),
);

const nameField = z.preprocess(
  blankToUndefined,
  safeText({ invalid_type_error: "errors.nameInvalid" })
    .max(NAME_MAX, "errors.nameTooLong")
    .optional(),
);

const timeField = z.preprocess(
  blankToUndefined,
  z
    .string({ invalid_type_error: "errors.mealTimeInvalid" })
    .refine((v) => timeToSeconds(v) !== null, "errors.mealTimeInvalid")
    .transform((v) => timeToSeconds(v)!)
    .optional(),
);

export const emailField = z.preprocess(
  (value) => (typeof value === "string" ? value.trim() : value),
  z
    .string(required("errors.emailMsg"))
    .min(1, "errors.emailMsg")
    .pipe(z.string().max(254, "errors.emailInvalid").email("errors.emailInvalid"))
    .transform((v) => v.toLowerCase()),
);

/**
 * A field whose failure does not stop the object: its issues are reported and its value becomes
 * undefined, so that the range and meal-time checks still run and a form shows every message at
 * once (zod skips object refinements after a field's type error).
 */
function soft<T extends z.ZodTypeAny>(schema: T) {
  return z.unknown().transform((value, ctx): z.output<T> | undefined => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues)
      ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    return undefined;
  });
}

/** A required field: soft, and typed as present (the parse fails when it is missing). */
const hard = <T extends z.ZodTypeAny>(schema: T) =>
  soft(schema) as unknown as z.ZodType<z.output<T>, z.ZodTypeDef, unknown>;

/** The glucose target range in the unit the form names (`unit` 0 mmol/L, 1 mg/dL). */
const rangeFields = {
  unit: hard(
    z.preprocess(
      numberInput,
      numberOf("errors.unitInvalid")
        .int("errors.unitInvalid")
        .min(0, "errors.unitInvalid")
        .max(1, "errors.unitInvalid")
        .default(0),
    ),
  ),
  lowLimit: soft(limitField),
  highLimit: soft(limitField),
};

const recordFields = {
  firstName: soft(nameField),
  lastName: soft(nameField),
  gender: hard(
    z.preprocess(
      blankToUndefined,
      z.enum(GENDERS, { errorMap: () => ({ message: "errors.genderMsg" }) }),
    ),
  ),
  pronoun: soft(
    z.preprocess(
      blankToUndefined,
      z.enum(PRONOUNS, { errorMap: () => ({ message: "errors.pronounInvalid" }) }).optional(),
    ),
  ),
  birthDate: soft(
    z.preprocess(
      blankToUndefined,
      z
        .string({ invalid_type_error: "errors.birthDateInvalid" })
        .transform((v, ctx) => {
          const date = normaliseDate(v);
          if (!date || date < "1900-01-01") {
            ctx.addIssue({ code: "custom", message: "errors.birthDateInvalid" });
            return z.NEVER;
          }
          if (date > latestToday()) {
            ctx.addIssue({ code: "custom", message: "errors.birthDateFuture" });
            return z.NEVER;
          }
          return date;
        })
        .optional(),
    ),
  ),
  diabetesType: hard(idNumber("errors.diabetesTypeMsg")),
  /** The consensus CGM goals of the glucose-profile report; absent on save = kept (new records: standard). */
  cgmGoalSet: soft(
    z.preprocess(
      blankToUndefined,
      z.enum(CGM_GOAL_SETS, { errorMap: () => ({ message: "cgmGoalSet.invalid" }) }).optional(),
    ),
  ),
  basicDiseases: hard(idListField),
  complication: hard(idListField),
  ...rangeFields,
  heightUnit: hard(bodyUnitField),
  weightUnit: hard(bodyUnitField),
  height: soft(measureField("errors.heightInvalid")),
  heightFt: soft(measureField("errors.heightInvalid")),
  heightIn: soft(measureField("errors.heightInvalid")),
  weight: soft(measureField("errors.weightInvalid")),
  timeZone: soft(
    z.preprocess(
      blankToUndefined,
      z
        .string({ invalid_type_error: "errors.timeZoneInvalid" })
        .trim()
        .refine(isTimeZone, "errors.timeZoneInvalid")
        .optional(),
    ),
  ),
  breakfastStart: soft(timeField),
  breakfastEnd: soft(timeField),
  lunchStart: soft(timeField),
  lunchEnd: soft(timeField),
  supperStart: soft(timeField),
  supperEnd: soft(timeField),
};

type RecordShape = {
  unit: number;
  lowLimit?: number;
  highLimit?: number;
  heightUnit: number;
  weightUnit: number;
  height?: number;
  heightFt?: number;
  heightIn?: number;
  weight?: number;
} & Partial<Record<MealField, number>>;

/** The typed height in cm (feet and inches, either alone, for ft/in), or undefined when none was typed. */
function heightCmOf(v: RecordShape): number | undefined {
  if (v.heightUnit !== HeightUnit.FtIn)
    return v.height === undefined ? undefined : centimetres(v.height);
  if (v.heightFt === undefined && v.heightIn === undefined) return undefined;
  return feetInchesToCm(v.heightFt ?? 0, v.heightIn ?? 0);
}

function weightKgOf(v: RecordShape): number | undefined {
  return v.weight === undefined ? undefined : weightToKg(v.weight, v.weightUnit as WeightUnit);
}

/**
 * The target range: both limits required ('Please Add Glucose Range'), the high limit above the
 * low one ('Glucose Range Not Right'; equal limits are no range either), both within 40-400 mg/dL.
 * Meal windows: start and end together, the start before the end.
 */
function checkRecord(v: RecordShape, ctx: z.RefinementCtx) {
  checkTargetRange(v, ctx);
  checkBody(v, ctx);
  checkMeals(v, ctx);
}

type RangeShape = Pick<RecordShape, "unit" | "lowLimit" | "highLimit">;

function checkTargetRange(v: RangeShape, ctx: z.RefinementCtx) {
  if (v.lowLimit === undefined || v.highLimit === undefined) {
    ctx.addIssue({
      code: "custom",
      path: [v.lowLimit === undefined ? "lowLimit" : "highLimit"],
      message: "errors.glucoseRangeRequired",
    });
  } else {
    const low = limitToMgdl(v.lowLimit, v.unit);
    const high = limitToMgdl(v.highLimit, v.unit);
    if (high <= low)
      ctx.addIssue({ code: "custom", path: ["highLimit"], message: "errors.glucoseRangeWrong" });
    else if (low < GLUCOSE_BOUNDS_MGDL.min || high > GLUCOSE_BOUNDS_MGDL.max) {
      ctx.addIssue({
        code: "custom",
        path: [low < GLUCOSE_BOUNDS_MGDL.min ? "lowLimit" : "highLimit"],
        message:
          v.unit === GlucoseUnit.Mgdl
            ? "errors.glucoseRangeBoundsMgdl"
            : "errors.glucoseRangeBoundsMmol",
      });
    }
  }
}

function checkBody(v: RecordShape, ctx: z.RefinementCtx) {
  const heightCm = heightCmOf(v);
  if (
    heightCm !== undefined &&
    (heightCm < HEIGHT_BOUNDS_CM.min || heightCm > HEIGHT_BOUNDS_CM.max)
  )
    ctx.addIssue({
      code: "custom",
      path: [v.heightUnit === HeightUnit.FtIn ? "heightFt" : "height"],
      message:
        v.heightUnit === HeightUnit.FtIn ? "errors.heightBoundsFtIn" : "errors.heightBoundsCm",
    });
  const weightKg = weightKgOf(v);
  if (
    weightKg !== undefined &&
    (weightKg < WEIGHT_BOUNDS_KG.min || weightKg > WEIGHT_BOUNDS_KG.max)
  )
    ctx.addIssue({
      code: "custom",
      path: ["weight"],
      message: v.weightUnit === WeightUnit.Lb ? "errors.weightBoundsLb" : "errors.weightBoundsKg",
    });
}

function checkMeals(v: RecordShape, ctx: z.RefinementCtx) {
  for (const meal of MEALS) {
    const start = v[`${meal}Start`];
    const end = v[`${meal}End`];
    if ((start === undefined) !== (end === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [start === undefined ? `${meal}Start` : `${meal}End`],
        message: "errors.mealTimeMsg",
      });
    } else if (start !== undefined && end !== undefined && end <= start) {
      ctx.addIssue({ code: "custom", path: [`${meal}End`], message: "errors.mealTimeWrong" });
    }
  }
}

/**
 * The checked record with the limits in mg/dL (whole), the meal windows in seconds, and the height
 * and weight in cm and kg (to 0.01; undefined when left out).
 */
function withStoredUnits<T extends RecordShape>(v: T) {
  return {
    ...v,
    lowLimitMgdl: limitToMgdl(v.lowLimit!, v.unit),
    highLimitMgdl: limitToMgdl(v.highLimit!, v.unit),
    heightCm: heightCmOf(v),
    weightKg: weightKgOf(v),
  };
}

/** The target range alone (the settings page), with the record's rules, in mg/dL once checked. */
export const targetRangeSchema = z
  .object(rangeFields)
  .superRefine(checkTargetRange)
  .transform((v) => ({
    lowLimitMgdl: limitToMgdl(v.lowLimit!, v.unit),
    highLimitMgdl: limitToMgdl(v.highLimit!, v.unit),
  }));

/** The owner's edit of their record (`/patient`, and the API's save with a pid). */
export const patientRecordSchema = z
  .object(recordFields)
  .superRefine(checkRecord)
  .transform(withStoredUnits);

/** A new person's record (`/patientAdd`, and the API's save without a pid): their email is required. */
export const newPatientSchema = z
  .object({ email: hard(emailField), ...recordFields })
  .superRefine(checkRecord)
  .transform(withStoredUnits);

export type PatientRecordInput = z.output<typeof patientRecordSchema>;
export type NewPatientInput = z.output<typeof newPatientSchema>;

export const pidField = idNumber("errors.pidInvalid");

/** `GET /api/patient/findOne?pid=N` and `/patient?pid=N`. */
export const findOneQuery = z.object({ pid: pidField });

/**
 * The body of `POST /api/patient/save`: a list of one patient object (a bare object is taken too).
 * Accepts the call's own names (`complication` and `basicDiseases` as comma-joined ids,
 * `highLimit`, `lowLimit`) and the shapes findOne answers: `complications` for `complication`,
 * option ids or `{ id }` objects for ids, and meal times as pairs such as
 * `breakfastTime: ["06:00:00", "10:00:00"]`. Returns the object in the form's field names.
 */
export function fromSavePayload(body: unknown): {
  patient: Record<string, unknown>;
  count: number;
} {
  const list = Array.isArray(body) ? body : body && typeof body === "object" ? [body] : [];
  const first = list[0];
  const source =
    first && typeof first === "object" && !Array.isArray(first)
      ? (first as Record<string, unknown>)
      : {};
  const patient: Record<string, unknown> = { ...source };
  const ids = (value: unknown) =>
    Array.isArray(value)
      ? value.map((item) =>
          item && typeof item === "object" && "id" in item ? (item as { id: unknown }).id : item,
        )
      : value;
  if (patient.complication === undefined && patient.complications !== undefined)
    patient.complication = patient.complications;
  delete patient.complications;
  patient.complication = ids(patient.complication);
  patient.basicDiseases = ids(patient.basicDiseases);
  if (
    patient.diabetesType &&
    typeof patient.diabetesType === "object" &&
    "id" in patient.diabetesType
  )
    patient.diabetesType = (patient.diabetesType as { id: unknown }).id;
  for (const meal of MEALS) {
    const pair = patient[`${meal}Time`];
    if (Array.isArray(pair)) {
      patient[`${meal}Start`] ??= pair[0];
      patient[`${meal}End`] ??= pair[1];
    }
    delete patient[`${meal}Time`];
  }
  return { patient, count: list.length };
}
