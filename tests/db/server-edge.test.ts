// The real HTTP server (`server/start.ts` on the built app): body caps, the cross-site check,
// security and cache headers, request ids in logs and 5xx answers, and graceful shutdown.
import { readFileSync } from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { db } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import { expectDocumented } from "../support/api-contract";
import { descendants, eventually, readProc } from "../support/proc";
import { rawRequest, startServer, type ServerProcess } from "../support/server-process";
import { withAdmin } from "./database";

const KB = 1024;
const PASSWORD = "edge-test-password-1";
const locale = (lng: string, ns: string) =>
  JSON.parse(readFileSync(`locales/${lng}/${ns}.json`, "utf8"));
const chunksOf = (total: number, size = 64 * KB) =>
  Array.from({ length: Math.ceil(total / size) }, () => Buffer.alloc(size, "a"));

let server: ServerProcess;
let email: string;
let patientId: number;

beforeAll(async () => {
  email = `edge-${Date.now()}@test.diacare.test`;
  const user = await db().user.create({
    data: {
      email,
      passwordHash: await hashPassword(PASSWORD),
      identity: 1,
      patient: { create: {} },
    },
    include: { patient: true },
  });
  patientId = user.patient!.id;
  server = await startServer({
    DATABASE_URL: process.env.DATABASE_URL!,
    DEPLOY_ENV: "test",
    SESSION_SECRET: "edge-session-secret-that-is-long-enough-0123456789",
    RATE_LIMIT_SIGNIN_PER_IP: "1000",
  });
}, 120_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill("SIGKILL");
    await server.exited;
  }
});

const url = (path: string) => `${server.baseUrl}${path}`;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function signInCookie(): Promise<string> {
  const response = await fetch(url("/login"), {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.baseUrl },
    body: form({ email, password: PASSWORD, identity: "1", redirectTo: "" }),
  });
  const cookies = response.headers.getSetCookie().map((c) => c.split(";", 1)[0]);
  expect(cookies.length).toBeGreaterThan(0);
  return cookies.join("; ");
}

describe("health and readiness", () => {
  it("answers /healthz without the database and /readyz with every check", async () => {
    const alive = await fetch(url("/healthz"));
    expect(alive.status).toBe(200);
    expect(await alive.json()).toEqual({ status: "ok" });
    const ready = await fetch(url("/readyz"));
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toContain("no-store");
    expect(await ready.json()).toEqual({
      status: "ready",
      checks: { database: "ok", migrations: "ok", queue: "ok", pdf: "ok" },
    });
  });
});

describe("body caps", () => {
  it("refuses a 10 MB form that declares its length before reading it, signed out", async () => {
    const answer = await rawRequest(url("/login"), {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      chunks: chunksOf(10 * 1024 * KB),
      contentLength: 10 * 1024 * KB,
    });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe("close");
    // The answer came while most of the body was still unsent.
    expect(answer.chunksSent).toBeLessThan(80);
  });

  it("stops reading a chunked JSON body at 64 KB: 413 envelope, nothing written", async () => {
    const before = await db().user.count();
    const json = Buffer.from(
      JSON.stringify({ email: "big@test.diacare.test", password: "x".repeat(10 * 1024 * KB) }),
    );
    const chunks = Array.from({ length: Math.ceil(json.length / (16 * KB)) }, (_, i) =>
      json.subarray(i * 16 * KB, (i + 1) * 16 * KB),
    );
    const answer = await rawRequest(url("/api/user/register"), {
      headers: { "Content-Type": "application/json", "Accept-Language": "it" },
      chunks,
    });
    expect(answer.status).toBe(413);
    const envelope = JSON.parse(answer.body);
    expectDocumented("POST", "/api/user/register", answer.status, envelope);
    expect(envelope.code).toBe(413);
    expect(envelope.msg).toBe(locale("it", "api").tooLarge.replace("{{limitKb}}", "64"));
    expect(answer.chunksSent).toBeLessThan(chunks.length / 2);
    expect(await db().user.count()).toBe(before);
  });

  it("answers a page's oversized form with a translated 413 page, and its .data request with 413", async () => {
    const body = form({ email, password: "p".repeat(100 * KB), identity: "1" });
    const page = await fetch(url("/login"), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Accept-Language": "pl" },
      body,
    });
    expect(page.status).toBe(413);
    expect(await page.text()).toContain(
      locale("pl", "common").errors["413"].replace("{{limitKb}}", "64"),
    );
    const data = await fetch(url("/login.data"), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
    expect(data.status).toBe(413);
  });

  it("accepts a form just under 64 KB", async () => {
    const answer = await fetch(url("/login"), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: form({
        email: "nobody@test.diacare.test",
        password: "p".repeat(60 * KB),
        identity: "1",
      }),
    });
    expect(answer.status).not.toBe(413);
    expect(answer.status).toBeLessThan(500);
  });

  it("gives the report logo form 2 MB across its multipart parts", async () => {
    const multipart = (bytes: number) => {
      const data = new FormData();
      data.set("intent", "logo");
      data.set("logo", new Blob([Buffer.alloc(bytes, 1)], { type: "image/png" }), "logo.png");
      return data;
    };
    const cookie = await signInCookie();
    // 400 KB: over the form cap, within the logo's own limit: the route reads it (and judges the image).
    const withinFileCap = await fetch(url("/newsetting"), {
      method: "POST",
      headers: { Cookie: cookie, Origin: server.baseUrl },
      body: multipart(400 * KB),
      redirect: "manual",
    });
    expect(withinFileCap.status).not.toBe(413);
    expect(withinFileCap.status).toBeLessThan(500);
    const overFileCap = await fetch(url("/newsetting"), {
      method: "POST",
      headers: { Cookie: cookie },
      body: multipart(3 * 1024 * KB),
      redirect: "manual",
    });
    expect(overFileCap.status).toBe(413);
    expect(await overFileCap.text()).toContain(
      // The limit in the language's number format: 2048 is "2,048" in English.
      locale("en", "common").errors["413"].replace("{{limitKb}}", "2,048"),
    );
  });
});

describe("cross-site requests", () => {
  const post = (headers: Record<string, string>) =>
    fetch(url("/login"), {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: form({ email: "a@test.diacare.test", password: "x", identity: "1" }),
    });

  it("refuses a post with no Origin and a foreign Referer, and one with a foreign Origin", async () => {
    expect((await post({ Referer: "https://evil.example/form" })).status).toBe(403);
    expect((await post({ Origin: "https://evil.example" })).status).toBe(403);
  });

  it("lets our own pages and token clients without Origin or Referer through", async () => {
    expect((await post({ Referer: `${server.baseUrl}/login` })).status).not.toBe(403);
    expect((await post({ Origin: server.baseUrl })).status).not.toBe(403);
    const api = await fetch(url("/api/user/login"), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ userName: email, password: PASSWORD }),
    });
    const body = await api.json();
    expectDocumented("POST", "/api/user/login", api.status, body);
    expect(body.code).toBe(200);
  });
});

describe("headers", () => {
  it("sends a CSP whose per-response nonce is on every inline script, and the other security headers", async () => {
    const first = await fetch(url("/login"));
    const html = await first.text();
    const csp = first.headers.get("content-security-policy")!;
    const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src "))!;
    const nonce = /'nonce-([^']+)'/.exec(scriptSrc)?.[1];
    expect(nonce).toBeTruthy();
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(2);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("referrer-policy")).toBe("same-origin");
    expect(first.headers.get("x-frame-options")).toBe("DENY");
    // APP_URL is http here: no HSTS.
    expect(first.headers.get("strict-transport-security")).toBeNull();

    const second = await fetch(url("/login"));
    expect(second.headers.get("content-security-policy")).not.toContain(`'nonce-${nonce}'`);
  });

  it("keeps pages and data out of caches, and static assets cached long", async () => {
    const page = await fetch(url("/login"));
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    const data = await fetch(url("/login.data"));
    expect(data.headers.get("cache-control")).toBe("no-store");
    const asset = /(\/build\/[^"]+\.js)"/.exec(html)![1]!;
    const cached = await fetch(url(asset));
    expect(cached.status).toBe(200);
    expect(cached.headers.get("cache-control")).toContain("max-age=31536000");
    expect(cached.headers.get("content-security-policy")).toBeTruthy();
  });
});

describe("request ids and logs", () => {
  it("keeps a short safe X-Request-Id, replaces any other, and logs every request with its id", async () => {
    const kept = await fetch(url("/healthz"), { headers: { "X-Request-Id": "ticket-4711.a_b" } });
    expect(kept.headers.get("x-request-id")).toBe("ticket-4711.a_b");
    for (const hostile of ["a b", "x".repeat(200), 'id"}{"level":60']) {
      const replaced = await fetch(url("/healthz"), { headers: { "X-Request-Id": hostile } });
      expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
    await eventually(() => server.output().includes('"ticket-4711.a_b"'), 5000);
    const line = server
      .output()
      .split("\n")
      .find((l) => l.includes('"ticket-4711.a_b"'))!;
    expect(JSON.parse(line).req).toMatchObject({
      id: "ticket-4711.a_b",
      method: "GET",
      path: "/healthz",
    });
  });

  it("writes no password, token, cookie or query data into the log", async () => {
    const login = await fetch(url("/api/user/login"), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ userName: email, password: PASSWORD }),
    });
    const token = (await login.json()).data.token as string;
    const cookieValue = "session-cookie-value-7f3a9";
    const secretEmail = "patient.name@secret.example";
    await fetch(url(`/api/user/getUserInfo?email=${encodeURIComponent(secretEmail)}`), {
      headers: {
        token,
        Cookie: `__session=${cookieValue}`,
        Authorization: "Bearer abc-secret-bearer",
        "X-Request-Id": "log-secrets-check",
      },
    });
    await eventually(() => server.output().includes('"log-secrets-check"'), 5000);
    const log = server.output();
    for (const secret of [
      PASSWORD,
      token,
      cookieValue,
      secretEmail,
      encodeURIComponent(secretEmail),
      "abc-secret-bearer",
    ])
      expect(log).not.toContain(secret);
  });
});

describe("server failures", () => {
  const name = () => new URL(process.env.DATABASE_URL!).pathname.slice(1);
  const admin = () => inject("adminDatabaseUrl");

  it("answers 500 with the request id, in the API envelope and on the error page, and logs it", async () => {
    const cookie = await signInCookie();
    await withAdmin(admin(), async (c) => {
      await c.query(`ALTER DATABASE "${name()}" WITH ALLOW_CONNECTIONS false`);
      await c.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
        [name()],
      );
    });
    try {
      const api = await fetch(url("/api/user/login"), {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Request-Id": "api-failure-1" },
        body: JSON.stringify({ userName: email, password: PASSWORD }),
      });
      expect(api.status).toBe(500);
      expect(await api.json()).toEqual({
        code: 500,
        msg: locale("en", "api").error,
        data: { requestId: "api-failure-1" },
      });

      const page = await fetch(url("/patientShow/patients"), { headers: { Cookie: cookie } });
      expect(page.status).toBe(500);
      const requestId = page.headers.get("x-request-id")!;
      const html = await page.text();
      expect(html).toContain(locale("en", "common").errors.requestId);
      expect(html).toContain(`<code>${requestId}</code>`);

      await eventually(() => server.output().includes(requestId), 5000);
      const failure = server
        .output()
        .split("\n")
        .filter((l) => l.includes('"api-failure-1"'))
        .map((l) => JSON.parse(l));
      expect(failure.some((entry) => entry.level >= 50)).toBe(true);
    } finally {
      await withAdmin(admin(), (c) =>
        c.query(`ALTER DATABASE "${name()}" WITH ALLOW_CONNECTIONS true`),
      );
    }
  });
});

describe("graceful shutdown", () => {
  it("on SIGTERM finishes the request in flight, refuses new ones, closes Chromium and exits 0", async () => {
    const cookie = await signInCookie();
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const pdf = await fetch(url(`/${patientId}/print.pdf?start=${day(-15)}&end=${day(-1)}`), {
      headers: { Cookie: cookie },
    });
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("cache-control")).toContain("no-store");
    const chromium = descendants(server.child.pid!).filter((p) => /chrom/i.test(p.comm));
    expect(chromium.length).toBeGreaterThan(0);

    // A request whose body is still arriving when the signal comes.
    const body = JSON.stringify({ userName: email, password: PASSWORD });
    const held = http.request(url("/api/user/login"), {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "Content-Length": String(Buffer.byteLength(body)),
      },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      held.on("response", (response) => {
        let text = "";
        response.on("data", (part) => (text += part));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
      });
      held.on("error", reject);
    });
    held.write(body.slice(0, 10));
    // Until the server has read the request's head, its connection counts as idle and the stop
    // closes it: give a loaded machine time for that.
    await new Promise((r) => setTimeout(r, 1000));

    const signalled = Date.now();
    server.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 1500));
    expect(server.child.exitCode).toBeNull();
    await expect(fetch(url("/healthz"))).rejects.toThrow();
    held.end(body.slice(10));
    const finished = await answer;
    expect(finished.status).toBe(200);
    expect(JSON.parse(finished.body).code).toBe(200);

    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(12_000);
    const gone = (pid: number) => [undefined, "Z"].includes(readProc(pid, false)?.state);
    expect(await eventually(() => chromium.every((p) => gone(p.pid)), 5000)).toBe(true);
  }, 60_000);
});
