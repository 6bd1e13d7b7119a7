/**
 * Load run of the production build (`npm start`) on PostgreSQL, with autocannon: 20 connections
 * for 60 s over the sign-in form, the patient's DAILY page (as the seeded clinic) and the 14-day
 * CGM report JSON (`POST /api/patient-data/sugarDevicePdf` with the clinic's API token); then a
 * burst of 20 concurrent 14-day CGM report PDFs from 10 accounts (2 each: PDFs are limited per
 * account). Prints p50/p95/p99 and the errors of each (a transport error, a timeout or an
 * unexpected status or body: sign-in must answer 302, the page 200 with its totals, the JSON 200
 * with envelope code 200, a PDF 200 application/pdf), and the resident memory of the server's
 * node process and of its Chromium processes before and after.
 *
 * Targets on the 2-core machine: no errors; DAILY page p95 < 500 ms; report JSON p95 < 800 ms;
 * node resident memory after the run < 800 MB.
 *
 * The server and its database: bench/server.ts. LOAD_SECONDS shortens the run (default 60).
 *
 * Plain tsx script: `npx tsx bench/load.bench.ts` prints the results; `benchLoad()` returns
 * them for bench/run.ts.
 */
import os from "node:os";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { Temporal } from "temporal-polyfill";
import { DEMO_TIME_ZONE } from "../prisma/demo-data";
import { descendants, readProc } from "../tests/support/proc";
import { isPdf } from "./pdf-pages";
import {
  clinicApiToken,
  readerSessions,
  seededPatient,
  signInForm,
  withBenchServer,
  type BenchServer,
} from "./server";
import { percentile, type BenchResult } from "./timing";

const DURATION_SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
/** 20 connections: sign-in, the DAILY page and the report JSON. */
const CONNECTIONS = { signIn: 4, page: 8, json: 8 } as const;
const PDF_ACCOUNTS = 10;
const PDF_BURST = 20;
/** One clinic behind one address signs in many times: the per-IP sign-in limit must not be the bottleneck measured. */
const SERVER_ENV = { RATE_LIMIT_SIGNIN_PER_IP: "1000000" };

interface Scenario {
  name: string;
  target: string;
  connections: number;
  request: autocannon.Request;
  /** Whether a response is the expected one. */
  expected: (status: number, body: string) => boolean;
}

interface Outcome {
  latencies: number[];
  errors: number;
  /** Why requests failed, with how many of each. */
  reasons: Map<string, number>;
}

function scenarios(server: BenchServer, pid: number, userId: number, token: string): Scenario[] {
  // The seed's data ends at today's midnight in its time zone: yesterday is the last full day.
  const end = Temporal.Now.plainDateISO(DEMO_TIME_ZONE).subtract({ days: 1 });
  const start = end.subtract({ days: 13 });
  return [
    {
      name: "sign-in (POST /login, argon2id)",
      target: "no target of its own",
      connections: CONNECTIONS.signIn,
      request: {
        method: "POST",
        path: "/login",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.origin },
        body: signInForm(),
      },
      expected: (status) => status === 302,
    },
    {
      name: "DAILY page (clinic's view of the patient)",
      target: "target p95 < 500 ms",
      connections: CONNECTIONS.page,
      request: {
        method: "GET",
        path: `/patientShow/${pid}/${userId}/patientHome?tab=daily&date=${end}`,
        headers: { cookie: server.cookie },
      },
      expected: (status, body) => status === 200 && body.includes('data-testid="daily-totals"'),
    },
    {
      name: "CGM report JSON (14 days)",
      target: "target p95 < 800 ms",
      connections: CONNECTIONS.json,
      request: {
        method: "POST",
        path: "/api/patient-data/sugarDevicePdf",
        headers: { "content-type": "application/json", token, origin: server.origin },
        body: JSON.stringify({ pid, start: String(start), end: String(end) }),
      },
      expected: (status, body) => status === 200 && envelopeCode(body) === 200,
    },
  ];
}

function envelopeCode(body: string): unknown {
  try {
    return (JSON.parse(body) as { code?: unknown }).code;
  } catch {
    return undefined;
  }
}

function countReason(outcome: Outcome, reason: string) {
  outcome.errors += 1;
  outcome.reasons.set(reason, (outcome.reasons.get(reason) ?? 0) + 1);
}

/** One autocannon instance for a scenario; every response's time and verdict is recorded. */
function load(server: BenchServer, scenario: Scenario): Promise<Outcome> {
  const outcome: Outcome = { latencies: [], errors: 0, reasons: new Map() };
  const request: autocannon.Request = {
    ...scenario.request,
    onResponse: (status, body) => {
      if (!scenario.expected(status, body))
        countReason(outcome, `HTTP ${status}${status === 200 ? " (unexpected body)" : ""}`);
    },
  };
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.origin,
        connections: scenario.connections,
        duration: DURATION_SECONDS,
        timeout: 30,
        requests: [request],
      },
      (error, result) => {
        if (error) return reject(error);
        if (result.errors > 0)
          countReason(outcome, `${result.errors} transport errors (${result.timeouts} time-outs)`);
        resolve(outcome);
      },
    );
    instance.on("response", (_client, _status, _bytes, ms) => outcome.latencies.push(ms));
  });
}

/** Resident memory of the server's node process and the sum over its Chromium processes (RSS and PSS). */
function memory(serverPid: number) {
  const chromium = descendants(serverPid, { pss: true }).filter(
    (p) => p.comm.startsWith("chrom") && p.state !== "Z",
  );
  const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
  return {
    nodeKb: readProc(serverPid, false)?.rssKb ?? 0,
    text: `node RSS ${mb(readProc(serverPid, false)?.rssKb ?? 0)}, Chromium ${chromium.length} processes RSS sum ${mb(chromium.reduce((n, p) => n + p.rssKb, 0))} (PSS ${mb(chromium.reduce((n, p) => n + p.pssKb, 0))})`,
  };
}

function summary(name: string, target: string, outcome: Outcome, extra = ""): BenchResult {
  const xs = outcome.latencies;
  const reasons = [...outcome.reasons].map(([reason, n]) => `${n}× ${reason}`).join(", ");
  return {
    name,
    ms: xs.length ? percentile(xs, 95) : Number.NaN,
    detail:
      `p95 shown; ${target}; ${xs.length} responses, p50 ${percentile(xs, 50).toFixed(0)} / p95 ${percentile(xs, 95).toFixed(0)} / p99 ${percentile(xs, 99).toFixed(0)} ms, ` +
      `errors ${outcome.errors}${reasons ? ` (${reasons})` : ""}${extra}`,
  };
}

/** 20 PDFs at once, two per account; each response timed and checked. */
async function pdfBurst(
  server: BenchServer,
  pid: number,
  cookies: readonly string[],
): Promise<Outcome> {
  const end = Temporal.Now.plainDateISO(DEMO_TIME_ZONE).subtract({ days: 1 });
  const path = `/${pid}/cgmsprint.pdf?${new URLSearchParams({ start: String(end.subtract({ days: 13 })), end: String(end) })}`;
  const outcome: Outcome = { latencies: [], errors: 0, reasons: new Map() };
  await Promise.all(
    Array.from({ length: PDF_BURST }, async (_, i) => {
      const t0 = performance.now();
      try {
        const res = await fetch(server.origin + path, {
          headers: { cookie: cookies[i % cookies.length]! },
          redirect: "manual",
        });
        const body = new Uint8Array(await res.arrayBuffer());
        outcome.latencies.push(performance.now() - t0);
        if (res.status !== 200 || !isPdf(body))
          countReason(
            outcome,
            `HTTP ${res.status}: ${Buffer.from(body.subarray(0, 120)).toString("utf8")}`,
          );
      } catch (error) {
        countReason(outcome, String(error));
      }
    }),
  );
  return outcome;
}

/** Runs the load run; returns the p95 milliseconds of each kind of request. */
export function benchLoad(): Promise<BenchResult[]> {
  const loadAtStart = os.loadavg();
  return withBenchServer(
    "load",
    async (server) => {
      const { pid, userId } = await seededPatient(server.databaseUrl);
      const token = await clinicApiToken(server.origin);
      const readers = await readerSessions(server, PDF_ACCOUNTS);
      const before = memory(server.serverPid);
      const cases = scenarios(server, pid, userId, token);
      const outcomes = await Promise.all(cases.map((scenario) => load(server, scenario)));
      const afterLoad = memory(server.serverPid);
      const burst = await pdfBurst(server, pid, readers);
      const after = memory(server.serverPid);
      const results = cases.map((scenario, i) =>
        summary(
          `load: ${scenario.name}, ${scenario.connections} conn.`,
          scenario.target,
          outcomes[i]!,
        ),
      );
      results.push(
        summary(
          `load: ${PDF_BURST} CGM report PDFs at once, ${PDF_ACCOUNTS} accounts`,
          "target: no errors",
          burst,
        ),
      );
      const total = [...outcomes, burst].reduce((n, o) => n + o.errors, 0);
      results.push({
        name: "load: node resident memory after the run",
        ms: Number.NaN,
        detail:
          `target < 800 MB; errors in all ${total}; before: ${before.text}; after the ${DURATION_SECONDS} s run: ${afterLoad.text}; after the PDFs: ${after.text}; ` +
          `${os.cpus().length} cores, load average (1/5/15 min) ${loadAtStart.map((l) => l.toFixed(1)).join("/")} at the start, ${os
            .loadavg()
            .map((l) => l.toFixed(1))
            .join("/")} at the end`,
      });
      return results;
    },
    SERVER_ENV,
  );
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  for (const r of await benchLoad()) {
    console.log(
      `${r.name}: ${Number.isNaN(r.ms) ? "" : `${r.ms.toFixed(0)} ms`}${r.detail ? `  (${r.detail})` : ""}`,
    );
  }
}
