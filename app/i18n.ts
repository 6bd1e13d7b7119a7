/** Shared i18n settings for the server and the browser. */
export const supportedLngs = ["en", "pl", "ru", "it", "ro"] as const;
export type Locale = (typeof supportedLngs)[number];
export const fallbackLng: Locale = "en";
export const defaultNS = "common";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (supportedLngs as readonly string[]).includes(value);
}

export const i18nConfig = {
  supportedLngs: [...supportedLngs],
  fallbackLng,
  defaultNS,
  ns: [defaultNS],
  // The messages of the shared input checks (app/schemas/fields.ts) live once, in `validation`,
  // and are found from every namespace.
  fallbackNS: "validation",
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
} as const;
