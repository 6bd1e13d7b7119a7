import { beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { loader as getPdaTimeZone } from "~/routes/api.patient-data.getPdaTimeZone";
import { loader as findOne } from "~/routes/api.setting.findOne";
import { loader as getTimeZone } from "~/routes/api.setting.getTimeZone";
import { action as update } from "~/routes/api.setting.update";
import { db } from "~/utils/db.server";
import plApi from "../../locales/pl/api.json";
import plSettings from "../../locales/pl/settings.json";
import { getApi, postApi, type Handler } from "./api-client";

// The settings calls of the device-upload wizard, against PostgreSQL: who may call them, what they
// answer and what they write.

const PL = { "Accept-Language": "pl" };
let serial = 0;

async function account(
  options: {
    identity?: 1 | 2;
    isPass?: number;
    setting?: {
      lang: string;
      unit: number;
      weightUnit?: number;
      heightUnit?: number;
      paperSize?: string;
    };
  } = {},
) {
  serial += 1;
  const identity = options.identity ?? 1;
  const user = await db().user.create({
    data: {
      email: `settings-${serial}@settings.test`,
      identity,
      isPass: options.isPass ?? (identity === 2 ? 1 : 0),
      ...(identity === 1 ? { patient: { create: { timeZone: "UTC" } } } : {}),
      ...(options.setting ? { setting: { create: options.setting } } : {}),
    },
    include: { patient: true },
  });
  return {
    id: user.id,
    email: user.email,
    pid: user.patient?.id ?? 0,
    token: await createApiToken(user.id),
  };
}

const share = (providerId: number, readerId: number, state: number, sourceType = 0) =>
  db().readPower.create({ data: { providerId, readerId, sourceType, state } });

/** The zone's offset now as Intl names it ("GMT+01:00"; "GMT" alone for UTC): a source other than the code's Temporal. */
function intlOffsetName(zone: string, at: Date) {
  const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName")!.value;
  return name === "GMT" ? "GMT+00:00" : name;
}

describe("GET /api/setting/getTimeZone", () => {
  it("needs a token (800)", async () => {
    expect(
      await getApi(getTimeZone as Handler, "/api/setting/getTimeZone", null, PL),
    ).toMatchObject({ status: 401, code: 800, msg: plApi.token["800"], data: null });
  });

  it("answers the wizard's 31 zones with today's offsets and the handheld's 26 zones", async () => {
    const user = await account();
    const before = new Date();
    const answer = await getApi(getTimeZone as Handler, "/api/setting/getTimeZone", user.token);
    expect(answer).toMatchObject({ status: 200, code: 200 });
    const { zones, pumpZones } = answer.data as {
      zones: { timezone: string; name: string; offsetName: string; offset: number }[];
      pumpZones: unknown[];
    };
    expect(zones).toHaveLength(31);
    expect(pumpZones).toHaveLength(26);
    for (const zone of zones) {
      // Within a second of the call no zone of the list changes its offset (they change at night, local time, on a whole minute).
      expect([zone.timezone, zone.offsetName]).toEqual([
        zone.timezone,
        intlOffsetName(zone.timezone, before),
      ]);
      const [, sign, hh, mm] = /^GMT([+-])(\d{2}):(\d{2})$/.exec(zone.offsetName)!;
      expect([zone.timezone, zone.offset]).toEqual([
        zone.timezone,
        (sign === "-" ? -1 : 1) * (Number(hh) * 60 + Number(mm)),
      ]);
    }
    expect(zones.map((z) => z.offset)).toEqual(
      [...zones.map((z) => z.offset)].sort((a, b) => a - b),
    );
    expect(zones.find((z) => z.timezone === "Europe/Warsaw")?.name).toBe("Warsaw");
    expect(pumpZones[0]).toEqual({ offset: -12, offsetName: "GMT-12:00", timezone: "-12:00" });
    expect(pumpZones[25]).toEqual({ offset: 13, offsetName: "GMT+13:00", timezone: "+13:00" });
  });
});

describe("GET /api/setting/findOne", () => {
  it("needs a token (800)", async () => {
    expect(await getApi(findOne as Handler, "/api/setting/findOne", null, PL)).toMatchObject({
      code: 800,
      msg: plApi.token["800"],
    });
  });

  it("answers the caller's language, units and print settings, and the defaults without a settings row", async () => {
    const set = await account({ setting: { lang: "it", unit: 1, weightUnit: 1, heightUnit: 0 } });
    expect((await getApi(findOne as Handler, "/api/setting/findOne", set.token)).data).toEqual({
      lang: "it",
      unit: 1,
      weightUnit: 1,
      heightUnit: 0,
      paperSize: "a4",
      orientation: "portrait",
      nameStyle: 0,
      splitLine: true,
      timeZone: null,
      accountTimeZone: "UTC",
    });
    const unset = await account();
    expect((await getApi(findOne as Handler, "/api/setting/findOne", unset.token)).data).toEqual({
      lang: "en",
      unit: 0,
      weightUnit: 0,
      heightUnit: 0,
      paperSize: "a4",
      orientation: "portrait",
      nameStyle: 0,
      splitLine: true,
      timeZone: null,
      accountTimeZone: "UTC",
    });
  });
});

describe("the reports' paper size in findOne and the whole settings body", () => {
  const all = {
    lang: "en",
    unit: 0,
    weightUnit: 0,
    heightUnit: 0,
    orientation: "portrait",
    nameStyle: 0,
    splitLine: true,
  };
  const paperOf = async (userId: number) =>
    (await db().setting.findUniqueOrThrow({ where: { userId }, select: { paperSize: true } }))
      .paperSize;

  it("findOne answers the saved paper size", async () => {
    const user = await account({ setting: { lang: "en", unit: 0, paperSize: "letter" } });
    expect(
      (await getApi(findOne as Handler, "/api/setting/findOne", user.token)).data,
    ).toMatchObject({ paperSize: "letter" });
  });

  it("saves Letter and then A4 when the body names it", async () => {
    const user = await account({ setting: { lang: "en", unit: 0 } });
    expect(
      await postApi(
        update as Handler,
        "/api/setting/update",
        { ...all, paperSize: "letter" },
        user.token,
      ),
    ).toMatchObject({ code: 200, data: { paperSize: "letter" } });
    expect(await paperOf(user.id)).toBe("letter");
    expect(
      await postApi(
        update as Handler,
        "/api/setting/update",
        { ...all, paperSize: "a4" },
        user.token,
      ),
    ).toMatchObject({ code: 200, data: { paperSize: "a4" } });
    expect(await paperOf(user.id)).toBe("a4");
  });

  it("a body without it keeps the saved paper size; a first save without it stores A4", async () => {
    const user = await account({ setting: { lang: "en", unit: 0, paperSize: "letter" } });
    expect(
      await postApi(update as Handler, "/api/setting/update", { ...all, unit: 1 }, user.token),
    ).toMatchObject({ code: 200, data: { unit: 1, paperSize: "letter" } });
    expect(await paperOf(user.id)).toBe("letter");
    const fresh = await account();
    expect(await postApi(update as Handler, "/api/setting/update", all, fresh.token)).toMatchObject(
      { code: 200, data: { paperSize: "a4" } },
    );
    expect(await paperOf(fresh.id)).toBe("a4");
  });

  it.each([["legal"], ["A4"], ["Letter"], [1], [null]])(
    "refuses the paper size %j with the translated message (400) and writes nothing",
    async (paperSize) => {
      const user = await account({ setting: { lang: "en", unit: 0, paperSize: "letter" } });
      expect(
        await postApi(
          update as Handler,
          "/api/setting/update",
          { ...all, lang: "ro", paperSize },
          user.token,
          PL,
        ),
      ).toMatchObject({ status: 400, code: 400, msg: plSettings.errors.paperSize });
      expect(
        await db().setting.findUniqueOrThrow({
          where: { userId: user.id },
          select: { lang: true, paperSize: true },
        }),
      ).toEqual({ lang: "en", paperSize: "letter" });
    },
  );
});

describe("POST /api/setting/update: language and unit", () => {
  it("needs a token (800) and writes nothing without one", async () => {
    const before = await db().setting.count();
    expect(
      await postApi(update as Handler, "/api/setting/update", { lang: "ru" }, null, PL),
    ).toMatchObject({ code: 800, msg: plApi.token["800"] });
    expect(await db().setting.count()).toBe(before);
  });

  it("saves the caller's language and unit, and answers the settings after the change", async () => {
    const user = await account({ setting: { lang: "en", unit: 0 } });
    expect(
      await postApi(update as Handler, "/api/setting/update", { lang: "ro" }, user.token),
    ).toMatchObject({ code: 200, data: { lang: "ro", unit: 0, weightUnit: 0, heightUnit: 0 } });
    expect(
      await postApi(update as Handler, "/api/setting/update", { unit: 1 }, user.token),
    ).toMatchObject({ code: 200, data: { lang: "ro", unit: 1 } });
    expect(
      await db().setting.findUniqueOrThrow({
        where: { userId: user.id },
        select: { lang: true, unit: true },
      }),
    ).toEqual({ lang: "ro", unit: 1 });
  });

  it("a first unit save creates the settings row in the caller's language", async () => {
    const user = await account();
    expect(
      await postApi(update as Handler, "/api/setting/update", { unit: "1" }, user.token, PL),
    ).toMatchObject({ code: 200, data: { lang: "pl", unit: 1 } });
  });

  it.each([
    [{ lang: "de" }, plSettings.errors.lang],
    [{ unit: 2 }, plSettings.errors.unit],
    [{ unit: true }, plSettings.errors.unit],
    [{ lang: "pl", unit: 1 }, plSettings.errors.unknownField],
    [{ language: "pl" }, plSettings.errors.updateShape],
    [{}, plSettings.errors.updateShape],
  ])("refuses %j with the translated message (400) and changes nothing", async (body, msg) => {
    const user = await account({ setting: { lang: "en", unit: 0 } });
    expect(
      await postApi(update as Handler, "/api/setting/update", body, user.token, PL),
    ).toMatchObject({ status: 400, code: 400, msg });
    expect(
      await db().setting.findUniqueOrThrow({
        where: { userId: user.id },
        select: { lang: true, unit: true },
      }),
    ).toEqual({ lang: "en", unit: 0 });
  });
});

describe("POST /api/setting/update: all the settings at once (the settings page's form)", () => {
  const all = {
    lang: "pl",
    unit: 1,
    weightUnit: 1,
    heightUnit: 1,
    orientation: "landscape",
    nameStyle: 2,
    splitLine: false,
  };
  const stored = (userId: number) =>
    db().setting.findUniqueOrThrow({
      where: { userId },
      select: {
        lang: true,
        unit: true,
        weightUnit: true,
        heightUnit: true,
        orientation: true,
        nameStyle: true,
        splitLine: true,
      },
    });

  it("saves every value, as numbers or their digits, and answers them as findOne does", async () => {
    const user = await account({ setting: { lang: "en", unit: 0 } });
    const answer = await postApi(update as Handler, "/api/setting/update", all, user.token);
    expect(answer).toMatchObject({ status: 200, code: 200, data: all });
    expect(await stored(user.id)).toEqual(all);
    const digits = { ...all, unit: "0", nameStyle: "1", splitLine: true };
    expect(
      await postApi(update as Handler, "/api/setting/update", digits, user.token),
    ).toMatchObject({ code: 200, data: { ...all, unit: 0, nameStyle: 1, splitLine: true } });
  });

  it("takes a missing split line as off, and creates the settings row of an account without one", async () => {
    const user = await account();
    const { splitLine: _splitLine, ...rest } = all;
    expect(await postApi(update as Handler, "/api/setting/update", rest, user.token)).toMatchObject(
      { code: 200, data: { ...all, splitLine: false } },
    );
  });

  it.each([
    [{ ...all, orientation: "sideways" }, plSettings.errors.orientation],
    [{ ...all, nameStyle: 3 }, plSettings.errors.nameStyle],
    [{ ...all, weightUnit: 1.5 }, plSettings.errors.weightUnit],
    [{ ...all, splitLine: "yes" }, plSettings.errors.splitLine],
    [{ ...all, lang: undefined }, plSettings.errors.lang],
    [{ ...all, logo: "x" }, plSettings.errors.unknownField],
  ])("refuses %j with the translated message (400) and changes nothing", async (body, msg) => {
    const user = await account({ setting: { lang: "en", unit: 0 } });
    expect(
      await postApi(update as Handler, "/api/setting/update", body, user.token, PL),
    ).toMatchObject({ status: 400, code: 400, msg });
    expect(await stored(user.id)).toEqual({
      lang: "en",
      unit: 0,
      weightUnit: 0,
      heightUnit: 0,
      orientation: "portrait",
      nameStyle: 0,
      splitLine: true,
    });
  });
});

describe("POST /api/setting/update: a patient's time zone and meal times", () => {
  const body = (pid: number) => ({
    pid,
    timeZone: "Europe/Rome",
    breakfastTime: ["07:00:00", "09:30:00"],
    lunchTime: ["12:00:00", "14:00:00"],
    supperTime: ["18:30:00", "21:00:00"],
  });
  // 07:00 = 25200 s, 09:30 = 34200 s, 12:00 = 43200 s, 14:00 = 50400 s, 18:30 = 66600 s, 21:00 = 75600 s.
  const saved = {
    timeZone: "Europe/Rome",
    breakfastStart: 25200,
    breakfastEnd: 34200,
    lunchStart: 43200,
    lunchEnd: 50400,
    supperStart: 66600,
    supperEnd: 75600,
  };
  /** The record's defaults (prisma/schema.prisma): UTC, 06-10, 11-14, 17-20. */
  const untouched = {
    timeZone: "UTC",
    breakfastStart: 21600,
    breakfastEnd: 36000,
    lunchStart: 39600,
    lunchEnd: 50400,
    supperStart: 61200,
    supperEnd: 72000,
  };
  const columns = (pid: number) =>
    db().patient.findUniqueOrThrow({
      where: { id: pid },
      select: {
        timeZone: true,
        breakfastStart: true,
        breakfastEnd: true,
        lunchStart: true,
        lunchEnd: true,
        supperStart: true,
        supperEnd: true,
      },
    });
  const changes = (patientId: number) =>
    db().auditLog.findMany({
      where: { patientId, action: { startsWith: "update:" } },
      select: { actorId: true, action: true, channel: true },
    });

  let owner: Awaited<ReturnType<typeof account>>;
  let readers: Record<
    "accepted" | "pending" | "refused" | "stranger" | "unaudited" | "clinic",
    Awaited<ReturnType<typeof account>>
  >;
  beforeAll(async () => {
    owner = await account();
    readers = {
      accepted: await account(),
      pending: await account(),
      refused: await account(),
      stranger: await account(),
      unaudited: await account({ identity: 2, isPass: 3 }),
      clinic: await account({ identity: 2, isPass: 1 }),
    };
    await share(owner.id, readers.accepted.id, 1);
    await share(owner.id, readers.pending.id, 0);
    await share(owner.id, readers.refused.id, 2);
    await share(owner.id, readers.unaudited.id, 1, 1);
    await share(owner.id, readers.clinic.id, 1, 1);
  });

  it("anyone the patient does not share with (pending, refused, stranger, unaudited clinic) and a missing pid: 404, nothing written", async () => {
    for (const who of ["pending", "refused", "stranger", "unaudited"] as const) {
      const answer = await postApi(
        update as Handler,
        "/api/setting/update",
        body(owner.pid),
        readers[who].token,
        PL,
      );
      expect([who, answer.status, answer.code, answer.msg]).toEqual([
        who,
        404,
        404,
        plApi.notFound,
      ]);
    }
    expect(
      await postApi(
        update as Handler,
        "/api/setting/update",
        body(owner.pid + 100_000),
        readers.accepted.token,
        PL,
      ),
    ).toMatchObject({ code: 404, msg: plApi.notFound });
    expect(await columns(owner.pid)).toEqual(untouched);
    expect(await changes(owner.pid)).toEqual([]);
  });

  it("refuses a bad body with the translated message (400) and writes nothing", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { ...body(owner.pid), breakfastTime: ["09:30:00", "07:00:00"] },
        plSettings.errors.mealTimeWrong,
      ],
      [{ ...body(owner.pid), lunchTime: ["12:00", "14:00"] }, plSettings.errors.mealTime],
      [{ ...body(owner.pid), timeZone: "Europe/Atlantis" }, plSettings.errors.timeZone],
      [{ ...body(owner.pid), pid: "abc" }, plSettings.errors.pid],
      [{ ...body(owner.pid), unit: 1 }, plSettings.errors.unknownField],
    ];
    for (const [payload, msg] of cases) {
      expect(
        await postApi(update as Handler, "/api/setting/update", payload, owner.token, PL),
      ).toMatchObject({ status: 400, code: 400, msg });
    }
    expect(await columns(owner.pid)).toEqual(untouched);
    expect(await changes(owner.pid)).toEqual([]);
  });

  it("the patient saves them: stored as seconds after midnight, the change in the access log (no channel)", async () => {
    const answer = await postApi(
      update as Handler,
      "/api/setting/update",
      body(owner.pid),
      owner.token,
    );
    expect(answer).toMatchObject({ code: 200, data: body(owner.pid) });
    expect(await columns(owner.pid)).toEqual(saved);
    expect(await changes(owner.pid)).toEqual([
      { actorId: owner.id, action: "update:patientSettings", channel: null },
    ]);
  });

  it("an accepted reader and an approved clinic the patient shares with may save them too", async () => {
    const evening = {
      ...body(owner.pid),
      timeZone: "Asia/Kolkata",
      supperTime: ["19:00:00", "22:00:00"],
    };
    expect(
      await postApi(update as Handler, "/api/setting/update", evening, readers.accepted.token),
    ).toMatchObject({ code: 200 });
    expect(await columns(owner.pid)).toEqual({
      ...saved,
      timeZone: "Asia/Kolkata",
      supperStart: 68400,
      supperEnd: 79200,
    });
    expect(
      await postApi(
        update as Handler,
        "/api/setting/update",
        body(owner.pid),
        readers.clinic.token,
      ),
    ).toMatchObject({ code: 200 });
    expect(await columns(owner.pid)).toEqual(saved);
    expect((await changes(owner.pid)).map((c) => c.actorId)).toEqual([
      owner.id,
      readers.accepted.id,
      readers.clinic.id,
    ]);
  });
});

describe("GET /api/patient-data/getPdaTimeZone", () => {
  const ask = (pid: number, token: string | null) =>
    getApi(getPdaTimeZone as Handler, `/api/patient-data/getPdaTimeZone?pid=${pid}`, token, PL);
  const reads = (patientId: number) =>
    db().auditLog.findMany({
      where: { patientId, action: "read:pdaTimeZone" },
      select: { actorId: true, channel: true },
    });
  const at = (iso: string) => new Date(iso);

  it("needs a token (800); a malformed pid is a 400", async () => {
    const owner = await account();
    expect(await ask(owner.pid, null)).toMatchObject({ code: 800, msg: plApi.token["800"] });
    expect(
      (
        await getApi(
          getPdaTimeZone as Handler,
          "/api/patient-data/getPdaTimeZone?pid=2147483648",
          owner.token,
          PL,
        )
      ).code,
    ).toBe(400);
    expect(await reads(owner.pid)).toEqual([]);
  });

  it("answers null before any pump upload, and logs the read", async () => {
    const owner = await account();
    expect(await ask(owner.pid, owner.token)).toMatchObject({ code: 200, data: null });
    expect(await reads(owner.pid)).toEqual([{ actorId: owner.id, channel: "api" }]);
  });

  it("answers the zone of the newest pump upload: basal settings or the pump, whichever is newer; other device kinds and patients do not count", async () => {
    const owner = await account();
    const other = await account();
    await db().basalSetting.create({
      data: {
        patientId: owner.pid,
        pdaSn: "PDA-OLD",
        settingIndex: 0,
        name: "Basal 1",
        valueArray: [],
        pdaTimeZone: "GMT+08:00",
        uploadedAt: at("2026-03-01T10:00:00Z"),
      },
    });
    await db().device.create({
      data: {
        patientId: owner.pid,
        kind: "equil",
        serial: "PDA-NEW",
        timeZone: "GMT+01:00",
        lastUploadAt: at("2026-03-05T10:00:00Z"),
      },
    });
    await db().device.create({
      data: {
        patientId: owner.pid,
        kind: "aidex",
        serial: "CGM-1",
        timeZone: "GMT-05:00",
        lastUploadAt: at("2026-03-09T10:00:00Z"),
      },
    });
    await db().device.create({
      data: {
        patientId: other.pid,
        kind: "equil",
        serial: "PDA-OTHER",
        timeZone: "GMT+03:00",
        lastUploadAt: at("2026-03-10T10:00:00Z"),
      },
    });
    expect((await ask(owner.pid, owner.token)).data).toEqual({
      pdaSn: "PDA-NEW",
      timeZone: "GMT+01:00",
    });

    // A newer basal upload without a zone changes nothing; one with a zone is the newest.
    await db().basalSetting.create({
      data: {
        patientId: owner.pid,
        pdaSn: "PDA-NEW",
        settingIndex: 1,
        name: "Basal 2",
        valueArray: [],
        pdaTimeZone: null,
        uploadedAt: at("2026-03-06T10:00:00Z"),
      },
    });
    expect((await ask(owner.pid, owner.token)).data).toEqual({
      pdaSn: "PDA-NEW",
      timeZone: "GMT+01:00",
    });
    await db().basalSetting.create({
      data: {
        patientId: owner.pid,
        pdaSn: "PDA-NEW",
        settingIndex: 2,
        name: "Basal 3",
        valueArray: [],
        pdaTimeZone: "GMT+02:00",
        uploadedAt: at("2026-03-07T10:00:00Z"),
      },
    });
    expect((await ask(owner.pid, owner.token)).data).toEqual({
      pdaSn: "PDA-NEW",
      timeZone: "GMT+02:00",
    });
  });

  it("an accepted reader reads it (logged as theirs); a stranger gets 404 and nothing is logged", async () => {
    const owner = await account();
    const reader = await account();
    const stranger = await account();
    await share(owner.id, reader.id, 1);
    await db().device.create({
      data: {
        patientId: owner.pid,
        kind: "equil",
        serial: "PDA-R",
        timeZone: "GMT+01:00",
        lastUploadAt: new Date(),
      },
    });
    expect(await ask(owner.pid, stranger.token)).toMatchObject({
      status: 404,
      code: 404,
      msg: plApi.notFound,
      data: null,
    });
    expect(await reads(owner.pid)).toEqual([]);
    expect(await ask(owner.pid, reader.token)).toMatchObject({
      code: 200,
      data: { pdaSn: "PDA-R", timeZone: "GMT+01:00" },
    });
    expect(await reads(owner.pid)).toEqual([{ actorId: reader.id, channel: "api" }]);
  });
});
