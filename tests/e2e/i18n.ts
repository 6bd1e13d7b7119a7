import { readFileSync } from "node:fs";
import path from "node:path";

export const LOCALES = ["en", "pl", "ru", "it", "ro"] as const;
export type Lng = (typeof LOCALES)[number];

/** A translation from locales/{lng}/{ns}.json, so that tests check the real strings. */
export function tr(lng: Lng, key: string, ns = "common"): string {
  const tree = JSON.parse(readFileSync(path.resolve("locales", lng, `${ns}.json`), "utf8"));
  const value = key.split(".").reduce((node, part) => node?.[part], tree);
  if (typeof value !== "string") throw new Error(`missing translation ${lng}:${ns}:${key}`);
  return value;
}
