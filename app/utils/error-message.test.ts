import { readFileSync } from "node:fs";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { i18nConfig } from "~/i18n";
import { translateError } from "./error-message";

const namespaces = ["auth", "validation"];

function translator(lng: string) {
  const i18n = i18next.createInstance();
  void i18n.init({
    ...i18nConfig,
    lng,
    ns: namespaces,
    defaultNS: "auth",
    initImmediate: false,
    resources: {
      [lng]: Object.fromEntries(
        namespaces.map((ns) => [
          ns,
          JSON.parse(readFileSync(`locales/${lng}/${ns}.json`, "utf8")) as object,
        ]),
      ),
    },
  });
  return i18n.getFixedT(lng, "auth");
}

describe("translateError", () => {
  const en = translator("en");

  it("illegal characters: the message names the field when the form gives its label", () => {
    expect(translateError(en, "input.hiddenCharacters", "Hospital name")).toBe(
      "Illegal input in Hospital name: remove the invisible control or text-direction characters.",
    );
    expect(translateError(translator("pl"), "input.hiddenCharacters", "Adres")).toBe(
      "Niedozwolone dane w polu Adres: usuń niewidoczne znaki sterujące lub znaki kierunku tekstu.",
    );
  });

  it("without a label, the message that names no field", () => {
    expect(translateError(en, "input.hiddenCharacters")).toBe(
      "Illegal input: remove the invisible control or text-direction characters from this text.",
    );
  });

  it("a message without a variant naming the field is the same with or without the label", () => {
    expect(translateError(en, "input.invalid", "Address")).toBe("This value is not valid.");
  });

  it("values after the bar fill the message", () => {
    expect(translateError(en, 'errors.locked|{"minutes":3}', "Password")).toBe(
      "Too many attempts. Please try again in 3 min.",
    );
    expect(translateError(en, "errors.locked|{not json")).toBe(
      "Too many attempts. Please try again in {{minutes}} min.",
    );
  });
});
