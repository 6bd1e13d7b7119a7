import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { i18nConfig, type Locale } from "./i18n";

/** A phrase of each kind, translated by an instance with the app's own settings. */
async function phrase(lng: Locale, text: string, values: Record<string, unknown>) {
  const i18n = i18next.createInstance();
  await i18n.init({
    ...i18nConfig,
    lng,
    ns: ["common"],
    resources: { [lng]: { common: { phrase: text } } },
  });
  return i18n.t("phrase", values);
}

const NBSP = "\u00a0";

describe("numbers inside translated phrases", () => {
  it("are written in the language's number format: grouping and decimal separator", async () => {
    expect(await phrase("en", "{{count}} readings", { count: 2016 })).toBe("2,016 readings");
    expect(await phrase("ru", "{{count}} значений", { count: 2016 })).toBe(`2${NBSP}016 значений`);
    expect(await phrase("ro", "{{count}} valori", { count: 2016 })).toBe("2.016 valori");
    expect(await phrase("pl", "{{count}} odczytów", { count: 12016 })).toBe(
      `12${NBSP}016 odczytów`,
    );
    expect(await phrase("it", "{{count}} valori", { count: 12016 })).toBe("12.016 valori");
    expect(await phrase("pl", "średnio {{value}} g", { value: 7.5 })).toBe("średnio 7,5 g");
    expect(await phrase("en", "on average {{value}} g", { value: 7.5 })).toBe("on average 7.5 g");
  });

  it("accept the explicit number format too", async () => {
    expect(await phrase("ro", "{{count, number}} zile", { count: 1500 })).toBe("1.500 zile");
  });

  it("leave texts, years and versions as they are", async () => {
    expect(await phrase("pl", "{{value}} mmol/L", { value: "5,5" })).toBe("5,5 mmol/L");
    expect(await phrase("en", "© {{year}} DiaCare", { year: 2026 })).toBe("© 2026 DiaCare");
    expect(await phrase("pl", "wersja {{version}}", { version: 1.5 })).toBe("wersja 1.5");
  });

  it("still choose the plural form by the number itself", async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      ...i18nConfig,
      lng: "ru",
      ns: ["common"],
      resources: {
        ru: {
          common: {
            days_one: "{{count}} день",
            days_few: "{{count}} дня",
            days_many: "{{count}} дней",
            days_other: "{{count}} дня",
          },
        },
      },
    });
    expect(i18n.t("days", { count: 1021 })).toBe(`1${NBSP}021 день`);
    expect(i18n.t("days", { count: 2.5 })).toBe("2,5 дня");
    expect(i18n.t("days", { count: 1005 })).toBe(`1${NBSP}005 дней`);
  });
});
