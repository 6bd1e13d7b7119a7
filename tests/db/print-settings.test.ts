import { describe, expect, it } from "vitest";
import { findVisiblePatient } from "~/models/access.server";
import { reportContext } from "~/services/report.server";
import {
  removeReportLogo,
  reportLogo,
  saveReportLogo,
  saveSettings,
  userSettings,
} from "~/models/setting.server";
import { action, loader } from "~/routes/newsetting";
import { action as setUnit } from "~/routes/set-unit";
import { LOGO_MAX_BYTES } from "~/schemas/setting";
import { db } from "~/utils/db.server";
import { sessionStorage } from "~/services/session.server";

/** The first bytes of a PNG (signature and the start of IHDR): enough for the type check. */
const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);
const GIF = new TextEncoder().encode("GIF89a\x01\x00\x01\x00");
const SVG = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
);

let n = 0;
/** A person with their own patient record and, unless `withSetting` is false, a settings row in `lang`. */
async function person(options: { withSetting?: boolean; lang?: string } = {}) {
  const user = await db().user.create({
    data: {
      email: `print-${++n}-${Date.now()}@settings.test`,
      identity: 1,
      active: true,
      patient: { create: {} },
      ...(options.withSetting === false
        ? {}
        : { setting: { create: { lang: options.lang ?? "en" } } }),
    },
    include: { patient: true },
  });
  return {
    user,
    viewer: { id: user.id, identity: 1, isPass: 0, role: "guest" },
    pid: user.patient!.id,
  };
}

async function cookieFor(userId: number) {
  const session = await sessionStorage().getSession();
  session.set("userId", userId);
  return (await sessionStorage().commitSession(session)).split(";")[0]!;
}

/** Posts to the /newsetting action; answers the status and the action's { intent, result, notice }. */
async function post(
  userId: number,
  body: URLSearchParams | FormData,
  headers: Record<string, string> = {},
) {
  const request = new Request("http://localhost/newsetting", {
    method: "POST",
    headers: { Cookie: await cookieFor(userId), ...headers },
    body,
  });
  const result = (await action({ request, params: {}, context: {} })) as unknown as {
    data: {
      intent: string;
      result: { error?: Record<string, string[]> } | null;
      notice: string | null;
    };
    init?: { status?: number };
  };
  return { status: result.init?.status ?? 200, ...result.data };
}

/** The /newsetting page's data for a signed-in user. */
async function pageLoader(userId: number, headers: Record<string, string> = {}) {
  const request = new Request("http://localhost/newsetting", {
    headers: { Cookie: await cookieFor(userId), ...headers },
  });
  return loader({ request, params: {}, context: {} });
}

function upload(bytes: Uint8Array<ArrayBuffer>, name: string, type: string) {
  const body = new FormData();
  body.append("intent", "logo");
  body.append("logo", new File([bytes], name, { type }));
  return body;
}

const settingsForm = (values: Record<string, string>) =>
  new URLSearchParams({ intent: "settings", ...values });

async function contextOf(who: Awaited<ReturnType<typeof person>>) {
  const patient = await findVisiblePatient(who.viewer, who.pid);
  return reportContext(who.user.id, patient!);
}

describe("units and print settings", () => {
  it("a user without changes has the defaults: mmol/L, kg, cm, portrait, left, split line, no logo", async () => {
    const who = await person();
    expect(await userSettings(who.user.id)).toEqual({
      lang: "en",
      unit: 0,
      weightUnit: 0,
      heightUnit: 0,
      paperSize: "a4",
      orientation: "portrait",
      nameStyle: 0,
      splitLine: true,
      timeZone: null,
      logo: null,
    });
  });

  it("the page's form saves the paper size; the page and the reports' context read it; a form without it keeps it", async () => {
    const who = await person();
    const form = {
      lang: "en",
      unit: "0",
      weightUnit: "0",
      heightUnit: "0",
      orientation: "portrait",
      nameStyle: "0",
      splitLine: "on",
    };
    expect((await pageLoader(who.user.id)).settings.paperSize).toBe("a4");
    expect(await post(who.user.id, settingsForm({ ...form, paperSize: "letter" }))).toMatchObject({
      status: 200,
      notice: "notices.saved",
    });
    expect((await pageLoader(who.user.id)).settings.paperSize).toBe("letter");
    expect(await contextOf(who)).toMatchObject({ paperSize: "letter", orientation: "portrait" });
    expect((await post(who.user.id, settingsForm({ ...form, unit: "1" }))).status).toBe(200);
    expect(await userSettings(who.user.id)).toMatchObject({ unit: 1, paperSize: "letter" });
    expect((await post(who.user.id, settingsForm({ ...form, paperSize: "a4" }))).status).toBe(200);
    expect(await contextOf(who)).toMatchObject({ paperSize: "a4" });
  });

  it("refuses a paper size that is neither A4 nor Letter and writes nothing", async () => {
    const who = await person();
    const before = await db().setting.findUniqueOrThrow({ where: { userId: who.user.id } });
    const answer = await post(
      who.user.id,
      settingsForm({
        lang: "ro",
        unit: "1",
        weightUnit: "1",
        heightUnit: "1",
        orientation: "landscape",
        nameStyle: "1",
        paperSize: "legal",
      }),
    );
    expect(answer.status).toBe(400);
    expect(answer.result?.error).toEqual({ paperSize: ["errors.paperSize"] });
    expect(await db().setting.findUniqueOrThrow({ where: { userId: who.user.id } })).toEqual(
      before,
    );
  });

  it("saves every value at once, and the reports' reportContext then reads them", async () => {
    const who = await person();
    await saveSettings(who.user.id, {
      lang: "ro",
      unit: 1,
      weightUnit: 1,
      heightUnit: 1,
      orientation: "landscape",
      nameStyle: 1,
      splitLine: false,
    });
    expect(await userSettings(who.user.id)).toMatchObject({
      lang: "ro",
      unit: 1,
      weightUnit: 1,
      heightUnit: 1,
      orientation: "landscape",
      nameStyle: 1,
      splitLine: false,
    });
    expect(await contextOf(who)).toMatchObject({
      unit: 1,
      nameStyle: "center",
      orientation: "landscape",
      splitLine: false,
      logoSrc: null,
    });
  });

  it("the page's form saves through the action and says so", async () => {
    const who = await person();
    const answer = await post(
      who.user.id,
      settingsForm({
        lang: "it",
        unit: "1",
        weightUnit: "0",
        heightUnit: "1",
        orientation: "landscape",
        nameStyle: "2",
        splitLine: "on",
      }),
    );
    expect(answer).toMatchObject({ status: 200, intent: "settings", notice: "notices.saved" });
    expect(await contextOf(who)).toMatchObject({
      unit: 1,
      nameStyle: "right",
      orientation: "landscape",
      splitLine: true,
    });
    expect(await userSettings(who.user.id)).toMatchObject({
      lang: "it",
      heightUnit: 1,
      weightUnit: 0,
    });
  });

  it("refuses a bad value with its message and writes nothing, not even the good values beside it", async () => {
    const who = await person();
    const before = await db().setting.findUniqueOrThrow({ where: { userId: who.user.id } });
    const answer = await post(
      who.user.id,
      settingsForm({
        lang: "ro",
        unit: "1",
        weightUnit: "1",
        heightUnit: "1",
        orientation: "sideways",
        nameStyle: "7",
        splitLine: "on",
      }),
    );
    expect(answer.status).toBe(400);
    expect(answer.result?.error).toEqual({
      orientation: ["errors.orientation"],
      nameStyle: ["errors.nameStyle"],
    });
    expect(await db().setting.findUniqueOrThrow({ where: { userId: who.user.id } })).toEqual(
      before,
    );
  });

  it("the form offers the reader's language when the account has no settings row, and a first save stores it", async () => {
    const who = await person({ withSetting: false });
    const page = await pageLoader(who.user.id, { "Accept-Language": "pl" });
    expect(page.settings.lang).toBe("pl");
    const answer = await post(
      who.user.id,
      settingsForm({
        lang: page.settings.lang,
        unit: "0",
        weightUnit: "0",
        heightUnit: "0",
        orientation: "portrait",
        nameStyle: "1",
      }),
      { "Accept-Language": "pl" },
    );
    expect(answer.status).toBe(200);
    expect(await db().setting.findUniqueOrThrow({ where: { userId: who.user.id } })).toMatchObject({
      lang: "pl",
      nameStyle: 1,
      splitLine: false,
    });
  });

  it("the header's unit menu also creates a missing settings row in the reader's language", async () => {
    const who = await person({ withSetting: false });
    const request = new Request("http://localhost/set-unit", {
      method: "POST",
      headers: {
        Cookie: await cookieFor(who.user.id),
        "Accept-Language": "it",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ unit: "1", redirectTo: "/newsetting" }),
    });
    const answer = (await setUnit({ request, params: {}, context: {} })) as Response;
    expect([answer.status, answer.headers.get("Location")]).toEqual([302, "/newsetting"]);
    expect(await db().setting.findUniqueOrThrow({ where: { userId: who.user.id } })).toMatchObject({
      lang: "it",
      unit: 1,
    });
  });

  it("an unknown intent or a body that is not a form is a 400, and signed-out visitors are sent to sign in", async () => {
    const who = await person();
    await expect(
      post(who.user.id, new URLSearchParams({ intent: "dropTables" })),
    ).rejects.toMatchObject({ status: 400 });
    const json = new Request("http://localhost/newsetting", {
      method: "POST",
      headers: { Cookie: await cookieFor(who.user.id), "Content-Type": "application/json" },
      body: "{}",
    });
    await expect(action({ request: json, params: {}, context: {} })).rejects.toMatchObject({
      status: 400,
    });
    const thrown = await loader({
      request: new Request("http://localhost/newsetting"),
      params: {},
      context: {},
    }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(302);
    expect((thrown as Response).headers.get("Location")).toBe("/login?redirectTo=%2Fnewsetting");
  });
});

describe("report logo", () => {
  it("keeps a PNG or GIF with the type its bytes show, and the reports then have it", async () => {
    const who = await person();
    expect(await saveReportLogo(who.user.id, PNG, "en")).toEqual({ ok: true, type: "image/png" });
    expect(await reportLogo(who.user.id)).toEqual({ bytes: PNG, type: "image/png" });
    expect(await contextOf(who)).toMatchObject({
      logoSrc: expect.stringMatching(/^\/report-logo\?v=\d+$/),
    });
    expect((await userSettings(who.user.id)).logo).toMatchObject({ type: "image/png" });
    expect(await saveReportLogo(who.user.id, GIF, "en")).toEqual({ ok: true, type: "image/gif" });
    expect((await reportLogo(who.user.id))?.type).toBe("image/gif");
  });

  it("refuses SVG, text and oversized files and keeps the logo it had", async () => {
    const who = await person();
    await saveReportLogo(who.user.id, PNG, "en");
    expect(await saveReportLogo(who.user.id, SVG, "en")).toEqual({
      ok: false,
      error: "errors.logoType",
    });
    expect(await saveReportLogo(who.user.id, new TextEncoder().encode("hello"), "en")).toEqual({
      ok: false,
      error: "errors.logoType",
    });
    const huge = new Uint8Array(LOGO_MAX_BYTES + 1);
    huge.set(PNG);
    expect(await saveReportLogo(who.user.id, huge, "en")).toEqual({
      ok: false,
      error: "errors.logoTooLarge",
    });
    expect(await reportLogo(who.user.id)).toEqual({ bytes: PNG, type: "image/png" });
  });

  it("removes the logo: the reports are printed without one", async () => {
    const who = await person();
    await saveReportLogo(who.user.id, PNG, "en");
    await removeReportLogo(who.user.id);
    expect(await reportLogo(who.user.id)).toBeNull();
    expect(await contextOf(who)).toMatchObject({ logoSrc: null });
    expect((await userSettings(who.user.id)).logo).toBeNull();
  });

  it("through the page: the bytes decide, not the declared type; SVG and oversized uploads get their messages", async () => {
    const who = await person();
    expect(await post(who.user.id, upload(PNG, "logo.txt", "text/plain"))).toMatchObject({
      status: 200,
      notice: "notices.logoSaved",
    });
    expect((await reportLogo(who.user.id))?.type).toBe("image/png");

    const svg = await post(who.user.id, upload(SVG, "logo.png", "image/png"));
    expect(svg).toMatchObject({ status: 400, intent: "logo", notice: null });
    expect(svg.result?.error).toEqual({ logo: ["errors.logoType"] });

    const big = await post(
      who.user.id,
      upload(new Uint8Array(LOGO_MAX_BYTES + 10), "big.png", "image/png"),
    );
    expect(big).toMatchObject({
      status: 413,
      intent: "logo",
      result: { error: { logo: ["errors.logoTooLarge"] } },
    });
    expect(await reportLogo(who.user.id)).toEqual({ bytes: PNG, type: "image/png" });

    expect(await post(who.user.id, new URLSearchParams({ intent: "removeLogo" }))).toMatchObject({
      status: 200,
      notice: "notices.logoRemoved",
    });
    expect(await reportLogo(who.user.id)).toBeNull();
  });
});

describe("time zone and meal times on the settings page", () => {
  const day = (values: Record<string, string>) => new URLSearchParams({ intent: "day", ...values });
  const times = {
    breakfastStart: "07:00",
    breakfastEnd: "09:30:00",
    lunchStart: "12:00:00",
    lunchEnd: "14:00:00",
    supperStart: "18:30:00",
    supperEnd: "21:00:00",
  };

  it("shows the person's zone among the 31 and their meal windows", async () => {
    const who = await person();
    const page = await pageLoader(who.user.id);
    expect(page.day?.zoneAndMeals).toMatchObject({
      timeZone: "UTC",
      meals: {
        breakfast: { start: "06:00:00", end: "10:00:00" },
        lunch: { start: "11:00:00", end: "14:00:00" },
        supper: { start: "17:00:00", end: "20:00:00" },
      },
    });
    expect(page.day?.zoneAndMeals?.zones).toHaveLength(31);
    // The read went through the access gateway: it is in the person's access log.
    expect(
      await db().auditLog.findMany({
        where: { patientId: who.pid },
        select: { action: true, channel: true, actorId: true },
      }),
    ).toEqual([{ action: "read:record", channel: "page", actorId: who.user.id }]);
  });

  it("saves them as the upload centre does (HH:mm read as HH:mm:00)", async () => {
    const who = await person();
    const answer = await post(who.user.id, day({ timeZone: "Europe/Rome", ...times }));
    expect(answer).toMatchObject({ status: 200, intent: "day" });
    // 07:00 = 25200 s, 09:30 = 34200 s, 12:00 = 43200 s, 14:00 = 50400 s, 18:30 = 66600 s, 21:00 = 75600 s.
    expect(
      await db().patient.findUniqueOrThrow({
        where: { id: who.pid },
        select: {
          timeZone: true,
          breakfastStart: true,
          breakfastEnd: true,
          lunchStart: true,
          lunchEnd: true,
          supperStart: true,
          supperEnd: true,
        },
      }),
    ).toEqual({
      timeZone: "Europe/Rome",
      breakfastStart: 25200,
      breakfastEnd: 34200,
      lunchStart: 43200,
      lunchEnd: 50400,
      supperStart: 66600,
      supperEnd: 75600,
    });
  });

  it("refuses a meal that ends before it starts, keeps what was typed and writes nothing", async () => {
    const who = await person();
    const answer = (await post(
      who.user.id,
      day({ timeZone: "Europe/Rome", ...times, lunchEnd: "11:00:00" }),
    )) as unknown as { status: number; day: { saved: boolean; error: string; typed: object } };
    expect(answer.status).toBe(400);
    expect(answer.day).toMatchObject({
      saved: false,
      error: "errors.mealTimeWrong",
      typed: { timeZone: "Europe/Rome", lunchEnd: "11:00:00" },
    });
    expect(
      await db().patient.findUniqueOrThrow({
        where: { id: who.pid },
        select: { timeZone: true, lunchEnd: true },
      }),
    ).toEqual({ timeZone: "UTC", lunchEnd: 50400 });
  });

  it("an account without a health record has no such form, and its post is a 404", async () => {
    const clinic = await db().user.create({
      data: { email: `print-clinic-${++n}@settings.test`, identity: 2, isPass: 1 },
    });
    expect((await pageLoader(clinic.id)).day).toBeNull();
    const thrown = await post(clinic.id, day({ timeZone: "Europe/Rome", ...times })).catch(
      (e: unknown) => e,
    );
    expect((thrown as Response).status).toBe(404);
  });
});

describe("the glucose target range on the settings page", () => {
  const range = (values: Record<string, string>) =>
    new URLSearchParams({ intent: "range", ...values });
  const limits = (pid: number) =>
    db().patient.findUniqueOrThrow({
      where: { id: pid },
      select: { lowLimit: true, highLimit: true },
    });

  it("shows the stored range (70-180 mg/dL) in the person's unit", async () => {
    const who = await person();
    expect((await pageLoader(who.user.id)).day?.targetRange).toEqual({
      unit: 0,
      lowLimit: 3.9,
      highLimit: 10,
    });
  });

  it("saves it with the health record's rules (mmol/L x 18, whole mg/dL) and logs the change", async () => {
    const who = await person();
    const answer = await post(who.user.id, range({ unit: "0", lowLimit: "4", highLimit: "9" }));
    expect(answer).toMatchObject({ status: 200, intent: "range", notice: "notices.rangeSaved" });
    expect(await limits(who.pid)).toEqual({ lowLimit: 72, highLimit: 162 });
    expect(
      await db().auditLog.count({ where: { patientId: who.pid, action: "update:targetRange" } }),
    ).toBe(1);
  });

  it("refuses a high limit not above the low one, or limits outside 40-400 mg/dL, writing nothing", async () => {
    const who = await person();
    const wrong = await post(who.user.id, range({ unit: "1", lowLimit: "150", highLimit: "150" }));
    expect(wrong.status).toBe(400);
    expect(wrong.result?.error).toEqual({ highLimit: ["errors.glucoseRangeWrong"] });
    const outside = await post(who.user.id, range({ unit: "1", lowLimit: "30", highLimit: "150" }));
    expect(outside.result?.error).toEqual({ lowLimit: ["errors.glucoseRangeBoundsMgdl"] });
    expect(await limits(who.pid)).toEqual({ lowLimit: 70, highLimit: 180 });
  });
});
