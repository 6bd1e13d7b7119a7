/**
 * Remote caring's pages on a real database: what must be completed first, the Russian-interface
 * rule, the people one cares for with their current glucose (hand-computed trend and alarm), one
 * person's latest values, and the pending requests (send again, delete). Every read of a person's
 * data goes through the access gateway: a stranger's or a not yet accepted person's page is a
 * 404 with nothing logged.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { loader as detailLoader } from "~/routes/$userId.caringdetail";
import { loader as hubLoader } from "~/routes/caring";
import { action as addAction, loader as addLoader } from "~/routes/caringadd";
import { action as pendingAction, loader as pendingLoader } from "~/routes/caringpedding";
import { loader as patientsLoader } from "~/routes/caringpatients";
import { db } from "~/utils/db.server";
import { catchMail } from "../support/catch-mail";
import { cookieFor } from "./report-support";

const smtp = catchMail({ APP_URL: "https://care.diacare.test" });

const MIN = 60_000;
let serial = 0;

type Who = { id: number; email: string; pid: number | null; cookie: string };

async function account(
  identity: 1 | 2,
  options: {
    isPass?: number;
    complete?: boolean;
    lang?: string;
    active?: boolean;
    limits?: { low: number; high: number };
  } = {},
): Promise<Who> {
  const complete = options.complete ?? true;
  const user = await db().user.create({
    data: {
      email: `caring-${++serial}-${Date.now()}@caring.test`,
      identity,
      isPass: options.isPass ?? (identity === 2 ? 1 : 0),
      active: options.active ?? true,
      firstName: complete ? `First${serial}` : null,
      lastName: complete ? "Carer" : null,
      birthDate: new Date("1950-06-01"),
      setting: { create: { lang: options.lang ?? "en", unit: 1 } },
      ...(identity === 1
        ? {
            gender: complete ? "female" : null,
            patient: {
              create: {
                timeZone: "UTC",
                lowLimit: options.limits?.low ?? 70,
                highLimit: options.limits?.high ?? 180,
                ...(complete ? { diabetesType: { connect: { code: "type1" } } } : {}),
              },
            },
          }
        : {}),
    },
    include: { patient: true },
  });
  return {
    id: user.id,
    email: user.email,
    pid: user.patient?.id ?? null,
    cookie: await cookieFor(user.id),
  };
}

const share = (provider: Who, reader: Who, state: number, extra: Record<string, unknown> = {}) =>
  db().readPower.create({
    data: { providerId: provider.id, readerId: reader.id, sourceType: 1, state, ...extra },
  });

/** CGM readings `minutesAgo` before now, mg/dL. */
async function cgm(who: Who, readings: [minutesAgo: number, mgdl: number][], now: number) {
  await db().cgmRecord.createMany({
    data: readings.map(([ago, mgdl], i) => ({
      patientId: who.pid!,
      deviceSn: "AIDEX-1",
      eventIndex: 1000 - ago + i,
      eventType: 7,
      mgdl,
      deviceTime: "",
      timeZone: "UTC",
      dateTime: new Date(now - ago * MIN),
    })),
  });
}

type Loader = (args: LoaderFunctionArgs) => unknown;

/** A page's answer: its status and data (a thrown Response is its status). */
async function call(
  route: Loader,
  path: string,
  who: Who,
  params: Record<string, string> = {},
  body?: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> | null; location?: string | null }> {
  const init: RequestInit = { headers: { Cookie: who.cookie } };
  if (body) {
    init.method = "POST";
    init.body = new URLSearchParams(body);
    init.headers = { Cookie: who.cookie, "Content-Type": "application/x-www-form-urlencoded" };
  }
  try {
    const result = await route({
      request: new Request(`http://localhost${path}`, init),
      params,
      context: {},
    });
    if (result instanceof Response)
      return { status: result.status, body: null, location: result.headers.get("Location") };
    const wrapped = result as { type?: string; data?: unknown; init?: { status?: number } };
    if (wrapped?.type === "DataWithResponseInit")
      return { status: wrapped.init?.status ?? 200, body: wrapped.data as Record<string, unknown> };
    return { status: 200, body: result as Record<string, unknown> };
  } catch (thrown) {
    if (thrown instanceof Response)
      return { status: thrown.status, body: null, location: thrown.headers.get("Location") };
    throw thrown;
  }
}

const reads = (pid: number) =>
  db().auditLog.findMany({ where: { patientId: pid, action: { startsWith: "read:" } } });

describe("before remote caring: what is missing, and who is offered it", () => {
  it("names first, then a person's gender and type of diabetes; a clinic's approved review", async () => {
    const person = await account(1, { complete: false });
    expect((await call(hubLoader, "/caring", person)).body).toMatchObject({
      missing: ["account", "health"],
    });
    await db().user.update({
      where: { id: person.id },
      data: { firstName: "Ann", lastName: "Lee" },
    });
    expect((await call(hubLoader, "/caring", person)).body).toMatchObject({ missing: ["health"] });
    await db().user.update({ where: { id: person.id }, data: { gender: "male" } });
    await db().patient.update({
      where: { id: person.pid! },
      data: { diabetesType: { connect: { code: "type2" } } },
    });
    expect((await call(hubLoader, "/caring", person)).body).toMatchObject({ missing: [] });

    const reviewing = await account(2, { isPass: 3 });
    expect((await call(hubLoader, "/caring", reviewing)).body).toMatchObject({
      missing: ["organisation"],
    });
    expect((await call(hubLoader, "/caring", await account(2))).body).toMatchObject({
      missing: [],
    });
  });

  it("an incomplete account reads nobody's data, and its forms are refused (403)", async () => {
    const carer = await account(1, { complete: false });
    const patient = await account(1);
    await share(patient, carer, 1);
    expect((await call(patientsLoader, "/caringpatients", carer)).body).toMatchObject({ rows: [] });
    expect(
      (
        await call(detailLoader, `/${patient.id}/caringdetail`, carer, {
          userId: String(patient.id),
        })
      ).body,
    ).toMatchObject({ detail: null, missing: ["account", "health"] });
    expect(await reads(patient.pid!)).toEqual([]);
    expect(
      (
        await call(
          addAction,
          "/caringadd",
          carer,
          {},
          { intent: "invite", provideId: String(patient.id) },
        )
      ).status,
    ).toBe(403);
  });

  it("in the Russian interface every caring page is a 404 for a person, open for a clinic", async () => {
    const person = await account(1, { lang: "ru" });
    const clinic = await account(2, { lang: "ru" });
    for (const [route, path] of [
      [hubLoader, "/caring"],
      [patientsLoader, "/caringpatients"],
      [pendingLoader, "/caringpedding"],
      [addLoader, "/caringadd"],
    ] as const) {
      expect([path, (await call(route as Loader, path, person)).status]).toEqual([path, 404]);
      expect([path, (await call(route as Loader, path, clinic)).status]).toEqual([path, 200]);
    }
  });
});

describe("the people I care for", () => {
  it("accepted shares only, each with the current glucose, its trend and alarm; one read logged per person shown", async () => {
    const now = Date.now();
    const carer = await account(1);
    const rising = await account(1);
    const low = await account(1, { limits: { low: 90, high: 140 } });
    const quiet = await account(1);
    const waiting = await account(1);
    const refused = await account(1);
    await share(rising, carer, 1);
    await share(low, carer, 1);
    await share(quiet, carer, 1);
    await share(waiting, carer, 0);
    await share(refused, carer, 2);
    // 100, 110, 120, 130 mg/dL 15, 10, 5 and 1 minutes ago... evenly: every 5 minutes ending 1 minute ago.
    await cgm(
      rising,
      [
        [16, 100],
        [11, 110],
        [6, 120],
        [1, 130],
      ],
      now,
    );
    // Level at 85 mg/dL: low against 90-140, steady; a reading 3 hours before is outside the trend's window.
    await cgm(
      low,
      [
        [180, 200],
        [20, 85],
        [15, 85],
        [10, 85],
        [5, 85],
      ],
      now,
    );
    await cgm(waiting, [[1, 40]], now);

    const answer = await call(patientsLoader, "/caringpatients", carer);
    expect(answer.status).toBe(200);
    const rows = (answer.body as { rows: Record<string, unknown>[] }).rows;
    const byPid = new Map(rows.map((r) => [r.pid, r]));
    expect([...byPid.keys()].sort()).toEqual([rising.pid, low.pid, quiet.pid].sort());
    // Slope 10 mg/dL per 5 minutes = 2 mg/dL/min = 0.111 mmol/L/min: rising; 130 is within 70-180.
    expect(byPid.get(rising.pid)).toMatchObject({
      email: rising.email,
      birthDate: "1950-06-01",
      glucose: { mgdl: 130, trend: "rising", alarm: "none", age: "1 minute ago" },
    });
    expect(byPid.get(low.pid)).toMatchObject({
      glucose: { mgdl: 85, trend: "steady", alarm: "low", age: "5 minutes ago" },
    });
    expect(byPid.get(quiet.pid)).toMatchObject({ glucose: null });

    for (const who of [rising, low, quiet])
      expect((await reads(who.pid!)).map((r) => [r.action, r.actorId, r.channel])).toEqual([
        ["read:caringList", carer.id, "page"],
      ]);
    for (const who of [waiting, refused]) expect(await reads(who.pid!)).toEqual([]);
  });
});

describe("one person's latest values", () => {
  it("an accepted person: CGM, blood glucose, pump record and today's time in range, one read logged", async () => {
    const now = Date.now();
    const carer = await account(2);
    const patient = await account(1);
    await share(patient, carer, 1);
    // 40 mg/dL is very low (under 54); today (UTC) holds 100, 150 and 40: 2 of 3 within 70-180.
    // (Two minutes after midnight UTC the first two would fall on yesterday.)
    await cgm(
      patient,
      [
        [2, 100],
        [1, 150],
        [0, 40],
      ],
      now,
    );
    await db().bgRecord.create({
      data: {
        patientId: patient.pid!,
        source: "meter",
        deviceSn: "M1",
        recordKey: "1",
        mgdl: 99,
        deviceTime: "",
        timeZone: "UTC",
        dateTime: new Date(now - 2 * 60 * MIN),
      },
    });
    const answer = await call(detailLoader, `/${patient.id}/caringdetail`, carer, {
      userId: String(patient.id),
    });
    expect(answer.status).toBe(200);
    const detail = (answer.body as { detail: Record<string, unknown> }).detail;
    expect(detail).toMatchObject({
      pid: patient.pid,
      email: patient.email,
      birthDate: "1950-06-01",
      limits: { low: 70, high: 180 },
      glucose: { mgdl: 40, alarm: "veryLow", age: "this minute" },
      bg: { mgdl: 99, age: "2 hours ago" },
      pump: null,
    });
    expect(detail.today).toMatchObject({ readings: 3, timeInRange: (2 / 3) * 100 });
    expect((await reads(patient.pid!)).map((r) => [r.action, r.actorId])).toEqual([
      ["read:caringDetail", carer.id],
    ]);
  });

  it("a stranger's, a waiting share's, a refused share's and an unknown account's page is a 404 with nothing logged", async () => {
    const carer = await account(1);
    const stranger = await account(1);
    const waiting = await account(1);
    const refused = await account(1);
    const clinic = await account(2);
    await share(waiting, carer, 0);
    await share(refused, carer, 2);
    for (const [who, userId] of [
      ["stranger", stranger.id],
      ["waiting", waiting.id],
      ["refused", refused.id],
      ["a clinic (no record)", clinic.id],
      ["nobody", 2_000_000_000],
    ] as const) {
      const answer = await call(detailLoader, `/${userId}/caringdetail`, carer, {
        userId: String(userId),
      });
      expect([who, answer.status]).toEqual([who, 404]);
    }
    expect((await call(detailLoader, "/x/caringdetail", carer, { userId: "x" })).status).toBe(404);
    for (const who of [stranger, waiting, refused]) expect(await reads(who.pid!)).toEqual([]);
  });
});

describe("adding a person and the pending requests", () => {
  it("a person invites by registered email; the invitation waits, then is sent again and deleted after confirming", async () => {
    const carer = await account(1);
    const relative = await account(1);
    const found = await call(
      addLoader,
      `/caringadd?find=${encodeURIComponent(relative.email)}`,
      carer,
    );
    expect(found.body).toMatchObject({ results: [{ userId: relative.id, readPowerId: null }] });
    const invited = await call(
      addAction,
      "/caringadd",
      carer,
      {},
      { intent: "invite", provideId: String(relative.id) },
    );
    expect(invited).toMatchObject({
      status: 200,
      body: { notice: "sharing:messages.inviteSuccess" },
    });
    const row = await db().readPower.findFirstOrThrow({
      where: { providerId: relative.id, readerId: carer.id },
    });
    expect(row).toMatchObject({ sourceType: 1, state: 0 });
    await smtp.catcher.waitFor((mail) => mail.text?.includes("/invite_result") ?? false);

    // Fifteen days later it has expired; sending it again opens it for another 14 days.
    await db().readPower.update({
      where: { id: row.id },
      data: { sentAt: new Date(Date.now() - 15 * 24 * 60 * MIN) },
    });
    const listed = await call(pendingLoader, "/caringpedding", carer);
    expect(listed.body).toMatchObject({
      items: [{ id: row.id, kind: "invitation", status: "expired", email: relative.email }],
    });
    const again = await call(
      pendingAction,
      "/caringpedding",
      carer,
      {},
      {
        intent: "sendAgain",
        id: String(row.id),
      },
    );
    expect(again).toMatchObject({
      status: 200,
      body: { notice: "sharing:messages.inviteSuccess" },
    });
    const reopened = await db().readPower.findUniqueOrThrow({ where: { id: row.id } });
    expect(reopened.state).toBe(0);
    expect(Date.now() - reopened.sentAt.getTime()).toBeLessThan(60_000);

    // Delete asks first (a page step), then removes the row.
    expect(
      (await call(pendingLoader, `/caringpedding?confirm=${row.id}`, carer)).body,
    ).toMatchObject({ confirm: { id: row.id } });
    const deleted = await call(
      pendingAction,
      `/caringpedding?confirm=${row.id}`,
      carer,
      {},
      {
        intent: "delete",
        id: String(row.id),
      },
    );
    expect(deleted).toMatchObject({ status: 302, location: "/caringpedding?deleted=1" });
    expect(await db().readPower.count({ where: { id: row.id } })).toBe(0);
  });

  it("someone else's request, or an accepted share, cannot be sent again or deleted from here", async () => {
    const carer = await account(1);
    const other = await account(1);
    const patient = await account(1);
    const theirs = await share(patient, other, 0);
    const accepted = await share(other, carer, 1);
    for (const id of [theirs.id, accepted.id])
      for (const intent of ["sendAgain", "delete"])
        expect([
          id,
          intent,
          (await call(pendingAction, "/caringpedding", carer, {}, { intent, id: String(id) }))
            .status,
        ]).toEqual([id, intent, 404]);
    expect(await db().readPower.count({ where: { id: { in: [theirs.id, accepted.id] } } })).toBe(2);
    expect(
      (await call(pendingAction, "/caringpedding", carer, {}, { intent: "nope", id: "x" })).status,
    ).toBe(400);
  });

  it("a health file: gender and diabetes type required; the new inactive account's request waits, its activation email can be sent again", async () => {
    const carer = await account(1);
    const email = `file-${Date.now()}@caring.test`;
    const fields = {
      intent: "file",
      email,
      unit: "1",
      lowLimit: "70",
      highLimit: "180",
      heightUnit: "0",
      weightUnit: "0",
      timeZone: "UTC",
    };
    const refused = await call(addAction, "/caringadd?by=file", carer, {}, fields);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      result: { error: { gender: ["errors.genderMsg"], diabetesType: ["errors.diabetesTypeMsg"] } },
    });
    const type1 = await db().option.findUniqueOrThrow({ where: { code: "type1" } });
    const added = await call(
      addAction,
      "/caringadd?by=file",
      carer,
      {},
      {
        ...fields,
        gender: "male",
        diabetesType: String(type1.id),
      },
    );
    expect(added).toMatchObject({ status: 200, body: { added: { email } } });
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    expect(user.active).toBe(false);
    const listed = await call(pendingLoader, "/caringpedding", carer);
    const item = (listed.body as { items: Record<string, unknown>[] }).items[0]!;
    expect(item).toMatchObject({ kind: "created", status: "waiting", active: false, email });
    const again = await call(
      pendingAction,
      "/caringpedding",
      carer,
      {},
      {
        intent: "sendAgain",
        id: String(item.id),
      },
    );
    // The code of the account's creation went out a moment ago: a minute must pass first.
    expect(again).toMatchObject({ status: 429, body: { errors: ["auth:errors.codeCooldown"] } });
    await db().emailCode.updateMany({
      where: { email },
      data: { createdAt: new Date(Date.now() - 2 * MIN) },
    });
    const later = await call(
      pendingAction,
      "/caringpedding",
      carer,
      {},
      { intent: "sendAgain", id: String(item.id) },
    );
    expect(later).toMatchObject({
      status: 200,
      body: { notice: "caring:pending.activationSent" },
    });
    expect(await db().emailCode.count({ where: { email, purpose: "activate" } })).toBe(2);
  });
});
