import type PgBoss from "pg-boss";
import { takeRenderOutcome } from "~/models/pdf-job.server";
import { env } from "~/utils/env.server";
import { PDF_RENDER_QUEUE, pdfJobTiming } from "~/utils/pdf-job.server";
import { createQueuedPdfRenderer, type PdfJobTransport } from "~/utils/pdf-queue.server";
import {
  appOrigins,
  installQueuedPdfRenderer,
  type SharedAccountLimiter,
} from "~/utils/pdf.server";
import { sessionSecret } from "~/utils/secret.server";
import { jobQueue } from "./queue.server";

/**
 * Render jobs on pg-boss: sent with the expiry and retry of `pdfJobTiming`, so that a job whose
 * worker died is handed to a worker again within the requester's wait; outcomes come back through
 * the PdfResult table. A job is deleted once its requester is done with it.
 */
export function pdfJobTransport(boss: () => PgBoss, waitMs: number): PdfJobTransport {
  const { expireInSeconds, retryLimit } = pdfJobTiming(waitMs);
  return {
    backlog: () => boss().getQueueSize(PDF_RENDER_QUEUE),
    async send(job) {
      const id = await boss().send(PDF_RENDER_QUEUE, job, {
        expireInSeconds,
        retryLimit,
        retryDelay: 0,
        retryBackoff: false,
      });
      if (!id) throw new Error("the queue did not take the job");
      return id;
    },
    take: takeRenderOutcome,
    async forget(jobId) {
      await boss().deleteJob(PDF_RENDER_QUEUE, jobId);
      await takeRenderOutcome(jobId);
    },
  };
}

/**
 * PDF_RENDER=queue on an app server: creates the render queue (once the job queue runs) and
 * makes `renderPdf` send jobs to it instead of launching Chromium.
 */
export async function startQueuedPdfRendering(sharedLimiter: SharedAccountLimiter) {
  await jobQueue().createQueue(PDF_RENDER_QUEUE);
  installQueuedPdfRenderer(
    createQueuedPdfRenderer({
      transport: pdfJobTransport(jobQueue, env().PDF_TIMEOUT_MS),
      timeoutMs: env().PDF_TIMEOUT_MS,
      allowedOrigins: appOrigins(env().APP_URL, env().PORT),
      secret: sessionSecret,
      sharedLimiter: () => sharedLimiter,
    }),
  );
}
