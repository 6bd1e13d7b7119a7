// The PDF worker (PDF_RENDERER=queue): takes render jobs from the job queue on the primary
// (DIRECT_DATABASE_URL, else DATABASE_URL), prints each page with its own Chromium on the app's
// origin (PDF_RENDER_URL, else APP_URL), and stores the outcome for the app server that waits.
// Run as `NODE_ENV=production tsx server/pdf-worker.ts` with the app servers' environment.
// SIGTERM/SIGINT: takes no new job, finishes the renders under way, then exits.
// See docs/decisions/024-pdf-worker.md.
import os from "node:os";
import { randomBytes } from "node:crypto";
import PgBoss from "pg-boss";
import { parseEnv, type Env } from "../app/utils/env.server";
import { logger } from "../app/utils/logger.server";
import { PDF_RENDER_QUEUE, pdfJobTiming } from "../app/utils/pdf-job.server";
import { createPdfRenderer } from "../app/utils/pdf.server";

let env: Env;
try {
  env = parseEnv();
  if (!env.DATABASE_URL)
    throw new Error("Invalid environment:\n  DATABASE_URL: required by the PDF worker");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const log = logger();
const { beatPdfWorker, forgetGonePdfWorkers, saveRenderOutcome, sweepRenderOutcomes } =
  await import("../app/models/pdf-job.server");
const { workPdfJob } = await import("../app/jobs/pdf-worker.server");
const { disconnectDatabases } = await import("../app/utils/db.server");
const { sessionSecret } = await import("../app/utils/secret.server");

/** A heartbeat this often; the app servers count a worker as gone after a few missed ones. */
const HEARTBEAT_MS = 5_000;
/** Outcomes nobody took are deleted this often. */
const SWEEP_MS = 60_000;

const workerId = `${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
const origin = new URL(env.PDF_RENDER_URL ?? env.APP_URL).origin;
const timing = pdfJobTiming(env.PDF_TIMEOUT_MS);
const secret = sessionSecret();

const renderer = createPdfRenderer({
  executablePath: env.CHROMIUM_PATH,
  concurrency: env.PDF_CONCURRENCY,
  timeoutMs: timing.renderTimeoutMs,
  // The worker renders one origin only: the app's.
  allowedOrigins: [origin],
  // The queue hands out at most PDF_CONCURRENCY jobs at once: nothing waits here.
  queueLimit: env.PDF_CONCURRENCY,
});

const boss = new PgBoss({
  connectionString: env.DIRECT_DATABASE_URL ?? env.DATABASE_URL,
  schema: "pgboss",
  max: env.PDF_CONCURRENCY + 2,
  application_name: "diacare-pdf-worker",
  // Expired jobs (a worker killed mid-render) are handed out again soon after they expire.
  maintenanceIntervalSeconds: timing.maintenanceIntervalSeconds,
});
boss.on("error", (error) =>
  log.error({ err: error instanceof Error ? error.message : String(error) }, "pdf queue error"),
);
await boss.start();
await boss.createQueue(PDF_RENDER_QUEUE);

let rendered = 0;
const context = {
  renderer,
  origin,
  secret,
  save: (jobId: string, outcome: Parameters<typeof saveRenderOutcome>[2]) =>
    saveRenderOutcome(jobId, workerId, outcome),
  log: (event: { event: string }) => log.info({ ...event, worker: workerId }, `pdf ${event.event}`),
};

// One queue worker per render slot, each taking one job at a time: a job waits in the queue (where
// any PDF worker may take it), never in this process.
for (let slot = 0; slot < env.PDF_CONCURRENCY; slot++) {
  await boss.work<unknown>(
    PDF_RENDER_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: timing.pollingIntervalSeconds },
    async ([job]) => {
      if (job && (await workPdfJob(job, context))) rendered += 1;
    },
  );
}

async function beat() {
  await beatPdfWorker(workerId, rendered).catch((error: unknown) =>
    log.warn(
      { err: error instanceof Error ? error.message : String(error) },
      "pdf worker heartbeat failed",
    ),
  );
}
await beat();
const heartbeat = setInterval(() => void beat(), HEARTBEAT_MS);
const sweep = setInterval(
  () => void sweepRenderOutcomes(Math.ceil((2 * env.PDF_TIMEOUT_MS) / 1000)).catch(() => 0),
  SWEEP_MS,
);
log.info(
  { worker: workerId, origin, concurrency: env.PDF_CONCURRENCY, ...timing },
  "pdf worker ready",
);

let stopping = false;
async function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  log.info({ signal, worker: workerId }, "pdf worker stopping: finishing the renders under way");
  // No new job; the renders under way finish (each is bounded by the render timeout).
  await boss
    .stop({ graceful: true, wait: true, timeout: timing.renderTimeoutMs + 5_000 })
    .catch(() => {});
  clearInterval(heartbeat);
  clearInterval(sweep);
  await renderer.close();
  // Its heartbeat row stays and ages out: a worker restarted within the readiness window does not
  // make the app servers unready meanwhile. Rows of workers long gone are deleted.
  await forgetGonePdfWorkers().catch(() => 0);
  await disconnectDatabases().catch(() => {});
  log.info({ worker: workerId, rendered }, "pdf worker stopped");
  process.exit(0);
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
