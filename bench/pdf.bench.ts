/**
 * Benchmark of the PDF renderer (app/utils/pdf.server.ts) with Debian's Chromium: report-like
 * static pages served by a local node:http server (no database, no Remix), so the figures are
 * Chromium's share of a PDF request. Pages: a 14-day CGM report (header, 14-day overlay and day
 * charts, a 14-day table), a 5-page report, and a 90-day pump report stand-in (18 pages of
 * 5-day groups). Charts come from app/report/charts.server.ts with prisma/demo-data.ts data.
 *
 * Targets (README "Benchmarks"): 14-day CGM report PDF < 800 ms with a warm browser; 90-day pump
 * report < 2.5 s; 20 concurrent requests all succeed, memory bounded, no Chromium left behind. The
 * figures that count come from the real routes (bench/report-pdf.bench.ts); these stand-ins show
 * Chromium's share without the server.
 *
 * Plain tsx script: `npx tsx bench/pdf.bench.ts` prints the results; `benchPdf()` returns them
 * for bench/run.ts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { Temporal } from "temporal-polyfill";
import { buildDemoData, pumpHistoryRecords, DEMO_TIME_ZONE } from "../prisma/demo-data";
import { buildBgRange } from "../app/report/bg-range";
import { buildCgmDay, buildCgmOverlay } from "../app/report/cgm-day";
import {
  bgRangeChart,
  cgmDayChart,
  cgmOverlayChart,
  pumpDayChart,
} from "../app/report/charts.server";
import { dayWindow, shiftDate } from "../app/report/day";
import { buildPumpDay } from "../app/report/pump-day";
import { splitAroundDay } from "../app/report/pump-records";
import { mgdlToMmol } from "../app/domain/glucose-unit";
import { createPdfRenderer, type PdfRenderer } from "../app/utils/pdf.server";
import { eventually, processGroup } from "../tests/support/proc";
import { pdfPageCount } from "./pdf-pages";
import type { BenchResult } from "./timing";
import { BENCH_GLUCOSE_LABELS, BENCH_PUMP_LABELS, median } from "./timing";

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const TZ = DEMO_TIME_ZONE;
const LAST_DAY = "2026-11-22";
const LIMITS = { low: 70, high: 180 };

const chartOptions = { unit: 0 as const, locale: "en", title: "Chart" };

const STYLE = `
  @page { size: A4; margin: 12mm; }
  body { font: 10pt/1.35 "DejaVu Sans", sans-serif; color: #1a1a1a; margin: 0; }
  header { display: flex; justify-content: space-between; border-bottom: 1px solid #999; margin-bottom: 6mm; }
  h1 { font-size: 15pt; margin: 0 0 2mm; } h2 { font-size: 11pt; margin: 4mm 0 2mm; }
  svg { width: 100%; height: auto; display: block; }
  table { border-collapse: collapse; width: 100%; font-size: 8.5pt; }
  th, td { border: 1px solid #bbb; padding: 1mm 2mm; text-align: right; }
  th:first-child, td:first-child { text-align: left; }
  thead th { background: #e8eef6; }
  section { break-after: page; } section:last-child { break-after: auto; }
`;

const mmol = (mgdl: number) => mgdlToMmol(mgdl).toFixed(1);

function htmlPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

function reportHeader(title: string, range: string): string {
  return `<header><div><h1>${title}</h1>Demo Patient · born 1984-03-12</div><div>${range}<br>Unit mmol/L · generated 2026-11-23 08:00</div></header>`;
}

/** The three report pages, built once from the deterministic demo data. */
function buildPages(): Map<string, string> {
  const data = buildDemoData(Temporal.PlainDate.from("2026-11-23"));
  const pump = pumpHistoryRecords(data.pump);
  const cgm = data.cgm.map((p) => ({ time: p.at.epochMilliseconds, mgdl: p.mgdl }));
  const meter = data.meter.map((m) => ({ time: m.at.epochMilliseconds, mgdl: m.mgdl }));
  const days30 = Array.from({ length: 30 }, (_, i) => shiftDate(LAST_DAY, i - 29));
  const pumpDay = (date: string) =>
    buildPumpDay({
      date,
      timeZone: TZ,
      ...splitAroundDay(pump, dayWindow(date, TZ)),
      pdaVersion: "5.3.0",
      limits: LIMITS,
    });
  const cgmDay = (date: string) =>
    buildCgmDay({ date, timeZone: TZ, readings: cgm, limits: LIMITS });

  const cgmRow = (date: string) => {
    const w = dayWindow(date, TZ);
    const values = cgm.filter((r) => r.time >= w.start && r.time < w.end).map((r) => r.mgdl);
    const inRange = values.filter((v) => v >= LIMITS.low && v <= LIMITS.high).length;
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    return `<tr><td>${date}</td><td>${values.length}</td><td>${mmol(mean)}</td><td>${mmol(Math.min(...values))}</td><td>${mmol(Math.max(...values))}</td><td>${((100 * inRange) / values.length).toFixed(0)} %</td></tr>`;
  };
  const cgmTable = (dates: string[]) =>
    `<table><thead><tr><th>Day</th><th>Readings</th><th>Mean</th><th>Lowest</th><th>Highest</th><th>In range</th></tr></thead><tbody>${dates.map(cgmRow).join("")}</tbody></table>`;

  const fortnight = days30.slice(-14);
  const overlay = buildCgmOverlay({
    endDate: LAST_DAY,
    timeZone: TZ,
    readings: cgm,
    limits: LIMITS,
  });
  const cgm14 = htmlPage(
    "CGM report",
    reportHeader("CGM report", `${fortnight[0]} – ${LAST_DAY}`) +
      `<h2>14-day overlay</h2>${cgmOverlayChart(overlay, { ...chartOptions, labels: BENCH_GLUCOSE_LABELS })}` +
      `<h2>${LAST_DAY}</h2>${cgmDayChart(cgmDay(LAST_DAY), { ...chartOptions, labels: BENCH_GLUCOSE_LABELS })}` +
      `<h2>Days</h2>${cgmTable(fortnight)}`,
  );

  const five = htmlPage(
    "Pump report",
    days30
      .slice(-5)
      .map(
        (date) =>
          `<section>${reportHeader("Pump and BG report", date)}${pumpDayChart(pumpDay(date), { ...chartOptions, labels: BENCH_PUMP_LABELS })}` +
          `<h2>CGM</h2>${cgmDayChart(cgmDay(date), { ...chartOptions, labels: BENCH_GLUCOSE_LABELS })}</section>`,
      )
      .join(""),
  );

  // 90 days as 18 pages of 5-day groups (the demo data's 30 days, three times over).
  const pumpRow = (date: string) => {
    const t = pumpDay(date).totals;
    return `<tr><td>${date}</td><td>${t.insulin.toFixed(2)}</td><td>${t.basal.toFixed(2)}</td><td>${t.bolus.toFixed(2)}</td><td>${t.bolusCount}</td><td>${t.carbs}</td></tr>`;
  };
  const groups = Array.from({ length: 18 }, (_, g) => days30.slice((g % 6) * 5, (g % 6) * 5 + 5));
  const pump90 = htmlPage(
    "Pump report, 90 days",
    groups
      .map((dates, g) => {
        const bg = buildBgRange({
          from: dates[0]!,
          to: dates[4]!,
          timeZone: TZ,
          readings: meter,
          limits: LIMITS,
        });
        return (
          `<section>${reportHeader("Pump and BG report", `days ${g * 5 + 1}–${g * 5 + 5} of 90`)}` +
          `${bgRangeChart(bg, { ...chartOptions, labels: BENCH_GLUCOSE_LABELS })}` +
          `<h2>Pump</h2><table><thead><tr><th>Day</th><th>Total U</th><th>Basal U</th><th>Bolus U</th><th>Boluses</th><th>Carbs g</th></tr></thead><tbody>${dates.map(pumpRow).join("")}</tbody></table>` +
          `${pumpDayChart(pumpDay(dates[4]!), { ...chartOptions, labels: BENCH_PUMP_LABELS })}</section>`
        );
      })
      .join(""),
  );
  return new Map([
    ["/cgm14", cgm14],
    ["/five", five],
    ["/pump90", pump90],
  ]);
}

async function serve(pages: Map<string, string>) {
  const server = http.createServer((req, res) => {
    const html = pages.get(new URL(req.url ?? "/", "http://x").pathname);
    if (html === undefined) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

async function medianRender(renderer: PdfRenderer, url: string, runs: number) {
  await renderer.render({ url }); // warm-up
  const times: number[] = [];
  let pdf: Uint8Array = new Uint8Array();
  for (let i = 0; i < runs; i++) {
    const r = await timed(() => renderer.render({ url }));
    times.push(r.ms);
    pdf = r.value;
  }
  return { ms: median(times), min: Math.min(...times), max: Math.max(...times), pdf };
}

/**
 * Samples the Chromium group's and node's memory while `fn` runs: RSS every 100 ms, PSS (slow to
 * read, and the reads block the event loop the renders share) every 10th sample.
 */
async function withMemorySampling<T>(renderer: PdfRenderer, fn: () => Promise<T>) {
  const peak = {
    chromiumRssKb: 0,
    chromiumPssKb: 0,
    processes: 0,
    nodeRssKb: 0,
    samples: 0,
    sampleMs: 0,
  };
  const sample = () => {
    const t0 = performance.now();
    const pid = renderer.stats().browserPid;
    const pss = peak.samples % 10 === 0;
    const group = pid ? processGroup(pid, { pss }).filter((p) => p.state !== "Z") : [];
    peak.samples += 1;
    peak.sampleMs += performance.now() - t0;
    peak.chromiumRssKb = Math.max(
      peak.chromiumRssKb,
      group.reduce((n, p) => n + p.rssKb, 0),
    );
    if (pss)
      peak.chromiumPssKb = Math.max(
        peak.chromiumPssKb,
        group.reduce((n, p) => n + p.pssKb, 0),
      );
    peak.processes = Math.max(peak.processes, group.length);
    peak.nodeRssKb = Math.max(peak.nodeRssKb, Math.round(process.memoryUsage().rss / 1024));
  };
  const timer = setInterval(sample, 100);
  try {
    sample();
    return { value: await fn(), peak };
  } finally {
    clearInterval(timer);
    sample();
  }
}

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

/** Runs the benchmark; returns the milliseconds of each case. */
export async function benchPdf(): Promise<BenchResult[]> {
  const pages = buildPages();
  const server = await serve(pages);
  const renderer = createPdfRenderer({
    executablePath: CHROMIUM,
    concurrency: 2,
    timeoutMs: 60_000,
    allowedOrigins: [server.origin],
  });
  const results: BenchResult[] = [];
  const kb = (p: string) => `${(Buffer.byteLength(pages.get(p)!) / 1024).toFixed(0)} KB HTML`;
  try {
    const cold = await timed(() => renderer.render({ url: `${server.origin}/cgm14` }));
    results.push({
      name: "pdf cold: launch Chromium + 14-day CGM report",
      ms: cold.ms,
      detail: `first request after start-up: loads puppeteer-core, launches ${CHROMIUM}, creates a context and page; ${pdfPageCount(cold.value)} pages`,
    });

    const cgm14 = await medianRender(renderer, `${server.origin}/cgm14`, 20);
    results.push({
      name: "pdf warm: 14-day CGM report",
      ms: cgm14.ms,
      detail: `target < 800 ms; median of 20 (min ${cgm14.min.toFixed(0)}, max ${cgm14.max.toFixed(0)} ms); ${kb("/cgm14")}, ${pdfPageCount(cgm14.pdf)} pages, ${(cgm14.pdf.length / 1024).toFixed(0)} KB PDF`,
    });

    const five = await medianRender(renderer, `${server.origin}/five`, 10);
    results.push({
      name: "pdf warm: 5-page pump report",
      ms: five.ms,
      detail: `median of 10 (min ${five.min.toFixed(0)}, max ${five.max.toFixed(0)} ms); ${kb("/five")}, ${pdfPageCount(five.pdf)} pages`,
    });

    const pump90 = await medianRender(renderer, `${server.origin}/pump90`, 5);
    results.push({
      name: "pdf warm: 90-day pump report stand-in",
      ms: pump90.ms,
      detail: `target < 2.5 s; median of 5 (min ${pump90.min.toFixed(0)}, max ${pump90.max.toFixed(0)} ms); 18 groups of 5 days, ${kb("/pump90")}, ${pdfPageCount(pump90.pdf)} pages`,
    });

    const burst = await withMemorySampling(renderer, () =>
      timed(() =>
        Promise.allSettled(
          Array.from({ length: 20 }, () => renderer.render({ url: `${server.origin}/cgm14` })),
        ),
      ),
    );
    const ok = burst.value.value.filter((r) => r.status === "fulfilled").length;
    const { peak } = burst;
    results.push({
      name: "pdf 20 concurrent 14-day CGM reports",
      ms: burst.value.ms,
      detail:
        `target: all succeed, memory bounded; ${ok}/20 succeeded with concurrency 2 (peak active ${renderer.stats().peakActive}); ` +
        `Chromium peak ${peak.processes} processes, RSS sum ${mb(peak.chromiumRssKb)} (shared pages counted in every process; PSS sum ${mb(peak.chromiumPssKb)}); node RSS peak ${mb(peak.nodeRssKb)}; ${peak.samples} memory samples of ${(peak.sampleMs / peak.samples).toFixed(0)} ms`,
    });
  } finally {
    const pid = renderer.stats().browserPid;
    const closed = await timed(() => renderer.close());
    const gone = pid ? await eventually(() => processGroup(pid).length === 0, 10_000) : true;
    const left = pid ? processGroup(pid).length : 0;
    results.push({
      name: "pdf close: Chromium shut down",
      ms: closed.ms,
      detail: `${gone ? "no" : left} Chromium process${left === 1 ? "" : "es"} left (zombies included), ${renderer.stats().launches} launch${renderer.stats().launches === 1 ? "" : "es"} in all`,
    });
    await server.close();
  }
  return results.map((r) => ({ ...r, ms: Number(r.ms.toFixed(1)) }));
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  for (const r of await benchPdf()) {
    console.log(`${r.name}: ${r.ms} ms${r.detail ? `  (${r.detail})` : ""}`);
  }
}
