import { describe, expect, it } from "vitest";
import { supportedLngs } from "~/i18n";
import {
  translationScript,
  translationScriptBody,
  translationScriptHref,
  translations,
} from "./i18n.server";

const PREFIX = "window.__i18n=";

describe("translationScript", () => {
  it("sets window.__i18n to the language and all its namespaces", () => {
    const { body } = translationScript("pl");
    expect(body.startsWith(PREFIX)).toBe(true);
    expect(body.endsWith(";")).toBe(true);
    const value = JSON.parse(body.slice(PREFIX.length, -1)) as { lng: string; resources: object };
    expect(value.lng).toBe("pl");
    expect(value.resources).toEqual(translations().pl);
  });

  it("can never close a script element, whatever a string holds", () => {
    const text = "</script><script>alert(1)</script>\u2028\u2029";
    const body = translationScriptBody("en", { common: { x: text } });
    expect(body).not.toMatch(/[<\u2028\u2029]/);
    const value = JSON.parse(body.slice(PREFIX.length, -1)) as {
      resources: { common: { x: string } };
    };
    expect(value.resources.common.x).toBe(text);
  });

  it("names each language's text by a hash of its own", () => {
    const versions = supportedLngs.map((lng) => translationScript(lng).version);
    for (const v of versions) expect(v).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(versions).size).toBe(supportedLngs.length);
    expect(translationScriptHref("ro")).toBe(`/i18n/ro.${translationScript("ro").version}.js`);
  });
});
