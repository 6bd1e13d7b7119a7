import { z } from "zod";
import { safeTextPattern } from "~/utils/safe-text";

/**
 * Building blocks shared by every schema of the forms and the `/api/` routes.
 *
 * One schema reads both a form (every value is text) and a JSON body (numbers are numbers): a
 * number field takes a JSON number or the plain decimal text a form sends ("12", "3.9"), and
 * nothing else, so `true`, `[]`, `{}`, "NaN", "1e3", "0x10" and "Infinity" are refused rather than
 * read as some number. Free text refuses the characters that a database cannot store (NUL), that
 * hide or reorder what a reader sees (control characters, bidirectional overrides and isolates)
 * or that are not text at all (unpaired UTF-16 surrogates).
 *
 * Their messages are keys of the `validation` namespace, which every namespace falls back to
 * (app/i18n.ts), so a schema of any namespace can use them as they are.
 */

/** The largest id a PostgreSQL `integer` column holds (2^31 - 1). */
export const INT4_MAX = 2_147_483_647;

export const MESSAGES = {
  hiddenCharacters: "input.hiddenCharacters",
  invalid: "input.invalid",
  unitInvalid: "input.unitInvalid",
} as const;

/** Empty form values and JSON `null` count as missing. */
export function blankToUndefined(value: unknown) {
  return value === null || value === "" || (typeof value === "string" && value.trim() === "")
    ? undefined
    : value;
}

const DECIMAL_TEXT = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*$/;

/**
 * The input of a number field: missing when blank or null, a number when it is a JSON number or
 * plain decimal text, else left as it is for the number check to refuse.
 */
export function numberInput(value: unknown) {
  const present = blankToUndefined(value);
  return typeof present === "string" && DECIMAL_TEXT.test(present) ? Number(present) : present;
}

/** A number field whose every failure (missing, wrong type, not finite) has the one message. */
export const numberOf = (message: string) =>
  z.number({ required_error: message, invalid_type_error: message }).finite(message);

/** A required whole number in [min, max] (JSON number or decimal text). */
export const wholeNumber = (message: string, { min = -INT4_MAX, max = INT4_MAX } = {}) =>
  z.preprocess(numberInput, numberOf(message).int(message).min(min, message).max(max, message));

/** A database id: a whole number from 1 to 2^31 - 1. */
export const idNumber = (message: string) => wholeNumber(message, { min: 1, max: INT4_MAX });

/** An id in a page address (`/12/print`): digits only, 1 to 2^31 - 1; anything else is no such page. */
export const idParam = z
  .string()
  .regex(/^\d{1,10}$/)
  .transform(Number)
  .pipe(z.number().int().min(1).max(INT4_MAX));

/** 0 or 1 (a flag of the API), as a number; `true` and `false` are not flags. */
export const flagNumber = (message: string) =>
  z.preprocess(
    numberInput,
    numberOf(message)
      .refine((v) => v === 0 || v === 1, message)
      .optional(),
  );

/**
 * A free-text string, trimmed, that refuses control characters, bidirectional controls and
 * unpaired surrogates (`input.hiddenCharacters`). Chain `.min()`, `.max()` on it as on any string.
 */
export function safeText(
  params: { required_error?: string; invalid_type_error?: string } = {},
  { multiline = false } = {},
) {
  return z.string(params).trim().regex(safeTextPattern({ multiline }), MESSAGES.hiddenCharacters);
}

/** `required_error` and `invalid_type_error` set to one message key. */
export const requiredMessage = (key: string) => ({ required_error: key, invalid_type_error: key });
