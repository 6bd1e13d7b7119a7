import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { makeLink, revokeLinkFor } from "~/services/nightscout.server";
import { db } from "~/utils/db.server";
import { accessRows, nsCall, patientAccount, sha1, viewerOf } from "./nightscout-support";

// The Nightscout API against PostgreSQL: links and their secrets, entries in and out, retries,
// per-record refusals, treatments, status, profile, device statuses, the access log, and every
// refusal of a call that must write nothing.

const MIN = 60_000;
/** Whole seconds: the readings' numbers are their seconds. */
const now = Math.floor(Date.now() / 1000) * 1000;

type Patient = Awaited<ReturnType<typeof patientAccount>>;
let anna: Patient;
let bob: Patient;
let upload: { id: string; secret: string };
let reader: { id: string; secret: string };
let bobLink: { id: string; secret: string };

const base = (id: string) => `/ns/${id}/api/v1`;
const asUploader = (secret: string) => ({ "api-secret": sha1(secret) });
const sgv = (at: number, value: number, direction = "Flat", device = "xDrip-DexcomG6") => ({
  type: "sgv",
  sgv: value,
  date: at,
  dateString: new Date(at).toISOString(),
  direction,
  device,
  noise: 1,
  filtered: value * 1000,
  unfiltered: value * 1000,
});
const cgmCount = (pid: number) => db().cgmRecord.count({ where: { patientId: pid } });

beforeAll(async () => {
  anna = await patientAccount("anna");
  bob = await patientAccount("bob");
  upload = (await makeLink(viewerOf(anna.user), anna.pid, { name: "xDrip+", kind: "upload" }))!;
  reader = (await makeLink(viewerOf(anna.user), anna.pid, { name: "Reporter", kind: "read" }))!;
  bobLink = (await makeLink(viewerOf(bob.user), bob.pid, { name: "Loop", kind: "upload" }))!;
});

describe("links", () => {
  it("have a 22-character id and a 32-character secret of which only SHA-256 of the SHA-1 hex is stored", async () => {
    expect(upload.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(upload.secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const row = await db().nightscoutLink.findUniqueOrThrow({ where: { id: upload.id } });
    const expected = createHash("sha256").update(sha1(upload.secret)).digest("hex");
    expect(row.secretHash).toBe(expected);
    expect(JSON.stringify(row)).not.toContain(upload.secret);
  });

  it("are made only by someone who may upload for the patient", async () => {
    expect(await makeLink(viewerOf(bob.user), anna.pid, { name: "x", kind: "upload" })).toBeNull();
  });
});

describe("entries", () => {
  it("stores posted readings once with their trend, answers them with _id, and a retry adds nothing", async () => {
    const batch = [
      sgv(now - 10 * MIN, 120, "Flat"),
      sgv(now - 5 * MIN, 131, "FortyFiveUp"),
      sgv(now, 142, "SingleUp"),
    ];
    const first = await nsCall(`${base(upload.id)}/entries`, {
      body: batch,
      headers: asUploader(upload.secret),
    });
    expect(first.status).toBe(200);
    const answer = first.body as { _id: string; sgv: number; direction: string; date: number }[];
    expect(answer.map((e) => [e.sgv, e.direction, e.date])).toEqual([
      [120, "Flat", now - 10 * MIN],
      [131, "FortyFiveUp", now - 5 * MIN],
      [142, "SingleUp", now],
    ]);
    for (const e of answer) expect(e._id).toMatch(/^[0-9a-f]{24}$/);
    expect(await cgmCount(anna.pid)).toBe(3);
    const stored = await db().cgmRecord.findMany({
      where: { patientId: anna.pid },
      orderBy: { dateTime: "asc" },
    });
    expect(stored.map((r) => [r.mgdl, r.direction, r.deviceSn, r.dateTime.getTime()])).toEqual([
      [120, "Flat", "xDrip-DexcomG6", now - 10 * MIN],
      [131, "FortyFiveUp", "xDrip-DexcomG6", now - 5 * MIN],
      [142, "SingleUp", "xDrip-DexcomG6", now],
    ]);
    // Warsaw is UTC+1 or +2: the local wall clock is 60 or 120 minutes ahead.
    const offset = (Date.parse(`${stored[2]!.deviceTime.replace(" ", "T")}Z`) - now) / MIN;
    expect([60, 120]).toContain(offset);

    const retry = await nsCall(`${base(upload.id)}/entries.json`, {
      body: batch,
      headers: asUploader(upload.secret),
    });
    expect(retry.status).toBe(200);
    expect((retry.body as { _id: string }[]).map((e) => e._id)).toEqual(answer.map((e) => e._id));
    expect(await cgmCount(anna.pid)).toBe(3);
  });

  it("takes one object as well as an array, and a meter reading (mbg) as a blood value", async () => {
    const one = await nsCall(`${base(upload.id)}/entries`, {
      body: { type: "mbg", mbg: 105, date: now - 7 * MIN, device: "Contour" },
      headers: asUploader(upload.secret),
    });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject([{ type: "mbg", mbg: 105, device: "Contour" }]);
    const bg = await db().bgRecord.findMany({ where: { patientId: anna.pid } });
    expect(bg.map((r) => [r.source, r.mgdl, r.deviceSn, r.recordKey])).toEqual([
      ["meter", 105, "Contour", `ns:${now - 7 * MIN}`],
    ]);
  });

  it("refuses records older than 90 days, ahead of the clock, of no kept type or out of range, one by one, and stores the rest", async () => {
    const before = await cgmCount(anna.pid);
    const day = 86_400_000;
    const answer = await nsCall(`${base(upload.id)}/entries`, {
      body: [
        sgv(now - 20 * MIN, 99),
        sgv(now - 91 * day, 100),
        sgv(now + 10 * MIN, 101),
        { type: "cal", slope: 900, intercept: 3000, scale: 1, date: now - MIN },
        sgv(now - 25 * MIN, 700),
        { type: "sgv", sgv: "abc", date: now },
        "not an entry",
      ],
      headers: asUploader(upload.secret),
    });
    expect(answer.status).toBe(200);
    expect((answer.body as { sgv: number }[]).map((e) => e.sgv)).toEqual([99]);
    expect(answer.headers.get("DiaCare-Refused")).toBe("6");
    expect(answer.headers.get("DiaCare-Refused-Reasons")).toBe(
      "1:tooOld,2:future,3:unsupportedType,4:glucoseRange,5:invalid,6:invalid",
    );
    expect(await cgmCount(anna.pid)).toBe(before + 1);
  });

  it("reads newest first with count, date bounds, sgv only and the current reading", async () => {
    const h = asUploader(upload.secret);
    const two = await nsCall(`${base(upload.id)}/entries.json?count=2`, { headers: h });
    expect((two.body as { sgv?: number; mbg?: number }[]).map((e) => e.sgv ?? e.mbg)).toEqual([
      142, 131,
    ]);
    const all = await nsCall(`${base(upload.id)}/entries.json?count=100`, { headers: h });
    // Readings at -20, -10, -5, 0 min and the meter reading at -7 min, newest first.
    expect((all.body as { sgv?: number; mbg?: number }[]).map((e) => e.sgv ?? e.mbg)).toEqual([
      142, 131, 105, 120, 99,
    ]);
    const window = await nsCall(
      `${base(upload.id)}/entries/sgv.json?find[date][$gt]=${now - 10 * MIN}&find[date][$lte]=${now - 5 * MIN}`,
      { headers: h },
    );
    expect((window.body as { sgv: number }[]).map((e) => e.sgv)).toEqual([131]);
    const current = await nsCall(`${base(upload.id)}/entries/current.json`, { headers: h });
    expect(current.body).toMatchObject([{ sgv: 142, direction: "SingleUp", date: now }]);
    const bad = await nsCall(`${base(upload.id)}/entries.json?count=ten`, { headers: h });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ status: 400, message: "The query parameter count cannot be read." });
  });

  it("marks the new data for the accounts the patient shares with", async () => {
    const clinic = await db().user.create({
      data: { email: `clinic-${Date.now()}@ns.test`, identity: 2, isPass: 1 },
    });
    const share = await db().readPower.create({
      data: {
        providerId: anna.user.id,
        readerId: clinic.id,
        sourceType: 0,
        state: 1,
        uploadIsNew: 1,
      },
    });
    await nsCall(`${base(upload.id)}/entries`, {
      body: [sgv(now - 30 * MIN, 110)],
      headers: asUploader(upload.secret),
    });
    expect((await db().readPower.findUniqueOrThrow({ where: { id: share.id } })).uploadIsNew).toBe(
      0,
    );
  });
});

describe("the access log", () => {
  it("gets one row per granted call, with the nightscout channel, the link and the call", async () => {
    const before = (await accessRows(anna.pid)).length;
    await nsCall(`${base(reader.id)}/entries.json?token=${reader.secret}`);
    await nsCall(`${base(upload.id)}/entries`, {
      body: [sgv(now - 35 * MIN, 115)],
      headers: asUploader(upload.secret),
    });
    const rows = (await accessRows(anna.pid)).slice(before);
    expect(rows.map((r) => [r.action, r.channel, r.actorId, r.detail])).toEqual([
      ["read:nightscout", "nightscout", anna.user.id, { link: reader.id, call: "entries" }],
      ["write:nightscout", "nightscout", anna.user.id, { link: upload.id, call: "entries" }],
    ]);
  });
});

describe("refusals: nothing is readable or written without a valid link and secret", () => {
  const attempt = async (path: string, headers: Record<string, string>, write = true) =>
    nsCall(path, write ? { body: [sgv(now - 40 * MIN, 140)], headers } : { headers });

  it("a wrong secret, another patient's link, a revoked link, a read token used to write: 401, logged, nothing written", async () => {
    const before = await cgmCount(anna.pid);
    const bobBefore = await cgmCount(bob.pid);
    const logBefore = (await accessRows(anna.pid)).length;
    const wrong = await attempt(`${base(upload.id)}/entries`, asUploader("not the secret"));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      status: 401,
      message: "Unauthorized: this link and secret do not open any record.",
    });
    // Anna's secret on Bob's link, and Bob's on Anna's.
    expect((await attempt(`${base(bobLink.id)}/entries`, asUploader(upload.secret))).status).toBe(
      401,
    );
    expect((await attempt(`${base(upload.id)}/entries`, asUploader(bobLink.secret))).status).toBe(
      401,
    );
    // A read token may read, never write.
    expect(
      (await attempt(`${base(reader.id)}/entries?token=${reader.secret}`, {}, false)).status,
    ).toBe(200);
    expect((await attempt(`${base(reader.id)}/entries?token=${reader.secret}`, {})).status).toBe(
      401,
    );
    expect((await attempt(`${base(reader.id)}/entries`, asUploader(reader.secret))).status).toBe(
      401,
    );
    // No credential at all, and an unknown link id.
    expect((await attempt(`${base(upload.id)}/entries.json`, {}, false)).status).toBe(401);
    expect(
      (await attempt(`${base("A".repeat(22))}/entries`, asUploader(upload.secret))).status,
    ).toBe(401);
    const revoked = (await makeLink(viewerOf(anna.user), anna.pid, {
      name: "old phone",
      kind: "upload",
    }))!;
    expect(await revokeLinkFor(viewerOf(anna.user), anna.pid, revoked.id)).toBe(true);
    expect((await attempt(`${base(revoked.id)}/entries`, asUploader(revoked.secret))).status).toBe(
      401,
    );
    expect(await cgmCount(anna.pid)).toBe(before);
    expect(await cgmCount(bob.pid)).toBe(bobBefore);
    const refusals = (await accessRows(anna.pid))
      .slice(logBefore)
      .filter((r) => r.action === "refused:nightscout")
      .map((r) => (r.detail as { reason: string }).reason);
    expect(refusals).toEqual(["secret", "secret", "readOnly", "readOnly", "secret", "revoked"]);
  });

  it("a link made by a clinic stops when the patient's share with it ends", async () => {
    const clinic = await db().user.create({
      data: { email: `clinic2-${Date.now()}@ns.test`, identity: 2, isPass: 1 },
    });
    const share = await db().readPower.create({
      data: { providerId: bob.user.id, readerId: clinic.id, sourceType: 0, state: 1 },
    });
    const link = (await makeLink(viewerOf(clinic), bob.pid, { name: "clinic", kind: "upload" }))!;
    expect((await attempt(`${base(link.id)}/entries`, asUploader(link.secret))).status).toBe(200);
    const count = await cgmCount(bob.pid);
    await db().readPower.delete({ where: { id: share.id } });
    expect((await attempt(`${base(link.id)}/entries`, asUploader(link.secret))).status).toBe(401);
    expect(await cgmCount(bob.pid)).toBe(count);
    const last = (await accessRows(bob.pid)).at(-1)!;
    expect([last.action, (last.detail as { reason: string }).reason]).toEqual([
      "refused:nightscout",
      "noRights",
    ]);
  });

  it("the link of a deleted account opens nothing", async () => {
    const carol = await patientAccount("carol");
    const link = (await makeLink(viewerOf(carol.user), carol.pid, {
      name: "x",
      kind: "upload",
    }))!;
    expect((await attempt(`${base(link.id)}/entries`, asUploader(link.secret))).status).toBe(200);
    await db().user.update({ where: { id: carol.user.id }, data: { disabled: true } });
    expect((await attempt(`${base(link.id)}/entries`, asUploader(link.secret))).status).toBe(401);
    await db().user.delete({ where: { id: carol.user.id } });
    expect((await attempt(`${base(link.id)}/entries`, asUploader(link.secret))).status).toBe(401);
    expect(
      await db().cgmRecord.count({ where: { deviceSn: "xDrip-DexcomG6", patientId: carol.pid } }),
    ).toBe(0);
  });

  it("30 failures from one IP are allowed; then that IP is refused (429) even with the right secret, others are not", async () => {
    const from = (ip: string, secret: string) =>
      nsCall(`${base(upload.id)}/status.json`, {
        headers: { ...asUploader(secret), "X-Forwarded-For": ip },
      });
    for (let i = 0; i < 30; i++) expect((await from("203.0.113.7", "guess")).status).toBe(401);
    expect((await from("203.0.113.7", "guess")).status).toBe(401);
    expect((await from("203.0.113.7", upload.secret)).status).toBe(429);
    expect((await from("203.0.113.8", upload.secret)).status).toBe(200);
  });

  it("a bad body is a translated 400, an unknown call 404, a POST to a read-only call 405", async () => {
    const h = { ...asUploader(upload.secret), "Accept-Language": "pl" };
    const bad = await nsCall(`${base(upload.id)}/entries`, { body: "{not json", headers: h });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      status: 400,
      message: "Treść musi być obiektem JSON lub tablicą obiektów.",
    });
    expect((await nsCall(`${base(upload.id)}/food.json`, { headers: h })).status).toBe(404);
    expect((await nsCall(`${base(upload.id)}/status.json`, { body: {}, headers: h })).status).toBe(
      405,
    );
  });
});

describe("treatments, status, profile, device status", () => {
  it("stores boluses, carbohydrate and BG checks, refuses what has no place, and reads them back", async () => {
    const h = asUploader(upload.secret);
    const at = (m: number) => new Date(now - m * MIN).toISOString();
    const posted = await nsCall(`${base(upload.id)}/treatments`, {
      body: [
        { eventType: "Meal Bolus", insulin: 4.5, carbs: 40, created_at: at(60), enteredBy: "AAPS" },
        { eventType: "Correction Bolus", insulin: 1.2, created_at: at(50), enteredBy: "AAPS" },
        {
          eventType: "BG Check",
          glucose: 5.5,
          units: "mmol",
          glucoseType: "Finger",
          created_at: at(45),
          enteredBy: "AAPS",
        },
        {
          eventType: "Temp Basal",
          duration: 30,
          absolute: 0.5,
          created_at: at(40),
          enteredBy: "AAPS",
        },
        { eventType: "Note", notes: "walk", created_at: at(35), enteredBy: "AAPS" },
        { eventType: "Carb Correction", carbs: 15, created_at: at(30), enteredBy: "AAPS" },
      ],
      headers: h,
    });
    expect(posted.status).toBe(200);
    expect(posted.headers.get("DiaCare-Refused-Reasons")).toBe(
      "3:unsupportedEventType,4:unsupportedEventType",
    );
    expect((posted.body as { eventType: string }[]).map((t) => t.eventType)).toEqual([
      "Meal Bolus",
      "Correction Bolus",
      "BG Check",
      "Carb Correction",
    ]);
    const insulin = await db().insulinEntry.findMany({
      where: { patientId: anna.pid },
      orderBy: { dateTime: "asc" },
    });
    expect(insulin.map((r) => [r.units, r.kind, r.deviceSn])).toEqual([
      [4.5, "rapid", "AAPS"],
      [1.2, "rapid", "AAPS"],
    ]);
    const carbs = await db().carbEntry.findMany({
      where: { patientId: anna.pid },
      orderBy: { dateTime: "asc" },
    });
    expect(carbs.map((r) => r.grams)).toEqual([40, 15]);
    // 5.5 mmol/L x 18 = 99 mg/dL.
    const check = await db().bgRecord.findFirstOrThrow({
      where: { patientId: anna.pid, deviceSn: "AAPS" },
    });
    expect(check.mgdl).toBe(99);

    const again = await nsCall(`${base(upload.id)}/treatments`, { body: posted.body, headers: h });
    expect(again.status).toBe(200);
    expect(await db().insulinEntry.count({ where: { patientId: anna.pid } })).toBe(2);

    const read = await nsCall(`${base(reader.id)}/treatments.json?token=${reader.secret}`);
    expect(
      (
        read.body as {
          eventType: string;
          insulin?: number;
          carbs?: number;
          glucose?: number;
          _id: string;
        }[]
      ).map((t) => [t.eventType, t.insulin, t.carbs, t.glucose]),
    ).toEqual([
      ["Carb Correction", undefined, 15, undefined],
      ["BG Check", undefined, undefined, 99],
      ["Correction Bolus", 1.2, undefined, undefined],
      ["Meal Bolus", 4.5, 40, undefined],
    ]);
    // The same _id for the Meal Bolus posted and read back.
    expect((read.body as { _id: string }[])[3]!._id).toBe(
      (posted.body as { _id: string }[])[0]!._id,
    );
  });

  it("status names the patient's unit and thresholds; profile the target range in that unit", async () => {
    const status = await nsCall(`${base(reader.id)}/status.json?token=${reader.secret}`);
    expect(status.body).toMatchObject({
      status: "ok",
      apiEnabled: true,
      settings: {
        units: "mg/dl",
        thresholds: { bgHigh: 250, bgTargetTop: 162, bgTargetBottom: 72, bgLow: 54 },
      },
    });
    const profile = await nsCall(`${base(reader.id)}/profile.json?token=${reader.secret}`);
    const store = (profile.body as { store: { Default: Record<string, unknown> } }[])[0]!.store
      .Default;
    expect(store).toMatchObject({
      units: "mg/dl",
      timezone: "Europe/Warsaw",
      target_low: [{ time: "00:00", timeAsSeconds: 0, value: 72 }],
      target_high: [{ time: "00:00", timeAsSeconds: 0, value: 162 }],
    });
    await db().setting.update({ where: { userId: anna.user.id }, data: { unit: 0 } });
    const mmol = await nsCall(`${base(reader.id)}/profile.json?token=${reader.secret}`);
    // 72 / 18 = 4.0 and 162 / 18 = 9.0 mmol/L.
    expect(
      (
        mmol.body as {
          store: { Default: { target_low: { value: number }[]; target_high: { value: number }[] } };
        }[]
      )[0]!.store.Default.target_high[0]!.value,
    ).toBe(9);
    await db().setting.update({ where: { userId: anna.user.id }, data: { unit: 1 } });
  });

  it("keeps device statuses small: 8 KB each, the newest 50", async () => {
    const h = asUploader(upload.secret);
    const ok = await nsCall(`${base(upload.id)}/devicestatus.json`, {
      body: { device: "xDrip", uploaderBattery: 80, created_at: new Date(now).toISOString() },
      headers: h,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject([{ device: "xDrip", uploaderBattery: 80 }]);
    const big = await nsCall(`${base(upload.id)}/devicestatus`, {
      body: { device: "x", blob: "y".repeat(9000) },
      headers: h,
    });
    expect(big.headers.get("DiaCare-Refused-Reasons")).toBe("0:invalid");
    const many = Array.from({ length: 55 }, (_, i) => ({
      device: "loop",
      n: i,
      created_at: new Date(now - (55 - i) * MIN).toISOString(),
    }));
    await nsCall(`${base(upload.id)}/devicestatus`, { body: many, headers: h });
    expect(await db().nightscoutDeviceStatus.count({ where: { patientId: anna.pid } })).toBe(50);
    const read = await nsCall(`${base(upload.id)}/devicestatus.json?count=2`, { headers: h });
    expect((read.body as { device: string }[]).map((d) => d.device)).toEqual(["xDrip", "loop"]);
  });

  it("verifyauth says what the link may do", async () => {
    const asUpload = await nsCall(`${base(upload.id)}/verifyauth`, {
      headers: asUploader(upload.secret),
    });
    expect(asUpload.body).toMatchObject({
      message: { canRead: true, canWrite: true, message: "OK" },
    });
    const asReader = await nsCall(`${base(reader.id)}/verifyauth`, {
      headers: { Authorization: `Bearer ${reader.secret}` },
    });
    expect(asReader.body).toMatchObject({ message: { canRead: true, canWrite: false } });
  });
});
