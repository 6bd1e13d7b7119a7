import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  cachedReadiness,
  migrationNames,
  missingMigrations,
  runChecks,
  type ReadinessCheck,
} from "./readiness.server";

const ok = (name: string): ReadinessCheck => ({ name, run: async () => {} });
const failing = (name: string, reason: string): ReadinessCheck => ({
  name,
  run: async () => {
    throw new Error(reason);
  },
});

describe("runChecks", () => {
  it("is ready only when every check passes, and names each outcome", async () => {
    expect(await runChecks([ok("database"), ok("queue")])).toEqual({
      ready: true,
      checks: { database: "ok", queue: "ok" },
    });
    expect(await runChecks([ok("database"), failing("queue", "connection refused")])).toEqual({
      ready: false,
      checks: { database: "ok", queue: "connection refused" },
    });
  });

  it("fails a check that does not answer in time, without waiting for it", async () => {
    const hanging: ReadinessCheck = { name: "database", run: () => new Promise(() => {}) };
    const started = Date.now();
    const result = await runChecks([hanging], 50);
    expect(result).toEqual({ ready: false, checks: { database: "no answer within 50 ms" } });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("cachedReadiness", () => {
  it("runs the checks at most once per ttl, sharing a run in progress", async () => {
    let runs = 0;
    let clock = 1_000;
    const check: ReadinessCheck = { name: "database", run: async () => void runs++ };
    const ready = cachedReadiness([check], {
      ttlMs: 1500,
      now: () => clock,
      draining: () => false,
    });
    await Promise.all([ready(), ready(), ready()]);
    expect(runs).toBe(1);
    clock += 1499;
    await ready();
    expect(runs).toBe(1);
    clock += 1;
    await ready();
    expect(runs).toBe(2);
  });

  it("answers not ready at once while the server drains, whatever the cache holds", async () => {
    let draining = false;
    const ready = cachedReadiness([ok("database")], { ttlMs: 60_000, draining: () => draining });
    expect((await ready()).ready).toBe(true);
    draining = true;
    expect(await ready()).toEqual({ ready: false, checks: { server: "draining" } });
  });
});

describe("migrations", () => {
  it("lists the repository's migration folders in order", async () => {
    const names = await migrationNames(path.resolve("prisma/migrations"));
    expect(names.length).toBeGreaterThan(5);
    expect(names).toEqual([...names].sort());
    expect(names.every((name) => /^\d{14}_/.test(name))).toBe(true);
  });

  it("names the expected migrations the database lacks", () => {
    expect(missingMigrations(["a", "b", "c"], ["a", "c", "old"])).toEqual(["b"]);
    expect(missingMigrations(["a"], ["a"])).toEqual([]);
  });
});
