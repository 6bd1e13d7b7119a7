import { readFileSync } from "node:fs";
import path from "node:path";

export const LOCALES = ["en", "pl", "ru", "it", "ro"] as const;
export type Lng = (typeof LOCALES)[number];

/**
 * A translation from locales/{lng}/{ns}.json, so that tests check the real strings. With `count`,
 * the plural form the language uses for that number (`key_one`, `key_few`, ...; CLDR categories
 * from `Intl.PluralRules`, as i18next picks them).
 */
export function tr(lng: Lng, key: string, ns = "common", count?: number): string {
  const tree = JSON.parse(readFileSync(path.resolve("locales", lng, `${ns}.json`), "utf8"));
  const full = count === undefined ? key : `${key}_${new Intl.PluralRules(lng).select(count)}`;
  const value = full.split(".").reduce((node, part) => node?.[part], tree);
  if (typeof value !== "string") throw new Error(`missing translation ${lng}:${ns}:${full}`);
  return value;
}
