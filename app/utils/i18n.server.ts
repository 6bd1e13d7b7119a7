import { createCookie } from "@remix-run/node";
import type { Resource, ResourceLanguage } from "i18next";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { RemixI18Next } from "remix-i18next/server";
import { fallbackLng, i18nConfig, supportedLngs, type Locale } from "~/i18n";
import { parseEnv } from "./env.server";

/** Remembers the chosen language for visitors who are not signed in (one year). */
export const localeCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

let resources: Resource | undefined;

/** All translations, read once from `locales/{lng}/{namespace}.json` (or LOCALES_DIR). */
export function translations(): Resource {
  if (resources) return resources;
  // Read at import, so parsed here without fixing the server's environment (`env()`) this early.
  const root = path.resolve(process.cwd(), parseEnv().LOCALES_DIR);
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

/** Builds fixed-language translation functions; request language detection is in the services. */
const translator = new RemixI18Next({
  detection: { supportedLanguages: [...supportedLngs], fallbackLanguage: fallbackLng },
  i18next: { ...i18nConfig, ns: undefined, resources: translations() },
});

const fixedT = new Map<string, ReturnType<typeof translator.getFixedT>>();

/** A translation function for one language and namespace (made once: each one builds an i18next instance). */
export function getFixedT(locale: Locale, ns = "common") {
  const key = `${locale}:${ns}`;
  let t = fixedT.get(key);
  if (!t) {
    t = translator.getFixedT(locale, ns);
    fixedT.set(key, t);
  }
  return t;
}

/** The script that sets `window.__i18n`: `<` is escaped so that no string can close the element. */
export function translationScriptBody(lng: string, resources: ResourceLanguage): string {
  const json = JSON.stringify({ lng, resources })
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return `window.__i18n=${json};`;
}

export type TranslationScript = { body: string; version: string };
const scripts = new Map<Locale, TranslationScript>();

/**
 * A language's translations as a script for the browser's i18next (entry.client.tsx reads
 * `window.__i18n`). Served as a file of its own, so that pages do not repeat the strings and the
 * browser keeps them between pages; `version` (a hash of the text) changes with every change of a
 * string, so that the file can be cached for good under a name that carries it.
 */
export function translationScript(lng: Locale): TranslationScript {
  let script = scripts.get(lng);
  if (!script) {
    const body = translationScriptBody(lng, translations()[lng] ?? {});
    script = { body, version: createHash("sha256").update(body).digest("hex").slice(0, 16) };
    scripts.set(lng, script);
  }
  return script;
}

/** Where the page's translations script is: `/i18n/{lng}.{version}.js`. */
export function translationScriptHref(lng: Locale): string {
  return `/i18n/${lng}.${translationScript(lng).version}.js`;
}
