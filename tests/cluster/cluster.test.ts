// The topology of `npm run cluster`, end to end: HAProxy in front of two app servers that share
// nothing but PostgreSQL (through PgBouncer), with lag-tolerant reads on the streaming standby.
// Requests go through HAProxy or straight to one app server, to show that whatever one server
// did the other one knows. Run by scripts/test-cluster.sh, which exports the state file's values.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfJobTransport } from "~/jobs/pdf-render.server";
import { createPrismaClient } from "~/utils/db.server";
import { PDF_RENDER_QUEUE, pdfJobOf } from "~/utils/pdf-job.server";
import { hashPassword } from "~/utils/password.server";
import { pgCtl } from "../support/pg-ctl";
import { descendants } from "../support/proc";

const need = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this suite with npm run test:cluster`);
  return value;
};
const balancer = need("CLUSTER_URL");
const [one, two] = need("APP_URLS").split(" ") as [string, string];
const primary = createPrismaClient(need("PRIMARY_URL"), 2);
let standby = new pg.Client({ connectionString: need("STANDBY_URL") });

// Every request of this run comes from one made-up client address (the app servers trust one
// proxy hop), so the per-address sign-in limits of earlier runs do not carry over.
const clientIp = `10.${rnd()}.${rnd()}.${rnd()}`;
function rnd() {
  return Math.floor(Math.random() * 250) + 1;
}

const PASSWORD = "cluster-test-password-1";
const run = `${Date.now()}-${rnd()}`;
let email: string;
let pid: number;
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  await standby.connect();
  email = `cluster-${run}@test.diacare.test`;
  const user = await primary.user.create({
    data: {
      email,
      passwordHash: await hashPassword(PASSWORD),
      identity: 1,
      patient: { create: { timeZone: "UTC" } },
    },
    include: { patient: true },
  });
  pid = user.patient!.id;
});

afterAll(async () => {
  await standby.end();
  await primary.$disconnect();
});

type Jar = Map<string, string>;

/** A request as a browser of `jar` makes it (cookies sent and kept), from this run's address. */
async function send(
  base: string,
  path: string,
  {
    method = "GET",
    jar,
    form,
    json,
  }: { method?: string; jar?: Jar; form?: object; json?: object } = {},
) {
  const headers: Record<string, string> = { "X-Forwarded-For": clientIp };
  if (jar?.size) headers.Cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  let body: string | undefined;
  if (form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(form as Record<string, string>).toString();
  } else if (json) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(json);
  }
  if (method !== "GET") headers.Origin = base;
  const response = await fetch(`${base}${path}`, { method, headers, body, redirect: "manual" });
  for (const cookie of response.headers.getSetCookie()) {
    const [pair = "", ...attributes] = cookie.split(";");
    const [name = "", value = ""] = pair.split("=");
    const expired = attributes.some((a) => /max-age=0\b|expires=thu, 01 jan 1970/i.test(a.trim()));
    if (jar) {
      if (expired || value === "") jar.delete(name.trim());
      else jar.set(name.trim(), value);
    }
  }
  return response;
}

async function signIn(base: string): Promise<Jar> {
  const jar: Jar = new Map();
  const answer = await send(base, "/login", {
    method: "POST",
    jar,
    form: { email, password: PASSWORD, identity: "1", redirectTo: "" },
  });
  expect(answer.status).toBe(302);
  expect(jar.has("__session")).toBe(true);
  return jar;
}

const api = async (response: Response) =>
  (await response.json()) as { code: number; msg: string; data: unknown };

/** The standby's clock now: a later query there started after this. */
async function standbyNow(): Promise<Date> {
  return (await standby.query<{ now: Date }>("SELECT now()")).rows[0]!.now;
}

/** Client queries that ran on the standby since `since` and read CGM records. */
async function standbyCgmReadsSince(since: Date): Promise<number> {
  const { rows } = await standby.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()
        AND query_start >= $1 AND query ILIKE '%"CgmRecord"%'`,
    [since],
  );
  return rows[0]!.n;
}

function cgmRecords(from: number, count: number) {
  return Array.from({ length: count }, (_, i) => {
    const minutes = (from + i) * 5;
    const clock = `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}:00`;
    return {
      eventIndex: from + i,
      eventType: 7,
      eventData: 60 + i,
      deviceTime: `${yesterday} ${clock}`,
    };
  });
}

const cluster = (...args: string[]) =>
  execFileSync("bash", ["scripts/cluster.sh", ...args], { stdio: ["ignore", "ignore", "inherit"] });

/** A value of the state file now (a restarted worker or server has a new pid). */
function stateValue(name: string): string {
  const file = execFileSync("bash", ["scripts/cluster.sh", "state-file"]).toString().trim();
  const match = new RegExp(`^${name}="?([^"\n]*)"?$`, "m").exec(readFileSync(file, "utf8"));
  if (!match) throw new Error(`no ${name} in ${file}`);
  return match[1]!;
}

type WorkerLine = { msg: string; jobId?: string; path?: string; worker?: string };

/** PDF worker `i`'s log lines (JSON), from every worker that ran as number `i`. */
function workerLog(i: number): WorkerLine[] {
  let text: string;
  try {
    text = readFileSync(path.join(need("LOGS"), `worker-${i}.log`), "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as WorkerLine);
}

/**
 * Asks for a PDF through HAProxy and waits until worker 0 logs that it started rendering it:
 * the pending answer and the job's id.
 */
async function pdfStartedOnWorker(): Promise<{ answer: Promise<Response>; jobId: string }> {
  const jar = await signIn(balancer);
  const seen = workerLog(0).length;
  const answer = send(balancer, `/${pid}/statisticsprint.pdf?start=${yesterday}&end=${yesterday}`, {
    jar,
  });
  let started: WorkerLine | undefined;
  for (let i = 0; i < 600 && !started; i++) {
    started = workerLog(0)
      .slice(seen)
      .find((line) => line.msg === "pdf started");
    if (!started) await sleep(20);
  }
  expect(started?.jobId).toBeTruthy();
  return { answer, jobId: started!.jobId! };
}

/** Page count by pdfinfo (poppler-utils); throws when the bytes are not a PDF it can read. */
function pdfPages(bytes: Uint8Array): number {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cluster-pdf-"));
  try {
    const file = path.join(dir, "out.pdf");
    writeFileSync(file, bytes);
    const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
    return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Chromium processes under an app server (its tsx, node and their children). */
function appChromiums(): string[] {
  return stateValue("APP_PIDS")
    .split(" ")
    .flatMap((pid) => descendants(Number(pid)))
    .filter((p) => /chrom/i.test(p.comm))
    .map((p) => `${p.pid} ${p.comm}`);
}

async function pdfJobRows(): Promise<number> {
  const rows = await primary.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${PDF_RENDER_QUEUE}`;
  return rows[0]!.n;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the cluster", () => {
  it("answers through HAProxy with both app servers ready", async () => {
    for (const base of [balancer, one, two]) {
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: "ready" });
    }
    const standbyState = await standby.query("SELECT pg_is_in_recovery() AS standby");
    expect(standbyState.rows[0].standby).toBe(true);
  });

  it("keeps a session made on one server valid on the other, and ends it everywhere on sign-out", async () => {
    const jar = await signIn(one);
    const me = async (base: string) =>
      (await api(await send(base, "/api/user/getUserInfo", { jar }))).code;
    expect([await me(two), await me(balancer), await me(one)]).toEqual([200, 200, 200]);
    const out = await send(two, "/logout", { method: "POST", jar: new Map(jar), form: {} });
    expect(out.status).toBe(302);
    // The old cookie is refused by both servers ("Please sign in").
    expect([await me(one), await me(two)]).toEqual([800, 800]);
  });

  it("counts failed sign-ins across both servers", async () => {
    const wrong = { email, password: "not-the-password", identity: "1", redirectTo: "" };
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const base = i % 2 === 0 ? one : two;
      statuses.push((await send(base, "/login", { method: "POST", form: wrong })).status);
    }
    // Five failures per account and address, three on each server: the sixth is refused.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const refused = await send(one, "/login", {
      method: "POST",
      form: { ...wrong, password: PASSWORD },
    });
    expect(refused.status).toBe(429);
    await primary.rateLimit.deleteMany({ where: { key: { contains: email } } });
  });

  it("completes once an upload whose slices went to both servers", async () => {
    const jar = await signIn(one);
    const opened = await api(
      await send(one, "/api/patient-data/getSliceId", {
        method: "POST",
        jar,
        json: { pid, deviceKind: "aidex", deviceSn: `CL${rnd()}`, total: 100, timeZone: "UTC" },
      }),
    );
    expect(opened.code).toBe(200);
    const sliceId = opened.data as number;
    for (let index = 0; index < 4; index++) {
      const base = index % 2 === 0 ? one : two;
      const saved = await api(
        await send(base, "/api/patient-data/sliceSave", {
          method: "POST",
          jar,
          json: { sliceId, index, dataList: cgmRecords(index * 25, 25) },
        }),
      );
      expect(saved).toMatchObject({ code: 200, data: { index, received: (index + 1) * 25 } });
    }
    // Completed on both servers: the second answers the same and queues nothing more.
    for (const base of [two, one]) {
      const done = await api(
        await send(base, "/api/patient-data/completeSliceTask", {
          method: "POST",
          jar,
          json: { sliceId, isSuccess: true },
        }),
      );
      expect(done.code).toBe(200);
    }
    let summary: unknown = false;
    for (let i = 0; i < 120 && summary === false; i++) {
      const base = i % 2 === 0 ? one : two;
      summary = (
        await api(await send(base, `/api/patient-data/checkSave?sliceId=${sliceId}`, { jar }))
      ).data;
      if (summary === false) await new Promise((r) => setTimeout(r, 250));
    }
    expect(summary).toMatchObject({ status: "done", inserted: 100, duplicates: 0 });
    expect(await primary.cgmRecord.count({ where: { patientId: pid } })).toBe(100);
  });

  it("completes an upload written early on one server and completed on the other", async () => {
    const jar = await signIn(one);
    const start = Date.parse(`${yesterday}T00:00:00Z`) - 11 * 86_400_000;
    const records = Array.from({ length: 3000 }, (_, i) => ({
      eventIndex: i + 1,
      eventType: 7,
      eventData: 60 + (i % 50),
      deviceTime: new Date(start + i * 300_000).toISOString().replace("T", " ").slice(0, 19),
    }));
    const deviceSn = `CE${rnd()}`;
    const opened = await api(
      await send(one, "/api/patient-data/getSliceId", {
        method: "POST",
        jar,
        json: { pid, deviceKind: "aidex", deviceSn, total: records.length, timeZone: "UTC" },
      }),
    );
    const sliceId = opened.data as number;
    for (let index = 0; index < 3; index++) {
      const saved = await api(
        await send(one, "/api/patient-data/sliceSave", {
          method: "POST",
          jar,
          json: { sliceId, index, dataList: records.slice(index * 1000, (index + 1) * 1000) },
        }),
      );
      expect(saved).toMatchObject({ code: 200, data: { index } });
    }
    // The first server's early writer holds the task's turn in its open transaction.
    const held = await primary.$queryRaw<{ held: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
        AND classid = hashtext('upload-task')::oid AND objid = ${sliceId}::oid) AS held`;
    expect(held[0]!.held).toBe(true);
    expect(await primary.cgmRecord.count({ where: { patientId: pid, deviceSn } })).toBe(0);
    const done = await api(
      await send(two, "/api/patient-data/completeSliceTask", {
        method: "POST",
        jar,
        json: { sliceId, isSuccess: true },
      }),
    );
    expect(done.code).toBe(200);
    let summary: unknown = false;
    for (let i = 0; i < 80 && summary === false; i++) {
      summary = (
        await api(await send(two, `/api/patient-data/checkSave?sliceId=${sliceId}`, { jar }))
      ).data;
      if (summary === false) await new Promise((r) => setTimeout(r, 250));
    }
    expect(summary).toMatchObject({ status: "done", inserted: 3000, duplicates: 0 });
    expect(await primary.cgmRecord.count({ where: { patientId: pid, deviceSn } })).toBe(3000);
  });

  it("reads reports from the standby, and a reader who just wrote from the primary", async () => {
    const jar = await signIn(one);
    // Signing in wrote: this reader starts without the read-from-primary cookie to show the standby.
    jar.delete("dc_primary");
    const list = `/api/cgms/cgm-record/findList?pid=${pid}&start=${yesterday}&end=${yesterday}`;

    const beforeRead = await standbyNow();
    const lagTolerant = await api(await send(two, list, { jar }));
    expect(lagTolerant).toMatchObject({ code: 200, data: { count: 100 } });
    expect(await standbyCgmReadsSince(beforeRead)).toBeGreaterThan(0);

    // A write on one server: its answer keeps this reader on the primary for a few seconds.
    const wrote = await send(one, "/api/patient-data/saveCgmsData", {
      method: "POST",
      jar,
      json: { pid, deviceSn: `CW${rnd()}`, timeZone: "UTC", dataList: cgmRecords(200, 10) },
    });
    expect(wrote.headers.getSetCookie().join()).toMatch(/dc_primary=1; Max-Age=10/);
    expect(await api(wrote)).toMatchObject({ code: 200, data: { inserted: 10 } });
    const beforeOwnRead = await standbyNow();
    const own = await api(await send(two, list, { jar }));
    expect(own).toMatchObject({ code: 200, data: { count: 110 } });
    expect(await standbyCgmReadsSince(beforeOwnRead)).toBe(0);
  });

  it("counts an account's PDFs in flight across both servers", async () => {
    const jar = await signIn(one);
    const pdf = `/${pid}/statisticsprint.pdf?start=${yesterday}&end=${yesterday}`;
    const answers = await Promise.all([one, two, one, two].map((base) => send(base, pdf, { jar })));
    const statuses = answers.map((a) => a.status).sort();
    // Two renders per account at once: without the shared count each server would take two.
    expect(statuses).toEqual([200, 200, 429, 429]);
    for (const answer of answers) {
      if (answer.status === 200) expect(answer.headers.get("content-type")).toBe("application/pdf");
      else expect(answer.headers.get("retry-after")).toBeTruthy();
    }
  });

  it("renders a PDF asked for through HAProxy on the PDF worker, not on an app server", async () => {
    const jar = await signIn(balancer);
    const seen = workerLog(0).length;
    const answer = await send(
      balancer,
      `/${pid}/statisticsprint.pdf?start=${yesterday}&end=${yesterday}`,
      { jar },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await answer.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe("%PDF-");
    expect(pdfPages(bytes)).toBeGreaterThanOrEqual(1);
    // The worker's log names the render, and the app servers run no Chromium at all.
    const rendered = workerLog(0)
      .slice(seen)
      .filter(
        (line) => line.msg === "pdf rendered" && line.path?.startsWith(`/${pid}/statisticsprint?`),
      );
    expect(rendered).toHaveLength(1);
    expect(appChromiums()).toEqual([]);
    // Nothing of the render stays in the database: no job (its sealed cookies), no outcome.
    expect(await pdfJobRows()).toBe(0);
    expect(await primary.pdfResult.count()).toBe(0);
  });

  it("runs each queued job exactly once with two PDF workers", async () => {
    cluster("start-worker", "1");
    const boss = new PgBoss({ connectionString: need("PRIMARY_URL"), schema: "pgboss", max: 2 });
    boss.on("error", () => {});
    await boss.start();
    const ids: string[] = [];
    try {
      const transport = pdfJobTransport(() => boss, 30_000);
      const page = new URL(`${balancer}/supports/terms?print=1`);
      const deadline = Date.now() + 30_000;
      for (let i = 0; i < 24; i++) {
        ids.push(
          await transport.send(pdfJobOf({ url: page.href }, page, deadline, "unused: no cookies")),
        );
      }
      let done = 0;
      for (let i = 0; i < 120 && done < ids.length; i++) {
        await sleep(250);
        done = await primary.pdfResult.count({ where: { jobId: { in: ids } } });
      }
      const results = await primary.pdfResult.findMany({ where: { jobId: { in: ids } } });
      expect(results).toHaveLength(ids.length);
      for (const result of results)
        expect(Buffer.from(result.pdf!.subarray(0, 5)).toString()).toBe("%PDF-");
      const lines = [...workerLog(0), ...workerLog(1)];
      for (const id of ids) {
        const of = lines.filter((line) => line.jobId === id);
        expect(of.filter((line) => line.msg === "pdf started")).toHaveLength(1);
        expect(of.filter((line) => line.msg === "pdf rendered")).toHaveLength(1);
      }
      // Both workers took jobs: the queue handed each job to one of two competing workers.
      const byWorker = new Set(results.map((result) => result.workerId));
      expect(byWorker.size).toBe(2);
    } finally {
      if (ids.length > 0) await boss.deleteJob(PDF_RENDER_QUEUE, ids);
      await primary.pdfResult.deleteMany({ where: { jobId: { in: ids } } });
      await boss.stop({ graceful: false, wait: true });
      cluster("stop-worker", "1");
    }
  });

  it("delivers a PDF whose worker was killed (SIGKILL) mid-render, once the job is retried", async () => {
    // A fresh worker: its first render launches Chromium, which leaves time to kill it mid-render.
    cluster("restart-worker", "0");
    const asked = Date.now();
    const { answer, jobId } = await pdfStartedOnWorker();
    process.kill(-Number(stateValue("WORKER_PID")), "SIGKILL");
    // Killed before its render ended: no outcome was logged or stored by that worker.
    const before = workerLog(0)
      .filter((line) => line.jobId === jobId)
      .map((line) => line.msg);
    expect(before).toEqual(["pdf started"]);
    cluster("start-worker", "0");
    const response = await answer;
    const tookMs = Date.now() - asked;
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe("%PDF-");
    expect(pdfPages(bytes)).toBeGreaterThanOrEqual(1);
    // Started by the killed worker and again by the new one, rendered once.
    const of = workerLog(0).filter((line) => line.jobId === jobId);
    const starts = of.filter((line) => line.msg === "pdf started");
    expect(starts).toHaveLength(2);
    expect(new Set(starts.map((line) => line.worker)).size).toBe(2);
    expect(of.filter((line) => line.msg === "pdf rendered")).toHaveLength(1);
    console.log(`the PDF whose worker was killed arrived after ${tookMs} ms`);
  });

  it("lets a PDF worker stopped with SIGTERM finish the render under way before it exits", async () => {
    cluster("restart-worker", "0");
    const seen = workerLog(0).length;
    const { answer, jobId: startedJob } = await pdfStartedOnWorker();
    // SIGTERM, and wait until the worker has exited.
    cluster("stop-worker", "0");
    const after = workerLog(0)
      .slice(seen)
      .map((line) => (line.jobId === startedJob ? `${line.msg} (job)` : line.msg));
    expect(after.indexOf("pdf rendered (job)")).toBeGreaterThan(-1);
    expect(after.indexOf("pdf rendered (job)")).toBeLessThan(after.indexOf("pdf worker stopped"));
    const response = await answer;
    cluster("start-worker", "0");
    expect(response.status).toBe(200);
    expect(
      Buffer.from(new Uint8Array(await response.arrayBuffer()).subarray(0, 5)).toString(),
    ).toBe("%PDF-");
  });

  it("reads from the primary while the standby is stopped, and from the standby again once it is back", async () => {
    const jar = await signIn(one);
    jar.delete("dc_primary");
    const list = `/api/cgms/cgm-record/findList?pid=${pid}&start=${yesterday}&end=${yesterday}`;
    const data = need("STANDBY_DATA");
    await standby.end();
    pgCtl(["-D", data, "-m", "fast", "-w", "stop"]);
    try {
      const took: number[] = [];
      for (const base of [one, two, balancer, one]) {
        const started = Date.now();
        expect(await api(await send(base, list, { jar }))).toMatchObject({
          code: 200,
          data: { count: 110 },
        });
        took.push(Date.now() - started);
      }
      console.log(`reads with the standby stopped took ${took.join(", ")} ms`);
      // At most the standby pooler's wait for its server (3 s) and the reading itself.
      for (const ms of took) expect(ms).toBeLessThan(8_000);
    } finally {
      pgCtl(["-D", data, "-l", path.join(path.dirname(data), "standby.log"), "-w", "start"]);
      standby = new pg.Client({ connectionString: need("STANDBY_URL") });
      await standby.connect();
    }
    // After the pause (5 s) the servers try the standby again, and it answers.
    const since = await standbyNow();
    let onStandby = 0;
    for (let i = 0; i < 30 && onStandby === 0; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      for (const base of [one, two])
        expect(await api(await send(base, list, { jar }))).toMatchObject({ code: 200 });
      onStandby = await standbyCgmReadsSince(since);
    }
    expect(onStandby).toBeGreaterThan(0);
  });
});
