import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { JOBS } from "~/jobs/index.server";
import { purgeExpired, purgeExpiredJob } from "~/jobs/purge-expired.server";
import { sendJob, startJobQueue, stopJobQueue } from "~/jobs/queue.server";
import { checkApiToken, createApiToken } from "~/models/api-token.server";
import { action as logoutRoute } from "~/routes/api.user.logout";
import { loader as userInfoRoute } from "~/routes/api.user.getUserInfo";
import { db } from "~/utils/db.server";
import { startEmbeddedPostgres } from "../../server/embedded-db";
import { getApi, postApi, type Handler } from "./api-client";

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms);
const later = (ms: number) => new Date(Date.now() + ms);

async function fixtures() {
  const user = await db().user.create({
    data: {
      email: `purge-${Date.now()}-${Math.random()}@purge.test`,
      identity: 1,
      patient: { create: {} },
    },
  });
  const clinic = await db().user.create({
    data: {
      email: `purge-clinic-${Date.now()}-${Math.random()}@purge.test`,
      identity: 2,
      isPass: 1,
    },
  });
  const share = await db().readPower.create({
    data: { providerId: user.id, readerId: clinic.id, sourceType: 1 },
  });
  await db().session.createMany({
    data: [
      { id: `live-${user.id}`, userId: user.id, expiresAt: later(HOUR) },
      { id: `expired-${user.id}`, userId: user.id, expiresAt: ago(1000) },
      { id: `revoked-${user.id}`, userId: user.id, expiresAt: later(HOUR), revokedAt: ago(1000) },
    ],
  });
  await db().apiToken.createMany({
    data: [
      { userId: user.id, tokenHash: `live-${user.id}`, expiresAt: later(HOUR) },
      { userId: user.id, tokenHash: `expired-${user.id}`, expiresAt: ago(1000) },
      {
        userId: user.id,
        tokenHash: `revoked-${user.id}`,
        expiresAt: later(HOUR),
        revokedAt: ago(1000),
      },
    ],
  });
  await db().emailCode.createMany({
    data: [
      { email: user.email, purpose: "reset_password", codeHash: "live", expiresAt: later(HOUR) },
      { email: user.email, purpose: "reset_password", codeHash: "expired", expiresAt: ago(1000) },
      {
        email: user.email,
        purpose: "verify_email",
        codeHash: "used-expired",
        expiresAt: ago(1000),
        usedAt: ago(2000),
      },
    ],
  });
  await db().inviteToken.createMany({
    data: [
      { id: `live-${user.id}`, readPowerId: share.id, expiresAt: later(HOUR) },
      { id: `expired-${user.id}`, readPowerId: share.id, expiresAt: ago(1000) },
    ],
  });
  await db().rateLimit.createMany({
    data: [
      { key: `live-${user.id}`, count: 1, resetAt: later(HOUR) },
      { key: `ended-${user.id}`, count: 9, resetAt: ago(1000) },
    ],
  });
  const patient = await db().patient.findUniqueOrThrow({ where: { userId: user.id } });
  const draft = {
    patientId: patient.id,
    uploaderId: user.id,
    fileName: "readings.csv",
    bytes: Buffer.from("time,glucose\n"),
    timeZone: "UTC",
  };
  await db().importDraft.createMany({
    data: [
      { ...draft, token: `live-${user.id}`, createdAt: ago(HOUR - 60_000) },
      { ...draft, token: `stale-${user.id}`, createdAt: ago(HOUR + 1000) },
    ],
  });
  return user;
}

async function survivors(userId: number) {
  const [sessions, tokens, codes, invites, limits, drafts] = await Promise.all([
    db().session.findMany({ where: { userId }, select: { id: true } }),
    db().apiToken.findMany({ where: { userId }, select: { tokenHash: true } }),
    db().emailCode.findMany({
      where: { user: null, email: { startsWith: "purge-" } },
      select: { codeHash: true },
    }),
    db().inviteToken.findMany({ where: { id: { endsWith: `-${userId}` } }, select: { id: true } }),
    db().rateLimit.findMany({ where: { key: { endsWith: `-${userId}` } }, select: { key: true } }),
    db().importDraft.findMany({ where: { uploaderId: userId }, select: { token: true } }),
  ]);
  return {
    sessions: sessions.map((r) => r.id),
    tokens: tokens.map((r) => r.tokenHash),
    codes: codes.map((r) => r.codeHash),
    invites: invites.map((r) => r.id),
    limits: limits.map((r) => r.key),
    drafts: drafts.map((r) => r.token),
  };
}

describe("purgeExpired", () => {
  it("deletes expired or revoked sessions and tokens, expired codes and invite tokens, ended rate-limit windows, import drafts over an hour old; keeps the rest", async () => {
    const user = await fixtures();
    expect(await purgeExpired()).toEqual({
      sessions: 2,
      apiTokens: 2,
      emailCodes: 2,
      inviteTokens: 1,
      rateLimits: 1,
      importDrafts: 1,
    });
    expect(await survivors(user.id)).toEqual({
      sessions: [`live-${user.id}`],
      tokens: [`live-${user.id}`],
      codes: ["live"],
      invites: [`live-${user.id}`],
      limits: [`live-${user.id}`],
      drafts: [`live-${user.id}`],
    });
    expect(await purgeExpired()).toEqual({
      sessions: 0,
      apiTokens: 0,
      emailCodes: 0,
      inviteTokens: 0,
      rateLimits: 0,
      importDrafts: 0,
    });
  });
});

describe("POST /api/user/logout", () => {
  it("revokes the calling token (later calls answer 803) and no other", async () => {
    const user = await db().user.create({ data: { email: "logout@purge.test", identity: 1 } });
    const token = await createApiToken(user.id);
    const other = await createApiToken(user.id);
    expect(await postApi(logoutRoute as Handler, "/api/user/logout", {}, token)).toMatchObject({
      status: 200,
      code: 200,
      msg: "Signed out",
    });
    expect(await getApi(userInfoRoute as Handler, "/api/user/getUserInfo", token)).toMatchObject({
      code: 803,
    });
    expect(await postApi(logoutRoute as Handler, "/api/user/logout", {}, token)).toMatchObject({
      code: 803,
    });
    expect(await checkApiToken(other)).toMatchObject({ ok: true });
    expect(await postApi(logoutRoute as Handler, "/api/user/logout", {})).toMatchObject({
      code: 800,
    });
  });
});

/** Starts the queue with the app's jobs, sends the purge job and waits until it has run. */
async function purgeThroughQueue(connectionString: string, check: () => Promise<boolean>) {
  const boss = await startJobQueue(connectionString, JOBS);
  try {
    const schedules = await boss.getSchedules();
    // Every hour at minute 17 for the purge, every minute for the upload sweep, daily at 03:23
    // for the log partitions.
    expect(
      schedules
        .map((s) => ({ name: s.name, cron: s.cron }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    ).toEqual([
      { name: "log-partitions", cron: "23 3 * * *" },
      { name: "purge-expired", cron: "17 * * * *" },
      { name: "resume-uploads", cron: "* * * * *" },
    ]);
    expect(await sendJob(purgeExpiredJob.name, {})).toEqual(expect.any(String));
    const end = Date.now() + 60_000;
    while (!(await check())) {
      if (Date.now() > end) throw new Error("the purge job did not run");
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await stopJobQueue();
  }
}

describe("the job queue (pg-boss)", () => {
  it("on PostgreSQL: registers the hourly purge schedule and works a purge job", async () => {
    const user = await fixtures();
    await purgeThroughQueue(
      process.env.DATABASE_URL!,
      async () => (await db().session.count({ where: { userId: user.id } })) === 1,
    );
    expect(await survivors(user.id)).toMatchObject({
      sessions: [`live-${user.id}`],
      tokens: [`live-${user.id}`],
    });
  });

  it("on the embedded database (PGlite served by pglite-socket), as `npm start` runs it without DATABASE_URL", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "diacare-pglite-jobs-"));
    const embedded = await startEmbeddedPostgres(dir);
    try {
      let worked = 0;
      const boss = await startJobQueue(embedded.url, [
        { name: "probe", cron: purgeExpiredJob.cron, work: async () => void (worked += 1) },
      ]);
      expect((await boss.getSchedules()).map((s) => s.name)).toEqual(["probe"]);
      await sendJob("probe", {});
      const end = Date.now() + 60_000;
      while (worked === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
      expect(worked).toBe(1);
    } finally {
      await stopJobQueue();
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
