import { readFileSync } from "node:fs";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { accessActionKeys, accessLogPage, accessRoleKey } from "./access-log";

const sharing = JSON.parse(readFileSync("locales/en/sharing.json", "utf8"));

/** The English text i18next picks for a list of keys (the first that exists), as the page shows it. */
async function english(keys: string[]): Promise<string> {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: "en",
    ns: ["sharing"],
    defaultNS: "sharing",
    resources: { en: { sharing } },
  });
  return i18n.t(keys);
}

describe("accessActionKeys: plain words, never the action code", () => {
  it("a report printed as a PDF, the same report read on a page, and the former page-named codes", async () => {
    expect(await english(accessActionKeys("read:statisticsReport", "pdf"))).toBe(
      "Printed your statistics report",
    );
    expect(await english(accessActionKeys("read:statisticsprint", "pdf"))).toBe(
      "Printed your statistics report",
    );
    expect(await english(accessActionKeys("read:statisticsReport", "page"))).toBe(
      "Read your statistics report",
    );
    expect(await english(accessActionKeys("read:cgmsprint", "page"))).toBe("Read your CGM report");
    expect(await english(accessActionKeys("read:print", "pdf"))).toBe(
      "Printed your pump and BG report",
    );
    expect(await english(accessActionKeys("read:agpprint", "api"))).toBe(
      "Read your glucose profile",
    );
  });

  it("other known actions keep their own words; unknown ones fall back to their kind, then to a general sentence", async () => {
    expect(await english(accessActionKeys("read:patientHome", "page"))).toBe(
      "Opened your patient page",
    );
    expect(await english(accessActionKeys("share:delete", null))).toBe("Deleted a share");
    expect(await english(accessActionKeys("upload:equil", null))).toBe(
      "Uploaded insulin pump data",
    );
    expect(await english(accessActionKeys("read:somethingNew", "api"))).toBe("Looked at your data");
    expect(await english(accessActionKeys("upload:someDevice", null))).toBe(
      "Uploaded data for you",
    );
    expect(await english(accessActionKeys("zap", null))).toBe("Did something with your data");
    expect(await english(accessActionKeys("", null))).toBe("Did something with your data");
    expect(await english(accessActionKeys("weird.code:with.dots", "page"))).toBe(
      "Did something with your data",
    );
  });

  it("orders the keys from the most specific", () => {
    expect(accessActionKeys("read:statisticsprint", "pdf")).toEqual([
      "accessLog.printed.read_statisticsReport",
      "accessLog.actions.read_statisticsReport",
      "accessLog.verbs.read",
      "accessLog.actions.other",
    ]);
  });
});

describe("accessRoleKey and accessLogPage", () => {
  it("names the reader's role", () => {
    expect(accessRoleKey({ identity: 2, role: "guest" })).toBe("accessLog.roles.clinic");
    expect(accessRoleKey({ identity: 1, role: "guest" })).toBe("accessLog.roles.person");
    expect(accessRoleKey({ identity: 2, role: "admin" })).toBe("accessLog.roles.staff");
    expect(accessRoleKey(null)).toBeNull();
  });

  it("keeps the page between the first and the last", () => {
    expect(accessLogPage(1, 0, 20)).toEqual({ page: 1, pages: 1 });
    expect(accessLogPage(2, 21, 20)).toEqual({ page: 2, pages: 2 });
    expect(accessLogPage(9, 45, 20)).toEqual({ page: 3, pages: 3 });
    expect(accessLogPage(0, 45, 20)).toEqual({ page: 1, pages: 3 });
  });
});
