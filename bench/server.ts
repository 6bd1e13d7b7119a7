/**
 * The production server for the HTTP benchmarks (pages.bench.ts, report-pdf.bench.ts): a fresh
 * PostgreSQL database, migrated and seeded, `npm start` on a free loopback port, and a sign-in as
 * the seeded clinic. `withBenchServer` stops the server and drops the database afterwards, also
 * when the benchmark fails or the run is interrupted.
 *
 * PostgreSQL: DATABASE_URL's server when set, else the project-local cluster
 * (scripts/pg-local.sh). `npx remix build` runs once per process unless BENCH_SKIP_BUILD=1.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { DEMO_ACCOUNTS } from "../prisma/seed";
import { descendants } from "../tests/support/proc";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SESSION_SECRET = "bench-session-secret-0123456789-abcdefghijklmnopqrstuvwxyz";

export interface BenchServer {
  origin: string;
  /** The Cookie header of the clinic's session. */
  cookie: string;
  databaseUrl: string;
  /** The server's node process (Chromium runs below it). */
  serverPid: number;
}

/** Runs a command in the repository; resolves with its stdout, rejects with its output on failure. */
export function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${command} ${args.join(" ")} exited ${code}\n${out}${err}`)),
    );
  });
}

async function adminQuery(
  url: string,
  sql: string,
  values: unknown[] = [],
): Promise<pg.QueryResult> {
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

let build: Promise<string> | undefined;

/** The production build, made at most once per process (both server benchmarks need it). */
function ensureBuild(): Promise<unknown> {
  if (process.env.BENCH_SKIP_BUILD === "1") return Promise.resolve();
  build ??= run("npx", ["remix", "build"]);
  return build;
}

/** `npm start` in its own process group (npm -> sh -> tsx -> node), output kept for errors. */
function startServer(
  port: number,
  databaseUrl: string,
  extraEnv: Record<string, string>,
): { child: ChildProcess; output: () => string } {
  const env = {
    ...extraEnv,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    DEPLOY_ENV: "test",
    SESSION_SECRET,
    NODE_ENV: "production",
  } as const;
  // BENCH_CPU_PROFILE=DIR writes a V8 CPU profile of the server into DIR when it stops.
  const profile = process.env.BENCH_CPU_PROFILE;
  const [command, args] = profile
    ? ["node", ["--cpu-prof", `--cpu-prof-dir=${profile}`, "--import", "tsx", "server/start.ts"]]
    : ["npm", ["start", "--silent"]];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  return { child, output: () => log };
}

async function waitForHealth(origin: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode})`);
    const ok = await fetch(`${origin}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("The server did not answer /healthz within 120 s");
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

/** The server: the innermost node process of npm -> sh -> tsx -> node (tsx's esbuild aside). */
function serverProcess(npmPid: number): number {
  return descendants(npmPid).findLast((p) => p.comm === "node")?.pid ?? npmPid;
}

export function rssMegabytes(pid: number): string {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return kb ? `${(Number(kb) / 1024).toFixed(0)} MB` : "unknown";
}

/** The sign-in type of an account: 1 a person, 2 a clinic. */
export type SignInIdentity = 1 | 2;

/** The sign-in form as a browser without JavaScript posts it (the clinic's account by default). */
export function signInForm(
  email: string = DEMO_ACCOUNTS.clinic.email,
  password: string = DEMO_ACCOUNTS.clinic.password,
  identity: SignInIdentity = 2,
): string {
  return new URLSearchParams({
    redirectTo: "",
    email,
    password,
    identity: String(identity),
  }).toString();
}

/** Posts the sign-in form; returns the Cookie header. */
export async function signIn(
  origin: string,
  email?: string,
  password?: string,
  identity?: SignInIdentity,
): Promise<string> {
  const body = signInForm(email, password, identity);
  const res = await fetch(`${origin}/login`, {
    method: "POST",
    body,
    headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (res.status !== 302 || cookies.length === 0)
    throw new Error(`Sign-in as ${email ?? "the clinic"} failed: HTTP ${res.status}`);
  return cookies.join("; ");
}

/** An `/api/` token of an account (POST /api/user/login). */
export async function apiToken(
  origin: string,
  email: string,
  password: string,
  identity: SignInIdentity,
): Promise<string> {
  const res = await fetch(`${origin}/api/user/login`, {
    method: "POST",
    body: JSON.stringify({ userName: email, password, identity }),
    headers: { Origin: origin, "Content-Type": "application/json" },
  });
  const token = res.headers.get("token");
  if (res.status !== 200 || !token)
    throw new Error(`API sign-in as ${email} failed: HTTP ${res.status} ${await res.text()}`);
  return token;
}

/** An `/api/` token of the clinic. */
export function clinicApiToken(origin: string): Promise<string> {
  const { email, password } = DEMO_ACCOUNTS.clinic;
  return apiToken(origin, email, password, 2);
}

/**
 * `count` more clinic accounts (the clinic's password, settings and accepted share of the seeded
 * patient copied in SQL), each signed in; returns their Cookie headers. PDFs are limited per
 * account, so a burst from many users needs many accounts.
 */
export async function readerSessions(server: BenchServer, count: number): Promise<string[]> {
  const clinic = DEMO_ACCOUNTS.clinic;
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  const emails = Array.from(
    { length: count },
    (_, i) => `bench-reader-${i + 1}@bench.diacare.test`,
  );
  try {
    await client.query("BEGIN");
    for (const email of emails) {
      const { rows } = await client.query<{ id: number }>(
        `INSERT INTO "User" (email, "passwordHash", identity, role, active, "isPass", "firstName", "lastName", "updatedAt")
         SELECT $1, "passwordHash", identity, role, active, "isPass", 'Bench', 'Reader', now() FROM "User" WHERE email = $2 RETURNING id`,
        [email, clinic.email],
      );
      const id = rows[0]!.id;
      await client.query(
        `INSERT INTO "Setting" ("userId", lang, unit, "updatedAt") SELECT $1, lang, unit, now() FROM "Setting" s JOIN "User" u ON u.id = s."userId" WHERE u.email = $2`,
        [id, clinic.email],
      );
      await client.query(
        `INSERT INTO "ReadPower" ("providerId", "readerId", "sourceType", state, "isNew", "uploadIsNew", "updatedAt", "processedAt")
         SELECT r."providerId", $1, r."sourceType", r.state, r."isNew", r."uploadIsNew", now(), now()
         FROM "ReadPower" r JOIN "User" u ON u.id = r."readerId" WHERE u.email = $2`,
        [id, clinic.email],
      );
    }
    await client.query("COMMIT");
  } finally {
    await client.end();
  }
  const cookies: string[] = [];
  for (const email of emails) cookies.push(await signIn(server.origin, email, clinic.password));
  return cookies;
}

export async function seededPatient(databaseUrl: string): Promise<{ pid: number; userId: number }> {
  const sql = `SELECT p.id AS pid, u.id AS "userId" FROM "User" u JOIN "Patient" p ON p."userId" = u.id WHERE u.email = $1`;
  const row = (await adminQuery(databaseUrl, sql, [DEMO_ACCOUNTS.patient.email])).rows[0] as
    { pid: number; userId: number } | undefined;
  if (!row) throw new Error("The seeded patient is missing");
  return row;
}

/** What an interrupt must undo before the process exits, newest first (a server before its database). */
const cleanups = new Set<() => Promise<unknown>>();

function runCleanupsAndExit() {
  void (async () => {
    for (const cleanup of [...cleanups].reverse()) await cleanup().catch(() => undefined);
  })().finally(() => process.exit(130));
}

/**
 * Registers `cleanup` for Ctrl-C or SIGTERM (the servers run in process groups of their own, which
 * an interrupt of the benchmark does not reach); answers the function that unregisters it.
 */
export function onInterrupt(cleanup: () => Promise<unknown>): () => void {
  if (cleanups.size === 0) {
    process.once("SIGINT", runCleanupsAndExit);
    process.once("SIGTERM", runCleanupsAndExit);
  }
  cleanups.add(cleanup);
  return () => {
    cleanups.delete(cleanup);
    if (cleanups.size === 0) {
      process.off("SIGINT", runCleanupsAndExit);
      process.off("SIGTERM", runCleanupsAndExit);
    }
  };
}

/** Applies the migrations the database lacks. */
export async function migrate(databaseUrl: string): Promise<void> {
  await run("npx", ["tsx", "scripts/migrate.ts"], { DATABASE_URL: databaseUrl });
}

/** Migrates and seeds the demo data into an existing, empty database. */
export async function migrateAndSeed(databaseUrl: string): Promise<void> {
  await migrate(databaseUrl);
  await run("npx", ["tsx", "prisma/seed.ts"], { DATABASE_URL: databaseUrl, DEPLOY_ENV: "test" });
}

/**
 * Runs `fn` against the production build serving `databaseUrl` (an existing, migrated database
 * with the demo accounts), signed in as the seeded clinic; the server stops afterwards, also when
 * `fn` fails or the run is interrupted. The database is left as it is.
 */
export async function withServerOn<T>(
  databaseUrl: string,
  fn: (server: BenchServer) => Promise<T>,
  serverEnv: Record<string, string> = {},
): Promise<T> {
  let server: ReturnType<typeof startServer> | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= server ? stopServer(server.child) : Promise.resolve());
  const unregister = onInterrupt(stop);
  try {
    await ensureBuild();
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const started = startServer(port, databaseUrl, serverEnv);
    server = started;
    await waitForHealth(origin, started.child);
    const cookie = await signIn(origin);
    return await fn({ origin, cookie, databaseUrl, serverPid: serverProcess(started.child.pid!) });
  } catch (error) {
    if (server && error instanceof Error)
      error.message += `\nThe server's last output:\n${server.output().slice(-3000)}`;
    throw error;
  } finally {
    unregister();
    await stop();
  }
}

/**
 * Runs `fn` against a fresh server; `label` names the database (`diacare_bench_<label>_<pid>`;
 * `BENCH_DB_PREFIX` replaces `diacare_bench` when several people share one PostgreSQL server),
 * so the benchmarks of one run never share one.
 */
export async function withBenchServer<T>(
  label: string,
  fn: (server: BenchServer) => Promise<T>,
  serverEnv: Record<string, string> = {},
): Promise<T> {
  const adminUrl = await serverUrl();
  const prefix = process.env.BENCH_DB_PREFIX || "diacare_bench";
  if (!/^[a-z_][a-z0-9_]*$/.test(prefix))
    throw new Error("BENCH_DB_PREFIX: lower-case letters, digits and _ only");
  const name = `${prefix}_${label}_${process.pid}`;
  const databaseUrl = withDatabase(adminUrl, name);
  let dropping: Promise<void> | undefined;
  // Once only: an interrupt and the failure it causes in `fn` both get here.
  const drop = () =>
    (dropping ??= adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).then(
      () => undefined,
    ));
  const unregister = onInterrupt(drop);
  try {
    await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
    await migrateAndSeed(databaseUrl);
    return await withServerOn(databaseUrl, fn, serverEnv);
  } finally {
    unregister();
    await drop();
  }
}
