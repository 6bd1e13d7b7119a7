/** Shared i18n settings for the server and the browser. */
import type { FormatFunction } from "i18next";
import { formatQuantity } from "./report/units";
export const supportedLngs = ["en", "pl", "ru", "it", "ro"] as const;
export type Locale = (typeof supportedLngs)[number];
export const fallbackLng: Locale = "en";
export const defaultNS = "common";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (supportedLngs as readonly string[]).includes(value);
}

/**
 * Values of phrases that are not quantities, though they may be numbers: a year or a version is
 * written as it is ("© 2026", "version 1.2"), never grouped or with a decimal comma.
 */
const NOT_QUANTITIES: ReadonlySet<string> = new Set([
  "year",
  "version",
  "special",
  "serial",
  "code",
]);

/**
 * How a phrase writes a value: a number in the language's number format (`formatQuantity`:
 * "2,016" / "2 016", "7,5"), everything else as given (texts such as glucose values arrive
 * already formatted).
 */
export const formatInterpolated: FormatFunction = (value, format, lng, options) => {
  if (typeof value !== "number" || !Number.isFinite(value)) return value;
  if (format !== undefined && format !== "number") return value;
  const key: unknown = options?.interpolationkey;
  if (typeof key === "string" && NOT_QUANTITIES.has(key)) return value;
  return formatQuantity(value, lng ?? fallbackLng);
};

export const i18nConfig = {
  supportedLngs: [...supportedLngs],
  fallbackLng,
  defaultNS,
  ns: [defaultNS],
  // The messages of the shared input checks (app/schemas/fields.ts) live once, in `validation`,
  // and are found from every namespace.
  fallbackNS: "validation",
  // React escapes; every number a phrase names is written in the language's number format.
  interpolation: { escapeValue: false, alwaysFormat: true, format: formatInterpolated },
  returnNull: false,
} as const;
