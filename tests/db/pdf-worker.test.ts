// PDF_RENDERER=queue on a real database and a real pg-boss: a render sent by the app server's
// queued renderer, worked by the worker's job function, and its outcome taken back. The page
// renderer of the worker is a recording stand-in here (Chromium's part is tests/pdf and the
// cluster test); everything between the route and the renderer is the real thing.
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfJobTransport } from "~/jobs/pdf-render.server";
import { workPdfJob, type PdfWorkEvent } from "~/jobs/pdf-worker.server";
import {
  beatPdfWorker,
  forgetGonePdfWorkers,
  saveRenderOutcome,
  secondsSinceWorkerBeat,
  sweepRenderOutcomes,
  takeRenderOutcome,
} from "~/models/pdf-job.server";
import { db } from "~/utils/db.server";
import { PDF_RENDER_QUEUE, pdfJobTiming } from "~/utils/pdf-job.server";
import { createQueuedPdfRenderer } from "~/utils/pdf-queue.server";
import { PdfRenderError, type RenderPdfOptions } from "~/utils/pdf.server";
import { pdfWorkerCheck } from "~/utils/readiness.server";
import { rejection } from "../support/pdf-rejection";

const SECRET = "test-session-secret-that-is-long-enough-0123456789";
const APP = "http://127.0.0.1:3000";
const WORKER_ORIGIN = "http://127.0.0.1:3601";
const WAIT_MS = 5_000;
const timing = pdfJobTiming(WAIT_MS);

let boss: PgBoss;
const seen: RenderPdfOptions[] = [];
const events: PdfWorkEvent[] = [];
/** What the stand-in renderer does with the next render (default: a small PDF naming the URL). */
let nextRender: (request: RenderPdfOptions) => Promise<Uint8Array> = async (request) =>
  new TextEncoder().encode(`%PDF-1.7 ${request.url}`);

const workContext = {
  renderer: {
    render: (request: RenderPdfOptions) => {
      seen.push(request);
      return nextRender(request);
    },
  },
  origin: WORKER_ORIGIN,
  secret: SECRET,
  save: (jobId: string, outcome: Parameters<typeof saveRenderOutcome>[2]) =>
    saveRenderOutcome(jobId, "test-worker", outcome),
  log: (event: PdfWorkEvent) => events.push(event),
};

function queuedRenderer(timeoutMs = WAIT_MS) {
  return createQueuedPdfRenderer({
    transport: pdfJobTransport(() => boss, timeoutMs),
    timeoutMs,
    allowedOrigins: [APP],
    secret: () => SECRET,
    pollMs: 50,
  });
}

async function jobRows(): Promise<number> {
  const rows = await db().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${PDF_RENDER_QUEUE}`;
  return rows[0]!.n;
}

const workerIds: string[] = [];
async function startWorker() {
  workerIds.push(
    await boss.work<unknown>(
      PDF_RENDER_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: 0.5 },
      async ([job]) => {
        if (job) await workPdfJob(job, workContext);
      },
    ),
  );
}
async function stopWorkers() {
  for (const id of workerIds.splice(0)) await boss.offWork({ id });
}

beforeAll(async () => {
  boss = new PgBoss({
    connectionString: process.env.DATABASE_URL!,
    schema: "pgboss",
    max: 4,
    maintenanceIntervalSeconds: timing.maintenanceIntervalSeconds,
  });
  boss.on("error", () => {});
  await boss.start();
  await boss.createQueue(PDF_RENDER_QUEUE);
});

afterAll(async () => {
  await boss.stop({ graceful: false, wait: true });
});

describe("render outcomes", () => {
  it("keep the first outcome of a job and are taken once", async () => {
    const jobId = "3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
    expect(await saveRenderOutcome(jobId, "w1", { pdf: new Uint8Array([37, 80, 68, 70]) })).toBe(
      true,
    );
    expect(
      await saveRenderOutcome(jobId, "w2", {
        failure: { code: "timeout", message: "late", pageStatus: null },
      }),
    ).toBe(false);
    expect(await takeRenderOutcome(jobId)).toEqual({ pdf: new Uint8Array([37, 80, 68, 70]) });
    expect(await takeRenderOutcome(jobId)).toBeNull();
    expect(await db().pdfResult.count()).toBe(0);
  });

  it("bring a failure back with its page status", async () => {
    const jobId = "4f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
    await saveRenderOutcome(jobId, "w1", {
      failure: { code: "page", message: "/x answered 404", pageStatus: 404 },
    });
    expect(await takeRenderOutcome(jobId)).toEqual({
      failure: { code: "page", message: "/x answered 404", pageStatus: 404 },
    });
  });

  it("are swept when nobody took them", async () => {
    const old = "5f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
    const fresh = "6f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
    await saveRenderOutcome(old, "w1", { pdf: new Uint8Array([1]) });
    await saveRenderOutcome(fresh, "w1", { pdf: new Uint8Array([2]) });
    await db().pdfResult.update({
      where: { jobId: old },
      data: { createdAt: new Date(Date.now() - 10 * 60_000) },
    });
    expect(await sweepRenderOutcomes(120)).toBe(1);
    expect((await db().pdfResult.findMany()).map((r) => r.jobId)).toEqual([fresh]);
    await takeRenderOutcome(fresh);
  });
});

describe("a queued render", () => {
  it("is rendered by a worker on its own origin with the session cookie only, and leaves nothing behind", async () => {
    await startWorker();
    try {
      seen.length = 0;
      const pdf = await queuedRenderer().render({
        url: `${APP}/7/statisticsprint?start=2026-11-01&end=2026-11-14&print=1`,
        cookieHeader: "__session=the-session; _ga=tracker",
        landscape: true,
      });
      expect(new TextDecoder().decode(pdf)).toBe(
        `%PDF-1.7 ${WORKER_ORIGIN}/7/statisticsprint?start=2026-11-01&end=2026-11-14&print=1`,
      );
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({
        cookies: [{ name: "__session", value: "the-session" }],
        landscape: true,
        paper: "a4",
      });
      // The job (with its sealed cookies) and the outcome are gone once the PDF was taken.
      expect(await jobRows()).toBe(0);
      expect(await db().pdfResult.count()).toBe(0);
    } finally {
      await stopWorkers();
    }
  });

  it("fails as the page did, with the page's status", async () => {
    await startWorker();
    try {
      nextRender = async () => {
        throw new PdfRenderError("page", "/7/statisticsprint answered 404", 404);
      };
      const error = await rejection(
        queuedRenderer().render({ url: `${APP}/7/statisticsprint?print=1` }),
      );
      expect(error.code).toBe("page");
      expect(error.httpStatus).toBe(404);
      expect(await jobRows()).toBe(0);
    } finally {
      nextRender = async (request) => new TextEncoder().encode(`%PDF-1.7 ${request.url}`);
      await stopWorkers();
    }
  });

  it("refuses another origin before anything is queued", async () => {
    const error = await rejection(queuedRenderer().render({ url: "http://evil.example/x" }));
    expect(error.code).toBe("refused");
    expect(await jobRows()).toBe(0);
  });

  it("times out (504) when no worker takes it, and its job is deleted", async () => {
    const error = await rejection(
      queuedRenderer(1_500).render({ url: `${APP}/supports/terms?print=1` }),
    );
    expect(error.code).toBe("timeout");
    expect(error.httpStatus).toBe(504);
    expect(await jobRows()).toBe(0);
  });

  it("is worked again after its worker died mid-render, and arrives", async () => {
    events.length = 0;
    // 10 s: the job expires after 4 s, and a retry starts within about 2 s more.
    const waiting = queuedRenderer(10_000).render({ url: `${APP}/supports/guide?print=1` });
    // A worker that takes the job and dies: the job stays active until it expires.
    let taken: PgBoss.Job<unknown>[] = [];
    for (let i = 0; i < 40 && taken.length === 0; i++) {
      taken = await boss.fetch(PDF_RENDER_QUEUE);
      if (taken.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(taken).toHaveLength(1);
    await startWorker();
    try {
      const pdf = await waiting;
      expect(new TextDecoder().decode(pdf)).toBe(
        `%PDF-1.7 ${WORKER_ORIGIN}/supports/guide?print=1`,
      );
      // The live worker ran it once, after the dead one's expiry.
      expect(events.filter((e) => e.event === "rendered" && e.jobId === taken[0]!.id)).toHaveLength(
        1,
      );
    } finally {
      await stopWorkers();
    }
  });

  it("answers busy when too many jobs wait for a worker", async () => {
    const renderer = createQueuedPdfRenderer({
      transport: pdfJobTransport(() => boss, WAIT_MS),
      timeoutMs: WAIT_MS,
      allowedOrigins: [APP],
      secret: () => SECRET,
      queueLimit: 1,
      pollMs: 50,
    });
    const first = renderer.render({ url: `${APP}/supports/terms?print=1` });
    await new Promise((r) => setTimeout(r, 200));
    const error = await rejection(renderer.render({ url: `${APP}/supports/guide?print=1` }));
    expect(error.code).toBe("busy");
    expect(error.httpStatus).toBe(503);
    await startWorker();
    try {
      expect((await first).byteLength).toBeGreaterThan(0);
    } finally {
      await stopWorkers();
    }
  });
});

describe("the worker's job function", () => {
  it("stores a refusal for data that is not a job, and skips a job nobody waits for", async () => {
    const jobId = "7f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
    expect(await workPdfJob({ id: jobId, data: { path: "//evil.example/" } }, workContext)).toBe(
      false,
    );
    expect(await takeRenderOutcome(jobId)).toMatchObject({ failure: { code: "refused" } });
    seen.length = 0;
    const late = "8f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
    expect(
      await workPdfJob(
        { id: late, data: { path: "/supports/terms", deadline: Date.now() - 1 } },
        workContext,
      ),
    ).toBe(false);
    expect(seen).toHaveLength(0);
    expect(await takeRenderOutcome(late)).toBeNull();
  });
});

describe("readiness with PDF_RENDERER=queue", () => {
  it("needs a PDF worker seen recently", async () => {
    const check = pdfWorkerCheck(secondsSinceWorkerBeat);
    await expect(check.run()).rejects.toThrow(/no PDF worker has been seen/);
    await beatPdfWorker("host:1:a", 0);
    await expect(check.run()).resolves.toBeUndefined();
    await db().pdfWorker.update({
      where: { id: "host:1:a" },
      data: { seenAt: new Date(Date.now() - 60_000) },
    });
    await expect(check.run()).rejects.toThrow(/no PDF worker seen for 6\d s/);
    // A worker gone for a minute is kept (an hour by default), one gone for longer is forgotten.
    expect(await forgetGonePdfWorkers()).toBe(0);
    expect(await forgetGonePdfWorkers(30)).toBe(1);
    expect(await db().pdfWorker.count()).toBe(0);
  });
});
