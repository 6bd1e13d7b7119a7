/**
 * Benchmark of the server-side SVG charts of app/report (charts.server.ts: Observable Plot with a
 * linkedom document): the DAILY pump chart, the print report's 5-day pump chart, the CGMS day
 * chart and 14-day overlay, and the BG range chart, each from its ready-made view model (the
 * model builders are in report.bench.ts). Targets: a day chart in a few ms, the 5-day chart and
 * the 14-day overlay (about 4,000 points) well under 50 ms.
 *
 * Data: prisma/demo-data.ts (deterministic), 30 days ending 2026-11-22 in Europe/Warsaw, which
 * include the 25 h day of 2026-10-25.
 *
 * Plain tsx script: `npx tsx bench/charts.bench.ts` prints the results; `benchCharts()` returns
 * them for bench/run.ts.
 */
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
  pumpRangeChart,
  type PumpRangeChartLabels,
} from "../app/report/charts.server";
import { dayWindow, shiftDate } from "../app/report/day";
import { buildPumpDay } from "../app/report/pump-day";
import { splitAroundDay, type PumpHistoryRecord } from "../app/report/pump-records";
import { buildPumpReport } from "../app/report/pump-report";
import type { Reading } from "../app/metrics/types";
import { BENCH_GLUCOSE_LABELS, BENCH_PUMP_LABELS, timeIt, type BenchResult } from "./timing";

const options = { unit: 0 as const, locale: "pl", title: "Chart" };
const RANGE_LABELS: PumpRangeChartLabels = {
  ...BENCH_PUMP_LABELS,
  targetRange: "Target range 3.9-10.0",
  bolusMarkersOmitted: (n) => `${n} boluses: markers left out`,
  summary: (f) =>
    `${f.dayCount} days, ${f.bolusCount} boluses, ${f.carbCount} carbohydrate entries, ${f.bgCount} BG values`,
};

/** Runs the benchmark; returns the median milliseconds of each case (the SVG length is the checksum). */
export async function benchCharts(): Promise<BenchResult[]> {
  const data = buildDemoData(Temporal.PlainDate.from("2026-11-23"));
  const tz = DEMO_TIME_ZONE;
  const pump: PumpHistoryRecord[] = pumpHistoryRecords(data.pump);
  const cgm: Reading[] = data.cgm.map((p) => ({ time: p.at.epochMilliseconds, mgdl: p.mgdl }));
  const meter = data.meter.map((m) => ({ time: m.at.epochMilliseconds, mgdl: m.mgdl }));
  const limits = { low: 70, high: 180 };
  const lastDay = "2026-11-22";

  const pumpCase = (date: string) => {
    const model = buildPumpDay({
      date,
      timeZone: tz,
      ...splitAroundDay(pump, dayWindow(date, tz)),
      pdaVersion: "5.3.0",
      limits,
    });
    return timeIt(
      `chart pump day, ${date}`,
      `${model.insulinTotals.recordCount} records (${model.boluses.length} boluses, ${model.carbs.length} carbs, ${model.basal.steps.length} basal steps); target a few ms`,
      () => pumpDayChart(model, { ...options, labels: BENCH_PUMP_LABELS }).length,
    );
  };

  // A busy day (about 110 records): the seeded day plus a basal change every 15 min (a temporary
  // basal pattern), a meter BG every 2 h and three low-insulin warnings.
  const busyWindow = dayWindow(lastDay, tz);
  const seeded = splitAroundDay(pump, busyWindow);
  const template = seeded.records[0]!;
  const extra: PumpHistoryRecord[] = [];
  for (let i = 0; i < 96; i++) {
    extra.push({
      ...template,
      eventPort: 4,
      eventType: 0,
      eventUrgency: 0,
      eventValue: 0,
      basalRateRaw: 128 + (i % 4) * 16,
      bolusRateRaw: 0,
      dateTime: busyWindow.start + i * 15 * 60_000 + 30_000,
    });
  }
  for (let h = 1; h < 24; h += 2)
    extra.push({
      ...template,
      eventPort: 3,
      eventType: 0,
      basalRateRaw: 90 + h * 7,
      bolusRateRaw: 0,
      dateTime: busyWindow.start + h * 3_600_000,
    });
  for (const h of [9, 15, 21])
    extra.push({
      ...template,
      eventPort: 4,
      eventType: 1,
      eventUrgency: 1,
      basalRateRaw: 128,
      bolusRateRaw: 0,
      dateTime: busyWindow.start + h * 3_600_000 + 60_000,
    });
  const busyRecords = [...seeded.records, ...extra].sort((a, b) => a.dateTime - b.dateTime);
  const busy = buildPumpDay({
    date: lastDay,
    timeZone: tz,
    previous: seeded.previous,
    records: busyRecords,
    next: seeded.next,
    pdaVersion: "5.3.0",
    limits,
  });

  const cgmDay = buildCgmDay({ date: lastDay, timeZone: tz, readings: cgm, limits });
  const overlay = buildCgmOverlay({ endDate: lastDay, timeZone: tz, readings: cgm, limits });
  const overlayPoints = overlay.days.reduce((n, d) => n + d.points.length, 0);
  const bg = buildBgRange({
    from: shiftDate(lastDay, -29),
    to: lastDay,
    timeZone: tz,
    readings: meter,
    limits,
  });
  const pumpReport = buildPumpReport({
    from: shiftDate(lastDay, -4),
    to: lastDay,
    timeZone: tz,
    now: dayWindow(lastDay, tz).end,
    records: pump,
    meterReadings: meter,
    limits,
    setting: { unit: 0, nameStyle: 0 },
  });
  if (pumpReport.status !== "ok") throw new Error(`pump report refused: ${pumpReport.problem}`);
  const report = pumpReport.report;
  const group = report.charts[0]!;
  const groupDays = report.days.filter((d) => group.dates.includes(d.window.date));

  return [
    pumpCase(lastDay),
    pumpCase("2026-10-25"),
    timeIt(
      "chart pump day, busy day",
      `${busy.insulinTotals.recordCount} records (${busy.basal.steps.length} basal steps, ${busy.bg.length} BG, ${busy.alarms.length} alarms); target a few ms`,
      () => pumpDayChart(busy, { ...options, labels: BENCH_PUMP_LABELS }).length,
    ),
    timeIt(
      "chart pump 5-day group",
      `${group.dates.length} days, ${groupDays.reduce((n, d) => n + d.insulinTotals.recordCount, 0)} records (${group.bolusCount} boluses, ${group.ticks.length} ticks); target well under 50 ms`,
      () => pumpRangeChart(report, group, { ...options, labels: RANGE_LABELS }).length,
    ),
    timeIt(
      "chart CGM day",
      `${cgmDay.points.length} points; target a few ms`,
      () => cgmDayChart(cgmDay, { ...options, labels: BENCH_GLUCOSE_LABELS }).length,
    ),
    timeIt(
      "chart CGM 14-day overlay",
      `${overlayPoints} points in ${overlay.days.length} days; target well under 50 ms`,
      () => cgmOverlayChart(overlay, { ...options, labels: BENCH_GLUCOSE_LABELS }).length,
    ),
    timeIt(
      "chart BG range, 30 days",
      `${bg.summary.count} readings`,
      () => bgRangeChart(bg, { ...options, labels: BENCH_GLUCOSE_LABELS }).length,
    ),
  ];
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  for (const r of await benchCharts()) {
    console.log(`${r.name}: ${r.ms} ms${r.detail ? `  (${r.detail})` : ""}`);
  }
}
