import { readFileSync } from "node:fs";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { i18nConfig, supportedLngs, type Locale } from "~/i18n";

/** An i18next instance with the app's settings and the real locale files of these namespaces. */
async function translator(lng: Locale, namespaces: string[]) {
  const resources = Object.fromEntries(
    supportedLngs.map((l) => [
      l,
      Object.fromEntries(
        namespaces.map((ns) => [ns, JSON.parse(readFileSync(`locales/${l}/${ns}.json`, "utf8"))]),
      ),
    ]),
  );
  const i18n = i18next.createInstance();
  await i18n.init({ ...i18nConfig, lng, ns: namespaces, resources });
  return i18n.t;
}

// Expected forms from each language's grammar (CLDR plural rules): Russian and Polish take one
// form after 1 (and 21, 31... in Russian), another after 2-4 (22-24...), a third after 5-20 and
// 25-30...; Romanian adds "de" from 20 on (but not after 101-119); Italian "di" after a million.
describe("counted phrases take the form the number needs", () => {
  const cases: Record<Locale, [number, string][]> = {
    en: [
      [1, "1 minute"],
      [2, "2 minutes"],
      [21, "21 minutes"],
    ],
    ru: [
      [1, "1 минута"],
      [3, "3 минуты"],
      [5, "5 минут"],
      [11, "11 минут"],
      [21, "21 минута"],
      [24, "24 минуты"],
      // A decimal count is written with the language's decimal comma.
      [1.5, "1,5 минуты"],
    ],
    pl: [
      [1, "1 minuta"],
      [3, "3 minuty"],
      [5, "5 minut"],
      [12, "12 minut"],
      [21, "21 minut"],
      [22, "22 minuty"],
      [1.5, "1,5 minuty"],
    ],
    ro: [
      [1, "1 minut"],
      [2, "2 minute"],
      [19, "19 minute"],
      [20, "20 de minute"],
      [101, "101 minute"],
      [120, "120 de minute"],
    ],
    it: [
      [1, "1 minuto"],
      [2, "2 minuti"],
      // Grouped as Italian groups thousands, with dots.
      [1_000_000, "1.000.000 di minuti"],
    ],
  };
  it.each(supportedLngs)("%s: the pump report's minutes", async (lng) => {
    const t = await translator(lng, ["reports"]);
    for (const [count, text] of cases[lng]) expect(t("reports:pump.minutes", { count })).toBe(text);
  });

  it("a sentence: the invitation's days and the CSV error's characters", async () => {
    const ru = await translator("ru", ["mail", "csv"]);
    expect(ru("mail:invitation.text", { doctorName: "Д", link: "L", count: 14 })).toContain(
      "в течение 14 дней.",
    );
    expect(ru("mail:invitation.text", { doctorName: "Д", link: "L", count: 21 })).toContain(
      "в течение 21 дня.",
    );
    expect(ru("csv:errors.fieldTooLong", { line: 3, field: 2, count: 1000 })).toBe(
      // Russian groups thousands with a no-break space.
      "Строка 3: поле 2 длиннее 1\u00a0000 символов.",
    );
    const pl = await translator("pl", ["common"]);
    expect(pl("common:dateFields.atMost", { count: 90 })).toBe(
      "Najwyżej 90 dni, bez dni przyszłych.",
    );
    expect(pl("common:dateFields.atMost", { count: 1 })).toBe(
      "Najwyżej 1 dzień, bez dni przyszłych.",
    );
    const ro = await translator("ro", ["common"]);
    expect(ro("common:dateFields.between", { min: 3, count: 14 })).toBe(
      "Între 3 și 14 zile, niciuna în viitor.",
    );
    expect(ro("common:dateFields.atMost", { count: 90 })).toBe(
      "Cel mult 90 de zile, niciuna în viitor.",
    );
  });
});
