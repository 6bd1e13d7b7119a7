/**
 * Benchmark of the report PDF routes on the production server and PostgreSQL, signed in as the
 * seeded clinic: GET /{pid}/cgmsprint.pdf and /{pid}/agpprint.pdf over the last 14 days with CGM
 * data, GET /{pid}/print.pdf over 90 days, and bursts of 20 concurrent CGM and AGP PDFs while the
 * memory of the server and its Chromium is sampled from /proc.
 *
 * Targets (README "Benchmarks"): 14-day CGM report PDF median < 800 ms with a warm browser; 90-day
 * pump report PDF < 2.5 s; 20 concurrent PDF requests all succeed (no crash, no zombie Chromium)
 * with memory bounded. The seed has 30 days of data; this benchmark adds 60 earlier days of pump
 * history and meter readings (prisma/demo-data.ts) so that the pump report has 90 days to print.
 *
 * The server runs with the app's PDF settings (PDF_CONCURRENCY, PDF_TIMEOUT_MS from the
 * environment, else their defaults); bench/server.ts starts it.
 *
 * Plain tsx script: `npx tsx bench/report-pdf.bench.ts` prints the results; `benchReportPdfs()`
 * returns them for bench/run.ts.
 */
import os from "node:os";
import { pathToFileURL } from "node:url";
import { Temporal } from "temporal-polyfill";
import {
  buildDemoData,
  DEMO_DAYS,
  DEMO_TIME_ZONE,
  METER_SERIAL,
  meterUploadRecords,
  PUMP_SERIAL,
  pumpUploadRecords,
} from "../prisma/demo-data";
import { DEMO_PUMP_FIRMWARE } from "../prisma/seed";
import { ingestNow } from "../app/services/ingest.server";
import { db } from "../app/utils/db.server";
import { descendants, eventually, readProc, type ProcInfo } from "../tests/support/proc";
import { isPdf, pdfPageCount } from "./pdf-pages";
import { readerSessions, seededPatient, withBenchServer, type BenchServer } from "./server";
import { median, percentile, type BenchResult } from "./timing";

const CGM_WARMUP = 3;
const CGM_RUNS = 15;
const PUMP_WARMUP = 1;
const PUMP_RUNS = 5;
const BURST = 20;
const HTML_RUNS = 5;
const PUMP_DAYS = 90;
const SAMPLE_EVERY_MS = 100;
/** PSS (smaps_rollup walks every mapping: slow) on every n-th memory sample only. */
const PSS_EVERY = 10;

interface PdfCase {
  name: string;
  path: string;
  /** The page Chromium prints (`print=1`), timed alone to show the server's share. */
  htmlPath: string;
  /** Plausible page counts, both ends included. */
  pages: readonly [number, number];
}

interface Fetched {
  ms: number;
  status: number;
  contentType: string;
  body: Uint8Array;
}

interface Checked {
  ms: number;
  pages: number;
  bytes: number;
  /** Why the response is not the expected PDF, or null. */
  problem: string | null;
}

function reportCases(pid: number) {
  // The seed's data ends at today's midnight in its time zone: yesterday is the last full day.
  const end = Temporal.Now.plainDateISO(DEMO_TIME_ZONE).subtract({ days: 1 });
  const range = (days: number) => ({
    start: String(end.subtract({ days: days - 1 })),
    end: String(end),
  });
  const report = (
    name: string,
    page: string,
    days: number,
    pages: readonly [number, number],
  ): PdfCase => ({
    name,
    path: `/${pid}/${page}.pdf?${new URLSearchParams(range(days))}`,
    htmlPath: `/${pid}/${page}?${new URLSearchParams({ ...range(days), print: "1" })}`,
    pages,
  });
  // Page counts seen: CGM 9 (a chart per day, the hourly readings), AGP 2, pump 77 (at least a
  // page per 5-day chart group).
  return {
    cgm: report("14-day CGM report", "cgmsprint", 14, [5, 20]),
    agp: report("14-day AGP report", "agpprint", 14, [1, 3]),
    pump: report("90-day pump report", "print", PUMP_DAYS, [PUMP_DAYS / 5, 150]),
  };
}

/**
 * Adds pump history and meter readings for the days before the seed's, from the same generators
 * shifted back by whole demo windows; record ids and keys start at a million per window, clear of
 * the seed's.
 */
async function seedEarlierDays(databaseUrl: string, pid: number): Promise<void> {
  const today = Temporal.Now.plainDateISO(DEMO_TIME_ZONE);
  // The ingestion module writes through the app's client, which reads DATABASE_URL.
  process.env.DATABASE_URL = databaseUrl;
  try {
    const owner = await db().patient.findUniqueOrThrow({
      where: { id: pid },
      select: { userId: true },
    });
    for (let window = 1; window * DEMO_DAYS < PUMP_DAYS; window++) {
      const data = buildDemoData(today.subtract({ days: window * DEMO_DAYS }));
      const viewer = { id: owner.userId, identity: 1, isPass: 0, role: "guest" };
      const pump = await ingestNow(viewer, {
        pid,
        deviceKind: "equil",
        deviceSn: PUMP_SERIAL,
        pdaVersion: DEMO_PUMP_FIRMWARE,
        timeZone: DEMO_TIME_ZONE,
        records: pumpUploadRecords(data.pump, window * 1_000_000 + 1),
        maxRecords: 20_000,
      });
      const meter = await ingestNow(viewer, {
        pid,
        deviceKind: "gocheck",
        deviceSn: METER_SERIAL,
        timeZone: DEMO_TIME_ZONE,
        records: meterUploadRecords(data.meter, DEMO_TIME_ZONE),
        maxRecords: 20_000,
      });
      if (!pump.ok || !meter.ok) throw new Error("the earlier days were refused by ingestion");
    }
  } finally {
    await db().$disconnect();
    globalThis.__diacarePrisma = undefined;
  }
}

/** One request (as the clinic unless another session's cookie is given), its body read in full; a connection failure is status 0. */
async function fetchPdf(
  server: BenchServer,
  pdf: PdfCase,
  cookie = server.cookie,
): Promise<Fetched> {
  const t0 = performance.now();
  try {
    const res = await fetch(server.origin + pdf.path, {
      headers: { Cookie: cookie },
      redirect: "manual",
    });
    const body = new Uint8Array(await res.arrayBuffer());
    return {
      ms: performance.now() - t0,
      status: res.status,
      contentType: res.headers.get("content-type") ?? "",
      body,
    };
  } catch (error) {
    const cause = error instanceof Error && error.cause ? ` (${String(error.cause)})` : "";
    return {
      ms: performance.now() - t0,
      status: 0,
      contentType: "",
      body: new TextEncoder().encode(`${String(error)}${cause}`),
    };
  }
}

/** Status, type, %PDF magic and page count of a response. */
function check(fetched: Fetched, pdf: PdfCase): Checked {
  const { ms, status, contentType, body } = fetched;
  const pages = status === 200 && isPdf(body) ? pdfPageCount(body) : 0;
  const [fewest, most] = pdf.pages;
  const problem =
    status !== 200
      ? `HTTP ${status || "connection failed"}: ${Buffer.from(body.subarray(0, 200)).toString("utf8")}`
      : !contentType.startsWith("application/pdf")
        ? `Content-Type ${contentType}`
        : !isPdf(body)
          ? "no %PDF- magic"
          : pages < fewest || pages > most
            ? `${pages} pages, expected ${fewest}-${most}`
            : null;
  return { ms, pages, bytes: body.byteLength, problem };
}

/** A sequential request that must answer the expected PDF. */
async function fetchChecked(server: BenchServer, pdf: PdfCase): Promise<Checked> {
  const checked = check(await fetchPdf(server, pdf), pdf);
  if (checked.problem) throw new Error(`GET ${pdf.path}: ${checked.problem}`);
  return checked;
}

/** Median milliseconds of the printed page's HTML, fully read. */
async function timeHtml(server: BenchServer, pdf: PdfCase, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = await fetch(server.origin + pdf.htmlPath, {
      headers: { Cookie: server.cookie },
      redirect: "manual",
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${pdf.htmlPath}: HTTP ${res.status}`);
    times.push(performance.now() - t0);
  }
  return median(times);
}

/**
 * CPU time used so far by the server and its Chromium processes: less sensitive than wall time to
 * other work on a shared machine (an exited process's share is lost, hence "about").
 */
function treeCpuMs(serverPid: number): number {
  const tree = [readProc(serverPid, false), ...descendants(serverPid).filter(isChromium)];
  return tree.reduce((n, p) => n + (p?.cpuMs ?? 0), 0);
}

async function timeSequential(
  server: BenchServer,
  pdf: PdfCase,
  target: string,
  warmup: number,
  runs: number,
): Promise<BenchResult> {
  for (let i = 0; i < warmup; i++) await fetchChecked(server, pdf);
  const checked: Checked[] = [];
  const cpuBefore = treeCpuMs(server.serverPid);
  for (let i = 0; i < runs; i++) checked.push(await fetchChecked(server, pdf));
  const cpuPerPdf = (treeCpuMs(server.serverPid) - cpuBefore) / runs;
  const htmlMs = await timeHtml(server, pdf, Math.min(runs, HTML_RUNS));
  const times = checked.map((c) => c.ms);
  const pages = [...new Set(checked.map((c) => c.pages))].join("/");
  const kb = median(checked.map((c) => c.bytes)) / 1024;
  return {
    name: `pdf route: ${pdf.name}`,
    ms: median(times),
    detail:
      `${target}; median of ${runs} after ${warmup} warm-up (min ${Math.min(...times).toFixed(0)}, p95 ${percentile(times, 95).toFixed(0)}, max ${Math.max(...times).toFixed(0)} ms); ` +
      `every response 200 application/pdf, %PDF, ${pages} pages, ${kb.toFixed(0)} KB; CPU of server + Chromium about ${cpuPerPdf.toFixed(0)} ms per PDF; the printed page's HTML alone: median ${htmlMs.toFixed(0)} ms`,
  };
}

const isChromium = (p: ProcInfo) => p.comm.startsWith("chrom");
const sumKb = (ps: readonly ProcInfo[], key: "rssKb" | "pssKb") =>
  ps.reduce((n, p) => n + p[key], 0);
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

/** Memory of the server's node process and its Chromium processes, and what runs below the server. */
interface Footprint {
  /** RSS sum: counts the pages Chromium's processes share once in each of them. */
  rssKb: number;
  /** PSS sum (shared pages divided among their users), when this sample read it; else 0. */
  pssKb: number;
  serverRssKb: number;
  chromium: number;
  zombies: number;
}

function footprint(serverPid: number, pss: boolean): Footprint {
  const tree = descendants(serverPid, { pss });
  const chromium = tree.filter((p) => isChromium(p) && p.state !== "Z");
  const server = readProc(serverPid, pss);
  const measured = server ? [server, ...chromium] : chromium;
  return {
    rssKb: sumKb(measured, "rssKb"),
    pssKb: pss ? sumKb(measured, "pssKb") : 0,
    serverRssKb: server?.rssKb ?? 0,
    chromium: chromium.length,
    zombies: tree.filter((p) => p.state === "Z").length,
  };
}

function maxFootprint(a: Footprint, b: Footprint): Footprint {
  const keys = Object.keys(a) as (keyof Footprint)[];
  return Object.fromEntries(keys.map((k) => [k, Math.max(a[k], b[k])])) as unknown as Footprint;
}

/** Runs `fn` while sampling the server's footprint; returns its value and the peak of every figure. */
async function sampled<T>(
  serverPid: number,
  fn: () => Promise<T>,
): Promise<{ value: T; peak: Footprint; samples: number }> {
  let samples = 0;
  let peak = footprint(serverPid, true);
  const sample = () =>
    (peak = maxFootprint(peak, footprint(serverPid, ++samples % PSS_EVERY === 0)));
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  try {
    const value = await fn();
    sample();
    return { value, peak, samples };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Every 2nd request CGM, the others AGP, all at once, two per account (the most one account may
 * have in flight); the checks run after the last answer.
 */
async function burst(server: BenchServer, cases: readonly PdfCase[], cookies: readonly string[]) {
  const requests = Array.from({ length: BURST }, (_, i) => cases[i % cases.length]!);
  const t0 = performance.now();
  const fetched = await Promise.all(
    requests.map((pdf, i) => fetchPdf(server, pdf, cookies[Math.floor(i / 2) % cookies.length])),
  );
  const wallMs = performance.now() - t0;
  const checked = fetched.map((f, i) => check(f, requests[i]!));
  const failed = checked.filter((c) => c.problem !== null);
  return {
    wallMs,
    ok: BURST - failed.length,
    failed,
    slowestMs: Math.max(...checked.map((c) => c.ms)),
  };
}

/** The footprint once the process count stops changing (an exiting process takes a moment). */
async function settledFootprint(serverPid: number): Promise<Footprint> {
  let last = footprint(serverPid, false);
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 250));
    const now = footprint(serverPid, false);
    if (now.chromium === last.chromium && now.zombies === last.zombies) break;
    last = now;
  }
  return footprint(serverPid, true);
}

/**
 * Two bursts of 20: the first fills the pool (every worker the concurrency allows), the second is
 * measured. The Chromium process count after the second is compared with the count after the
 * first: a growing count means processes left behind (Chromium starts and ends a spare renderer
 * or a utility process by itself, so one either way is noise).
 */
async function benchBurst(server: BenchServer, cases: readonly PdfCase[]): Promise<BenchResult> {
  const cookies = await readerSessions(server, BURST / 2);
  const first = await burst(server, cases, cookies);
  const before = await settledFootprint(server.serverPid);
  const {
    value: second,
    peak,
    samples,
  } = await sampled(server.serverPid, () => burst(server, cases, cookies));
  const after = await settledFootprint(server.serverPid);
  const up = await fetch(`${server.origin}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  const failures = [...first.failed, ...second.failed].map((c) => c.problem);
  return {
    name: `pdf route: ${BURST} concurrent (CGM + AGP, 14 days)`,
    ms: second.wallMs,
    detail:
      `target: all succeed, memory bounded, no zombie Chromium; ${second.ok}/${BURST} succeeded, slowest ${second.slowestMs.toFixed(0)} ms ` +
      `(first burst, which fills the pool: ${first.ok}/${BURST} in ${first.wallMs.toFixed(0)} ms)${failures.length ? `; failures: ${failures.join(" | ")}` : ""}; ` +
      `server ${up ? "up" : "DOWN"} afterwards (/healthz); ` +
      `peak memory of server + Chromium: PSS sum ${mb(peak.pssKb)}, RSS sum ${mb(peak.rssKb)} (shared pages counted in every process), ` +
      `server RSS ${mb(peak.serverRssKb)}, up to ${peak.chromium} Chromium processes (${samples} samples, PSS in every ${PSS_EVERY}th); ` +
      `idle PSS sum before/after ${mb(before.pssKb)}/${mb(after.pssKb)}; Chromium processes before/after ${before.chromium}/${after.chromium}; ` +
      `zombies: at most ${peak.zombies} in a sample during, ${after.zombies} after`,
  };
}

/** Which of the server's Chromium processes still exist (zombies included) 5 s after it stopped. */
async function leftOver(chromiumPids: readonly number[]): Promise<ProcInfo[]> {
  const alive = () =>
    chromiumPids
      .map((pid) => readProc(pid, false))
      .filter((p): p is ProcInfo => p !== undefined && isChromium(p));
  await eventually(() => alive().length === 0, 5_000);
  return alive();
}

/** Runs the benchmark; returns the median milliseconds of each PDF, and the burst's wall time. */
export async function benchReportPdfs(): Promise<BenchResult[]> {
  const loadAtStart = os.loadavg()[0]!;
  let chromiumPids: number[] = [];
  const results = await withBenchServer("report_pdf", async (server) => {
    const { pid } = await seededPatient(server.databaseUrl);
    await seedEarlierDays(server.databaseUrl, pid);
    const cases = reportCases(pid);
    const cold = await fetchChecked(server, cases.cgm);
    const out: BenchResult[] = [
      {
        name: `pdf route: ${cases.cgm.name}, cold`,
        ms: cold.ms,
        detail: `the server's first PDF: loads puppeteer-core and launches Chromium; ${cold.pages} pages`,
      },
      await timeSequential(
        server,
        cases.cgm,
        "target < 800 ms (warm browser)",
        CGM_WARMUP,
        CGM_RUNS,
      ),
      await timeSequential(server, cases.agp, "no target of its own", CGM_WARMUP, CGM_RUNS),
      await timeSequential(server, cases.pump, "target < 2.5 s", PUMP_WARMUP, PUMP_RUNS),
      await benchBurst(server, [cases.cgm, cases.agp]),
    ];
    chromiumPids = descendants(server.serverPid)
      .filter(isChromium)
      .map((p) => p.pid);
    return out;
  });
  const left = await leftOver(chromiumPids);
  results.at(-1)!.detail +=
    `; after the server stopped: ${left.length ? `${left.length} Chromium processes left (${left.map((p) => `${p.pid} ${p.state}`).join(", ")})` : "no Chromium process left"}` +
    `; ${os.cpus().length} cores, load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end`;
  return results.map((r) => ({ ...r, ms: Number(r.ms.toFixed(1)) }));
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  for (const r of await benchReportPdfs()) {
    console.log(`${r.name}: ${r.ms} ms${r.detail ? `  (${r.detail})` : ""}`);
  }
}
