// readDb() on real databases: the standby answers lag-tolerant reads; an unreachable standby's
// reads are read again from the primary, and the standby is skipped for a moment.
import { afterEach, describe, expect, it } from "vitest";
import { db, isUnreachable, readDb, STANDBY_PAUSE_MS, withReadRouting } from "~/utils/db.server";
import { freePort } from "../support/server-process";

const lagTolerant = <T>(work: () => Promise<T>) => withReadRouting({ primary: false }, work);

afterEach(async () => {
  await globalThis.__diacareReadPrisma?.$disconnect();
  globalThis.__diacareReadPrisma = undefined;
  globalThis.__diacareStandbyPausedUntil = undefined;
  delete process.env.DATABASE_READ_URL;
});

describe("readDb", () => {
  it("reads from the standby when one is configured and answers", async () => {
    // The test database stands in for the standby: the read arrives on a connection of its own.
    process.env.DATABASE_READ_URL = `${process.env.DATABASE_URL}${process.env.DATABASE_URL!.includes("?") ? "&" : "?"}application_name=standby-reader`;
    const [row] = await lagTolerant(
      () =>
        readDb().$queryRaw<{ app: string }[]>`SELECT current_setting('application_name') AS app`,
    );
    expect(row!.app).toBe("standby-reader");
    expect(globalThis.__diacareStandbyPausedUntil).toBeUndefined();
  });

  it("reads again from the primary when the standby is unreachable, then skips it for a while", async () => {
    process.env.DATABASE_READ_URL = `postgresql://postgres@127.0.0.1:${await freePort()}/none`;
    const before = Date.now();
    const [raw] = await lagTolerant(() => readDb().$queryRaw<{ one: number }[]>`SELECT 1 AS one`);
    expect(raw).toEqual({ one: 1 });
    const paused = globalThis.__diacareStandbyPausedUntil!;
    expect(paused).toBeGreaterThanOrEqual(before + STANDBY_PAUSE_MS);
    // Model operations too; meanwhile readDb is the primary itself.
    expect(withReadRouting({ primary: false }, () => readDb())).toBe(db());
    globalThis.__diacareStandbyPausedUntil = undefined;
    expect(await lagTolerant(() => readDb().option.count())).toBe(await db().option.count());
    expect(globalThis.__diacareStandbyPausedUntil).toBeGreaterThan(Date.now());
  });

  it("does not retry a query that failed for its own sake", async () => {
    process.env.DATABASE_READ_URL = process.env.DATABASE_URL;
    await expect(
      lagTolerant(() => readDb().$queryRaw`SELECT * FROM "NoSuchTable"`),
    ).rejects.toThrow(/NoSuchTable|does not exist/);
    expect(globalThis.__diacareStandbyPausedUntil).toBeUndefined();
  });
});

describe("isUnreachable", () => {
  it("knows connection failures from query failures", () => {
    expect(isUnreachable(Object.assign(new Error("x"), { code: "P1001" }))).toBe(true);
    expect(
      isUnreachable(
        Object.assign(new Error("Raw query failed. Code: `08P01`. Message: `query_wait_timeout`"), {
          code: "P2010",
        }),
      ),
    ).toBe(true);
    expect(
      isUnreachable({ name: "DriverAdapterError", cause: { kind: "postgres", code: "57P01" } }),
    ).toBe(true);
    expect(isUnreachable(new Error("connect ECONNREFUSED 127.0.0.1:5"))).toBe(true);
    expect(
      isUnreachable(
        new Error("Raw query failed. Code: `N/A`. Message: `Can't reach database server at h:5`"),
      ),
    ).toBe(true);
    expect(
      isUnreachable(
        Object.assign(new Error("Raw query failed. Code: `42P01`."), { code: "P2010" }),
      ),
    ).toBe(false);
    expect(isUnreachable(Object.assign(new Error("unique"), { code: "P2002" }))).toBe(false);
    expect(isUnreachable("text")).toBe(false);
  });
});
