import { describe, expect, it } from "vitest";
import {
  clearRateLimit,
  clientIp,
  givePlaceBack,
  hitRateLimit,
  pruneRateLimits,
  RATE_LIMITS,
  refundRateLimit,
  takePlace,
} from "~/models/rate-limit.server";
import { db } from "~/utils/db.server";

const rule = { limit: 3, windowSeconds: 60 };

describe("hitRateLimit", () => {
  it("allows `limit` hits in a window, then refuses with the time left", async () => {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await hitRateLimit("t:basic", rule));
    expect(answers).toEqual([
      { allowed: true, remaining: 2, retryAfterSeconds: 0 },
      { allowed: true, remaining: 1, retryAfterSeconds: 0 },
      { allowed: true, remaining: 0, retryAfterSeconds: 0 },
    ]);
    const refused = await hitRateLimit("t:basic", rule);
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await hitRateLimit("t:basic", rule)).allowed).toBe(false);
  });

  it("stores the window's end in UTC, as Prisma reads it, whatever the session time zone", async () => {
    // Reconnect with a database default time zone far from UTC.
    const [{ name }] = await db().$queryRaw<
      [{ name: string }]
    >`SELECT current_database()::text AS name`;
    await db().$executeRawUnsafe(`ALTER DATABASE "${name}" SET "TimeZone" TO 'Pacific/Kiritimati'`);
    await db().$disconnect();
    globalThis.__diacarePrisma = undefined;
    expect(await db().$queryRaw`SELECT current_setting('TimeZone') AS tz`).toEqual([
      { tz: "Pacific/Kiritimati" },
    ]);

    const before = Date.now();
    await hitRateLimit("t:utc", { limit: 1, windowSeconds: 900 });
    const row = await db().rateLimit.findUniqueOrThrow({ where: { key: "t:utc" } });
    expect(row.count).toBe(1);
    expect(Math.abs(row.resetAt.getTime() - (before + 900_000))).toBeLessThan(5_000);
  });

  it("starts a new window once the old one has passed", async () => {
    for (let i = 0; i < 4; i++) await hitRateLimit("t:window", rule);
    expect((await hitRateLimit("t:window", rule)).allowed).toBe(false);
    await db().rateLimit.update({
      where: { key: "t:window" },
      data: { resetAt: new Date(Date.now() - 1000) },
    });
    expect(await hitRateLimit("t:window", rule)).toEqual({
      allowed: true,
      remaining: 2,
      retryAfterSeconds: 0,
    });
    const row = await db().rateLimit.findUniqueOrThrow({ where: { key: "t:window" } });
    expect(row.count).toBe(1);
    expect(row.resetAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
  });

  it("keeps keys independent", async () => {
    for (let i = 0; i < 4; i++) await hitRateLimit("t:a", rule);
    expect((await hitRateLimit("t:a", rule)).allowed).toBe(false);
    expect(await hitRateLimit("t:b", rule)).toEqual({
      allowed: true,
      remaining: 2,
      retryAfterSeconds: 0,
    });
  });

  it("allows exactly `limit` of many concurrent hits", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        hitRateLimit("t:concurrent", { limit: 10, windowSeconds: 60 }),
      ),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(results.filter((r) => !r.allowed).every((r) => r.retryAfterSeconds > 0)).toBe(true);
    expect(
      [...results.filter((r) => r.allowed).map((r) => r.remaining)].sort((a, b) => a - b),
    ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("does not count past limit + 1", async () => {
    for (let i = 0; i < 10; i++) await hitRateLimit("t:cap", { limit: 2, windowSeconds: 60 });
    expect((await db().rateLimit.findUniqueOrThrow({ where: { key: "t:cap" } })).count).toBe(3);
  });

  it("rejects a nonsensical rule", async () => {
    await expect(hitRateLimit("t:bad", { limit: 1, windowSeconds: 0 })).rejects.toThrow(
      /windowSeconds/,
    );
    await expect(hitRateLimit("t:bad", { limit: 1.5, windowSeconds: 10 })).rejects.toThrow(/limit/);
  });
});

describe("clearRateLimit and pruneRateLimits", () => {
  it("clear one key's counter", async () => {
    for (let i = 0; i < 4; i++) await hitRateLimit("t:clear", rule);
    await hitRateLimit("t:keep", rule);
    await clearRateLimit("t:clear");
    expect(await hitRateLimit("t:clear", rule)).toEqual({
      allowed: true,
      remaining: 2,
      retryAfterSeconds: 0,
    });
    expect((await db().rateLimit.findUniqueOrThrow({ where: { key: "t:keep" } })).count).toBe(1);
  });

  it("prune only ended windows", async () => {
    await hitRateLimit("t:old", rule);
    await hitRateLimit("t:current", rule);
    await db().rateLimit.update({
      where: { key: "t:old" },
      data: { resetAt: new Date(Date.now() - 1000) },
    });
    expect(await pruneRateLimits()).toBeGreaterThanOrEqual(1);
    expect(await db().rateLimit.findUnique({ where: { key: "t:old" } })).toBeNull();
    expect(await db().rateLimit.findUnique({ where: { key: "t:current" } })).not.toBeNull();
  });
});

describe("refundRateLimit", () => {
  it("takes back one hit of an open window, never below zero", async () => {
    for (let i = 0; i < 3; i++) await hitRateLimit("t:refund", rule);
    await refundRateLimit("t:refund");
    expect(await hitRateLimit("t:refund", rule)).toMatchObject({ allowed: true, remaining: 0 });
    await db().rateLimit.update({ where: { key: "t:refund" }, data: { count: 0 } });
    await refundRateLimit("t:refund");
    expect((await db().rateLimit.findUniqueOrThrow({ where: { key: "t:refund" } })).count).toBe(0);
  });
});

describe("RATE_LIMITS", () => {
  it("holds the product's limits", () => {
    expect(RATE_LIMITS).toEqual({
      signInFailuresPerAccountIp: { limit: 5, windowSeconds: 900 },
      signInFailuresPerAccount: { limit: 50, windowSeconds: 3600 },
      signInFailuresPerIp: { limit: 30, windowSeconds: 900 },
      sendCodePerEmail: { limit: 5, windowSeconds: 3600 },
      sendCodePerIp: { limit: 20, windowSeconds: 3600 },
      checkCodePerEmail: { limit: 10, windowSeconds: 900 },
      shareSearchPerAccount: { limit: 20, windowSeconds: 600 },
      uploadErrorReportsPerAccount: { limit: 20, windowSeconds: 600 },
      nightscoutFailuresPerIp: { limit: 30, windowSeconds: 900 },
      nightscoutCallsPerLink: { limit: 600, windowSeconds: 600 },
    });
  });
});

describe("clientIp", () => {
  it("takes the first X-Forwarded-For entry, else unknown", () => {
    const request = (headers: Record<string, string>) =>
      new Request("http://localhost/", { headers });
    expect(clientIp(request({ "X-Forwarded-For": "203.0.113.7, 10.0.0.1" }))).toBe("203.0.113.7");
    expect(clientIp(request({ "x-forwarded-for": " 2001:db8::1 " }))).toBe("2001:db8::1");
    expect(clientIp(request({}))).toBe("unknown");
    expect(clientIp(request({ "x-forwarded-for": " , 10.0.0.1" }))).toBe("unknown");
  });
});

describe("takePlace", () => {
  it("gives exactly `limit` places to many callers at once, and one again when one is given back", async () => {
    const taken = await Promise.all(Array.from({ length: 10 }, () => takePlace("p:race", 2, 60)));
    expect(taken.filter(Boolean)).toHaveLength(2);
    expect(await takePlace("p:race", 2, 60)).toBe(false);
    await givePlaceBack("p:race");
    expect(await takePlace("p:race", 2, 60)).toBe(true);
    expect(await takePlace("p:race", 2, 60)).toBe(false);
    expect((await db().rateLimit.findUniqueOrThrow({ where: { key: "p:race" } })).count).toBe(2);
  });

  it("starts afresh once the lease has ended (places a stopped server never gave back)", async () => {
    expect(await takePlace("p:lease", 1, 60)).toBe(true);
    expect(await takePlace("p:lease", 1, 60)).toBe(false);
    await db().rateLimit.update({
      where: { key: "p:lease" },
      data: { resetAt: new Date(Date.now() - 1000) },
    });
    // Giving back after the lease ended changes nothing.
    await givePlaceBack("p:lease");
    expect(await takePlace("p:lease", 1, 60)).toBe(true);
    expect((await db().rateLimit.findUniqueOrThrow({ where: { key: "p:lease" } })).count).toBe(1);
  });
});
