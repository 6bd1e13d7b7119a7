import { failureOf, pdfJobSchema, renderRequestOf, type PdfOutcome } from "~/utils/pdf-job.server";
import { PdfRenderError, type PdfRenderer } from "~/utils/pdf.server";

/**
 * One render job on the PDF worker: the job's data is checked, its page rendered on the worker's
 * app origin with the job's cookies, and the outcome stored for the waiting app server. A job
 * whose requester has stopped waiting is not rendered, and a late outcome is not stored.
 */
export interface PdfWorkContext {
  renderer: Pick<PdfRenderer, "render">;
  /** The app origin print pages are loaded from (PDF_RENDER_URL or APP_URL). */
  origin: string;
  secret: string;
  save: (jobId: string, outcome: PdfOutcome) => Promise<unknown>;
  log: (event: PdfWorkEvent) => void;
  now?: () => number;
}

export type PdfWorkEvent =
  | { event: "started"; jobId: string; path: string }
  | { event: "rendered"; jobId: string; path: string; ms: number; bytes: number }
  | { event: "failed"; jobId: string; path: string; ms: number; code: string; message: string }
  | { event: "skipped"; jobId: string; reason: string };

/** Works one job; answers whether a PDF was rendered. Only a failure to store throws (pg-boss retries). */
export async function workPdfJob(
  job: { id: string; data: unknown },
  context: PdfWorkContext,
): Promise<boolean> {
  const now = context.now ?? Date.now;
  const parsed = pdfJobSchema.safeParse(job.data);
  if (!parsed.success) {
    const reason = `malformed job: ${parsed.error.issues[0]?.path.join(".") ?? "data"}`;
    context.log({ event: "skipped", jobId: job.id, reason });
    await context.save(job.id, {
      failure: { code: "refused", message: reason, pageStatus: null },
    });
    return false;
  }
  const data = parsed.data;
  if (data.deadline <= now()) {
    context.log({ event: "skipped", jobId: job.id, reason: "the requester stopped waiting" });
    return false;
  }
  const started = now();
  context.log({ event: "started", jobId: job.id, path: data.path });
  let outcome: PdfOutcome;
  try {
    const request = renderRequestOf(data, context.origin, context.secret);
    outcome = { pdf: await context.renderer.render(request) };
  } catch (error) {
    const failed =
      error instanceof PdfRenderError
        ? error
        : new PdfRenderError("refused", `job ${job.id} not rendered: ${messageOf(error)}`);
    outcome = { failure: failureOf(failed) };
  }
  const ms = now() - started;
  if ("pdf" in outcome)
    context.log({
      event: "rendered",
      jobId: job.id,
      path: data.path,
      ms,
      bytes: outcome.pdf.length,
    });
  else
    context.log({
      event: "failed",
      jobId: job.id,
      path: data.path,
      ms,
      code: outcome.failure.code,
      message: outcome.failure.message,
    });
  if (data.deadline <= now()) return false;
  await context.save(job.id, outcome);
  return "pdf" in outcome;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
