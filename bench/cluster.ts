/**
 * `npm run bench:cluster`: faults under a steady load on the topology of `npm run cluster`.
 * autocannon keeps 20 connections busy through HAProxy with a signed-in demo patient's requests
 * (the session check `GET /api/user/getUserInfo`, the CGM list `GET /api/cgms/cgm-record/findList`,
 * a lag-tolerant read from the standby, and the DAILY page), while, one after the other:
 *
 * - nothing happens (the baseline);
 * - a rolling restart: each app server in turn gets SIGTERM, drains, and is started again;
 * - one app server is killed with SIGKILL and started again;
 * - the standby is stopped for 10 s and started again;
 * - the PDF worker is killed (SIGKILL) mid-render and started again: the waiting PDF request's
 *   job is retried by the new worker and the PDF arrives.
 *
 * Each phase prints its requests, errors (a transport error, a time-out or an answer other than
 * 200) and p50/p95 latency. Targets: no error in the rolling restart and with the standby stopped;
 * the SIGKILL costs at most the requests in flight on the killed server (20 connections at most).
 * Run by scripts/bench-cluster.sh, which exports the state file's values.
 */
import autocannon from "autocannon";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pgCtl } from "../tests/support/pg-ctl";

const need = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run npm run bench:cluster`);
  return value;
};
const balancer = need("CLUSTER_URL");
const CONNECTIONS = 20;
const BASELINE_SECONDS = Number(process.env.BENCH_CLUSTER_BASELINE_SECONDS ?? 10);

interface Outcome {
  latencies: number[];
  errors: number;
  reasons: Map<string, number>;
}

function count(outcome: Outcome, reason: string, n = 1) {
  outcome.errors += n;
  outcome.reasons.set(reason, (outcome.reasons.get(reason) ?? 0) + n);
}

async function signIn(): Promise<string> {
  const response = await fetch(`${balancer}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: balancer },
    body: new URLSearchParams({
      email: "patient@demo.diacare.test",
      password: "demo-patient-1",
      identity: "1",
      redirectTo: "",
    }).toString(),
  });
  if (response.status !== 302) throw new Error(`sign-in answered ${response.status}`);
  // Without the read-from-primary cookie: the lag-tolerant reads go to the standby.
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";", 1)[0]!)
    .filter((c) => c.startsWith("__session="))
    .join("; ");
}

/** The signed-in person's home (their DAILY page), where `/` sends them, and its patient id. */
async function homePath(cookie: string): Promise<{ pid: number; home: string }> {
  const response = await fetch(`${balancer}/`, { headers: { Cookie: cookie }, redirect: "manual" });
  const home = new URL(response.headers.get("location") ?? "/", balancer).pathname;
  const pid = Number(/patientShow\/(\d+)\//.exec(home)?.[1]);
  if (!pid) throw new Error(`no patient home for the demo patient (/ went to ${home})`);
  return { pid, home };
}

/** Runs the load until `during` has finished (at least `minSeconds`), recording every answer. */
async function underLoad(
  cookie: string,
  paths: string[],
  during: () => Promise<void>,
  minSeconds = 0,
): Promise<Outcome> {
  const outcome: Outcome = { latencies: [], errors: 0, reasons: new Map() };
  const requests: autocannon.Request[] = paths.map((p) => ({
    method: "GET",
    path: p,
    headers: { Cookie: cookie },
    onResponse: (status: number) => {
      if (status !== 200) count(outcome, `HTTP ${status}`);
    },
  }));
  let instance: autocannon.Instance | undefined;
  const finished = new Promise<void>((resolve, reject) => {
    instance = autocannon(
      { url: balancer, connections: CONNECTIONS, duration: 600, timeout: 30, requests },
      (error, result) => {
        if (error) return reject(error);
        if (result.errors > 0)
          count(outcome, `transport errors (${result.timeouts} time-outs)`, result.errors);
        resolve();
      },
    );
    instance.on("response", (_client, _status, _bytes, ms) => outcome.latencies.push(ms));
  });
  const started = Date.now();
  await new Promise((r) => setTimeout(r, 2_000));
  await during();
  const left = minSeconds * 1000 - (Date.now() - started);
  if (left > 0) await new Promise((r) => setTimeout(r, left));
  // A few seconds of load after the fault, to catch what it left behind.
  await new Promise((r) => setTimeout(r, 3_000));
  instance!.stop();
  await finished;
  return outcome;
}

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const cluster = (...args: string[]) =>
  execFileSync("bash", ["scripts/cluster.sh", ...args], { stdio: ["ignore", "ignore", "inherit"] });

/** App server `i`'s pid now (the state file is rewritten when a server is restarted). */
function appPid(i: number): number {
  const state = execFileSync("bash", ["scripts/cluster.sh", "state-file"]).toString().trim();
  const pids = /^APP_PIDS="([\d ]+)"/m.exec(readFileSync(state, "utf8"))?.[1];
  const pid = Number(pids?.split(" ")[i]);
  if (!pid) throw new Error(`no pid of app server ${i} in ${state}`);
  return pid;
}

/** The PDF worker's pid now (a restarted worker has a new one). */
function workerPid(): number {
  const state = execFileSync("bash", ["scripts/cluster.sh", "state-file"]).toString().trim();
  const pid = Number(/^WORKER_PID=(\d+)$/m.exec(readFileSync(state, "utf8"))?.[1]);
  if (!pid) throw new Error(`no pid of the PDF worker in ${state}`);
  return pid;
}

/** How many renders the PDF worker's log says were started so far. */
function workerStarts(): number {
  const log = path.join(need("LOGS"), "worker-0.log");
  return readFileSync(log, "utf8").split('"msg":"pdf started"').length - 1;
}

/**
 * Asks for a PDF, kills the PDF worker (its process group) once it has started that render, starts
 * a new worker, and waits for the PDF: its job is retried by the new worker.
 */
async function pdfThroughWorkerKill(cookie: string, pdfPath: string) {
  const startsBefore = workerStarts();
  const asked = Date.now();
  const answer = fetch(`${balancer}${pdfPath}`, { headers: { Cookie: cookie } }).then(
    async (response) => ({
      status: response.status,
      bytes: new Uint8Array(await response.arrayBuffer()),
    }),
  );
  for (let i = 0; i < 750 && workerStarts() === startsBefore; i++)
    await new Promise((r) => setTimeout(r, 20));
  if (workerStarts() === startsBefore) throw new Error("the PDF worker did not start the render");
  process.kill(-workerPid(), "SIGKILL");
  cluster("start-worker", "0");
  const { status, bytes } = await answer;
  const pdf = Buffer.from(bytes.subarray(0, 5)).toString() === "%PDF-";
  return { status, pdf, ms: Date.now() - asked };
}

async function main() {
  const cookie = await signIn();
  const { pid, home } = await homePath(cookie);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const paths = [
    "/api/user/getUserInfo",
    `/api/cgms/cgm-record/findList?pid=${pid}&start=${yesterday}&end=${yesterday}`,
    home,
  ];
  const rows: { phase: string; target: string; outcome: Outcome; seconds: number }[] = [];
  const phase = async (name: string, target: string, fault: () => Promise<void>, min = 0) => {
    const started = Date.now();
    console.log(`- ${name}...`);
    const outcome = await underLoad(cookie, paths, fault, min);
    rows.push({ phase: name, target, outcome, seconds: (Date.now() - started) / 1000 });
  };

  await phase("baseline", "no errors", async () => {}, BASELINE_SECONDS);
  await phase(
    "rolling restart (SIGTERM, drain, start; one server at a time)",
    "0 errors",
    async () => {
      cluster("restart-app", "0");
      cluster("restart-app", "1");
    },
  );
  await phase("SIGKILL one app server, start it again", "≤ in-flight (20)", async () => {
    // The server's process group: tsx, node and its Chromium.
    process.kill(-appPid(0), "SIGKILL");
    await new Promise((r) => setTimeout(r, 3_000));
    cluster("restart-app", "0");
  });
  await phase("standby stopped for 10 s, started again", "0 errors", async () => {
    const data = need("STANDBY_DATA");
    pgCtl(["-D", data, "-m", "fast", "-w", "stop"]);
    await new Promise((r) => setTimeout(r, 10_000));
    pgCtl(["-D", data, "-l", path.join(path.dirname(data), "standby.log"), "-w", "start"]);
  });

  let killed = { status: 0, pdf: false, ms: 0 };
  await phase(
    "PDF worker killed (SIGKILL) mid-render, started again",
    "0 errors; the PDF arrives",
    async () => {
      // A fresh worker: its first render launches Chromium, so the kill lands mid-render.
      cluster("restart-worker", "0");
      killed = await pdfThroughWorkerKill(
        cookie,
        `/${pid}/statisticsprint.pdf?start=${yesterday}&end=${yesterday}`,
      );
    },
  );

  console.log(
    `\nPDF whose worker was killed mid-render: HTTP ${killed.status}, ${killed.pdf ? "a PDF" : "no PDF"}, after ${killed.ms} ms`,
  );
  console.log("\n| phase | target | seconds | requests | errors | p50 ms | p95 ms |");
  console.log("|---|---|---|---|---|---|---|");
  for (const { phase: name, target, outcome, seconds } of rows) {
    const xs = outcome.latencies;
    const reasons = [...outcome.reasons].map(([r, n]) => `${n}× ${r}`).join(", ");
    console.log(
      `| ${name} | ${target} | ${seconds.toFixed(0)} | ${xs.length} | ${outcome.errors}${reasons ? ` (${reasons})` : ""} | ${percentile(xs, 50).toFixed(0)} | ${percentile(xs, 95).toFixed(0)} |`,
    );
  }
}

await main();
