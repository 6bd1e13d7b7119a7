/**
 * Device uploads through the real HTTP API (`npm start`), as the upload wizard sends them:
 * 90 days of one patient's data in slices of 1000 (about 30,000 pump history records, 25,920 CGM
 * readings, 500 meter readings), from getSliceId to checkSave answering the summary; the same
 * upload again (all duplicates); the server's memory during the upload; ten patients uploading at
 * once while a clinician reads a patient page. On the local PostgreSQL, then on the embedded
 * database (PGlite, the zero-setup default).
 *
 * Targets: 90 days < 1.5 s on PostgreSQL and < 4 s on the embedded database; again < 0.5 s;
 * memory flat (no whole upload held); concurrent uploads all succeed and none holds up another
 * user's page by more than the page's own p95 (its p95 during them below twice its p95 alone).
 */
import { spawn } from "node:child_process";
import http from "node:http";
import zlib from "node:zlib";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import pg from "pg";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { DEMO_ACCOUNTS } from "../prisma/seed";
import { descendants } from "../tests/support/proc";
import { freePort } from "../tests/support/server-process";
import { rssMegabytes, seededPatient, withBenchServer } from "./server";
import { median, percentile, type BenchResult } from "./timing";

const DAYS = 90;
const SLICE = 1000;
const DAY_MS = 86_400_000;
const START = Date.UTC(2026, 5, 1);

/** Rounds of ten uploads at once. */
const ROUNDS = 3;

const clock = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 19);

/** About 30,000 pump records over 90 days: a delivery record every 259 s, carbohydrate and BG entries at meals. */
function pumpRecords(): unknown[] {
  const out: unknown[] = [];
  const step = Math.floor((DAYS * DAY_MS) / 30_000);
  for (let t = START, n = 1; t < START + DAYS * DAY_MS; t += step, n++) {
    const minute = Math.floor((t % DAY_MS) / 60_000);
    const meal = minute % 360 === 0; // 00:00, 06:00, 12:00, 18:00 (UTC here; the zone is the upload's)
    out.push({
      recordId: n,
      eventIndex: n % 65_536,
      eventPort: meal ? 3 : 4,
      eventType: meal ? 1 : 0,
      eventUrgency: 0,
      eventValue: 0,
      statusByte0: 80,
      statusByte1: 120,
      statusShort0: 160,
      statusShort1: meal ? 50 : n % 40 === 0 ? 9600 : 0,
      deviceTime: clock(t),
    });
  }
  return out;
}

/** 25,920 five-minute CGM readings (raw: mg/dL / 1.8). */
function cgmRecords(): unknown[] {
  return Array.from({ length: (DAYS * DAY_MS) / 300_000 }, (_, i) => ({
    eventIndex: i + 1,
    eventType: 7,
    eventData: 60 + (i % 50),
    deviceTime: clock(START + i * 300_000),
  }));
}

/** 500 meter readings, about 5.5 a day. */
function meterRecords(): unknown[] {
  return Array.from({ length: 500 }, (_, i) => ({
    dateTime: clock(START + Math.floor((i * DAYS * DAY_MS) / 500)),
    statusShort0: 90 + (i % 120),
    statusByte0: 0,
  }));
}

type Api = (path: string, body?: unknown) => Promise<{ code: number; msg: string; data: unknown }>;

/**
 * The benchmark's HTTP client: keep-alive connections and a browser's Accept-Encoding, through
 * node:http. A browser's network stack is native code on the user's own machine; Node's `fetch`
 * spends some milliseconds of JavaScript per request, on the two cores the server shares here.
 */
const keepAlive = new http.Agent({ keepAlive: true });

const DECODE: Record<string, (b: Buffer) => Buffer> = {
  gzip: zlib.gunzipSync,
  deflate: zlib.inflateSync,
  br: zlib.brotliDecompressSync,
};

function send(
  origin: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: body === undefined ? "GET" : "POST",
        agent: keepAlive,
        headers: {
          "Accept-Encoding": "gzip, deflate, br",
          ...headers,
          ...(body === undefined
            ? {}
            : { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          const decode = DECODE[res.headers["content-encoding"] ?? ""];
          resolve({ status: res.statusCode ?? 0, text: (decode ? decode(raw) : raw).toString() });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function apiOf(origin: string, token: string): Api {
  return async (p, body) => {
    const res = await send(
      origin,
      p,
      { token, Origin: origin },
      body === undefined ? undefined : JSON.stringify(body),
    );
    return JSON.parse(res.text) as { code: number; msg: string; data: unknown };
  };
}

async function apiToken(
  origin: string,
  email: string,
  password: string,
  identity = 1,
): Promise<string> {
  const res = await fetch(`${origin}/api/user/login`, {
    method: "POST",
    body: JSON.stringify({ userName: email, password, identity }),
    headers: { Origin: origin, "Content-Type": "application/json" },
  });
  const token = res.headers.get("token");
  if (!token) throw new Error(`API sign-in failed: HTTP ${res.status} ${await res.text()}`);
  return token;
}

/** One sliced upload, getSliceId to the summary; throws on any refusal. */
async function slicedUpload(
  api: Api,
  pid: number,
  kind: string,
  serial: string,
  records: unknown[],
) {
  const t0 = performance.now();
  const opened = await api("/api/patient-data/getSliceId", {
    pid,
    deviceKind: kind,
    deviceSn: serial,
    pdaVersion: kind === "equil" ? "5.3.0" : "1.4.2",
    total: records.length,
    timeZone: "Europe/Warsaw",
  });
  if (opened.code !== 200) throw new Error(`getSliceId: ${opened.msg}`);
  const sliceId = opened.data as number;
  for (let i = 0; i * SLICE < records.length; i++) {
    const saved = await api("/api/patient-data/sliceSave", {
      sliceId,
      index: i,
      dataList: records.slice(i * SLICE, (i + 1) * SLICE),
    });
    if (saved.code !== 200) throw new Error(`sliceSave ${i}: ${saved.msg}`);
  }
  const sent = performance.now();
  const done = await api("/api/patient-data/completeSliceTask", { sliceId, isSuccess: true });
  if (done.code !== 200) throw new Error(`completeSliceTask: ${done.msg}`);
  for (;;) {
    const check = await api(`/api/patient-data/checkSave?sliceId=${sliceId}`);
    if (check.data !== false) {
      const summary = check.data as {
        status: string;
        inserted: number;
        duplicates: number;
        error: string | null;
      };
      if (summary.status !== "done")
        throw new Error(`upload failed: ${check.code} ${check.msg} ${JSON.stringify(check.data)}`);
      const end = performance.now();
      return { ms: end - t0, slicesMs: sent - t0, processMs: end - sent, summary };
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The three devices' 90 days, one after the other as the wizard does; total time and per device. */
async function ninetyDays(api: Api, pid: number, tag: string) {
  const parts = [
    ["equil", `P${tag}`, pumpRecords()],
    ["aidex", `C${tag}`, cgmRecords()],
    ["gocheck", `M${tag}`, meterRecords()],
  ] as const;
  const out: Part[] = [];
  for (const [kind, serial, records] of parts) {
    const { ms, slicesMs, processMs, summary } = await slicedUpload(api, pid, kind, serial, [
      ...records,
    ]);
    out.push({
      kind,
      ms,
      slicesMs,
      processMs,
      inserted: summary.inserted,
      duplicates: summary.duplicates,
      records: records.length,
    });
  }
  return { ms: out.reduce((s, p) => s + p.ms, 0), parts: out };
}

/** Samples the server's RSS every 50 ms while `fn` runs. */
async function withRss<T>(
  pid: number,
  fn: () => Promise<T>,
): Promise<{ value: T; before: number; peak: number; after: number }> {
  const read = () => Number.parseFloat(rssMegabytes(pid));
  const before = read();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, read())), 50);
  try {
    const value = await fn();
    return { value, before, peak, after: read() };
  } finally {
    clearInterval(timer);
  }
}

type Part = {
  kind: string;
  ms: number;
  slicesMs: number;
  processMs: number;
  inserted: number;
  duplicates: number;
  records: number;
};

const describeParts = (parts: Part[]) =>
  parts
    .map(
      (p) =>
        `${p.kind} ${p.records} records ${Math.round(p.ms)} ms (slices ${Math.round(p.slicesMs)}, processing ${Math.round(p.processMs)}; +${p.inserted}, ${p.duplicates} dup)`,
    )
    .join("; ");

async function uploadFigures(
  origin: string,
  serverPid: number,
  pid: number,
  label: string,
  target: number,
): Promise<BenchResult[]> {
  const api = apiOf(
    origin,
    await apiToken(origin, DEMO_ACCOUNTS.patient.email, DEMO_ACCOUNTS.patient.password),
  );
  const first = await withRss(serverPid, () => ninetyDays(api, pid, "B90"));
  const again = await ninetyDays(api, pid, "B90");
  return [
    {
      name: `${label}: 90 days, getSliceId to checkSave`,
      ms: first.value.ms,
      detail: `target < ${target} ms; ${describeParts(first.value.parts)}`,
    },
    {
      name: `${label}: the same again (all duplicates)`,
      ms: again.ms,
      detail: `target < 500 ms; ${describeParts(again.parts)}`,
    },
    {
      name: `${label}: server RSS during the upload`,
      ms: Number.NaN,
      detail: `${first.before} MB before, ${first.peak} MB peak, ${first.after} MB after (flat: slices are read one at a time)`,
    },
  ];
}

/**
 * The floor under every upload call: an empty request's round trip through Express and Remix
 * (`/healthz`, one after the other). The upload figures move with the machine's speed; this one
 * says how fast the machine was.
 */
async function emptyRoundTrip(origin: string): Promise<BenchResult> {
  const times: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t0 = performance.now();
    await send(origin, "/healthz", {});
    if (i >= 50) times.push(performance.now() - t0);
  }
  return {
    name: "an empty request's round trip (/healthz), the machine's floor",
    ms: median(times),
    detail: `p10 ${percentile(times, 10).toFixed(1)} ms, p90 ${percentile(times, 90).toFixed(1)} ms over ${times.length} requests one after the other; an upload of 90 days makes 66 requests`,
  };
}

export async function benchIngestPostgres(): Promise<BenchResult[]> {
  return withBenchServer("ingest", async (server) => {
    const { pid } = await seededPatient(server.databaseUrl);
    const figures = [await emptyRoundTrip(server.origin)];
    figures.push(
      ...(await uploadFigures(server.origin, server.serverPid, pid, "PostgreSQL", 1500)),
    );
    figures.push(
      ...(await concurrentUploads(server.origin, server.cookie, pid, server.databaseUrl)),
    );
    return figures;
  });
}

/** `count` patient accounts with the demo patient's password (copied in SQL), each with a record. */
async function benchPatients(
  databaseUrl: string,
  count: number,
): Promise<{ email: string; pid: number }[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const out: { email: string; pid: number }[] = [];
    for (let i = 1; i <= count; i++) {
      const email = `bench-uploader-${i}@bench.diacare.test`;
      const { rows } = await client.query<{ id: number }>(
        `INSERT INTO "User" (email, "passwordHash", identity, role, active, "updatedAt") SELECT $1, "passwordHash", 1, role, true, now() FROM "User" WHERE email = $2 RETURNING id`,
        [email, DEMO_ACCOUNTS.patient.email],
      );
      const patient = await client.query<{ id: number }>(
        `INSERT INTO "Patient" ("userId", "timeZone", "updatedAt") VALUES ($1, 'Europe/Warsaw', now()) RETURNING id`,
        [rows[0]!.id],
      );
      out.push({ email, pid: patient.rows[0]!.id });
    }
    return out;
  } finally {
    await client.end();
  }
}

/**
 * Loads `url` again and again in a worker thread (its own event loop, as the clinician's browser is
 * not the patients' browsers) until told to stop; answers each load's milliseconds.
 */
function pageReader(url: string, cookie: string): { stop: () => Promise<number[]> } {
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     const times = [];
     let reading = true;
     parentPort.on("message", () => (reading = false));
     (async () => {
       while (reading) {
         const t0 = performance.now();
         await (await fetch(workerData.url, { headers: { Cookie: workerData.cookie } })).text();
         times.push(performance.now() - t0);
       }
       parentPort.postMessage(times);
     })();`,
    { eval: true, workerData: { url, cookie } },
  );
  return {
    stop: () => {
      const times = new Promise<number[]>((resolve) => worker.once("message", resolve));
      worker.postMessage("stop");
      return times.finally(() => worker.terminate());
    },
  };
}

/** Ten patients' accounts uploading 30 days each at once, while the clinic reads a patient page. */
async function concurrentUploads(
  origin: string,
  cookie: string,
  pid: number,
  databaseUrl: string,
): Promise<BenchResult[]> {
  const page = `/patientShow/${pid}/0/patientHome`;
  const res = await fetch(origin + page, { headers: { Cookie: cookie }, redirect: "manual" });
  const url = origin + (res.headers.get("location") ?? page);
  const aloneReader = pageReader(url, cookie);
  await new Promise((resolve) => setTimeout(resolve, 4000));
  const alone = await aloneReader.stop();

  const apis = await Promise.all(
    (await benchPatients(databaseUrl, 10)).map(async (p) => ({
      pid: p.pid,
      api: apiOf(origin, await apiToken(origin, p.email, DEMO_ACCOUNTS.patient.password)),
    })),
  );
  const month = cgmRecords().slice(0, 8640);
  const reader = pageReader(url, cookie);
  const rounds: { wall: number; ok: number; slowest: number }[] = [];
  // Three rounds (each a new device per patient, so every round inserts) for a steadier p95.
  for (let round = 1; round <= ROUNDS; round++) {
    const t0 = performance.now();
    const results = await Promise.allSettled(
      apis.map(({ api, pid: own }, i) =>
        slicedUpload(api, own, "aidex", `CONC${round}-${i}`, month),
      ),
    );
    rounds.push({
      wall: performance.now() - t0,
      ok: results.filter((r) => r.status === "fulfilled").length,
      slowest: Math.max(
        ...results.map((r) => (r.status === "fulfilled" ? r.value.ms : Number.NaN)),
      ),
    });
  }
  const during = await reader.stop();
  const aloneP95 = percentile(alone, 95);
  const duringP95 = percentile(during, 95);
  return [
    {
      name: "10 uploads at once (30 days of CGM each)",
      ms: median(rounds.map((r) => r.wall)),
      detail: `median of ${ROUNDS} rounds (${rounds.map((r) => Math.round(r.wall)).join(", ")} ms); ${rounds.map((r) => `${r.ok}/10`).join(", ")} succeeded; slowest upload ${Math.round(Math.max(...rounds.map((r) => r.slowest)))} ms`,
    },
    {
      name: "patient page p95 alone / during the uploads",
      ms: duringP95,
      detail: `target: delayed by at most its own p95 (during <= ${Math.round(2 * aloneP95)} ms); alone p95 ${aloneP95.toFixed(0)} ms (median ${median(alone).toFixed(0)}, ${alone.length} loads); during: median ${median(during).toFixed(0)} ms over ${during.length} loads (the page is read from its own thread)`,
    },
  ];
}

/** `npm start` without DATABASE_URL: the embedded database in a fresh folder, seeded with the demo. */
export async function benchIngestEmbedded(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "diacare-bench-embedded-"));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(path.resolve("node_modules/.bin/tsx"), ["server/start.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      DEPLOY_ENV: "demo",
      SESSION_SECRET: "bench-session-secret-0123456789-abcdefghijklmnopqrstuvwxyz",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  try {
    const deadline = Date.now() + 180_000;
    while (
      !(await fetch(`${origin}/healthz`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`the embedded server did not start:\n${log.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const api = apiOf(
      origin,
      await apiToken(origin, DEMO_ACCOUNTS.patient.email, DEMO_ACCOUNTS.patient.password),
    );
    const info = (await api("/api/user/getUserInfo")).data as { pid: number };
    const node = descendants(child.pid!).findLast((p) => p.comm === "node")?.pid ?? child.pid!;
    return await uploadFigures(origin, node, info.pid, "embedded (PGlite)", 4000);
  } catch (error) {
    if (error instanceof Error) error.message += `\nThe server's last output:\n${log.slice(-3000)}`;
    throw error;
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
