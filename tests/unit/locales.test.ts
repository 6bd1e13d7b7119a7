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
  return [...new Set([...value.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]))].sort();
}

/** i18next's plural suffixes (JSON v4): the CLDR category after the key's last underscore. */
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** The keys of a locale with each plural family (`key_one`, `key_other`...) as one key, and its forms. */
function families(texts: Map<string, string>): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [key, value] of texts) {
    const match = PLURAL_SUFFIX.exec(key);
    const base = match ? key.slice(0, match.index) : key;
    const forms = out.get(base) ?? new Map<string, string>();
    forms.set(match ? match[1]! : "", value);
    out.set(base, forms);
  }
  return out;
}

/** The plural categories a language distinguishes (CLDR, through Intl as i18next uses them). */
function categories(lng: string): string[] {
  return [...new Intl.PluralRules(lng).resolvedOptions().pluralCategories].sort();
}

/**
 * A phrase that counts something: a placeholder followed, within two words, by a counted noun in
 * the plural (the singular nouns are also verbs or stand for a value, such as "{{value}} per entry").
 * Such a phrase needs plural forms ("1 day", "2 days"; in Polish "1 dzień", "2 dni", "5 dni").
 */
const COUNTED =
  /{{\s*\w+\s*}}\s+(?:[a-z]+\s+){0,2}(?:days|minutes|hours|readings|boluses|fields|characters|lines|records|values|patients|entries|uploads)\b/;

/**
 * Phrases whose numbers are fixed by the code, not counts of the reader's data, and are written
 * in each language for those numbers: the statistics report's data rule (14 days, 3 readings) and
 * a clinic's tag limits (20 tags of 30 characters).
 */
const FIXED_NUMBERS = [
  /^reports:statistics\.method\.sufficiency$/,
  /^triage:tags\.(intro|limits|errors\.nameTooLong)$/,
];

const enFamilies = families(en);

describe("plural forms", () => {
  it("every phrase that counts something has plural forms, counted by {{count}}", () => {
    const single = [...enFamilies]
      .filter(([, forms]) => forms.has("") && COUNTED.test(forms.get("")!))
      .filter(([key]) => !FIXED_NUMBERS.some((re) => re.test(key)))
      .map(([key]) => key);
    expect(single).toEqual([]);
    const uncounted = [...enFamilies]
      .filter(
        ([, forms]) => !forms.has("") && ![...forms.values()].some((v) => v.includes("{{count}}")),
      )
      .map(([key]) => key);
    expect(uncounted).toEqual([]);
  });

  it.each(supportedLngs)("%s: each plural family has exactly its language's categories", (lng) => {
    const wanted = categories(lng).join();
    const wrong = [...families(load(lng))]
      .filter(([, forms]) => !forms.has(""))
      .filter(([, forms]) => [...forms.keys()].sort().join() !== wanted)
      .map(([key, forms]) => `${key}: ${[...forms.keys()].sort().join()}`);
    expect(wrong).toEqual([]);
  });

  it("the languages distinguish the categories their grammar needs", () => {
    expect(Object.fromEntries(supportedLngs.map((l) => [l, categories(l).join()]))).toEqual({
      en: "one,other",
      pl: "few,many,one,other",
      ru: "few,many,one,other",
      it: "many,one,other",
      ro: "few,one,other",
    });
  });
});

describe.each(supportedLngs.filter((l) => l !== fallbackLng))("locale %s", (lng) => {
  const other = load(lng);

  const otherFamilies = families(other);

  it("has every English key, and no key English lacks (a plural family counts as one key)", () => {
    expect([...enFamilies.keys()].filter((k) => !otherFamilies.has(k))).toEqual([]);
    expect([...otherFamilies.keys()].filter((k) => !enFamilies.has(k))).toEqual([]);
    const plural = (forms?: Map<string, string>) => (forms?.has("") ? "single" : "plural");
    expect(
      [...enFamilies]
        .filter(([k, f]) => plural(f) !== plural(otherFamilies.get(k)))
        .map(([k]) => k),
    ).toEqual([]);
  });

  it("is translated, not copied from English", () => {
    const allowed = [...SAME_AS_ENGLISH, ...(BORROWED[lng] ?? [])];
    const copies = [...en].filter(
      ([k, v]) => other.get(k) === v && /[a-z]{3}/i.test(v) && !allowed.some((re) => re.test(k)),
    );
    expect(copies.map(([k]) => k)).toEqual([]);
  });

  it("keeps every {{placeholder}} of the English text, in each plural form", () => {
    const broken: string[] = [];
    for (const [key, forms] of enFamilies) {
      const wanted = interpolations(forms.get("") ?? forms.get("other")!).join();
      for (const [category, value] of otherFamilies.get(key) ?? [])
        if (interpolations(value).join() !== wanted)
          broken.push(category ? `${key}_${category}` : key);
    }
    expect(broken).toEqual([]);
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
          (key) =>
            en.has(key) ||
            en.has(`${key}_other`) ||
            [...en.keys()].some((k) => k.startsWith(`${key}.`)),
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
