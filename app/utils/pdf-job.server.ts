/**
 * A PDF render handed to the PDF worker through the job queue (PDF_RENDERER=queue): what a job
 * carries, how long it may take, and what comes back. See docs/decisions/024-pdf-worker.md.
 *
 * A job carries the print page's path (never an origin: the worker renders its own configured app
 * origin only), the print options, the time the requester stops waiting, and the requester's
 * cookies that the print page reads, sealed with a key derived from SESSION_SECRET, so that the
 * job's row in the database never holds a usable session cookie.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { z } from "zod";
import {
  DEFAULT_ACCOUNT_RETRY_AFTER_SECONDS,
  parseCookieHeader,
  PDF_ERROR_CODES,
  PdfRenderError,
  type PdfCookie,
  type RenderPdfOptions,
} from "./pdf.server";

/** The job queue's name for PDF renders. */
export const PDF_RENDER_QUEUE = "pdf-render";

/**
 * The cookies a print page reads: the session, the language and the read-your-writes marker (the
 * page of a reader who has just written is read from the primary). Any other cookie stays home.
 */
export const RENDER_COOKIE_NAMES: readonly string[] = ["__session", "lng", "dc_primary"];

/** The requester's cookies a render needs, from the request's `Cookie` header and given ones. */
export function renderCookies(
  cookieHeader: string | null | undefined,
  cookies: readonly PdfCookie[] = [],
): PdfCookie[] {
  return [...(cookieHeader ? parseCookieHeader(cookieHeader) : []), ...cookies].filter((cookie) =>
    RENDER_COOKIE_NAMES.includes(cookie.name),
  );
}

const SEAL_INFO = "diacare pdf job cookies";
const IV_BYTES = 12;
const TAG_BYTES = 16;

function sealKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "", SEAL_INFO, 32));
}

const cookieListSchema = z
  .array(z.object({ name: z.string().min(1).max(256), value: z.string().max(4096) }))
  .max(RENDER_COOKIE_NAMES.length * 2);

/** Cookies encrypted and authenticated (AES-256-GCM), as base64url `iv.ciphertext.tag`. */
export function sealCookies(cookies: readonly PdfCookie[], secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", sealKey(secret), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(cookies), "utf8"), cipher.final()]);
  return [iv, body, cipher.getAuthTag()].map((part) => part.toString("base64url")).join(".");
}

/** The cookies of `sealed`; throws when it was not sealed with `secret` or was altered. */
export function openCookies(sealed: string, secret: string): PdfCookie[] {
  const [iv, body, tag, ...rest] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !body || !tag || rest.length > 0 || iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
    throw new Error("sealed cookies are malformed");
  const decipher = createDecipheriv("aes-256-gcm", sealKey(secret), iv);
  decipher.setAuthTag(tag);
  const json = Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  return cookieListSchema.parse(JSON.parse(json));
}

/** A path of this app with its query: one leading slash (`//host` would name another origin). */
const appPath = z
  .string()
  .max(8192)
  .regex(/^\/(?![/\\])[^\s]*$/, "an absolute path of this app");

export const pdfJobSchema = z
  .object({
    path: appPath,
    /** `sealCookies` of the requester's render cookies; absent for a public page. */
    cookies: z.string().max(16_384).optional(),
    landscape: z.boolean().default(false),
    paper: z.enum(["a4", "letter"]).default("a4"),
    headerFooter: z
      .object({
        header: z.string().max(20_000).optional(),
        footer: z.string().max(20_000).optional(),
      })
      .strict()
      .optional(),
    /** When the requester stops waiting (ms since the epoch): a later render is of no use. */
    deadline: z.number().int().positive(),
  })
  .strict();

export type PdfJob = z.infer<typeof pdfJobSchema>;

/** The job of a render of `url` (already checked to be this app's) for a requester waiting until `deadline`. */
export function pdfJobOf(
  request: RenderPdfOptions,
  url: URL,
  deadline: number,
  secret: string,
): PdfJob {
  const cookies = renderCookies(request.cookieHeader, request.cookies);
  return {
    path: `${url.pathname}${url.search}`,
    ...(cookies.length > 0 ? { cookies: sealCookies(cookies, secret) } : {}),
    landscape: request.landscape ?? false,
    paper: request.paper ?? "a4",
    ...(request.headerFooter ? { headerFooter: request.headerFooter } : {}),
    deadline,
  };
}

/** What the worker renders for `job`: its path on `origin`, with the job's cookies opened. */
export function renderRequestOf(job: PdfJob, origin: string, secret: string): RenderPdfOptions {
  return {
    url: new URL(job.path, new URL(origin).origin).href,
    cookies: job.cookies ? openCookies(job.cookies, secret) : [],
    landscape: job.landscape,
    paper: job.paper,
    ...(job.headerFooter ? { headerFooter: job.headerFooter } : {}),
  };
}

/**
 * The clock of a queued render, from the requester's wait (PDF_TIMEOUT_MS):
 * - the job expires (pg-boss hands it to a worker again) after 40% of the wait, so that a worker
 *   killed mid-render costs at most that, plus up to two maintenance intervals (pg-boss skips a
 *   run that comes a little early) and a poll, before the render starts again on a live worker;
 * - a render may take the job's expiry less a margin for storing its result, so a live worker
 *   always finishes (or fails) a job before it expires and a job it finishes never runs twice;
 * - one retry: a second one could not finish within the wait anyway.
 * With the default 30 s: expiry 12 s, render 10 s, a retry started by about 15 s, done by 25 s.
 */
export function pdfJobTiming(waitMs: number) {
  const expireInSeconds = Math.max(1, Math.floor((waitMs * 0.4) / 1000));
  const marginMs = Math.min(2_000, expireInSeconds * 250);
  return {
    expireInSeconds,
    renderTimeoutMs: expireInSeconds * 1000 - marginMs,
    retryLimit: 1,
    /** How often the worker's queue looks for expired jobs (seconds). */
    maintenanceIntervalSeconds: 1,
    /** How often each of the worker's slots asks for a job (seconds). */
    pollingIntervalSeconds: 0.5,
  };
}

/** A failed render as the worker stores it. */
export const pdfFailureSchema = z.object({
  code: z.enum(PDF_ERROR_CODES),
  message: z.string().max(2_000),
  pageStatus: z.number().int().min(100).max(599).nullable().optional(),
});

export type PdfFailure = z.infer<typeof pdfFailureSchema>;

/** The outcome of a render job: the PDF, or why there is none. */
export type PdfOutcome = { pdf: Uint8Array } | { failure: PdfFailure };

/** What the worker stores for a render that threw `error`. */
export function failureOf(error: PdfRenderError): PdfFailure {
  return {
    code: error.code,
    message: error.message.slice(0, 2_000),
    pageStatus: error.pageStatus ?? null,
  };
}

/** The error a route answers for a stored failure (the same statuses as an inline render's). */
export function errorOfFailure(failure: PdfFailure): PdfRenderError {
  return new PdfRenderError(
    failure.code,
    `PDF worker: ${failure.message}`,
    failure.pageStatus ?? undefined,
    failure.code === "account-limit" ? DEFAULT_ACCOUNT_RETRY_AFTER_SECONDS : undefined,
  );
}
