// The readiness route on a real database: migrations compared with prisma/migrations, and the
// job queue's own connection.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { startJobQueue, stopJobQueue } from "~/jobs/queue.server";
import { loader } from "~/routes/readyz";
import { db } from "~/utils/db.server";

afterAll(async () => {
  await stopJobQueue();
});

beforeEach(() => {
  // Each test reads fresh outcomes, not the ones cached by the previous call.
  globalThis.__diacareReadiness = undefined;
});

async function readyz() {
  const answer = await loader();
  return { status: answer.status, body: await answer.json() };
}

describe("/readyz", () => {
  it("is 503 until the job queue runs, then 200 with every check ok", async () => {
    expect(await readyz()).toEqual({
      status: 503,
      body: {
        status: "not ready",
        checks: {
          database: "ok",
          migrations: "ok",
          queue: "the job queue is not running",
          pdf: "ok",
        },
      },
    });
    await startJobQueue(process.env.DATABASE_URL!, [
      { name: "readiness-probe", work: async () => {} },
    ]);
    globalThis.__diacareReadiness = undefined;
    // Chromium is installed where the tests run (scripts/ensure-chromium.sh).
    expect(await readyz()).toEqual({
      status: 200,
      body: {
        status: "ready",
        checks: { database: "ok", migrations: "ok", queue: "ok", pdf: "ok" },
      },
    });
  }, 60_000);

  it("is 503 naming a migration the database has not finished", async () => {
    const [newest] = await db().$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name DESC LIMIT 1`;
    await db().$executeRaw`
      UPDATE "_prisma_migrations" SET finished_at = NULL WHERE migration_name = ${newest!.migration_name}`;
    const { status, body } = await readyz();
    expect(status).toBe(503);
    expect(body.checks.migrations).toBe(`not applied: ${newest!.migration_name}`);
    expect(body.checks.database).toBe("ok");
  });
});
