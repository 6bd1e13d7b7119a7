import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fallbackLng, supportedLngs } from "~/i18n";

type Tree = { [key: string]: string | Tree };
const root = path.resolve("locales");

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === "string") out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

function load(lng: string): Map<string, string> {
  const all = new Map<string, string>();
  for (const file of readdirSync(path.join(root, lng)).filter((f) => f.endsWith(".json"))) {
    const ns = file.replace(/\.json$/, "");
    for (const [k, v] of flatten(JSON.parse(readFileSync(path.join(root, lng, file), "utf8"))))
      all.set(`${ns}:${k}`, v);
  }
  return all;
}

const en = load(fallbackLng);

/** Strings that are the same in every language (names, units, loanwords). */
const SAME_AS_ENGLISH = [
  /^common:app\.name$/,
  /^common:languages\./,
  /^common:units\./,
  /^[a-z]+:.*\.(email|emailPlaceholder)$/,
  /^views:units\./,
  /^record:record\.(centimetres|kilograms)$/,
  /^views:(tabs\.cgms|cgms\.gmi|cgms\.percent|bg\.countPercent)$/,
  /^patients:triage\.(columns\.gmi|percent)$/,
  /^reports:statistics\.units\./,
  /^import:formats\.(clarity|libreview)$/,
  /^excel:(sheets|sources)\.cgm$/,
  /^reports:statistics\.metrics\.(MBG|LBGI|HBGI|ADRR|GRADE|MAGE|MODD|SDBG|IQR|AAC100|AUC100|LAGE|MAG|CONGA1|CONGA4|eHbA1c|TIR|GMI|GRI)\.name$/,
];
/** Words that a language really does borrow from English, per locale. */
const BORROWED: Record<string, RegExp[]> = {
  it: [
    /^common:nav\.account$/,
    /^views:bg\.sources\.csv$/,
    /^import:fields\.file$/,
    /^support:environments\.browser$/,
  ],
  ro: [
    /^support:environments\.browser$/,
    /^excel:preview\.total$/,
    /^views:(daily\.bolus|daily\.rows\.bolus|chart\.bolus)$/,
    /^import:(fields|summary)\.format$/,
  ],
  pl: [
    /^views:(daily\.bolus|daily\.rows\.bolus|daily\.rows\.alarm|daily\.severity\.alarm|cgms\.trend|cgms\.alarm)$/,
    /^import:(fields|summary)\.format$/,
    /^import:errors\.problem$/,
    // Polish writes the imperial units with their English symbols.
    /^record:record\.(feetInches|pounds)$/,
  ],
  ru: [],
};

function interpolations(value: string) {
  return [...value.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();
}

describe.each(supportedLngs.filter((l) => l !== fallbackLng))("locale %s", (lng) => {
  const other = load(lng);

  it("has every English key, and no key English lacks", () => {
    expect([...en.keys()].filter((k) => !other.has(k))).toEqual([]);
    expect([...other.keys()].filter((k) => !en.has(k))).toEqual([]);
  });

  it("is translated, not copied from English", () => {
    const allowed = [...SAME_AS_ENGLISH, ...(BORROWED[lng] ?? [])];
    const copies = [...en].filter(
      ([k, v]) => other.get(k) === v && /[a-z]{3}/i.test(v) && !allowed.some((re) => re.test(k)),
    );
    expect(copies.map(([k]) => k)).toEqual([]);
  });

  it("keeps every {{placeholder}} of the English text", () => {
    const broken = [...en].filter(
      ([k, v]) => other.has(k) && interpolations(v).join() !== interpolations(other.get(k)!).join(),
    );
    expect(broken.map(([k]) => k)).toEqual([]);
  });
});

describe("keys used in the code", () => {
  function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return sources(full);
      return /\.(ts|tsx)$/.test(entry.name) && !/\.test\./.test(entry.name) ? [full] : [];
    });
  }

  it("exist in English", () => {
    const missing: string[] = [];
    for (const file of sources(path.resolve("app"))) {
      const text = readFileSync(file, "utf8");
      // A file may use several namespaces (one per component): a key must exist in one of them.
      const spaces = [...text.matchAll(/useTranslation\(\s*(?:["'](\w+)["'])?/g)].map(
        (m) => m[1] ?? "common",
      );
      const namespaces = spaces.length ? [...new Set(spaces)] : ["common"];
      for (const match of text.matchAll(/\bt\(\s*"([\w.:-]+)"/g)) {
        const raw = match[1]!;
        const candidates = raw.includes(":") ? [raw] : namespaces.map((ns) => `${ns}:${raw}`);
        const known = candidates.some(
          (key) => en.has(key) || [...en.keys()].some((k) => k.startsWith(`${key}.`)),
        );
        if (!known) missing.push(`${path.relative(".", file)}: ${candidates.join(" | ")}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe("the organisation audit while in review", () => {
  // Audits take up to 24 hours or 1 working day; the notice after submitting and the status say so alike.
  const inReview: Record<string, [string, string]> = {
    en: ["24 hours", "1 working day"],
    pl: ["24 godzin", "1 dnia roboczego"],
    ru: ["24 часов", "1 рабочего дня"],
    it: ["24 ore", "1 giorno lavorativo"],
    ro: ["24 de ore", "1 zi lucrătoare"],
  };
  it.each(supportedLngs)("%s names both limits", (lng) => {
    const texts = load(lng);
    const submitted = texts.get("auth:audit.submitted")!;
    expect(texts.get("auth:audit.state3")).toBe(submitted);
    for (const limit of inReview[lng]!) expect(submitted).toContain(limit);
  });
});
