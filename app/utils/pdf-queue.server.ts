/**
 * The app server's side of PDF_RENDERER=queue: a render becomes a job for the PDF worker, and the
 * request waits for the job's outcome, at most PDF_TIMEOUT_MS. The checks before that are the
 * inline renderer's (this app's origin only, the account's renders in flight, a bounded backlog),
 * and a failure is the same PdfRenderError, so a route answers exactly as it does inline.
 * See docs/decisions/024-pdf-worker.md.
 */
import { pdfJobOf, type PdfJob, type PdfOutcome, errorOfFailure } from "./pdf-job.server";
import {
  createAccountGate,
  DEFAULT_PER_ACCOUNT,
  DEFAULT_QUEUE_LIMIT,
  PdfRenderError,
  renderableUrl,
  type PdfRenderer,
  type SharedAccountLimiter,
} from "./pdf.server";

/** How jobs reach the worker and outcomes come back (the job queue and the database). */
export interface PdfJobTransport {
  /** Jobs waiting for a worker. */
  backlog(): Promise<number>;
  /** Queues a job; answers its id. */
  send(job: PdfJob): Promise<string>;
  /** Takes (and deletes) the job's outcome; null while there is none. */
  take(jobId: string): Promise<PdfOutcome | null>;
  /** Deletes the job (and its data) and any outcome left: nobody waits for it any more. */
  forget(jobId: string): Promise<void>;
}

export interface QueuedRendererOptions {
  transport: PdfJobTransport;
  /** How long a request waits for its PDF (PDF_TIMEOUT_MS). */
  timeoutMs: number;
  /** This app's origins: a URL elsewhere is refused, as inline. */
  allowedOrigins: readonly string[];
  /** Seals the job's cookies (SESSION_SECRET). */
  secret: () => string;
  perAccount?: number;
  sharedLimiter?: () => SharedAccountLimiter | undefined;
  /** Jobs waiting for a worker beyond which a request is refused as busy. */
  queueLimit?: number;
  /** Pause between two looks for the outcome; the first look follows the first pause. */
  pollMs?: number;
  now?: () => number;
}

const DEFAULT_POLL_MS = 150;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createQueuedPdfRenderer(options: QueuedRendererOptions): PdfRenderer {
  const gate = createAccountGate(options.perAccount ?? DEFAULT_PER_ACCOUNT, options.sharedLimiter);
  const allowed = new Set(options.allowedOrigins.map((origin) => new URL(origin).origin));
  const queueLimit = options.queueLimit ?? DEFAULT_QUEUE_LIMIT;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const now = options.now ?? Date.now;
  const counts = { active: 0, peakActive: 0, rendered: 0, failed: 0 };

  async function send(job: PdfJob): Promise<string> {
    let waiting: number;
    let id: string;
    try {
      waiting = await options.transport.backlog();
    } catch (error) {
      throw new PdfRenderError("busy", `PDF queue unavailable: ${messageOf(error)}`);
    }
    if (waiting >= queueLimit)
      throw new PdfRenderError("busy", `PDF worker busy: ${waiting} jobs already waiting`);
    try {
      id = await options.transport.send(job);
    } catch (error) {
      throw new PdfRenderError("busy", `PDF queue unavailable: ${messageOf(error)}`);
    }
    return id;
  }

  /** Looks for the outcome until the deadline; a failed look (the database away) is tried again. */
  async function outcomeBy(jobId: string, deadline: number, path: string): Promise<PdfOutcome> {
    while (now() < deadline) {
      await pause(Math.min(pollMs, Math.max(1, deadline - now())));
      const outcome = await options.transport.take(jobId).catch(() => null);
      if (outcome) return outcome;
    }
    throw new PdfRenderError(
      "timeout",
      `PDF render of ${path} timed out after ${options.timeoutMs} ms (queued as job ${jobId})`,
    );
  }

  async function renderQueued(url: URL, job: PdfJob, deadline: number): Promise<Uint8Array> {
    const jobId = await send(job);
    try {
      const outcome = await outcomeBy(jobId, deadline, url.pathname);
      if ("failure" in outcome) throw errorOfFailure(outcome.failure);
      return outcome.pdf;
    } finally {
      // The job's data (sealed cookies) goes with the job, whatever came of it.
      await options.transport.forget(jobId).catch(() => {});
    }
  }

  return {
    async render(request) {
      const url = renderableUrl(request.url, allowed);
      const leave = await gate.enter(request.account);
      counts.active += 1;
      counts.peakActive = Math.max(counts.peakActive, counts.active);
      try {
        const deadline = now() + options.timeoutMs;
        const pdf = await renderQueued(
          url,
          pdfJobOf(request, url, deadline, options.secret()),
          deadline,
        );
        counts.rendered += 1;
        return pdf;
      } catch (error) {
        counts.failed += 1;
        throw error;
      } finally {
        counts.active -= 1;
        await leave();
      }
    },

    stats() {
      return {
        active: counts.active,
        queued: 0,
        peakActive: counts.peakActive,
        accounts: gate.inFlight(),
        launches: 0,
        rendered: counts.rendered,
        failed: counts.failed,
        browserPid: null,
        userDataDir: null,
      };
    },

    async close() {},
  };
}
