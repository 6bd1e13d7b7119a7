/**
 * Server-side PDFs of the print routes: one headless Chromium (Debian's `chromium`) launched
 * on the first request and reused, at most `concurrency` pages at once, a bounded FIFO queue,
 * at most `perAccount` renders in flight (queued or rendering) per account, a deadline on every
 * render, and a relaunch after the browser dies. A render has a browser
 * context (cookie jar) to itself holding only the requester's cookies, so the print route applies
 * its access rules unchanged. See docs/decisions/007-pdf-rendering.md.
 */
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, CookieData, HTTPRequest, Page } from "puppeteer-core";
import { env } from "./env.server";
import { pdfPaperFormat, type PaperSize } from "./paper-size";

/**
 * Chromium's command line apart from the profile folder: headless without a sandbox or GPU (as
 * in a container), /tmp instead of a small /dev/shm, and no network traffic of its own (QUIC,
 * first-run, background, component update and sync off).
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const USER_DATA_DIR_PREFIX = "diacare-pdf-";
export const DEFAULT_QUEUE_LIMIT = 50;
export const DEFAULT_PER_ACCOUNT = 2;
/** What a refused account is told to wait: about one warm multi-page render. */
export const DEFAULT_ACCOUNT_RETRY_AFTER_SECONDS = 5;
const CLOSE_GRACE_MS = 5_000;

/**
 * Why a render failed:
 * - `refused`: the URL is not one of this app's (a programming error);
 * - `account-limit`: the account already has `perAccount` renders queued or running;
 * - `busy`: the shared queue is full, or no slot came free in time;
 * - `crashed`: Chromium died under the render (it is relaunched for the next one);
 * - `browser`: Chromium could not start, or the renderer was closed;
 * - `timeout`: the render ran past its deadline;
 * - `page`: the page answered an error or redirected.
 */
export const PDF_ERROR_CODES = [
  "refused",
  "account-limit",
  "busy",
  "crashed",
  "browser",
  "timeout",
  "page",
] as const;
export type PdfErrorCode = (typeof PDF_ERROR_CODES)[number];

/** A render that failed; `httpStatus` is what a PDF route answers with. */
export class PdfRenderError extends Error {
  override readonly name = "PdfRenderError";
  constructor(
    readonly code: PdfErrorCode,
    message: string,
    /** The rendered page's own HTTP status, when it answered an error. */
    readonly pageStatus?: number,
    /** Seconds a client should wait before asking again (`Retry-After`), for `account-limit`. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  get httpStatus(): number {
    switch (this.code) {
      case "account-limit":
        return 429;
      case "busy":
      case "crashed":
      case "browser":
        return 503;
      case "timeout":
        return 504;
      case "page":
        return this.pageStatus === 401 || this.pageStatus === 403 || this.pageStatus === 404
          ? this.pageStatus
          : 502;
      case "refused":
        return 500;
    }
  }
}

/** What a PDF route answers for a failed render: the status, a translation key, `Retry-After`. */
export interface PdfFailureAnswer {
  status: number;
  /** An i18next key with its namespace, e.g. `reports:common.pdf.crashed`. */
  messageKey: string;
  retryAfterSeconds?: number;
}

export function pdfFailureAnswer(error: PdfRenderError): PdfFailureAnswer {
  const status = error.httpStatus;
  switch (error.code) {
    case "account-limit":
      return {
        status,
        messageKey: "reports:common.pdf.accountLimit",
        retryAfterSeconds: error.retryAfterSeconds,
      };
    case "crashed":
      return { status, messageKey: "reports:common.pdf.crashed" };
    case "busy":
    case "browser":
      return { status, messageKey: "reports:common.pdf.busy" };
    case "timeout":
      return { status, messageKey: "reports:common.pdf.timeout" };
    case "page":
      return {
        status,
        messageKey:
          status === 403 || status === 404 ? "common:errors.403" : "reports:common.pdf.failed",
      };
    case "refused":
      return { status, messageKey: "reports:common.pdf.failed" };
  }
}

export interface PdfCookie {
  name: string;
  value: string;
}

export interface RenderPdfOptions {
  /** An absolute URL of this app (built from APP_URL or the request's own origin). */
  url: string;
  /** Who asks (the viewer's user id): their renders in flight are limited to `perAccount`. */
  account?: number | string;
  /** The incoming request's `Cookie` header, forwarded to `url`'s origin only. */
  cookieHeader?: string | null;
  cookies?: readonly PdfCookie[];
  landscape?: boolean;
  /** The sheet (A4 when left out); a page's own `@page` size wins over it and over `landscape`. */
  paper?: PaperSize;
  /**
   * Chromium header/footer templates (HTML with the classes pageNumber, totalPages, date, title,
   * url). They are drawn in the page margin, so the page's `@page` margin must leave room.
   */
  headerFooter?: { header?: string; footer?: string };
}

/**
 * Counts an account's renders across every app server (kept in the database by the app): each
 * render takes a place before it queues and gives it back when it ends.
 */
export interface SharedAccountLimiter {
  /** Takes one of the account's `perAccount` places; false when all are taken. */
  acquire(account: string, perAccount: number): Promise<boolean>;
  release(account: string): Promise<void>;
}

export interface PdfRendererOptions {
  executablePath: string;
  concurrency: number;
  timeoutMs: number;
  /** Origins that may be rendered; anything else is refused before Chromium is involved. */
  allowedOrigins: readonly string[];
  queueLimit?: number;
  /** Renders one account may have in flight, queued or rendering (default 2). */
  perAccount?: number;
  /**
   * The account limit across servers; asked after this server's own count admitted the render.
   * Unset: the limit holds for this server only.
   */
  sharedLimiter?: () => SharedAccountLimiter | undefined;
}

export interface PdfRendererStats {
  /** Renders holding a slot now. */
  active: number;
  /** Renders waiting for a slot. */
  queued: number;
  /** The highest `active` seen. */
  peakActive: number;
  /** Accounts with renders in flight, and how many each. */
  accounts: Record<string, number>;
  /** Chromium launches so far (more than 1 means it was relaunched). */
  launches: number;
  rendered: number;
  failed: number;
  /** The running Chromium's pid (also its process group id), or null when none runs. */
  browserPid: number | null;
  /** The running Chromium's profile folder (unique: it names our processes), or null. */
  userDataDir: string | null;
}

export interface PdfRenderer {
  render(options: RenderPdfOptions): Promise<Uint8Array>;
  stats(): PdfRendererStats;
  /** Fails queued and running renders, closes Chromium and reaps its processes; a later render relaunches it. */
  close(): Promise<void>;
}

/**
 * A browser context with one page, reused render after render: a new context costs about 0.4 s
 * (a new renderer process) and a new page 0.15 s, a reused page nothing. Each worker serves one
 * render at a time, and its cookie jar is emptied before and after every render, so renders for
 * different users share nothing (JavaScript is off and interception disables the HTTP cache,
 * so cookies are the only state a page could leave behind).
 */
interface Worker {
  context: BrowserContext;
  page: Page;
  /** The origin the current render may reach; undefined between renders (every request aborted). */
  origin: string | undefined;
  uses: number;
}

interface BrowserInstance {
  browser: Browser;
  pid: number | undefined;
  userDataDir: string;
  idle: Worker[];
  /** Rejects when the browser disconnects: renders race against it instead of hanging. */
  gone: Promise<never>;
  markGone: (error: PdfRenderError) => void;
  retired?: Promise<void>;
  /** Set by close(): renders failing from now on were stopped, not crashed. */
  closing?: boolean;
}

interface Waiter {
  resolve: () => void;
  reject: (error: PdfRenderError) => void;
  timer: NodeJS.Timeout;
}

const noop = () => {};

/** An account's renders in flight on this server, and (when shared) across app servers. */
export interface AccountGate {
  /**
   * Counts one render of `account` on this server, at once (no wait); throws `account-limit`
   * when the account has `perAccount` in flight already. Answers what gives the place back.
   */
  admitHere(account: string | undefined): () => void;
  /**
   * Then takes a place in the count across servers: undefined when there is none (nothing to
   * wait for); rejects with `account-limit`, or `busy` when the count cannot be asked.
   */
  admitShared(account: string | undefined): Promise<() => Promise<void>> | undefined;
  /** Both: the place here, then the shared one; answers what gives both back. */
  enter(account: number | string | undefined): Promise<() => Promise<void>>;
  inFlight(): Record<string, number>;
}

/**
 * At most `perAccount` renders per account in flight: counted in this process first (no database
 * work for a refused one), then in the shared count when there is one.
 */
export function createAccountGate(
  perAccount: number,
  sharedLimiter?: () => SharedAccountLimiter | undefined,
): AccountGate {
  const inFlight = new Map<string, number>();

  function admitHere(account: string | undefined): () => void {
    if (account === undefined) return noop;
    const held = inFlight.get(account) ?? 0;
    if (held >= perAccount) {
      throw new PdfRenderError(
        "account-limit",
        `Account ${account} already has ${held} PDF renders in flight`,
        undefined,
        DEFAULT_ACCOUNT_RETRY_AFTER_SECONDS,
      );
    }
    inFlight.set(account, held + 1);
    return () => {
      const left = (inFlight.get(account) ?? 1) - 1;
      if (left > 0) inFlight.set(account, left);
      else inFlight.delete(account);
    };
  }

  async function takeShared(
    shared: SharedAccountLimiter,
    account: string,
  ): Promise<() => Promise<void>> {
    let admitted: boolean;
    try {
      admitted = await shared.acquire(account, perAccount);
    } catch (error) {
      throw new PdfRenderError("busy", `PDF account count unavailable: ${messageOf(error)}`);
    }
    if (!admitted) {
      throw new PdfRenderError(
        "account-limit",
        `Account ${account} already has ${perAccount} PDF renders in flight on the app servers`,
        undefined,
        DEFAULT_ACCOUNT_RETRY_AFTER_SECONDS,
      );
    }
    // A place not given back (the database briefly away) frees itself when its lease ends.
    return () => shared.release(account).catch(noop);
  }

  function admitShared(account: string | undefined) {
    const shared = account === undefined ? undefined : sharedLimiter?.();
    return shared && account !== undefined ? takeShared(shared, account) : undefined;
  }

  return {
    admitHere,
    admitShared,
    async enter(who) {
      const account = who === undefined ? undefined : String(who);
      const leave = admitHere(account);
      try {
        const leaveShared = await admitShared(account);
        return async () => {
          await leaveShared?.();
          leave();
        };
      } catch (error) {
        leave();
        throw error;
      }
    },
    inFlight: () => Object.fromEntries(inFlight),
  };
}

export function createPdfRenderer(options: PdfRendererOptions): PdfRenderer {
  const queueLimit = options.queueLimit ?? DEFAULT_QUEUE_LIMIT;
  const gate = createAccountGate(options.perAccount ?? DEFAULT_PER_ACCOUNT, options.sharedLimiter);
  const allowed = new Set(options.allowedOrigins.map((origin) => new URL(origin).origin));
  const counts = { active: 0, peakActive: 0, launches: 0, rendered: 0, failed: 0 };
  const queue: Waiter[] = [];
  let current: BrowserInstance | undefined;
  let launching: Promise<BrowserInstance> | undefined;

  function acquireSlot(): Promise<void> {
    if (counts.active < options.concurrency) {
      takeSlot();
      return Promise.resolve();
    }
    if (queue.length >= queueLimit) {
      return Promise.reject(
        new PdfRenderError("busy", `PDF renderer busy: ${queue.length} requests already waiting`),
      );
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          queue.splice(queue.indexOf(waiter), 1);
          reject(
            new PdfRenderError(
              "busy",
              `PDF renderer busy: no free slot within ${options.timeoutMs} ms`,
            ),
          );
        }, options.timeoutMs),
      };
      queue.push(waiter);
    });
  }

  function takeSlot() {
    counts.active += 1;
    counts.peakActive = Math.max(counts.peakActive, counts.active);
  }

  /** Hands the slot to the oldest waiter, or frees it. */
  function releaseSlot() {
    const next = queue.shift();
    if (next) {
      clearTimeout(next.timer);
      next.resolve();
    } else {
      counts.active -= 1;
    }
  }

  async function launch(): Promise<BrowserInstance> {
    const userDataDir = await mkdtemp(path.join(os.tmpdir(), USER_DATA_DIR_PREFIX));
    let browser: Browser;
    try {
      // Loaded on the first PDF: importing puppeteer costs 0.3-1 s, which start-up need not pay.
      const { default: puppeteer } = await import("puppeteer-core");
      browser = await puppeteer.launch({
        executablePath: options.executablePath,
        headless: true,
        ignoreDefaultArgs: true,
        args: [...CHROMIUM_FLAGS, `--user-data-dir=${userDataDir}`, "about:blank"],
        // A pipe rather than a debugging port: no local process can connect to the browser, and
        // Chromium exits by itself when this process dies and the pipe closes.
        pipe: true,
        // The server's own SIGINT/SIGTERM handler calls close(); puppeteer's would exit early.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: options.timeoutMs,
        protocolTimeout: options.timeoutMs + CLOSE_GRACE_MS,
      });
    } catch (error) {
      await removeDir(userDataDir);
      throw new PdfRenderError(
        "browser",
        `Chromium failed to start (${options.executablePath}): ${messageOf(error)}`,
      );
    }
    counts.launches += 1;
    let markGone: (error: PdfRenderError) => void = noop;
    const gone = new Promise<never>((_, reject) => (markGone = reject));
    gone.catch(noop);
    const instance: BrowserInstance = {
      browser,
      pid: browser.process()?.pid,
      userDataDir,
      idle: [],
      gone,
      markGone,
    };
    browser.on("disconnected", () => void retire(instance));
    return instance;
  }

  async function browserInstance(): Promise<BrowserInstance> {
    if (current) return current;
    launching ??= launch()
      .then((instance) => (current = instance))
      .finally(() => (launching = undefined));
    return launching;
  }

  /** Forgets a browser that closed or died, kills what is left of its process group, removes its profile. */
  function retire(instance: BrowserInstance): Promise<void> {
    instance.retired ??= (async () => {
      if (current === instance) current = undefined;
      instance.markGone(
        instance.closing
          ? new PdfRenderError("browser", "PDF renderer closed")
          : new PdfRenderError("crashed", "Chromium crashed during the PDF render"),
      );
      const child = instance.browser.process();
      if (instance.pid) killGroup(instance.pid);
      if (child && child.exitCode === null && child.signalCode === null) {
        await withTimeout(once(child, "exit"), CLOSE_GRACE_MS).catch(noop);
      }
      await removeDir(instance.userDataDir);
    })();
    return instance.retired;
  }

  async function renderWithin(url: URL, request: RenderPdfOptions): Promise<Uint8Array> {
    const deadline = deadlineTimer(options.timeoutMs, url);
    let instance: BrowserInstance | undefined;
    try {
      instance = await Promise.race([browserInstance(), deadline.expired]);
      return await renderWithWorker(instance, url, request, deadline);
    } catch (error) {
      // A dead browser also fails the render's pending protocol calls, sometimes before its
      // "disconnected" event: whatever the error says, the cause is the crash.
      if (instance && !instance.closing && (instance.retired || !instance.browser.connected)) {
        throw new PdfRenderError(
          "crashed",
          `Chromium crashed during the PDF render of ${url.pathname}`,
        );
      }
      throw asRenderError(error, url, options.timeoutMs);
    } finally {
      deadline.cancel();
    }
  }

  async function renderInSlot(url: URL, request: RenderPdfOptions): Promise<Uint8Array> {
    await acquireSlot();
    try {
      const pdf = await renderWithin(url, request);
      counts.rendered += 1;
      return pdf;
    } catch (error) {
      counts.failed += 1;
      throw error;
    } finally {
      releaseSlot();
    }
  }

  return {
    async render(request) {
      const url = renderableUrl(request.url, allowed);
      const account = request.account === undefined ? undefined : String(request.account);
      const leave = gate.admitHere(account);
      try {
        const sharing = gate.admitShared(account);
        // Without a shared count the render queues at once (no wait before taking its turn).
        if (!sharing) return await renderInSlot(url, request);
        const leaveShared = await sharing;
        try {
          return await renderInSlot(url, request);
        } finally {
          await leaveShared();
        }
      } finally {
        leave();
      }
    },

    stats() {
      return {
        active: counts.active,
        queued: queue.length,
        peakActive: counts.peakActive,
        accounts: gate.inFlight(),
        launches: counts.launches,
        rendered: counts.rendered,
        failed: counts.failed,
        browserPid: current?.pid ?? null,
        userDataDir: current?.userDataDir ?? null,
      };
    },

    async close() {
      for (const waiter of queue.splice(0)) {
        clearTimeout(waiter.timer);
        waiter.reject(new PdfRenderError("browser", "PDF renderer closed"));
      }
      const instance = current ?? (await launching?.catch(noop));
      if (!instance) return;
      instance.closing = true;
      await withTimeout(instance.browser.close(), CLOSE_GRACE_MS).catch(noop);
      await retire(instance);
    },
  };
}

/** Recycled after this many renders, so that a long-lived renderer process cannot grow without end. */
const WORKER_USES = 100;

async function createWorker(browser: Browser): Promise<Worker> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    const worker: Worker = { context, page, origin: undefined, uses: 0 };
    // Print routes are server-rendered: no JavaScript, which also makes rendering deterministic.
    await page.setJavaScriptEnabled(false);
    await page.setRequestInterception(true);
    page.on("request", (request: HTTPRequest) => {
      const target = request.url();
      const permitted =
        target.startsWith("data:") ||
        (worker.origin !== undefined && sameOrigin(target, worker.origin));
      (permitted ? request.continue() : request.abort("blockedbyclient")).catch(noop);
    });
    return worker;
  } catch (error) {
    void closeQuietly(context);
    throw error;
  }
}

async function clearCookies(context: BrowserContext) {
  const cookies = await context.cookies();
  if (cookies.length > 0) await context.deleteCookie(...cookies);
}

/** Back to the idle list with an empty cookie jar, or closed when worn out or unsound. */
async function releaseWorker(instance: BrowserInstance, worker: Worker, sound: boolean) {
  worker.origin = undefined;
  worker.uses += 1;
  if (sound && worker.uses < WORKER_USES && !instance.retired) {
    try {
      await withTimeout(clearCookies(worker.context), CLOSE_GRACE_MS);
      instance.idle.push(worker);
      return;
    } catch {
      // fall through: a worker whose cookies may remain is never reused
    }
  }
  await closeQuietly(worker.context);
}

/** Loads the page in a worker of its own and prints it. */
async function renderWithWorker(
  instance: BrowserInstance,
  url: URL,
  request: RenderPdfOptions,
  deadline: Deadline,
): Promise<Uint8Array> {
  let worker: Worker | undefined;
  let settled = false;
  let sound = false;
  const work = (async () => {
    const taken = instance.idle.pop() ?? (await createWorker(instance.browser));
    if (settled) {
      void closeQuietly(taken.context);
      throw new PdfRenderError("timeout", "PDF render abandoned");
    }
    worker = taken;
    await clearCookies(taken.context);
    await taken.context.setCookie(...cookieData(requestCookies(request), url));
    taken.origin = url.origin;
    await loadPage(taken.page, url, deadline);
    return await taken.page.pdf(pdfOptions(request, deadline));
  })();
  try {
    const pdf = await Promise.race([work, instance.gone, deadline.expired]);
    sound = true;
    return pdf;
  } finally {
    settled = true;
    work.catch(noop);
    // After a failure the page may still be loading: closing the context stops it.
    if (worker) await releaseWorker(instance, worker, sound);
  }
}

async function loadPage(page: Page, url: URL, deadline: Deadline) {
  // "load" waits for the document and its stylesheets, images and fonts. With JavaScript off
  // nothing can start requests later, so networkidle0 would only add its 500 ms quiet period.
  const response = await page.goto(url.href, { waitUntil: "load", timeout: deadline.remaining() });
  const status = response?.status() ?? 0;
  if (!response || status >= 400) {
    throw new PdfRenderError(
      "page",
      `${url.pathname} answered ${status || "nothing"}`,
      status || undefined,
    );
  }
  const finalPath = new URL(page.url()).pathname;
  if (finalPath !== url.pathname) {
    // E.g. a session that expired meanwhile: a PDF of the sign-in page must not be served.
    throw new PdfRenderError("page", `${url.pathname} redirected to ${finalPath}`, status);
  }
}

/** Puppeteer's `page.pdf` options of a render. */
export function pdfOptions(request: RenderPdfOptions, deadline: Pick<Deadline, "remaining">) {
  const { header, footer } = request.headerFooter ?? {};
  const headerFooter = header !== undefined || footer !== undefined;
  return {
    format: pdfPaperFormat(request.paper ?? "a4"),
    landscape: request.landscape ?? false,
    printBackground: true,
    preferCSSPageSize: true,
    // Tagged (accessible) PDFs cost about 0.1 s more per report; screen readers need the tags.
    tagged: true,
    displayHeaderFooter: headerFooter,
    // Chromium prints its own date/title/url header when a template is left out.
    ...(headerFooter
      ? { headerTemplate: header ?? "<span></span>", footerTemplate: footer ?? "<span></span>" }
      : {}),
    timeout: deadline.remaining(),
  };
}

/** Parses and checks the URL to render: http(s) on an allowed origin only (SSRF guard). */
export function renderableUrl(raw: string, allowedOrigins: ReadonlySet<string>): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PdfRenderError("refused", `Not a URL: ${raw.slice(0, 100)}`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !allowedOrigins.has(url.origin)) {
    throw new PdfRenderError(
      "refused",
      `Refusing to render ${url.origin}: only this app's own origin may be rendered`,
    );
  }
  return url;
}

/** The app's own origins: APP_URL's and the loopback addresses of the port it listens on. */
export function appOrigins(appUrl: string, port: number): string[] {
  return [
    new URL(appUrl).origin,
    `http://127.0.0.1:${port}`,
    `http://localhost:${port}`,
    `http://[::1]:${port}`,
  ];
}

/** `a=1; b=2` into cookies (the values stay encoded, exactly as the browser sent them). */
export function parseCookieHeader(header: string): PdfCookie[] {
  return header
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part.indexOf("=") > 0)
    .map((part) => {
      const at = part.indexOf("=");
      return { name: part.slice(0, at).trim(), value: part.slice(at + 1).trim() };
    });
}

function requestCookies(request: RenderPdfOptions): PdfCookie[] {
  return [
    ...(request.cookieHeader ? parseCookieHeader(request.cookieHeader) : []),
    ...(request.cookies ?? []),
  ];
}

/** Host-only cookies of the target origin, so the page's requests carry them and nothing else does. */
function cookieData(cookies: readonly PdfCookie[], url: URL): CookieData[] {
  return cookies.map(({ name, value }) => ({
    name,
    value,
    domain: url.hostname,
    path: "/",
    httpOnly: true,
    secure: url.protocol === "https:",
    sameSite: "Lax" as const,
  }));
}

function sameOrigin(target: string, origin: string): boolean {
  try {
    return new URL(target).origin === origin;
  } catch {
    return false;
  }
}

interface Deadline {
  expired: Promise<never>;
  remaining(): number;
  cancel(): void;
}

function deadlineTimer(ms: number, url: URL): Deadline {
  const end = Date.now() + ms;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new PdfRenderError("timeout", `PDF render of ${url.pathname} timed out after ${ms} ms`),
        ),
      ms,
    );
  });
  expired.catch(noop);
  return {
    expired,
    remaining: () => Math.max(1, end - Date.now()),
    cancel: () => clearTimeout(timer),
  };
}

function asRenderError(error: unknown, url: URL, timeoutMs: number): PdfRenderError {
  if (error instanceof PdfRenderError) return error;
  if (error instanceof Error && error.name === "TimeoutError") {
    return new PdfRenderError(
      "timeout",
      `PDF render of ${url.pathname} timed out after ${timeoutMs} ms`,
    );
  }
  const message = messageOf(error);
  if (/net::ERR_BLOCKED_BY_CLIENT/.test(message)) {
    return new PdfRenderError(
      "page",
      `${url.pathname} led to a request to another origin, which was blocked`,
    );
  }
  if (/net::ERR_/.test(message))
    return new PdfRenderError("page", `${url.pathname} could not be loaded: ${message}`);
  return new PdfRenderError("browser", `PDF render of ${url.pathname} failed: ${message}`);
}

function killGroup(pid: number) {
  try {
    // Puppeteer starts Chromium as a process group leader: this reaches its helpers too.
    process.kill(-pid, "SIGKILL");
  } catch {
    // ESRCH: already gone.
  }
}

async function closeQuietly(context: BrowserContext) {
  await withTimeout(context.close(), CLOSE_GRACE_MS).catch(noop);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function removeDir(dir: string) {
  await rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(noop);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// The app's renderer. Kept on globalThis because server/start.ts (which closes it at shutdown)
// and the Remix build (whose routes render) load this module separately.
declare global {
  var __diacarePdf: PdfRenderer | undefined;

  var __diacarePdfAccounts: SharedAccountLimiter | undefined;

  var __diacarePdfQueue: PdfRenderer | undefined;
}

/** Makes the app's renderer count each account's renders across app servers (server start-up). */
export function sharePdfAccountLimit(limiter: SharedAccountLimiter) {
  globalThis.__diacarePdfAccounts = limiter;
}

/**
 * With PDF_RENDERER=queue, the renderer that hands renders to the PDF worker (installed by the
 * server at start-up, once the job queue runs).
 */
export function installQueuedPdfRenderer(renderer: PdfRenderer) {
  globalThis.__diacarePdfQueue = renderer;
}

function appRenderer(): PdfRenderer {
  if (env().PDF_RENDERER === "queue") {
    const queued = globalThis.__diacarePdfQueue;
    if (!queued)
      throw new PdfRenderError("browser", "PDF_RENDERER=queue: the PDF queue is not running");
    return queued;
  }
  globalThis.__diacarePdf ??= createPdfRenderer({
    executablePath: env().CHROMIUM_PATH,
    concurrency: env().PDF_CONCURRENCY,
    timeoutMs: env().PDF_TIMEOUT_MS,
    allowedOrigins: appOrigins(env().APP_URL, env().PORT),
    sharedLimiter: () => globalThis.__diacarePdfAccounts,
  });
  return globalThis.__diacarePdf;
}

/**
 * Renders a page of this app to a PDF (A4 or Letter) with the requester's cookies; rejects with a
 * PdfRenderError. PDF_RENDERER says who renders: this server's Chromium, or the PDF worker.
 */
export async function renderPdf(options: RenderPdfOptions): Promise<Uint8Array> {
  try {
    return await appRenderer().render(options);
  } catch (error) {
    throw asThisModulesError(error);
  }
}

/**
 * The queued renderer is made by the server's copy of this module, the routes check errors
 * against the app build's copy: a PdfRenderError of the other copy becomes one of this copy's, so
 * that `instanceof PdfRenderError` holds for the routes.
 */
function asThisModulesError(error: unknown): unknown {
  if (error instanceof PdfRenderError || !(error instanceof Error)) return error;
  if (error.name !== "PdfRenderError") return error;
  const other = error as Error & Partial<Pick<PdfRenderError, "pageStatus" | "retryAfterSeconds">>;
  const code = (error as { code?: unknown }).code;
  if (!(PDF_ERROR_CODES as readonly unknown[]).includes(code)) return error;
  return new PdfRenderError(
    code as PdfErrorCode,
    other.message,
    other.pageStatus,
    other.retryAfterSeconds,
  );
}

/** Closes the app's Chromium (server shutdown); a no-op when none was launched. */
export async function closePdfRenderer(): Promise<void> {
  await globalThis.__diacarePdf?.close();
}

export function pdfRendererStats(): PdfRendererStats {
  return appRenderer().stats();
}
