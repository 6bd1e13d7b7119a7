import { createCookie } from "@remix-run/node";
import type { Resource, ResourceLanguage } from "i18next";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { RemixI18Next } from "remix-i18next/server";
import { fallbackLng, i18nConfig, isLocale, supportedLngs, type Locale } from "~/i18n";
import { getSessionUser } from "./session.server";

/** Remembers the chosen language for visitors who are not signed in (one year). */
export const localeCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

let resources: Resource | undefined;

/** All translations, read once from `locales/{lng}/{namespace}.json`. */
export function translations(): Resource {
  if (resources) return resources;
  const root = path.resolve(process.cwd(), "locales");
  const loaded: Resource = {};
  for (const lng of supportedLngs) {
    const dir = path.join(root, lng);
    const bundle: ResourceLanguage = {};
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
      bundle[file.replace(/\.json$/, "")] = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
    }
    loaded[lng] = bundle;
  }
  resources = loaded;
  return loaded;
}

export function namespaces(): string[] {
  return Object.keys(translations()[fallbackLng] ?? {});
}

/**
 * Language detection order: the signed-in user's setting, then the `lng` cookie, then
 * `Accept-Language`, then English.
 */
export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...supportedLngs],
    fallbackLanguage: fallbackLng,
    cookie: localeCookie,
    order: ["custom", "cookie", "header"],
    findLocale: async (request) => (await getSessionUser(request))?.setting?.lang ?? null,
  },
  i18next: { ...i18nConfig, ns: undefined, resources: translations() },
});

export async function getLocale(request: Request): Promise<Locale> {
  const locale = await i18nServer.getLocale(request);
  return isLocale(locale) ? locale : fallbackLng;
}

const fixedT = new Map<string, ReturnType<typeof i18nServer.getFixedT>>();

/** A translation function for one language and namespace (made once: each one builds an i18next instance). */
export function getFixedT(locale: Locale, ns = "common") {
  const key = `${locale}:${ns}`;
  let t = fixedT.get(key);
  if (!t) {
    t = i18nServer.getFixedT(locale, ns);
    fixedT.set(key, t);
  }
  return t;
}
