import { readFileSync } from "node:fs";
import path from "node:path";

export const LOCALES = ["en", "pl", "ru", "it", "ro"] as const;
export type Lng = (typeof LOCALES)[number];

/**
 * A translation from locales/{lng}/{ns}.json, so that tests check the real strings. With `count`,
 * the plural form the language uses for that number (`key_one`, `key_few`, ...; CLDR categories
 * from `Intl.PluralRules`, as i18next picks them), or the phrase itself when it has none.
 */
export function tr(lng: Lng, key: string, ns = "common", count?: number): string {
  const tree = JSON.parse(readFileSync(path.resolve("locales", lng, `${ns}.json`), "utf8"));
  const find = (k: string) => k.split(".").reduce((node, part) => node?.[part], tree);
  const plural = count === undefined ? null : `${key}_${new Intl.PluralRules(lng).select(count)}`;
  // A phrase without plural forms is the same for every number, as i18next reads it.
  const value = (plural !== null ? find(plural) : undefined) ?? find(key);
  if (typeof value !== "string") throw new Error(`missing translation ${lng}:${ns}:${key}`);
  return value;
}
