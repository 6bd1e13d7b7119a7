import { z } from "zod";
import { Identity } from "~/domain/codes";
import { fromUnit, toGlucoseUnit } from "~/domain/glucose-unit";
import { idNumber, MESSAGES, numberInput, numberOf, safeText } from "./fields";

/**
 * Validation shared by the forms (conform, in the browser and in actions) and the `/api/` routes.
 * Messages are keys of the `auth` namespace (`locales/{lng}/auth.json`), translated on display.
 */
export const CODE_PATTERN = /^\d{6}$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/** The longest name part (first, middle, last name, user name) an account keeps. */
export const NAME_MAX = 60;
/** The largest profile photo accepted, in bytes (the page states it). */
export const PHOTO_MAX_BYTES = 512 * 1024;

const required = (key: string) => ({ required_error: key, invalid_type_error: key });

/** A number that is required (`missing`), a number (`invalid`) and lies within [min, max] (`invalid`). */
const requiredNumber = (missing: string, invalid: string, min: number, max: number) =>
  z.preprocess(
    numberInput,
    z
      .number({ required_error: missing, invalid_type_error: invalid })
      .finite(invalid)
      .min(min, invalid)
      .max(max, invalid),
  );

const optionalNumber = (invalid: string) => z.preprocess(numberInput, numberOf(invalid).optional());

// `.pipe` stops at the first failing step, so a blank email gets one message, not two.
export const emailField = z
  .string(required("errors.emailMsg"))
  .trim()
  .min(1, "errors.emailMsg")
  .pipe(z.string().max(254, "errors.emailInvalid").email("errors.emailInvalid"))
  .transform((v) => v.toLowerCase());

export const passwordField = z
  .string(required("errors.passwordMsg"))
  .refine((v) => v.trim().length > 0, "errors.passwordMsg");

export const newPasswordField = z
  .string(required("errors.passwordMsg"))
  .min(PASSWORD_MIN, "errors.passwordTooShort")
  .max(PASSWORD_MAX, "errors.passwordTooLong");

export const codeField = z
  .string(required("errors.codeMsg"))
  .trim()
  .regex(CODE_PATTERN, "errors.codeInvalid");

export const identityField = z.preprocess(
  numberInput,
  numberOf("errors.identityMsg").refine(
    (v) => v === Identity.Person || v === Identity.Clinic,
    "errors.identityMsg",
  ),
);

export const loginSchema = z.object({
  email: emailField,
  password: passwordField,
  identity: identityField.default(Identity.Person),
  // Where to go after signing in; app/utils/safe-redirect.ts decides whether it is followed.
  redirectTo: z.string().optional(),
});

const confirmed = <T extends { password: string; confirmPassword: string }>(
  value: T,
  ctx: z.RefinementCtx,
) => {
  if (value.password !== value.confirmPassword)
    ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: "errors.passwordMismatch" });
};

export const signTypes = ["person", "clinic"] as const;
export type SignType = (typeof signTypes)[number];
export const signTypeSchema = z.object({
  signType: z.enum(signTypes, required("errors.signTypeFirst")),
});

const todayIso = () => new Date().toISOString().slice(0, 10);

/**
 * The glucose target range in the unit the user chose (0 mmol/L, 1 mg/dL): both limits required
 * ('Please Add Glucose Range'), high above low ('Glucose Range Not Right'), within 40-400 mg/dL.
 */
function checkGlucoseRange(
  v: { unit: number; lowLimit?: number; highLimit?: number },
  ctx: z.RefinementCtx,
) {
  if (v.lowLimit === undefined || v.highLimit === undefined) {
    ctx.addIssue({
      code: "custom",
      path: [v.lowLimit === undefined ? "lowLimit" : "highLimit"],
      message: "errors.glucoseRangeRequired",
    });
    return;
  }
  const low = fromUnit(v.lowLimit, toGlucoseUnit(v.unit));
  const high = fromUnit(v.highLimit, toGlucoseUnit(v.unit));
  if (high <= low)
    ctx.addIssue({ code: "custom", path: ["highLimit"], message: "errors.glucoseRangeWrong" });
  else if (low < 40 || high > 400)
    ctx.addIssue({
      code: "custom",
      path: [low < 40 ? "lowLimit" : "highLimit"],
      message: "errors.glucoseRangeImplausible",
    });
}

/** A name part that must be given (`missing` when blank), at most NAME_MAX characters. */
const requiredName = (missing: string) =>
  safeText(required(missing)).min(1, missing).max(NAME_MAX, "errors.tooLong");

/** A name part that may be left blank (then null), at most NAME_MAX characters. */
const optionalName = safeText()
  .max(NAME_MAX, "errors.tooLong")
  .optional()
  .transform((v) => v || null);

const accountFields = {
  email: emailField,
  password: newPasswordField,
  confirmPassword: z.string(required("errors.confirmMsg")),
  code: codeField,
  firstName: requiredName("errors.firstNameMsg"),
  lastName: requiredName("errors.lastNameMsg"),
  agree: z.literal("on", { errorMap: () => ({ message: "errors.agreeFirst" }) }),
};

export const registerClinicSchema = z.object(accountFields).superRefine(confirmed);

export const registerPersonSchema = z
  .object({
    ...accountFields,
    birthDate: z
      .string(required("errors.birthDateMsg"))
      .regex(/^\d{4}-\d{2}-\d{2}$/, "errors.birthDateMsg")
      .pipe(
        z
          .string()
          .refine(
            (v) => !Number.isNaN(Date.parse(v)) && v <= todayIso() && v >= "1900-01-01",
            "errors.birthDateInvalid",
          ),
      ),
    height: requiredNumber("errors.heightMsg", "errors.heightInvalid", 40, 250),
    weight: requiredNumber("errors.weightMsg", "errors.weightInvalid", 2, 400),
    unit: z.preprocess(
      numberInput,
      numberOf(MESSAGES.unitInvalid)
        .int(MESSAGES.unitInvalid)
        .min(0, MESSAGES.unitInvalid)
        .max(1, MESSAGES.unitInvalid)
        .default(0),
    ),
    lowLimit: optionalNumber("errors.glucoseRangeRequired"),
    highLimit: optionalNumber("errors.glucoseRangeRequired"),
  })
  .superRefine(confirmed)
  .superRefine(checkGlucoseRange)
  .transform((v) => ({
    ...v,
    lowLimitMgdl: fromUnit(v.lowLimit!, toGlucoseUnit(v.unit)),
    highLimitMgdl: fromUnit(v.highLimit!, toGlucoseUnit(v.unit)),
  }));

export const sendCodeSchema = z.object({ email: emailField });

/** `POST /api/user/login`: the email as `userName`, the password, the sign-in type (default 1). */
export const apiLoginSchema = z.object({
  userName: emailField,
  password: passwordField,
  identity: identityField.default(1),
});

/** `POST /api/user/sendMail`: the address and what the code is for (default sign-up). */
export const sendMailSchema = z.object({
  email: emailField,
  type: z.enum(["register", "reset", "changeEmail"]).default("register"),
});

export const activateSchema = z.object({
  origin: z
    .string(required("errors.originExpired"))
    .min(1, "errors.originExpired")
    .max(200, "errors.originExpired"),
  code: codeField,
});

export const claimAccountSchema = activateSchema
  .extend({
    email: emailField,
    password: newPasswordField,
    confirmPassword: z.string(required("errors.confirmMsg")),
  })
  .superRefine(confirmed);

export const changePasswordSchema = z
  .object({
    currentPassword: passwordField,
    password: newPasswordField,
    confirmPassword: z.string(required("errors.confirmMsg")),
  })
  .superRefine(confirmed);

export const resetPasswordSchema = z
  .object({
    email: emailField,
    code: codeField,
    password: newPasswordField,
    confirmPassword: z.string(required("errors.confirmMsg")),
  })
  .superRefine(confirmed);

/** The profile form: first and last name required, middle name and user name optional. */
export const profileSchema = z.object({
  firstName: requiredName("errors.firstNameMsg"),
  middleName: optionalName,
  lastName: requiredName("errors.lastNameMsg"),
  userName: optionalName,
});
export type ProfileInput = z.infer<typeof profileSchema>;

/** The profile photo upload. Its bytes are checked for a raster image type when it is saved (app/utils/image-type.ts). */
export const photoSchema = z.object({
  photo: z
    .instanceof(File, { message: "errors.photoMissing" })
    .refine((file) => file.size <= PHOTO_MAX_BYTES, "errors.photoTooLarge"),
});

/** Deleting one's account is confirmed with the current password. */
export const deleteAccountSchema = z.object({ currentPassword: passwordField });

export const changeEmailSchema = z.object({
  email: emailField,
  code: codeField,
  currentPassword: passwordField,
});

const orgField = (key: string) => safeText(required(key)).min(1, key).max(200, "errors.tooLong");

/** Organisation form: six required fields, whitespace-only rejected, each with its own message. */
export const organisationSchema = z.object({
  hospitalName: orgField("errors.OrganizationError"),
  address: orgField("errors.AddressError"),
  area: orgField("errors.AreaError"),
  country: orgField("errors.CountryError"),
  connectName: orgField("errors.ContactError"),
  connectPhone: orgField("errors.PhoneError").refine(
    (v) => /^[+()\d\s.-]{5,30}$/.test(v),
    "errors.PhoneError",
  ),
});

export const auditDecisionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), userId: idNumber("errors.notFound") }),
  z.object({
    intent: z.literal("refuse"),
    userId: idNumber("errors.notFound"),
    reason: safeText(required("errors.reasonMsg"), { multiline: true })
      .min(1, "errors.reasonMsg")
      .max(500, "errors.tooLong"),
  }),
]);
