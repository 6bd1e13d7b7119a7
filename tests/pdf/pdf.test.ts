// The PDF renderer (app/utils/pdf.server.ts) against Debian's Chromium and a tiny local HTTP
// server; the PDFs are read back with poppler-utils (pdftotext, pdfinfo), which
// scripts/ensure-chromium.sh installs.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  closePdfRenderer,
  createPdfRenderer,
  parseCookieHeader,
  pdfFailureAnswer,
  pdfRendererStats,
  PdfRenderError,
  renderPdf,
  type PdfErrorCode,
  type PdfRenderer,
} from "~/utils/pdf.server";
import { descendants, eventually, processGroup } from "../support/proc";
import { rejection } from "../support/pdf-rejection";

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

interface TestServer {
  origin: string;
  /** Requests to /slow being answered now, the most seen at once, and their arrival order. */
  open: number;
  maxOpen: number;
  arrivals: string[];
  requests: number;
  close(): Promise<void>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function page(body: string) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Test</title></head><body>${body}</body></html>`;
}

async function startServer(
  handle: (req: http.IncomingMessage, res: http.ServerResponse, server: TestServer) => void,
): Promise<TestServer> {
  const state = { open: 0, maxOpen: 0, arrivals: [] as string[], requests: 0 } as TestServer;
  const server = http.createServer((req, res) => {
    state.requests += 1;
    handle(req, res, state);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return state;
}

let other: TestServer;

function appHandler(req: http.IncomingMessage, res: http.ServerResponse, state: TestServer) {
  const url = new URL(req.url ?? "/", "http://x");
  const html = (status: number, body: string) =>
    res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(page(body));
  switch (url.pathname) {
    case "/report":
      res.setHeader("set-cookie", "fromserver=leaked; Path=/; HttpOnly");
      return html(
        200,
        `<h1>DiaCare test report</h1><p>Cookie header: ${escapeHtml(req.headers.cookie ?? "none")}</p>` +
          `<script>document.body.append("SCRIPT-RAN")</script>`,
      );
    case "/slow": {
      state.open += 1;
      state.maxOpen = Math.max(state.maxOpen, state.open);
      state.arrivals.push(url.searchParams.get("n") ?? "");
      setTimeout(
        () => {
          state.open -= 1;
          html(200, `<p>slow page ${escapeHtml(url.searchParams.get("n") ?? "")}</p>`);
        },
        Number(url.searchParams.get("ms") ?? 300),
      );
      return;
    }
    case "/hang":
      return; // never answers
    case "/forbidden":
      return html(403, "<p>Forbidden</p>");
    case "/redirect":
      return res.writeHead(302, { location: "/login" }).end();
    case "/login":
      return html(200, "<p>Sign in</p>");
    case "/external":
      return html(
        200,
        `<p>External image below</p><img src="${other.origin}/pixel.png" width="10" height="10">`,
      );
    default:
      return html(404, "<p>Not found</p>");
  }
}

let app: TestServer;
let renderer: PdfRenderer;
let tmp: string;

function pdfText(pdf: Uint8Array): string {
  const file = path.join(tmp, `t${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

/** Page size in points from pdfinfo, e.g. { width: 595.28, height: 841.89 }. */
function pdfPageSize(pdf: Uint8Array): { width: number; height: number } {
  const file = path.join(tmp, `i${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
  const match = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info);
  if (!match) throw new Error(`no page size in pdfinfo output:\n${info}`);
  return { width: Number(match[1]), height: Number(match[2]) };
}

/** This test process's zombie children (a dead Chromium nobody waited for). */
function zombies() {
  return descendants(process.pid).filter((p) => p.state === "Z");
}

beforeAll(async () => {
  for (const tool of ["pdftotext", "pdfinfo"]) {
    try {
      execFileSync(tool, ["-v"], { stdio: "ignore" });
    } catch {
      throw new Error(
        `${tool} is missing: run scripts/ensure-chromium.sh (installs poppler-utils)`,
      );
    }
  }
  tmp = mkdtempSync(path.join(os.tmpdir(), "diacare-pdf-test-"));
  other = await startServer((_req, res) => res.writeHead(404).end());
  app = await startServer(appHandler);
  renderer = createPdfRenderer({
    executablePath: CHROMIUM,
    concurrency: 2,
    timeoutMs: 15_000,
    allowedOrigins: [app.origin],
  });
});

afterAll(async () => {
  await renderer?.close();
  await app?.close();
  await other?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("parseCookieHeader", () => {
  it("splits a Cookie header at the first '=' and skips malformed parts", () => {
    expect(parseCookieHeader("__session=s%3Aa.b; theme=x=y; junk; =v")).toEqual([
      { name: "__session", value: "s%3Aa.b" },
      { name: "theme", value: "x=y" },
    ]);
  });
});

describe("PDF renderer", () => {
  it("prints the page's text with the requester's cookies and without running its scripts", async () => {
    const pdf = await renderer.render({
      url: `${app.origin}/report`,
      cookieHeader: "__session=s%3Aabc.def; theme=dark",
      cookies: [{ name: "extra", value: "42" }],
    });
    expect(Buffer.from(pdf.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    const text = pdfText(pdf);
    expect(text).toContain("DiaCare test report");
    expect(text).toContain("__session=s%3Aabc.def");
    expect(text).toContain("theme=dark");
    expect(text).toContain("extra=42");
    expect(text).not.toContain("SCRIPT-RAN");
    const size = pdfPageSize(pdf);
    // A4 portrait is 595.3 x 841.9 pt; Chromium rounds the page to whole device pixels.
    expect(Math.abs(size.width - 595.3)).toBeLessThan(2);
    expect(Math.abs(size.height - 841.9)).toBeLessThan(2);
  });

  it("prints landscape pages wider than tall", async () => {
    const size = pdfPageSize(
      await renderer.render({ url: `${app.origin}/report`, landscape: true }),
    );
    expect(size.width).toBeGreaterThan(size.height);
    expect(Math.abs(size.width - 841.9)).toBeLessThan(2);
  });

  it("prints US Letter when asked, 8.5 x 11 in = 612 x 792 pt, in either orientation", async () => {
    const portrait = pdfPageSize(
      await renderer.render({ url: `${app.origin}/report`, paper: "letter" }),
    );
    expect(Math.abs(portrait.width - 612)).toBeLessThan(2);
    expect(Math.abs(portrait.height - 792)).toBeLessThan(2);
    const landscape = pdfPageSize(
      await renderer.render({ url: `${app.origin}/report`, paper: "letter", landscape: true }),
    );
    expect(Math.abs(landscape.width - 792)).toBeLessThan(2);
    expect(Math.abs(landscape.height - 612)).toBeLessThan(2);
  });

  it("prints a footer template when given one", async () => {
    const pdf = await renderer.render({
      url: `${app.origin}/report`,
      headerFooter: {
        footer:
          '<div style="font-size:9px;width:100%;text-align:center">Footer page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
      },
    });
    expect(pdfText(pdf)).toMatch(/Footer page 1 of 1/);
  });

  it("renders at most `concurrency` pages at once; the others wait in their order", async () => {
    app.maxOpen = 0;
    app.arrivals = [];
    let peakQueued = 0;
    let peakActive = 0;
    const sampler = setInterval(() => {
      const stats = renderer.stats();
      peakQueued = Math.max(peakQueued, stats.queued);
      peakActive = Math.max(peakActive, stats.active);
    }, 10);
    const pdfs = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((n) => renderer.render({ url: `${app.origin}/slow?ms=400&n=${n}` })),
    ).finally(() => clearInterval(sampler));
    expect(pdfs.map((pdf) => pdfText(pdf).includes("slow page"))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(app.maxOpen).toBe(2); // the server saw two page loads at once, never more
    expect(peakActive).toBe(2);
    expect(renderer.stats().peakActive).toBe(2);
    expect(peakQueued).toBe(4);
    expect(app.arrivals.slice(0, 2).sort()).toEqual(["0", "1"]);
    expect(app.arrivals.slice(4).sort()).toEqual(["4", "5"]);
  });

  it("blocks the page's requests to other origins", async () => {
    const before = other.requests;
    const text = pdfText(await renderer.render({ url: `${app.origin}/external` }));
    expect(text).toContain("External image below");
    expect(other.requests).toBe(before);
  });

  it("refuses a page that answers an error or redirects elsewhere", async () => {
    const forbidden = await rejection(renderer.render({ url: `${app.origin}/forbidden` }));
    expect(forbidden.code).toBe("page");
    expect(forbidden.httpStatus).toBe(403);
    const redirected = await rejection(renderer.render({ url: `${app.origin}/redirect` }));
    expect(redirected.code).toBe("page");
    expect(redirected.message).toMatch(/redirected to \/login/);
  });

  it("fails a render at once when Chromium is killed, and relaunches it for the next", async () => {
    await renderer.render({ url: `${app.origin}/report` });
    const { browserPid, launches } = renderer.stats();
    expect(browserPid).toBeGreaterThan(0);
    app.open = 0;
    const started = Date.now();
    const inFlight = rejection(renderer.render({ url: `${app.origin}/slow?ms=8000&n=killed` }));
    expect(await eventually(() => app.open === 1, 5_000, 10)).toBe(true);
    process.kill(browserPid!, "SIGKILL");
    const error = await inFlight;
    expect(error.code).toBe("crashed");
    expect(error.httpStatus).toBe(503);
    expect(Date.now() - started).toBeLessThan(5_000);
    // Every process of the dead browser's group is gone (zombies included).
    expect(await eventually(() => processGroup(browserPid!).length === 0)).toBe(true);
    expect(await eventually(() => zombies().length === 0)).toBe(true);

    const text = pdfText(await renderer.render({ url: `${app.origin}/report` }));
    expect(text).toContain("DiaCare test report");
    expect(renderer.stats().launches).toBe(launches + 1);
    expect(renderer.stats().browserPid).not.toBe(browserPid);
  });

  it("fails a render that starts as Chromium dies with the crash code, and the next one runs on a fresh browser", async () => {
    await renderer.render({ url: `${app.origin}/report` });
    const { browserPid, launches } = renderer.stats();
    expect(browserPid).toBeGreaterThan(0);
    process.kill(browserPid!, "SIGKILL");
    const error = await rejection(renderer.render({ url: `${app.origin}/report`, account: 7 }));
    expect(error.code).toBe("crashed");
    expect(error.httpStatus).toBe(503);
    expect(renderer.stats().accounts).toEqual({});
    expect(await eventually(() => processGroup(browserPid!).length === 0)).toBe(true);
    expect(await eventually(() => zombies().length === 0)).toBe(true);

    const text = pdfText(await renderer.render({ url: `${app.origin}/report`, account: 7 }));
    expect(text).toContain("DiaCare test report");
    expect(renderer.stats().launches).toBe(launches + 1);
    expect(renderer.stats().browserPid).not.toBe(browserPid);
  });

  it("refuses a third PDF in flight for one account at once while another account's passes", async () => {
    app.open = 0;
    const mine = [1, 2].map((n) =>
      renderer.render({ url: `${app.origin}/slow?ms=3000&n=mine${n}`, account: 41 }),
    );
    expect(await eventually(() => app.open === 2, 15_000, 10)).toBe(true);
    expect(renderer.stats().accounts).toEqual({ "41": 2 });
    const started = Date.now();
    const third = await rejection(renderer.render({ url: `${app.origin}/report`, account: 41 }));
    expect(Date.now() - started).toBeLessThan(100);
    expect(third.code).toBe("account-limit");
    expect(third.httpStatus).toBe(429);
    expect(third.retryAfterSeconds).toBeGreaterThan(0);
    // Another account's render waits for a slot and is printed.
    const theirs = renderer.render({ url: `${app.origin}/report`, account: 42 });
    expect(renderer.stats().accounts).toEqual({ "41": 2, "42": 1 });
    expect(pdfText(await theirs)).toContain("DiaCare test report");
    for (const pdf of await Promise.all(mine)) expect(pdfText(pdf)).toContain("slow page");
    // Finished renders, and failed ones, free the account's places.
    expect(renderer.stats().accounts).toEqual({});
    expect(
      (await rejection(renderer.render({ url: `${app.origin}/forbidden`, account: 41 }))).code,
    ).toBe("page");
    const again = await Promise.all(
      [1, 2].map(() => renderer.render({ url: `${app.origin}/report`, account: 41 })),
    );
    expect(again).toHaveLength(2);
    expect(renderer.stats().accounts).toEqual({});
  });

  it("closes Chromium, reaps all its processes and removes its profile folder", async () => {
    await renderer.render({ url: `${app.origin}/report` });
    const { browserPid, userDataDir } = renderer.stats();
    expect(processGroup(browserPid!).length).toBeGreaterThan(1);
    expect(existsSync(userDataDir!)).toBe(true);
    await renderer.close();
    expect(renderer.stats()).toMatchObject({
      browserPid: null,
      userDataDir: null,
      active: 0,
      queued: 0,
    });
    expect(existsSync(userDataDir!)).toBe(false);
    expect(await eventually(() => processGroup(browserPid!).length === 0)).toBe(true);
  });
});

describe("PDF renderer limits", () => {
  let small: PdfRenderer;
  beforeAll(() => {
    // 10 s: the first render launches Chromium, which takes seconds on a loaded machine.
    small = createPdfRenderer({
      executablePath: CHROMIUM,
      concurrency: 1,
      queueLimit: 2,
      timeoutMs: 10_000,
      allowedOrigins: [app.origin],
    });
  });
  afterAll(() => small.close());

  it("refuses URLs outside the allowed origins without starting Chromium", async () => {
    const otherPort = new URL(other.origin).port;
    for (const url of [
      "http://example.com/report",
      "http://169.254.169.254/latest/meta-data/",
      "file:///etc/passwd",
      `http://127.0.0.1:${otherPort}/`,
      `http://localhost:${otherPort}/`,
      "not a url",
    ]) {
      const error = await rejection(small.render({ url }));
      expect(error.code).toBe("refused");
    }
    expect(small.stats().launches).toBe(0);
  });

  it("gives a render none of the previous render's cookies, set by the caller or by the server", async () => {
    // Concurrency 1: both renders use the same reused page and context.
    const first = pdfText(
      await small.render({ url: `${app.origin}/report`, cookieHeader: "__session=first-user" }),
    );
    expect(first).toContain("__session=first-user");
    const second = pdfText(await small.render({ url: `${app.origin}/report` }));
    expect(second).toContain("Cookie header: none");
    const third = pdfText(
      await small.render({ url: `${app.origin}/report`, cookieHeader: "__session=third-user" }),
    );
    expect(third).toMatch(/Cookie header: __session=third-user\s*$/m);
  });

  it("fails with a clear error when Chromium cannot start", async () => {
    const broken = createPdfRenderer({
      executablePath: "/nonexistent/chromium",
      concurrency: 1,
      timeoutMs: 3_000,
      allowedOrigins: [app.origin],
    });
    const error = await rejection(broken.render({ url: `${app.origin}/report` }));
    expect(error.code).toBe("browser");
    expect(error.message).toMatch(/Chromium failed to start \(\/nonexistent\/chromium\)/);
    expect(broken.stats()).toMatchObject({ active: 0, launches: 0, browserPid: null });
    await broken.close();
  });

  it("counts an account's queued renders against its limit too", async () => {
    const single = createPdfRenderer({
      executablePath: CHROMIUM,
      concurrency: 1,
      timeoutMs: 20_000,
      allowedOrigins: [app.origin],
    });
    try {
      const first = single.render({ url: `${app.origin}/slow?ms=600&n=acc1`, account: "a" });
      const second = single.render({ url: `${app.origin}/slow?ms=10&n=acc2`, account: "a" });
      expect(single.stats()).toMatchObject({ active: 1, queued: 1, accounts: { a: 2 } });
      expect(
        (await rejection(single.render({ url: `${app.origin}/report`, account: "a" }))).code,
      ).toBe("account-limit");
      await Promise.all([first, second]);
      expect(single.stats().accounts).toEqual({});
    } finally {
      await single.close();
    }
  });

  it("answers busy at once when the queue is full", async () => {
    const started = Date.now();
    const renders = [0, 1, 2, 3].map((n) =>
      small.render({ url: `${app.origin}/slow?ms=300&n=q${n}` }).then(
        () => "ok",
        (e: PdfRenderError) => e,
      ),
    );
    const last = await renders[3]!;
    expect(last).toBeInstanceOf(PdfRenderError);
    expect((last as PdfRenderError).code).toBe("busy");
    expect((last as PdfRenderError).httpStatus).toBe(503);
    expect(Date.now() - started).toBeLessThan(100);
    expect(await Promise.all(renders.slice(0, 3))).toEqual(["ok", "ok", "ok"]);
  });

  it("times out a page that never finishes loading, and frees its slot", async () => {
    const started = Date.now();
    const error = await rejection(small.render({ url: `${app.origin}/hang` }));
    expect(error.code).toBe("timeout");
    expect(error.message).toMatch(/\/hang timed out after 10000 ms/);
    expect(error.httpStatus).toBe(504);
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(small.stats().active).toBe(0);
    expect(pdfText(await small.render({ url: `${app.origin}/report` }))).toContain(
      "DiaCare test report",
    );
  });
});

describe("pdfFailureAnswer", () => {
  const locales = ["en", "pl", "ru", "it", "ro"];
  const localeFile = (locale: string, namespace: string) =>
    path.join(process.cwd(), "locales", locale, `${namespace}.json`);
  const message = (locale: string, key: string) => {
    const [namespace, path] = key.split(":") as [string, string];
    const tree = JSON.parse(readFileSync(localeFile(locale, namespace), "utf8")) as Record<
      string,
      unknown
    >;
    return path
      .split(".")
      .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
  };

  it.each([
    ["account-limit", undefined, 429, "reports:common.pdf.accountLimit"],
    ["crashed", undefined, 503, "reports:common.pdf.crashed"],
    ["busy", undefined, 503, "reports:common.pdf.busy"],
    ["browser", undefined, 503, "reports:common.pdf.busy"],
    ["timeout", undefined, 504, "reports:common.pdf.timeout"],
    ["page", 403, 403, "common:errors.403"],
    ["page", 500, 502, "reports:common.pdf.failed"],
    ["refused", undefined, 500, "reports:common.pdf.failed"],
  ] as const)(
    "answers %s (page status %s) with %i and a message in every locale",
    (code, pageStatus, status, key) => {
      const answer = pdfFailureAnswer(
        new PdfRenderError(
          code as PdfErrorCode,
          "x",
          pageStatus,
          code === "account-limit" ? 5 : undefined,
        ),
      );
      expect(answer.status).toBe(status);
      expect(answer.messageKey).toBe(key);
      expect(answer.retryAfterSeconds).toBe(code === "account-limit" ? 5 : undefined);
      const texts = locales.map((locale) => message(locale, key));
      for (const text of texts) expect(typeof text === "string" && text.length > 0).toBe(true);
      expect(new Set(texts).size).toBe(locales.length);
    },
  );
});

describe("the app's renderer (renderPdf)", () => {
  it("renders the app's own origin from the environment, refuses others, and closes at shutdown", async () => {
    // env() is parsed on first use: APP_URL defaults to http://127.0.0.1:$PORT.
    process.env.PORT = new URL(app.origin).port;
    const text = pdfText(
      await renderPdf({ url: `${app.origin}/report`, cookieHeader: "__session=app" }),
    );
    expect(text).toContain("__session=app");
    expect((await rejection(renderPdf({ url: `${other.origin}/` }))).code).toBe("refused");
    const { browserPid, launches } = pdfRendererStats();
    expect(launches).toBe(1);
    await closePdfRenderer();
    expect(pdfRendererStats().browserPid).toBeNull();
    expect(await eventually(() => processGroup(browserPid!).length === 0)).toBe(true);
  });
});
