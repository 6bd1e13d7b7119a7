import PgBoss from "pg-boss";

/**
 * The background job queue: pg-boss on the app's own PostgreSQL (schema `pgboss`), so that jobs
 * survive restarts and are shared by every app server (a job runs once, on whichever server takes
 * it). It runs on PostgreSQL and on the embedded PGlite database alike. A job names a queue, the
 * function that works one job's data, and optionally a cron schedule (UTC) that sends it.
 */

export type JobDefinition<T extends object = object> = {
  name: string;
  /** Five-field cron, UTC; pg-boss sends the job once per tick across all servers. */
  cron?: string;
  work: (data: T) => Promise<void>;
  /** Runs once when the queue has started (catching up on what a stopped server left). */
  onStart?: () => Promise<void>;
};

declare global {
  // The server starts the queue from its own import of this module, while route modules run from
  // the app build, which bundles another copy: both must reach the one running queue.

  var __diacareJobQueue: PgBoss | undefined;
  // This server's worker of each queue, woken when this server sends a job (see sendJob).

  var __diacareJobWorkers: Map<string, string> | undefined;
}

/** Starts the queue on `connectionString` and registers the jobs (creating their queues and schedules). */
export async function startJobQueue(
  connectionString: string,
  jobs: JobDefinition[],
): Promise<PgBoss> {
  if (globalThis.__diacareJobQueue)
    throw new Error("startJobQueue: the job queue is already running");
  const workers = new Map<string, string>();
  const started = new PgBoss({
    connectionString,
    schema: "pgboss",
    max: 2,
    application_name: "diacare-jobs",
  });
  started.on("error", (error) =>
    console.error("[jobs] queue error:", error instanceof Error ? error.message : error),
  );
  await started.start();
  for (const job of jobs) {
    await started.createQueue(job.name);
    const workerId = await started.work<object>(job.name, async (batch) => {
      for (const item of batch) await job.work(item.data);
      // A worker that has just worked a job looks for the next one at once rather than after its
      // poll interval, so that jobs sent while it was busy (ten uploads ending together) wait only
      // for each other.
      const self = workers.get(job.name);
      if (self) started.notifyWorker(self);
    });
    workers.set(job.name, workerId);
    if (job.cron) await started.schedule(job.name, job.cron, {}, { tz: "UTC" });
  }
  globalThis.__diacareJobQueue = started;
  globalThis.__diacareJobWorkers = workers;
  for (const job of jobs) await job.onStart?.();
  return started;
}

/**
 * Sends one job to a registered queue (e.g. "process this upload"); answers the job id. This
 * server's worker of that queue is woken at once rather than at its next poll (every 2 s), so a
 * job a user waits for starts without delay; any server may still take it.
 */
export async function sendJob(
  name: string,
  data: object,
  options: PgBoss.SendOptions = {},
): Promise<string | null> {
  const boss = globalThis.__diacareJobQueue;
  if (!boss) throw new Error("sendJob: the job queue is not running");
  const id = await boss.send(name, data, options);
  const worker = globalThis.__diacareJobWorkers?.get(name);
  if (worker) boss.notifyWorker(worker);
  return id;
}

/** The running queue; throws when it is not running. */
export function jobQueue(): PgBoss {
  const boss = globalThis.__diacareJobQueue;
  if (!boss) throw new Error("the job queue is not running");
  return boss;
}

/**
 * Resolves when the running queue answers a query on its own connections (its first queue's
 * size); throws when the queue is not running or its database does not answer.
 */
export async function queueAnswers(): Promise<void> {
  const boss = globalThis.__diacareJobQueue;
  const first = globalThis.__diacareJobWorkers?.keys().next().value;
  if (!boss || first === undefined) throw new Error("the job queue is not running");
  await boss.getQueueSize(first);
}

/** Stops taking jobs, lets running ones finish (up to `timeoutMs`) and closes the queue's connections. */
export async function stopJobQueue(timeoutMs = 10_000): Promise<void> {
  const running = globalThis.__diacareJobQueue;
  globalThis.__diacareJobQueue = undefined;
  globalThis.__diacareJobWorkers = undefined;
  await running?.stop({ graceful: true, timeout: timeoutMs, wait: true });
}
