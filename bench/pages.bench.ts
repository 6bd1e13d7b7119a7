/**
 * Benchmark of server-side page rendering: the production build (`npm start`) on a real
 * PostgreSQL, signed in as the seeded clinic, timing full HTTP round trips of the patient's
 * DAILY, CGMS day, CGMS 14-day overlay and BG 14-day pages (the issue's targets: day pages
 * < 60 ms, overlay < 120 ms).
 *
 * PostgreSQL: DATABASE_URL's server when set, else the project-local cluster
 * (scripts/pg-local.sh). A fresh database is created, migrated and seeded, and dropped at the
 * end. `npx remix build` runs first unless BENCH_SKIP_BUILD=1.
 *
 * Plain tsx script: `npx tsx bench/pages.bench.ts` prints the results; `benchPages()` returns
 * them for bench/run.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath, pathToFileURL } from "node:url";
import pg from "pg";
import { Temporal } from "temporal-polyfill";
import { DEMO_TIME_ZONE } from "../prisma/demo-data";
import { DEMO_ACCOUNTS } from "../prisma/seed";
import type { BenchResult } from "./timing";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WARMUP = 20;
const RUNS = 40;
const SESSION_SECRET = "bench-session-secret-0123456789-abcdefghijklmnopqrstuvwxyz";

interface PageCase {
  name: string;
  path: string;
  target: string;
  /** Text only the rendered view has (its summary, drawn when the chart has data). */
  marker: string;
}

/** Runs a command in the repository; resolves with its stdout, rejects with its output on failure. */
function run(command: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(" ")} exited ${code}\n${out}${err}`))));
  });
}

async function adminQuery(url: string, sql: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql, values);
  } finally {
    await client.end();
  }
}

/** A maintenance database URL: DATABASE_URL's server, else the project-local cluster. */
async function serverUrl(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  return `${(await run("bash", ["scripts/pg-local.sh", "start"])).trim()}/postgres`;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `npm start` in its own process group (npm -> sh -> tsx -> node), output kept for errors. */
function startServer(port: number, databaseUrl: string): { child: ChildProcess; output: () => string } {
  const env = { PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: databaseUrl, DEPLOY_ENV: "test", SESSION_SECRET, NODE_ENV: "production" } as const;
  const child = spawn("npm", ["start", "--silent"], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  return { child, output: () => log };
}

async function waitForHealth(origin: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}):\n${output()}`);
    const ok = await fetch(`${origin}/healthz`).then((r) => r.status === 200, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The server did not answer /healthz within 120 s:\n${output()}`);
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the server's process group; SIGKILL when some of it is still running after 10 s. */
async function stopServer(child: ChildProcess): Promise<void> {
  const pgid = child.pid!;
  if (!groupAlive(pgid)) return;
  process.kill(-pgid, "SIGTERM");
  const deadline = Date.now() + 10_000;
  while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(pgid)) process.kill(-pgid, "SIGKILL");
}

function descendants(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** The server: the innermost node process of npm -> sh -> tsx -> node (tsx's esbuild aside). */
function serverProcess(npmPid: number): number {
  const nodes = descendants(npmPid).filter((pid) => readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "node");
  return nodes.at(-1) ?? npmPid;
}

function rssMegabytes(pid: number): string {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return kb ? `${(Number(kb) / 1024).toFixed(0)} MB` : "unknown";
}

/** Posts the sign-in form as a browser without JavaScript does; returns the Cookie header. */
async function signIn(origin: string): Promise<string> {
  const { email, password } = DEMO_ACCOUNTS.clinic;
  const body = new URLSearchParams({ redirectTo: "", email, password, identity: "2" });
  const res = await fetch(`${origin}/login`, { method: "POST", body, headers: { Origin: origin }, redirect: "manual" });
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (res.status !== 302 || cookies.length === 0) throw new Error(`Sign-in as the clinic failed: HTTP ${res.status}`);
  return cookies.join("; ");
}

async function seededPatient(databaseUrl: string): Promise<{ pid: number; userId: number }> {
  const sql = `SELECT p.id AS pid, u.id AS "userId" FROM "User" u JOIN "Patient" p ON p."userId" = u.id WHERE u.email = $1`;
  const row = (await adminQuery(databaseUrl, sql, [DEMO_ACCOUNTS.patient.email])).rows[0] as { pid: number; userId: number } | undefined;
  if (!row) throw new Error("The seeded patient is missing");
  return row;
}

function pageCases(pid: number, userId: number): PageCase[] {
  const home = `/patientShow/${pid}/${userId}/patientHome`;
  // The seed's data ends at today's midnight in its time zone: yesterday is the last full day.
  const date = Temporal.Now.plainDateISO(DEMO_TIME_ZONE).subtract({ days: 1 });
  const from = date.subtract({ days: 13 });
  return [
    { name: "page DAILY day", path: `${home}?tab=daily&date=${date}`, target: "target < 60 ms", marker: 'data-testid="daily-totals"' },
    { name: "page CGMS day", path: `${home}?tab=cgms&date=${date}`, target: "target < 60 ms", marker: 'data-testid="cgm-latest"' },
    { name: "page CGMS 14-day overlay", path: `${home}?tab=cgms&view=overlay&date=${date}`, target: "target < 120 ms", marker: 'data-testid="time-in-ranges"' },
    { name: "page BG 14 days", path: `${home}?tab=bg&from=${from}&to=${date}`, target: "no target", marker: 'data-testid="bg-summary"' },
  ];
}

/** One full round trip of the HTML document, fully read; fails on a bad status or a missing marker. */
async function timedGet(url: string, cookie: string, marker: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { Cookie: cookie }, redirect: "manual" });
  const html = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status}`);
  if (!html.includes(marker)) throw new Error(`GET ${url}: the page lacks ${JSON.stringify(marker)}`);
  return ms;
}

async function timePage(origin: string, cookie: string, page: PageCase): Promise<BenchResult> {
  const url = origin + page.path;
  for (let i = 0; i < WARMUP; i++) await timedGet(url, cookie, page.marker);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timedGet(url, cookie, page.marker));
  times.sort((a, b) => a - b);
  const median = (times[(RUNS - 1) >> 1]! + times[RUNS >> 1]!) / 2;
  const p90 = times[Math.ceil(0.9 * RUNS) - 1]!;
  return {
    name: page.name,
    ms: Number(median.toFixed(2)),
    detail: `${page.target}; median of ${RUNS} after ${WARMUP} warm-up (min ${times[0]!.toFixed(1)}, p90 ${p90.toFixed(1)}, max ${times.at(-1)!.toFixed(1)} ms)`,
  };
}

/** Runs the benchmark; returns the median milliseconds of each page. */
export async function benchPages(): Promise<BenchResult[]> {
  const adminUrl = await serverUrl();
  const name = `diacare_bench_${process.pid}`;
  const databaseUrl = withDatabase(adminUrl, name);
  let server: ReturnType<typeof startServer> | undefined;
  try {
    await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
    await run("npx", ["tsx", "scripts/migrate.ts"], { DATABASE_URL: databaseUrl });
    await run("npx", ["tsx", "prisma/seed.ts"], { DATABASE_URL: databaseUrl, DEPLOY_ENV: "test" });
    if (process.env.BENCH_SKIP_BUILD !== "1") await run("npx", ["remix", "build"]);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    server = startServer(port, databaseUrl);
    await waitForHealth(origin, server.child, server.output);
    const cookie = await signIn(origin);
    const { pid, userId } = await seededPatient(databaseUrl);
    const results: BenchResult[] = [];
    for (const page of pageCases(pid, userId)) results.push(await timePage(origin, cookie, page));
    results.at(-1)!.detail += `; server RSS after all runs ${rssMegabytes(serverProcess(server.child.pid!))}`;
    return results;
  } finally {
    if (server) await stopServer(server.child);
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  for (const r of await benchPages()) {
    console.log(`${r.name}: ${r.ms} ms${r.detail ? `  (${r.detail})` : ""}`);
  }
}
