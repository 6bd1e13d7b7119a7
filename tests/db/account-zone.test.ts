import { describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { loader as uploadErrorsPage } from "~/routes/admin.upload-errors";
import { loader as findOne } from "~/routes/api.setting.findOne";
import { action as update } from "~/routes/api.setting.update";
import { action as settingsAction, loader as settingsPage } from "~/routes/newsetting";
import { loader as patientAddPage } from "~/routes/patientAdd";
import { db } from "~/utils/db.server";
import plSettings from "../../locales/pl/settings.json";
import { getApi, postApi, type Handler } from "./api-client";
import { cookieFor, statusOf } from "./report-support";

// The zone of an account's own times: chosen on the settings page or through the API by an
// account without a health record, the record's zone for a person with one, else UTC; and the
// pages that show such times in it.

const PL = { "Accept-Language": "pl" };
let serial = 0;

/** A clinic (no health record) or a person with a record in `recordZone`. */
async function account(
  options: {
    recordZone?: string;
    role?: "admin" | "guest";
    setting?: { lang: string; timeZone?: string | null };
  } = {},
) {
  serial += 1;
  const user = await db().user.create({
    data: {
      email: `zone-${serial}@zone.test`,
      identity: options.recordZone ? 1 : 2,
      isPass: options.recordZone ? 0 : 1,
      role: options.role ?? "guest",
      active: true,
      ...(options.recordZone ? { patient: { create: { timeZone: options.recordZone } } } : {}),
      ...(options.setting ? { setting: { create: options.setting } } : {}),
    },
  });
  return { id: user.id, token: await createApiToken(user.id) };
}

const storedZone = async (userId: number) =>
  (await db().setting.findUnique({ where: { userId }, select: { timeZone: true } }))?.timeZone;

const api = (userId: number, body: unknown, token: string) =>
  postApi(update as Handler, "/api/setting/update", body, token, PL);

type SettingsPage = {
  accountZone: { chosen: string | null; zones: { timezone: string }[]; now: number } | null;
  sample: { generatedAt: string; timeZone: string };
};

async function loadSettings(userId: number) {
  const request = new Request("http://localhost/newsetting", {
    headers: { Cookie: await cookieFor(userId) },
  });
  return (await settingsPage({ request, params: {}, context: {} })) as unknown as SettingsPage;
}

/** Posts the settings page's time-zone form; answers the status and the action's data. */
async function postZone(userId: number, timeZone: string | null) {
  const body = new URLSearchParams({ intent: "zone" });
  if (timeZone !== null) body.set("timeZone", timeZone);
  const request = new Request("http://localhost/newsetting", {
    method: "POST",
    headers: { Cookie: await cookieFor(userId), ...PL },
    body,
  });
  const answer = (await settingsAction({ request, params: {}, context: {} })) as unknown as {
    data: { result: { error?: Record<string, string[]> } | null; notice: string | null };
    init?: { status?: number };
  };
  return { status: answer.init?.status ?? 200, ...answer.data };
}

describe("GET /api/setting/findOne: the zone", () => {
  it("an account without a health record and without a choice: none, its times in UTC", async () => {
    const clinic = await account({ setting: { lang: "en" } });
    const { data } = await getApi(findOne as Handler, "/api/setting/findOne", clinic.token);
    expect([data.timeZone, data.accountTimeZone]).toEqual([null, "UTC"]);
    // Without a settings row at all, the same.
    const bare = await account();
    const answer = await getApi(findOne as Handler, "/api/setting/findOne", bare.token);
    expect([answer.data.timeZone, answer.data.accountTimeZone]).toEqual([null, "UTC"]);
  });

  it("a person with a health record: their times follow the record's zone", async () => {
    const person = await account({ recordZone: "Europe/Rome", setting: { lang: "it" } });
    const { data } = await getApi(findOne as Handler, "/api/setting/findOne", person.token);
    expect([data.timeZone, data.accountTimeZone]).toEqual([null, "Europe/Rome"]);
  });
});

describe("POST /api/setting/update: the zone of the caller's own times", () => {
  it("`{ timeZone }` saves a zone of the list and answers the settings, as findOne does", async () => {
    const clinic = await account({ setting: { lang: "en" } });
    const answer = await api(clinic.id, { timeZone: "Europe/Warsaw" }, clinic.token);
    expect(answer).toMatchObject({
      status: 200,
      code: 200,
      data: { lang: "en", timeZone: "Europe/Warsaw", accountTimeZone: "Europe/Warsaw" },
    });
    expect(await storedZone(clinic.id)).toBe("Europe/Warsaw");
    const read = await getApi(findOne as Handler, "/api/setting/findOne", clinic.token);
    expect(read.data).toEqual(answer.data);
  });

  it("null, or an empty text, chooses none again: UTC", async () => {
    const clinic = await account({ setting: { lang: "en", timeZone: "Asia/Tokyo" } });
    expect(await api(clinic.id, { timeZone: null }, clinic.token)).toMatchObject({
      code: 200,
      data: { timeZone: null, accountTimeZone: "UTC" },
    });
    expect(await storedZone(clinic.id)).toBeNull();
    await api(clinic.id, { timeZone: "Asia/Tokyo" }, clinic.token);
    expect(await api(clinic.id, { timeZone: "" }, clinic.token)).toMatchObject({
      code: 200,
      data: { timeZone: null },
    });
  });

  it("creates the settings row of an account without one, in the language it is read in", async () => {
    const clinic = await account();
    expect(await api(clinic.id, { timeZone: "America/New_York" }, clinic.token)).toMatchObject({
      code: 200,
      data: { lang: "pl", timeZone: "America/New_York" },
    });
  });

  it("the whole settings body takes it too; a body without it keeps the zone", async () => {
    const clinic = await account({ setting: { lang: "en" } });
    const all = {
      lang: "ro",
      unit: 1,
      weightUnit: 0,
      heightUnit: 0,
      orientation: "portrait",
      nameStyle: 0,
      splitLine: true,
    };
    expect(
      await api(clinic.id, { ...all, timeZone: "Europe/Bucharest" }, clinic.token),
    ).toMatchObject({ code: 200, data: { ...all, timeZone: "Europe/Bucharest" } });
    expect(await api(clinic.id, { ...all, lang: "it" }, clinic.token)).toMatchObject({
      code: 200,
      data: { lang: "it", timeZone: "Europe/Bucharest", accountTimeZone: "Europe/Bucharest" },
    });
  });

  it.each([
    ["a real zone that is not one of the 31", "Asia/Kathmandu"],
    ["an unknown zone", "Mars/Base"],
    ["a fixed offset", "+01:00"],
    ["a number", 60],
  ])("refuses %s with the translated message (400) and keeps the zone", async (_what, zone) => {
    const clinic = await account({ setting: { lang: "en", timeZone: "Europe/London" } });
    expect(await api(clinic.id, { timeZone: zone }, clinic.token)).toMatchObject({
      status: 400,
      code: 400,
      msg: plSettings.errors.accountZone,
    });
    expect(await storedZone(clinic.id)).toBe("Europe/London");
  });

  it("refuses a zone from a person with a health record (theirs is the record's) and writes nothing", async () => {
    const person = await account({ recordZone: "Europe/Rome", setting: { lang: "en" } });
    expect(await api(person.id, { timeZone: "Europe/Warsaw" }, person.token)).toMatchObject({
      status: 400,
      code: 400,
      msg: plSettings.errors.accountZoneOfRecord,
      data: { fields: { timeZone: ["errors.accountZoneOfRecord"] } },
    });
    const all = {
      lang: "ru",
      unit: 1,
      weightUnit: 1,
      heightUnit: 1,
      orientation: "landscape",
      nameStyle: 1,
      splitLine: false,
      timeZone: "Europe/Warsaw",
    };
    expect(await api(person.id, all, person.token)).toMatchObject({
      status: 400,
      msg: plSettings.errors.accountZoneOfRecord,
    });
    expect(
      await db().setting.findUniqueOrThrow({
        where: { userId: person.id },
        select: { lang: true, unit: true, timeZone: true },
      }),
    ).toEqual({ lang: "en", unit: 0, timeZone: null });
    // None is no choice: the round trip of findOne's answer works for them.
    expect(await api(person.id, { ...all, timeZone: null }, person.token)).toMatchObject({
      code: 200,
      data: { lang: "ru", timeZone: null, accountTimeZone: "Europe/Rome" },
    });
  });
});

describe("the settings page /newsetting", () => {
  it("offers an account without a health record the 31 zones and none; the header preview is on its clock", async () => {
    const clinic = await account({ setting: { lang: "en" } });
    const before = await loadSettings(clinic.id);
    expect(before.accountZone?.chosen).toBeNull();
    expect(before.accountZone?.zones).toHaveLength(31);
    expect(before.sample.timeZone).toBe("UTC");

    const saved = await postZone(clinic.id, "Asia/Tokyo");
    expect([saved.status, saved.notice]).toEqual([200, "notices.zoneSaved"]);
    expect(await storedZone(clinic.id)).toBe("Asia/Tokyo");
    const after = await loadSettings(clinic.id);
    expect(after.accountZone?.chosen).toBe("Asia/Tokyo");
    expect(after.sample.timeZone).toBe("Asia/Tokyo");
    // Tokyo is UTC+9 all year: the preview's time is nine hours after UTC's.
    const utc = new Date(after.accountZone!.now);
    const tokyo = new Date(utc.getTime() + 9 * 3_600_000);
    const two = (n: number) => String(n).padStart(2, "0");
    const month = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ")[tokyo.getUTCMonth()];
    // The English page writes the medium date and the 24-hour time: "Nov 26, 2026, 23:04".
    expect(after.sample.generatedAt).toBe(
      `${month} ${tokyo.getUTCDate()}, ${tokyo.getUTCFullYear()}, ${two(tokyo.getUTCHours())}:${two(tokyo.getUTCMinutes())}`,
    );

    // The form's "none" sends an empty value: back to UTC.
    expect((await postZone(clinic.id, "")).notice).toBe("notices.zoneSaved");
    expect(await storedZone(clinic.id)).toBeNull();
    expect((await loadSettings(clinic.id)).sample.timeZone).toBe("UTC");
  });

  it("refuses a zone outside the list with its message and keeps the saved one", async () => {
    const clinic = await account({ setting: { lang: "en", timeZone: "Europe/Rome" } });
    const refused = await postZone(clinic.id, "Asia/Kathmandu");
    expect([refused.status, refused.result?.error]).toEqual([
      400,
      { timeZone: ["errors.accountZone"] },
    ]);
    expect(await storedZone(clinic.id)).toBe("Europe/Rome");
  });

  it("a person with a health record gets no such form (404 for its post); their preview is on the record's clock", async () => {
    const person = await account({ recordZone: "America/Chicago", setting: { lang: "en" } });
    const page = await loadSettings(person.id);
    expect(page.accountZone).toBeNull();
    expect(page.sample.timeZone).toBe("America/Chicago");
    expect(await statusOf(() => postZone(person.id, "Europe/Warsaw"))).toBe(404);
    expect(await storedZone(person.id)).toBeNull();
  });
});

describe("pages that show the reader's own times", () => {
  it("/admin/upload-errors writes each report's time on the staff member's clock, to the second", async () => {
    const admin = await account({ role: "admin", setting: { lang: "en" } });
    const operator = await account();
    // 12:34:56 UTC: 07:34:56 in New York in January (UTC-5), 08:34:56 in July (UTC-4).
    await db().uploadErrorLog.createMany({
      data: [
        {
          operatorUserId: operator.id,
          content: "winter",
          createdAt: new Date("2026-01-15T12:34:56Z"),
        },
        {
          operatorUserId: operator.id,
          content: "summer",
          createdAt: new Date("2026-07-15T12:34:56Z"),
        },
      ],
    });
    const load = async () =>
      (await uploadErrorsPage({
        request: new Request("http://localhost/admin/upload-errors", {
          headers: { Cookie: await cookieFor(admin.id) },
        }),
        params: {},
        context: {},
      })) as { timeZone: string; items: { content: string; when: string; at: string }[] };
    const times = (page: Awaited<ReturnType<typeof load>>) =>
      page.items.map((item) => [item.content, item.when]);

    const utc = await load();
    expect(utc.timeZone).toBe("UTC");
    expect(times(utc)).toEqual([
      ["summer", "Jul 15, 2026, 12:34:56"],
      ["winter", "Jan 15, 2026, 12:34:56"],
    ]);
    expect(utc.items[0]?.at).toBe("2026-07-15T12:34:56.000Z");

    await postZone(admin.id, "America/New_York");
    const local = await load();
    expect(local.timeZone).toBe("America/New_York");
    expect(times(local)).toEqual([
      ["summer", "Jul 15, 2026, 08:34:56"],
      ["winter", "Jan 15, 2026, 07:34:56"],
    ]);
  });

  it("/patientAdd starts a new record in the creator's own zone", async () => {
    const clinic = await account({ setting: { lang: "en", timeZone: "Europe/Warsaw" } });
    const load = async (userId: number) =>
      (await patientAddPage({
        request: new Request("http://localhost/patientAdd", {
          headers: { Cookie: await cookieFor(userId) },
        }),
        params: {},
        context: {},
      })) as { timeZone: string; timeZones: { value: string }[] };
    expect((await load(clinic.id)).timeZone).toBe("Europe/Warsaw");
    const unset = await account({ setting: { lang: "en" } });
    expect((await load(unset.id)).timeZone).toBe("UTC");
    // A person's own record may be in a zone outside the 31: it is offered first.
    const person = await account({ recordZone: "Asia/Kathmandu", setting: { lang: "en" } });
    const page = await load(person.id);
    expect(page.timeZone).toBe("Asia/Kathmandu");
    expect(page.timeZones[0]?.value).toBe("Asia/Kathmandu");
  });
});
