/**
 * Benchmark of server-side page rendering: the production build (`npm start`) on a real PostgreSQL,
 * signed in as the seeded clinic, timing full HTTP round trips of the patient's DAILY, CGMS day,
 * CGMS 14-day overlay and BG 14-day pages (targets: day pages < 60 ms, overlay < 120 ms).
 *
 * The server and its database: bench/server.ts.
 *
 * Plain tsx script: `npx tsx bench/pages.bench.ts` prints the results; `benchPages()` returns
 * them for bench/run.ts.
 */
import { pathToFileURL } from "node:url";
import { Temporal } from "temporal-polyfill";
import { DEMO_TIME_ZONE } from "../prisma/demo-data";
import { rssMegabytes, seededPatient, withBenchServer } from "./server";
import type { BenchResult } from "./timing";

const WARMUP = 20;
const RUNS = 40;

interface PageCase {
  name: string;
  path: string;
  target: string;
  /** Text only the rendered view has (its summary, drawn when the chart has data). */
  marker: string;
}

function pageCases(pid: number, userId: number): PageCase[] {
  const home = `/patientShow/${pid}/${userId}/patientHome`;
  // The seed's data ends at today's midnight in its time zone: yesterday is the last full day.
  const date = Temporal.Now.plainDateISO(DEMO_TIME_ZONE).subtract({ days: 1 });
  const from = date.subtract({ days: 13 });
  return [
    {
      name: "page DAILY day",
      path: `${home}?tab=daily&date=${date}`,
      target: "target < 60 ms",
      marker: 'data-testid="daily-totals"',
    },
    {
      name: "page CGMS day",
      path: `${home}?tab=cgms&date=${date}`,
      target: "target < 60 ms",
      marker: 'data-testid="cgm-latest"',
    },
    {
      name: "page CGMS 14-day overlay",
      path: `${home}?tab=cgms&view=overlay&date=${date}`,
      target: "target < 120 ms",
      marker: 'data-testid="time-in-ranges"',
    },
    {
      name: "page BG 14 days",
      path: `${home}?tab=bg&from=${from}&to=${date}`,
      target: "no target",
      marker: 'data-testid="bg-summary"',
    },
  ];
}

/** One full round trip of the HTML document, fully read; fails on a bad status or a missing marker. */
async function timedGet(url: string, cookie: string, marker: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { Cookie: cookie }, redirect: "manual" });
  const html = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status}`);
  if (!html.includes(marker))
    throw new Error(`GET ${url}: the page lacks ${JSON.stringify(marker)}`);
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
export function benchPages(): Promise<BenchResult[]> {
  return withBenchServer("pages", async ({ origin, cookie, databaseUrl, serverPid }) => {
    const { pid, userId } = await seededPatient(databaseUrl);
    const results: BenchResult[] = [];
    for (const page of pageCases(pid, userId)) results.push(await timePage(origin, cookie, page));
    results.at(-1)!.detail += `; server RSS after all runs ${rssMegabytes(serverPid)}`;
    return results;
  });
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  for (const r of await benchPages()) {
    console.log(`${r.name}: ${r.ms} ms${r.detail ? `  (${r.detail})` : ""}`);
  }
}
