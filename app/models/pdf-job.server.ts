import { Prisma } from "@prisma/client";
import { db } from "~/utils/db.server";
import { pdfFailureSchema, type PdfFailure, type PdfOutcome } from "~/utils/pdf-job.server";

/**
 * The PDF worker's rows (PDF_RENDERER=queue): render outcomes handed from the worker to the app
 * server that waits (model PdfResult), and the workers' heartbeats (model PdfWorker). Times come
 * from the database's clock, so servers with slightly different clocks agree.
 */

/**
 * Stores a job's outcome. The first outcome of a job wins: a job run again (its worker was
 * thought dead) cannot replace what the waiting server may already have taken.
 */
export async function saveRenderOutcome(
  jobId: string,
  workerId: string,
  outcome: PdfOutcome,
): Promise<boolean> {
  const stored = await db().pdfResult.createMany({
    data: [
      "pdf" in outcome
        ? { jobId, workerId, pdf: Buffer.from(outcome.pdf) }
        : { jobId, workerId, failure: outcome.failure as Prisma.InputJsonObject },
    ],
    skipDuplicates: true,
  });
  return stored.count === 1;
}

/**
 * Takes a job's outcome: answers it and deletes it in one statement, so that it is taken once
 * and the PDF does not stay in the database. Null while there is none.
 */
export async function takeRenderOutcome(jobId: string): Promise<PdfOutcome | null> {
  const rows = await db().$queryRaw<{ pdf: Uint8Array | null; failure: unknown }[]>`
    DELETE FROM "PdfResult" WHERE "jobId" = ${jobId}::uuid RETURNING "pdf", "failure"`;
  const row = rows[0];
  if (!row) return null;
  if (row.pdf) return { pdf: new Uint8Array(row.pdf) };
  const failure = pdfFailureSchema.safeParse(row.failure);
  const stored: PdfFailure = failure.success
    ? failure.data
    : { code: "browser", message: "the PDF worker stored an unreadable failure" };
  return { failure: stored };
}

/** Deletes outcomes older than `seconds` (their requester stopped waiting long ago). */
export async function sweepRenderOutcomes(seconds: number): Promise<number> {
  return db().$executeRaw`
    DELETE FROM "PdfResult"
     WHERE "createdAt" < (now() AT TIME ZONE 'UTC') - make_interval(secs => ${seconds}::integer)`;
}

/** Records that worker `id` is alive (and how many PDFs it has rendered). */
export async function beatPdfWorker(id: string, rendered: number): Promise<void> {
  await db().$executeRaw`
    INSERT INTO "PdfWorker" ("id", "startedAt", "seenAt", "rendered")
    VALUES (${id}, (now() AT TIME ZONE 'UTC'), (now() AT TIME ZONE 'UTC'), ${rendered}::integer)
    ON CONFLICT ("id") DO UPDATE SET "seenAt" = EXCLUDED."seenAt", "rendered" = EXCLUDED."rendered"`;
}

/** Forgets the workers not seen for `seconds` (they stopped long ago); answers how many. */
export async function forgetGonePdfWorkers(seconds = 3_600): Promise<number> {
  return db().$executeRaw`
    DELETE FROM "PdfWorker"
     WHERE "seenAt" < (now() AT TIME ZONE 'UTC') - make_interval(secs => ${seconds}::integer)`;
}

/** Seconds since the most recent heartbeat of any PDF worker; null when none has beaten. */
export async function secondsSinceWorkerBeat(): Promise<number | null> {
  const rows = await db().$queryRaw<{ age: number | null }[]>`
    SELECT EXTRACT(EPOCH FROM (now() AT TIME ZONE 'UTC') - max("seenAt"))::float8 AS "age"
      FROM "PdfWorker"`;
  return rows[0]?.age ?? null;
}
