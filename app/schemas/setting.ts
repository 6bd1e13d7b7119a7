import { z } from "zod";
import { supportedLngs } from "~/i18n";
import type { NameStyle } from "~/report/pump-report-model";
import { idNumber, requiredMessage, wholeNumber } from "./fields";
import { PAPER_SIZES } from "~/utils/paper-size";
import { isListedZone, isTimeZone } from "~/utils/time-zones";
import { timeToSeconds } from "./patient";

/**
 * The settings page `/newsetting` (signed-in only): language, units for glucose, weight and height,
 * the print settings (paper size, orientation, title alignment, line under the header, logo)
 * and, for an account without a health record, the zone of its own times. One schema per form,
 * for the form in the browser (conform), in the page's action and in `POST /api/setting/update`.
 * Messages are keys of the `settings` namespace.
 */

export const ORIENTATIONS = ["portrait", "landscape"] as const;
export type Orientation = (typeof ORIENTATIONS)[number];
/** Report title alignment, indexed by the stored `nameStyle` (0 left, 1 centre, 2 right). */
export const NAME_STYLES = ["left", "center", "right"] as const;
export type NameStyleName = (typeof NAME_STYLES)[number];
/** The stored `nameStyle` of a title alignment. */
export function nameStyleCode(name: NameStyleName): NameStyle {
  return NAME_STYLES.indexOf(name) as NameStyle;
}
/** The largest report logo accepted, in bytes (the page states it). */
export const LOGO_MAX_BYTES = 512 * 1024;

const withMessage = (message: string) => ({ errorMap: () => ({ message }) });

/** A whole number sent by the API is read as the form's digit. */
const numberAsDigit = (value: unknown) =>
  typeof value === "number" && Number.isInteger(value) ? String(value) : value;

/** A two-choice unit setting sent as "0" or "1" (glucose: 0 mmol/L, 1 mg/dL; weight: kg, lb; height: cm, ft/in). */
const binaryCode = (message: string) =>
  z.preprocess(
    numberAsDigit,
    z.enum(["0", "1"], withMessage(message)).transform((v) => (v === "1" ? 1 : 0) as 0 | 1),
  );

/** One of the 31 zones offered, by its IANA id. */
const listedZone = z
  .string(withMessage("errors.accountZone"))
  .refine(isListedZone, "errors.accountZone");

/**
 * The zone an account without a health record reads its own times in: one of the 31, or none
 * (UTC), sent as null or an empty string.
 */
const accountTimeZone = z.preprocess((v) => (v === "" ? null : v), listedZone.nullable());

const settingsFields = {
  lang: z.enum(supportedLngs, withMessage("errors.lang")),
  unit: binaryCode("errors.unit"),
  weightUnit: binaryCode("errors.weightUnit"),
  heightUnit: binaryCode("errors.heightUnit"),
  orientation: z.enum(ORIENTATIONS, withMessage("errors.orientation")),
  // Left out: the paper size stays as it is (A4 until one is chosen).
  paperSize: z.enum(PAPER_SIZES, withMessage("errors.paperSize")).optional(),
  nameStyle: z.preprocess(
    numberAsDigit,
    z
      .enum(["0", "1", "2"], withMessage("errors.nameStyle"))
      .transform((v) => Number(v) as NameStyle),
  ),
  // A checkbox: absent when off (the API sends true or false).
  splitLine: z
    .boolean(withMessage("errors.splitLine"))
    .optional()
    .transform((v) => v === true),
  // Left out: the zone stays as it is (the page's settings form never sends it).
  timeZone: accountTimeZone.optional(),
};

export const settingsSchema = z.object(settingsFields);
export type SettingsInput = z.output<typeof settingsSchema>;

/**
 * The settings page's time-zone form (for an account without a health record): `timeZone`, one
 * of the 31, or empty for none (a missing field too: the form's "none" sends an empty value,
 * which the page's form reader drops).
 */
export const accountZoneSchema = z.object({
  timeZone: z.preprocess((v) => (v === undefined ? null : v), accountTimeZone),
});

/** The logo upload. Its bytes are checked for a raster image type when it is saved (app/utils/image-type.ts). */
export const logoSchema = z.object({
  logo: z
    .instanceof(File, { message: "errors.logoMissing" })
    .refine((file) => file.size <= LOGO_MAX_BYTES, "errors.logoTooLarge"),
});

/** A time of day "HH:mm:ss" as seconds after midnight. */
const clockTime = z
  .string(requiredMessage("errors.mealTime"))
  .regex(/^\d{2}:\d{2}:\d{2}$/, "errors.mealTime")
  .transform((value, ctx) => {
    const seconds = timeToSeconds(value);
    if (seconds === null) {
      ctx.addIssue({ code: "custom", message: "errors.mealTime" });
      return z.NEVER;
    }
    return seconds;
  });

// The order is checked only once both times were read: a bad time has its own message.
const mealWindow = z
  .tuple([clockTime, clockTime], withMessage("errors.mealTime"))
  .refine(
    ([start, end]) => typeof start !== "number" || typeof end !== "number" || start < end,
    "errors.mealTimeWrong",
  );

const languageUpdate = z
  .object({ shape: z.literal("language"), lang: z.enum(supportedLngs, withMessage("errors.lang")) })
  .strict("errors.unknownField");

const unitUpdate = z
  .object({
    shape: z.literal("unit"),
    unit: wholeNumber("errors.unit", { min: 0, max: 1 }).transform((v) => v as 0 | 1),
  })
  .strict("errors.unknownField");

/** A patient's time zone and meal windows (the upload centre's form and `setting/update`). */
const zoneAndMeals = {
  timeZone: z.string(requiredMessage("errors.timeZone")).refine(isTimeZone, "errors.timeZone"),
  breakfastTime: mealWindow,
  lunchTime: mealWindow,
  supperTime: mealWindow,
};

const patientSettingsUpdate = z
  .object({ shape: z.literal("patient"), pid: idNumber("errors.pid"), ...zoneAndMeals })
  .strict("errors.unknownField");

/** The upload centre's form: the zone and each meal's start and end as "HH:mm:ss" fields. */
export const zoneAndMealsForm = z.preprocess((value) => {
  const form = (value ?? {}) as Record<string, unknown>;
  // A time field sends "HH:mm" when the seconds are zero.
  const time = (v: unknown) => (typeof v === "string" && /^\d{2}:\d{2}$/.test(v) ? `${v}:00` : v);
  const window = (meal: string) => [time(form[`${meal}Start`]), time(form[`${meal}End`])];
  return {
    timeZone: form.timeZone,
    breakfastTime: window("breakfast"),
    lunchTime: window("lunch"),
    supperTime: window("supper"),
  };
}, z.object(zoneAndMeals));

/** All the settings at once, as the settings page sends them. */
const settingsUpdate = z
  .object({ shape: z.literal("settings"), ...settingsFields })
  .strict("errors.unknownField");

/** The caller's own time zone alone (an account without a health record). */
const zoneUpdate = z
  .object({ shape: z.literal("zone"), timeZone: accountTimeZone })
  .strict("errors.unknownField");

const SHAPE_KEYS = [
  ["pid", "patient"],
  ["weightUnit", "settings"],
  ["heightUnit", "settings"],
  ["orientation", "settings"],
  ["paperSize", "settings"],
  ["nameStyle", "settings"],
  ["splitLine", "settings"],
  ["lang", "language"],
  ["unit", "unit"],
  ["timeZone", "zone"],
] as const;

/** Tags a body with the shape its keys name; a body that sends `shape` itself gets none. */
function tagShape(body: unknown) {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return body;
  const own = (key: string) => Object.prototype.hasOwnProperty.call(body, key);
  const shape = own("shape") ? undefined : SHAPE_KEYS.find(([key]) => own(key))?.[1];
  return { ...body, shape };
}

/**
 * `POST /api/setting/update`: one of five bodies, told apart by the keys only that body has
 * (`pid`; else any of `weightUnit`, `heightUnit`, `orientation`, `paperSize`, `nameStyle`,
 * `splitLine`; else `lang`; else `unit`; else `timeZone`):
 * - `{ lang, unit, weightUnit, heightUnit, orientation, paperSize?, nameStyle, splitLine,
 *   timeZone? }`: all the caller's settings, as the settings page saves them (`splitLine` may be left out: off;
 *   `paperSize`, "a4" or "letter", and `timeZone` may be left out: unchanged);
 * - `{ lang }`: the caller's interface language;
 * - `{ unit }`: the caller's glucose unit, 0 mmol/L or 1 mg/dL (a JSON number or its digit);
 * - `{ timeZone }`: the zone of the caller's own times, one of the 31, or null (none: UTC);
 * - `{ pid, timeZone, breakfastTime, lunchTime, supperTime }`: a patient's time zone (an IANA zone
 *   the runtime knows) and meal windows, each `["HH:mm:ss", "HH:mm:ss"]` with the start before
 *   the end, read as seconds after local midnight.
 * Each body is strict: a key it does not name is refused, as is a body that is none of the five.
 * The output carries `shape`, the body it was read as; a `shape` sent by the client is refused.
 */
export const settingUpdateSchema = z.preprocess(
  tagShape,
  z.discriminatedUnion(
    "shape",
    [languageUpdate, unitUpdate, settingsUpdate, zoneUpdate, patientSettingsUpdate],
    withMessage("errors.updateShape"),
  ),
);
export type SettingUpdate = z.output<typeof settingUpdateSchema>;

/** The five bodies of `POST /api/setting/update`, as a client sends them (without the `shape` tag). */
export const settingUpdateBodies = [
  languageUpdate.omit({ shape: true }),
  unitUpdate.omit({ shape: true }),
  settingsUpdate.omit({ shape: true }),
  zoneUpdate.omit({ shape: true }),
  patientSettingsUpdate.omit({ shape: true }),
] as const;
export type PatientSettingsUpdate = Extract<SettingUpdate, { shape: "patient" }>;
export type AccountZoneInput = z.output<typeof accountZoneSchema>;
