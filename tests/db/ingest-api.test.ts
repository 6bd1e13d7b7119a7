import { beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { action as saveBasal } from "~/routes/api.basal-rate-base-setting.save";
import { action as savePdaSetting } from "~/routes/api.pda-setting.saveOrUpdate";
import { loader as checkSave } from "~/routes/api.patient-data.checkSave";
import { loader as findLastRecord } from "~/routes/api.patient-data.findLastRecord";
import { action as completeSliceTask } from "~/routes/api.patient-data.completeSliceTask";
import { action as getSliceId } from "~/routes/api.patient-data.getSliceId";
import { action as save } from "~/routes/api.patient-data.save";
import { action as saveCgmsData } from "~/routes/api.patient-data.saveCgmsData";
import { action as saveSugar } from "~/routes/api.patient-data.saveSugar";
import { action as sliceSave } from "~/routes/api.patient-data.sliceSave";
import { processTask } from "~/services/ingest.server";
import { db } from "~/utils/db.server";
import enUpload from "../../locales/en/upload.json";
import plUpload from "../../locales/pl/upload.json";
import { getApi, postApi, type Handler } from "./api-client";

// The upload calls end to end against PostgreSQL: who may upload, slices, processing, the
// summary, idempotency, and refusals that write nothing.

const post = (handler: unknown, path: string, body: unknown, token: string, lang = "en") =>
  postApi(handler as Handler, path, body, token, { "Accept-Language": lang });
const get = (handler: unknown, path: string, token: string) =>
  getApi(handler as Handler, path, token);

type Account = { id: number; pid: number | null; token: string };
let anna: Account; // a patient
let bob: Account; // another patient
let clinic: Account; // Anna shares with the clinic
let pending: Account; // Anna's share with this account is still waiting
let stranger: Account;

async function account(tag: string, identity: number, patient: boolean): Promise<Account> {
  const u = await db().user.create({
    data: {
      email: `${tag}@ingest.test`,
      identity,
      isPass: identity === 2 ? 1 : 0,
      ...(patient ? { patient: { create: { timeZone: "Europe/Warsaw" } } } : {}),
    },
    include: { patient: true },
  });
  return { id: u.id, pid: u.patient?.id ?? null, token: await createApiToken(u.id) };
}

beforeAll(async () => {
  anna = await account("anna", 1, true);
  bob = await account("bob", 1, true);
  clinic = await account("clinic", 2, false);
  pending = await account("pending", 2, false);
  stranger = await account("stranger", 1, true);
  await db().readPower.create({ data: { providerId: anna.id, readerId: clinic.id, state: 1 } });
  await db().readPower.create({ data: { providerId: anna.id, readerId: pending.id, state: 0 } });
});

let nextRecord = 1;
/** A pump history record; basal 1.0 U/h (160 x 0.00625) unless told otherwise. */
function pumpRecord(over: Record<string, unknown> = {}) {
  const id = nextRecord++;
  return {
    recordId: id,
    eventIndex: id % 65_536,
    eventPort: 4,
    eventType: 0,
    eventUrgency: 0,
    eventValue: 0,
    statusByte0: 80,
    statusByte1: 120,
    statusShort0: 160,
    statusShort1: 0,
    deviceTime: "2026-07-01 08:00:00",
    ...over,
  };
}

async function slicedUpload(
  who: Account,
  pid: number,
  slices: unknown[][],
  extra: Record<string, unknown> = {},
) {
  const total = slices.reduce((n, s) => n + s.length, 0);
  const opened = await post(
    getSliceId,
    "/api/patient-data/getSliceId",
    {
      pid,
      deviceKind: "equil",
      deviceSn: "EQ1001",
      pdaVersion: "5.3.0",
      total,
      timeZone: "Europe/Warsaw",
      ...extra,
    },
    who.token,
  );
  expect(opened).toMatchObject({ code: 200 });
  const sliceId = opened.data as number;
  for (const [index, dataList] of slices.entries()) {
    expect(
      await post(sliceSave, "/api/patient-data/sliceSave", { sliceId, index, dataList }, who.token),
    ).toMatchObject({ code: 200 });
  }
  expect(
    await post(
      completeSliceTask,
      "/api/patient-data/completeSliceTask",
      { sliceId, isSuccess: true },
      who.token,
    ),
  ).toMatchObject({ code: 200, data: { status: "processing" } });
  return sliceId;
}

describe("a sliced pump upload", () => {
  const day = [
    pumpRecord({ deviceTime: "2026-07-01 08:00:00" }),
    pumpRecord({
      deviceTime: "2026-07-01 12:00:00",
      eventPort: 3,
      eventType: 1,
      statusShort1: 650,
    }), // 65 g after the 200 g rule
    pumpRecord({ deviceTime: "2026-07-01 12:01:00", statusShort1: 9600 }), // a 60 U/h bolus starts
    pumpRecord({ deviceTime: "2026-07-01 12:04:00", statusShort1: 0 }), // 3 minutes: 3 U
    pumpRecord({ deviceTime: "2026-07-01 14:10:00", eventType: 2, eventUrgency: 2 }), // occlusion
    pumpRecord({
      deviceTime: "2026-07-01 18:00:00",
      eventPort: 0,
      eventType: 6,
      statusShort1: 300,
    }), // 3.00 U suggested
    pumpRecord({
      deviceTime: "2026-07-01 18:00:05",
      eventPort: 0,
      eventType: 7,
      statusShort1: 600,
    }), // 6.00 U confirmed
  ];

  it("is stored before each answer, processed by the job, and summarised by checkSave", async () => {
    const sliceId = await slicedUpload(anna, anna.pid!, [day.slice(0, 4), day.slice(4)]);
    expect(await db().uploadSlice.count({ where: { taskId: sliceId } })).toBe(2);
    expect(
      await get(checkSave, `/api/patient-data/checkSave?sliceId=${sliceId}`, anna.token),
    ).toMatchObject({ code: 200, data: false });

    await processTask(sliceId);
    const answer = await get(
      checkSave,
      `/api/patient-data/checkSave?sliceId=${sliceId}`,
      anna.token,
    );
    expect(answer).toMatchObject({
      code: 200,
      data: {
        status: "done",
        inserted: 7,
        duplicates: 0,
        flagged: 2,
        firstDate: "2026-07-01T06:00:00.000Z",
        lastDate: "2026-07-01T16:00:05.000Z",
        error: null,
        otherPatientDevice: false,
      },
    });
    const rows = await db().pumpRecord.findMany({
      where: { patientId: anna.pid! },
      orderBy: { recordId: "asc" },
    });
    expect(rows.map((r) => r.dateTime.toISOString())).toEqual([
      "2026-07-01T06:00:00.000Z",
      "2026-07-01T10:00:00.000Z",
      "2026-07-01T10:01:00.000Z",
      "2026-07-01T10:04:00.000Z",
      "2026-07-01T12:10:00.000Z",
      "2026-07-01T16:00:00.000Z",
      "2026-07-01T16:00:05.000Z",
    ]);
    expect(rows.map((r) => r.bolusCheckFailed)).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
      true,
    ]);
    expect(rows.every((r) => r.uploadId === sliceId && r.recordTimeZone === "Europe/Warsaw")).toBe(
      true,
    );
    expect(
      (await db().carbEntry.findMany({ where: { patientId: anna.pid! } })).map((c) => c.grams),
    ).toEqual([65]);
    expect(
      (await db().alarmEvent.findMany({ where: { patientId: anna.pid! } })).map((a) => a.kind),
    ).toEqual(["occlusion"]);
    expect(await db().uploadSlice.count({ where: { taskId: sliceId } })).toBe(0);
    const device = await db().device.findFirstOrThrow({
      where: { patientId: anna.pid!, serial: "EQ1001" },
    });
    expect(device).toMatchObject({ kind: "equil", firstUploaderId: anna.id, firmware: "5.3.0" });
    expect(
      await db().auditLog.count({
        where: { patientId: anna.pid!, action: "upload:equil", actorId: anna.id },
      }),
    ).toBe(1);
  });

  it("findLastRecord answers the newest record ingestion stored, so the browser knows where the device's history left off", async () => {
    const last = day[day.length - 1]!;
    expect(
      await get(
        findLastRecord,
        `/api/patient-data/findLastRecord?pid=${anna.pid}&origin=0`,
        anna.token,
      ),
    ).toMatchObject({
      code: 200,
      data: {
        origin: 0,
        deviceSn: "EQ1001",
        index: last.recordId,
        deviceTime: "2026-07-01 18:00:05",
        timeZone: "Europe/Warsaw",
        dateTime: "2026-07-01T16:00:05.000Z",
      },
    });
  });

  it("the same records again insert nothing: all duplicates", async () => {
    const sliceId = await slicedUpload(anna, anna.pid!, [day]);
    await processTask(sliceId);
    expect(
      (await get(checkSave, `/api/patient-data/checkSave?sliceId=${sliceId}`, anna.token)).data,
    ).toMatchObject({ status: "done", inserted: 0, duplicates: 7 });
    expect(await db().pumpRecord.count({ where: { patientId: anna.pid! } })).toBe(7);
    expect(await db().carbEntry.count({ where: { patientId: anna.pid! } })).toBe(1);
  });

  it("a clinic Anna shares with uploads for her (the operator is recorded); the same pump for Bob is kept for both and flagged", async () => {
    const byClinic = await slicedUpload(clinic, anna.pid!, [
      [pumpRecord({ deviceTime: "2026-07-02 09:00:00" })],
    ]);
    await processTask(byClinic);
    expect(await db().uploadTask.findUniqueOrThrow({ where: { id: byClinic } })).toMatchObject({
      uploaderId: clinic.id,
      patientId: anna.pid!,
      insertedCount: 1,
    });

    // Bob's records carry the same record numbers as Anna's: a loaner pump moved to him.
    const again = day.map((r) => ({ ...r }));
    const forBob = await slicedUpload(bob, bob.pid!, [again]);
    await processTask(forBob);
    expect(
      (await get(checkSave, `/api/patient-data/checkSave?sliceId=${forBob}`, bob.token)).data,
    ).toMatchObject({ inserted: 7, duplicates: 0, otherPatientDevice: true });
    expect(await db().pumpRecord.count({ where: { patientId: anna.pid! } })).toBe(8);
    expect(await db().pumpRecord.count({ where: { patientId: bob.pid! } })).toBe(7);
  });
});

describe("who may upload", () => {
  it("an account without a share, or with one still waiting, is refused and nothing is written", async () => {
    const tasks = await db().uploadTask.count();
    for (const who of [stranger, pending]) {
      const answer = await post(
        getSliceId,
        "/api/patient-data/getSliceId",
        { pid: anna.pid, deviceKind: "equil", deviceSn: "EQ1001", pdaVersion: "5.3.0", total: 1 },
        who.token,
      );
      expect(answer).toMatchObject({ status: 404, code: 404, msg: enUpload.errors.patient });
      const direct = await post(
        save,
        "/api/patient-data/save",
        { pid: anna.pid, pdaSn: "EQ1001", pdaVersion: "5.3.0", dataList: [pumpRecord()] },
        who.token,
      );
      expect(direct).toMatchObject({ status: 404 });
    }
    expect(await db().uploadTask.count()).toBe(tasks);
  });

  it("another account's task is not found, whatever is asked of it", async () => {
    const opened = await post(
      getSliceId,
      "/api/patient-data/getSliceId",
      { pid: anna.pid, deviceKind: "equil", deviceSn: "EQ1001", pdaVersion: "5.3.0", total: 1 },
      anna.token,
    );
    const sliceId = opened.data as number;
    expect(
      await post(
        sliceSave,
        "/api/patient-data/sliceSave",
        { sliceId, index: 0, dataList: [pumpRecord()] },
        clinic.token,
      ),
    ).toMatchObject({ status: 404, msg: enUpload.errors.task });
    expect(
      await post(
        completeSliceTask,
        "/api/patient-data/completeSliceTask",
        { sliceId, isSuccess: false },
        clinic.token,
      ),
    ).toMatchObject({ status: 404 });
    expect(
      await get(checkSave, `/api/patient-data/checkSave?sliceId=${sliceId}`, clinic.token),
    ).toMatchObject({ status: 404 });
    expect(await db().uploadSlice.count({ where: { taskId: sliceId } })).toBe(0);
  });
});

describe("refusals", () => {
  async function open(total: number, lang = "en") {
    const opened = await post(
      getSliceId,
      "/api/patient-data/getSliceId",
      { pid: stranger.pid, deviceKind: "equil", deviceSn: "EQ2002", pdaVersion: "5.3.0", total },
      stranger.token,
      lang,
    );
    return opened.data as number;
  }
  const slice = (sliceId: number, index: number, dataList: unknown[], lang = "en") =>
    post(
      sliceSave,
      "/api/patient-data/sliceSave",
      { sliceId, index, dataList },
      stranger.token,
      lang,
    );

  it("firmware: a CGM handheld, a version not x.y.z, and old pump software", async () => {
    for (const [pdaVersion, key] of [
      ["1.4.2", "cgmPda"],
      ["5.2", "versionFormat"],
      ["4.1.0", "wrongSoftwareVersion"],
    ] as const) {
      const answer = await post(
        getSliceId,
        "/api/patient-data/getSliceId",
        { pid: stranger.pid, deviceKind: "equil", deviceSn: "EQ2002", pdaVersion, total: 1 },
        stranger.token,
        "pl",
      );
      expect(answer).toMatchObject({ status: 400, msg: plUpload.errors[key] });
    }
  });

  it("slices out of order, repeated with other records, too large, or past the total; a repeat of the same slice is accepted", async () => {
    const sliceId = await open(3);
    const first = [pumpRecord(), pumpRecord()];
    expect(await slice(sliceId, 1, [pumpRecord()])).toMatchObject({
      status: 409,
      data: { slice: 1, expected: 0 },
    });
    expect(await slice(sliceId, 0, first)).toMatchObject({
      status: 200,
      data: { received: 2, expected: 3 },
    });
    expect(await slice(sliceId, 0, first)).toMatchObject({ status: 200, data: { received: 2 } });
    expect(await slice(sliceId, 0, [pumpRecord()])).toMatchObject({
      status: 409,
      msg: enUpload.errors.sliceConflict.replace("{{slice}}", "0"),
    });
    expect(await slice(sliceId, 1, [pumpRecord(), pumpRecord()])).toMatchObject({
      status: 400,
      msg: enUpload.errors.tooManyRecords.replace("{{expected}}", "3"),
    });
    expect(
      await slice(
        sliceId,
        1,
        Array.from({ length: 1001 }, () => pumpRecord()),
      ),
    ).toMatchObject({ status: 413, data: { limit: 1000 } });
    // Completing before every record arrived: refused, the task stays open for the missing slice.
    expect(
      await post(
        completeSliceTask,
        "/api/patient-data/completeSliceTask",
        { sliceId, isSuccess: true },
        stranger.token,
      ),
    ).toMatchObject({ status: 400, data: { received: 2, expected: 3 } });
    expect(await slice(sliceId, 1, [pumpRecord()])).toMatchObject({ status: 200 });
    expect(
      await post(
        completeSliceTask,
        "/api/patient-data/completeSliceTask",
        { sliceId, isSuccess: true },
        stranger.token,
      ),
    ).toMatchObject({ status: 200 });
    expect(await slice(sliceId, 2, [pumpRecord()])).toMatchObject({
      status: 409,
      msg: enUpload.errors.taskClosed,
    });
  });

  it("the same slice sent twice at once is stored once and both are told it is saved; two different slices at one place: one is stored, the other is a conflict", async () => {
    const sliceId = await open(4);
    const first = [pumpRecord(), pumpRecord()];
    const twice = await Promise.all([slice(sliceId, 0, first), slice(sliceId, 0, first)]);
    expect(twice.map((a) => a.status)).toEqual([200, 200]);
    expect(twice.map((a) => (a.data as { received: number }).received)).toEqual([2, 2]);
    const both = await Promise.all([
      slice(sliceId, 1, [pumpRecord()]),
      slice(sliceId, 1, [pumpRecord()]),
    ]);
    expect(both.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await db().uploadSlice.count({ where: { taskId: sliceId } })).toBe(2);
    expect(await db().uploadTask.findUniqueOrThrow({ where: { id: sliceId } })).toMatchObject({
      sliceCount: 2,
      recordCount: 3,
    });
  });

  it("a malformed record is refused with its place, in the reader's language, and the slice is not stored", async () => {
    const sliceId = await open(2);
    const answer = await slice(sliceId, 0, [pumpRecord(), pumpRecord({ eventPort: 256 })], "pl");
    expect(answer).toMatchObject({
      status: 400,
      msg: plUpload.errors.recordField
        .replace("{{position}}", "2")
        .replace("{{field}}", "eventPort"),
      data: { position: 2, slice: 0 },
    });
    expect(await slice(sliceId, 0, [pumpRecord(), { ...pumpRecord(), extra: 1 }])).toMatchObject({
      status: 400,
    });
    expect(await slice(sliceId, 0, [pumpRecord(), "not a record"])).toMatchObject({ status: 400 });
    expect(await db().uploadSlice.count({ where: { taskId: sliceId } })).toBe(0);
  });

  it("a rule broken in the second slice fails the whole task at processing: nothing of the first slice is written", async () => {
    const before = await db().pumpRecord.count({ where: { patientId: stranger.pid! } });
    const sliceId = await open(4);
    await slice(sliceId, 0, [pumpRecord(), pumpRecord()]);
    await slice(sliceId, 1, [pumpRecord(), pumpRecord({ eventPort: 4, eventType: 4 })]);
    await post(
      completeSliceTask,
      "/api/patient-data/completeSliceTask",
      { sliceId, isSuccess: true },
      stranger.token,
    );
    await processTask(sliceId);
    const answer = await get(
      checkSave,
      `/api/patient-data/checkSave?sliceId=${sliceId}`,
      stranger.token,
    );
    expect(answer.data).toMatchObject({
      status: "failed",
      inserted: 0,
      error: "errors.unknownEvent",
      errorValues: { position: 4, code: "4/4" },
    });
    expect(await db().pumpRecord.count({ where: { patientId: stranger.pid! } })).toBe(before);
    expect(await db().uploadSlice.count({ where: { taskId: sliceId } })).toBe(0);
  });

  it("an abandoned upload (isSuccess false) writes nothing and can be told again", async () => {
    const sliceId = await open(1);
    await slice(sliceId, 0, [pumpRecord()]);
    expect(
      await post(
        completeSliceTask,
        "/api/patient-data/completeSliceTask",
        { sliceId, isSuccess: false },
        stranger.token,
      ),
    ).toMatchObject({ status: 200, data: { status: "failed" } });
    expect(
      await post(
        completeSliceTask,
        "/api/patient-data/completeSliceTask",
        { sliceId, isSuccess: false },
        stranger.token,
      ),
    ).toMatchObject({ status: 200 });
    expect(
      await post(
        completeSliceTask,
        "/api/patient-data/completeSliceTask",
        { sliceId, isSuccess: true },
        stranger.token,
      ),
    ).toMatchObject({ status: 409 });
    expect(
      await get(checkSave, `/api/patient-data/checkSave?sliceId=${sliceId}`, stranger.token),
    ).toMatchObject({ data: { status: "failed", error: "errors.cancelled" } });
  });
});

describe("uploads in one call", () => {
  it("save: a pump upload answers its summary at once; the same again is 'no new records'", async () => {
    const dataList = [
      pumpRecord({ deviceTime: "2026-03-29 02:30:00" }),
      pumpRecord({ deviceTime: "2026-03-29 03:30:00" }),
    ];
    const first = await post(
      save,
      "/api/patient-data/save",
      { pid: bob.pid, pdaSn: "EQ3003", pdaVersion: "5.1.0", timeZone: "Europe/Warsaw", dataList },
      bob.token,
    );
    expect(first).toMatchObject({
      code: 200,
      data: { status: "done", inserted: 2, duplicates: 0, dstAdjusted: 1 },
    });
    expect(
      await post(
        save,
        "/api/patient-data/save",
        { pid: bob.pid, pdaSn: "EQ3003", pdaVersion: "5.1.0", timeZone: "Europe/Warsaw", dataList },
        bob.token,
      ),
    ).toMatchObject({ data: { inserted: 0, duplicates: 2 } });
  });

  it("saveCgmsData: readings at 1.8 x raw, manual blood values to the meter log, other events skipped", async () => {
    const dataList = [
      {
        eventIndex: 1,
        eventType: 7,
        eventData: 100,
        deviceTime: "2026-01-10 08:00:00",
        deviceSn: "AX5005",
      },
      {
        eventIndex: 2,
        eventType: 8,
        eventData: 60,
        deviceTime: "2026-01-10 08:05:00",
        deviceSn: "AX5005",
      },
      {
        eventIndex: 3,
        eventType: 3,
        eventData: 0,
        deviceTime: "2026-01-10 08:10:00",
        deviceSn: "AX5005",
      },
      {
        eventIndex: 4,
        eventType: 1,
        eventData: 70,
        deviceTime: "2026-01-10 08:12:00",
        deviceSn: "AX5005",
        dataOrigin: 3,
      },
    ];
    const answer = await post(
      saveCgmsData,
      "/api/patient-data/saveCgmsData",
      { timeZone: "Europe/Warsaw", dataList },
      bob.token,
    );
    expect(answer).toMatchObject({ code: 200, data: { inserted: 3, skipped: 1, duplicates: 0 } });
    const cgm = await db().cgmRecord.findMany({
      where: { patientId: bob.pid! },
      orderBy: { eventIndex: "asc" },
    });
    expect(cgm.map((r) => [r.eventIndex, r.mgdl, r.dateTime.toISOString()])).toEqual([
      [1, 180, "2026-01-10T07:00:00.000Z"],
      [2, 108, "2026-01-10T07:05:00.000Z"],
    ]);
    expect(
      await db().bgRecord.findMany({
        where: { patientId: bob.pid!, source: "cgm_manual" },
        select: { mgdl: true, dataOrigin: true },
      }),
    ).toEqual([{ mgdl: 126, dataOrigin: 3 }]);
  });

  it("saveSugar: meter readings keyed by the meter's clock; a value no meter shows is refused", async () => {
    const dataList = [{ dateTime: "2026-01-11 07:30:00", statusShort0: 131, statusByte0: 0 }];
    expect(
      await post(
        saveSugar,
        "/api/patient-data/saveSugar",
        { deviceSn: "GC6006", timeZone: "Europe/Rome", dataList },
        bob.token,
      ),
    ).toMatchObject({ data: { inserted: 1 } });
    expect(
      await db().bgRecord.findFirstOrThrow({ where: { patientId: bob.pid!, deviceSn: "GC6006" } }),
    ).toMatchObject({
      mgdl: 131,
      recordKey: "2026-01-11 07:30:00",
      dateTime: new Date("2026-01-11T06:30:00Z"),
    });
    const bad = await post(
      saveSugar,
      "/api/patient-data/saveSugar",
      {
        deviceSn: "GC6006",
        timeZone: "Europe/Rome",
        dataList: [{ dateTime: "2026-01-11 08:30:00", statusShort0: 4, statusByte0: 0 }],
      },
      bob.token,
    );
    expect(bad).toMatchObject({
      status: 400,
      msg: enUpload.errors.glucoseRange.replace("{{position}}", "1"),
    });
    expect(
      await post(
        saveSugar,
        "/api/patient-data/saveSugar",
        { timeZone: "Mars/Base", dataList },
        bob.token,
      ),
    ).toMatchObject({ status: 400, msg: enUpload.errors.timeZone });
  });
});

describe("pump settings", () => {
  it("basal presets: 48 half-hour values of raw x 0.0125 U/h, replaced on a new upload", async () => {
    const list = [
      {
        settingIndex: 0,
        name: "Weekday",
        valueArray: Array.from({ length: 48 }, (_, i) => (i < 12 ? 64 : 72)),
      },
    ];
    expect(
      await post(
        saveBasal,
        "/api/basal-rate-base-setting/save",
        { list, pdaVersion: "5.3.0", pdaSn: "EQ1001", pdaTimeZone: "GMT+01:00" },
        anna.token,
      ),
    ).toMatchObject({ code: 200, data: { saved: 1 } });
    const stored = await db().basalSetting.findFirstOrThrow({
      where: { patientId: anna.pid!, pdaSn: "EQ1001", settingIndex: 0 },
    });
    expect(stored.valueArray.slice(10, 14)).toEqual([0.8, 0.8, 0.9, 0.9]);
    expect(stored).toMatchObject({ name: "Weekday", pdaTimeZone: "GMT+01:00" });
    const wrong = await post(
      saveBasal,
      "/api/basal-rate-base-setting/save",
      {
        list: [{ settingIndex: 7, valueArray: list[0]!.valueArray }],
        pdaVersion: "5.3.0",
        pdaSn: "EQ1001",
      },
      anna.token,
    );
    expect(wrong).toMatchObject({ status: 400 });
  });

  it("settings: targets and sensitivity from tenths of mg/dL, the misspelt wire names mapped", async () => {
    const body = {
      pdaSn: "EQ1001",
      pdaVersion: "5.3.0",
      lowBg: [700, 800],
      highBg: [1800],
      defaultCho: [10, 12],
      sensitiveSilver: [450],
      maxiumBasalRate: 300,
      lowReseverThreshold: 20,
      doubleBolus: 1,
      effectiveTime: 240,
    };
    expect(
      await post(savePdaSetting, "/api/pda-setting/saveOrUpdate", body, anna.token),
    ).toMatchObject({ code: 200 });
    expect(
      await db().pumpSetting.findFirstOrThrow({ where: { patientId: anna.pid!, pdaSn: "EQ1001" } }),
    ).toMatchObject({
      lowBg: [70, 80],
      highBg: [180],
      carbRatio: [10, 12],
      sensitivity: [45],
      maxBasalRate: 300,
      lowReserveThreshold: 20,
      doubleBolus: true,
      effectiveTime: 240,
    });
    expect(
      await post(
        savePdaSetting,
        "/api/pda-setting/saveOrUpdate",
        { ...body, pid: anna.pid },
        stranger.token,
      ),
    ).toMatchObject({ status: 404 });
  });
});

describe("checkSave", () => {
  it("checkSave on a task being processed waits for the job and answers its summary as soon as it ends", async () => {
    const carol = await account("carol", 1, true);
    const sliceId = await slicedUpload(carol, carol.pid!, [[pumpRecord()]]);
    const answer = get(checkSave, `/api/patient-data/checkSave?sliceId=${sliceId}`, carol.token);
    await new Promise((r) => setTimeout(r, 300));
    await processTask(sliceId);
    expect(await answer).toMatchObject({ code: 200, data: { status: "done", inserted: 1 } });
  });
});
