/**
 * Benchmark of the page models of app/report (pure; no database, no rendering): the DAILY pump day
 * model from one day of seeded pump history, the CGMS day model and the 14-day overlay from 14 days
 * of seeded 5-minute CGM data. The page targets (server render < 60 ms, overlay < 120 ms) include
 * the database and the SVG; these models are a small part of them.
 *
 * Data: prisma/demo-data.ts (deterministic), 30 days ending 2026-11-22 in Europe/Warsaw, which
 * include the 25 h day of 2026-10-25. The print-report models run on the same data: the 90-day pump
 * report and the 90-day blood tests logbook on three consecutive demo sets (2026-08-25 to
 * 2026-11-22), the CGM and AGP reports on 14 days, and the statistics report on 14 + 14 days
 * (computeAll twice).
 *
 * Plain tsx script: `npx tsx bench/report.bench.ts` prints the results; `benchReport()` returns
 * them for bench/run.ts.
 */
import { pathToFileURL } from "node:url";
import { Temporal } from "temporal-polyfill";
import { buildDemoData, pumpHistoryRecords, DEMO_TIME_ZONE } from "../prisma/demo-data";
import { buildCgmDay, buildCgmOverlay } from "../app/report/cgm-day";
import { dayWindow, shiftDate } from "../app/report/day";
import { buildPumpDay } from "../app/report/pump-day";
import { splitAroundDay, type PumpHistoryRecord } from "../app/report/pump-records";
import type { Reading } from "../app/metrics/types";
import { buildAgpReport } from "../app/report/agp-report";
import { buildCgmReport } from "../app/report/cgm-report";
import { buildPumpReport } from "../app/report/pump-report";
import { buildStatisticsReport } from "../app/report/statistics-report";
import { buildBloodTestsReport } from "../app/report/blood-tests-report";
import { timeIt, type BenchResult } from "./timing";

/** Runs the benchmark; returns the median milliseconds of each case. */
export async function benchReport(): Promise<BenchResult[]> {
  const data = buildDemoData(Temporal.PlainDate.from("2026-11-23"));
  const tz = DEMO_TIME_ZONE;
  const pump: PumpHistoryRecord[] = pumpHistoryRecords(data.pump);
  const cgm: Reading[] = data.cgm.map((p) => ({ time: p.at.epochMilliseconds, mgdl: p.mgdl }));
  const limits = { low: 70, high: 180 };

  const pumpCase = (date: string) => {
    const input = {
      date,
      timeZone: tz,
      ...splitAroundDay(pump, dayWindow(date, tz)),
      pdaVersion: "5.3.0",
      limits,
    };
    return timeIt(
      `report pump day model, ${date}`,
      `${input.records.length} records, ${tz}`,
      () => buildPumpDay(input).totals.insulin,
    );
  };

  // A dense day: the seeded day plus a rate record every minute carrying the rates in force
  // (about 1,450 records; a worst case for the timeline code).
  const denseDate = "2026-11-21";
  const dense = splitAroundDay(pump, dayWindow(denseDate, tz));
  const denseWindow = dayWindow(denseDate, tz);
  const denseRecords: PumpHistoryRecord[] = [...dense.records];
  let k = 0;
  let current = dense.previous!;
  for (let t = denseWindow.start; t < denseWindow.end; t += 60_000) {
    while (k < dense.records.length && dense.records[k]!.dateTime <= t)
      current = dense.records[k++]!;
    denseRecords.push({
      ...current,
      eventPort: 4,
      eventType: 0,
      eventUrgency: 0,
      eventValue: 0,
      dateTime: t + 1,
    });
  }
  denseRecords.sort((a, b) => a.dateTime - b.dateTime);
  const denseInput = {
    date: denseDate,
    timeZone: tz,
    previous: dense.previous,
    records: denseRecords,
    next: dense.next,
    pdaVersion: "5.3.0",
    limits,
  };

  const lastDay = "2026-11-22";
  const w = dayWindow(lastDay, tz);
  const dayReadings = cgm.filter((r) => r.time >= w.start - 20 * 60_000 && r.time < w.end);
  const from = dayWindow(shiftDate(lastDay, -13), tz).start;
  const fortnight = cgm.filter((r) => r.time >= from && r.time < w.end);

  // 90 days of pump and meter history: three consecutive 30-day demo sets.
  const sets = ["2026-09-24", "2026-10-24", "2026-11-23"].map((d) =>
    buildDemoData(Temporal.PlainDate.from(d)),
  );
  const pump90: PumpHistoryRecord[] = sets.flatMap((d) => pumpHistoryRecords(d.pump));
  const meter90 = sets.flatMap((d) =>
    d.meter.map((m) => ({ time: m.at.epochMilliseconds, mgdl: m.mgdl })),
  );
  const now = Temporal.PlainDate.from("2026-11-23").toZonedDateTime({
    timeZone: tz,
    plainTime: "12:00",
  }).epochMilliseconds;
  const pumpReportInput = {
    from: "2026-08-25",
    to: "2026-11-22",
    timeZone: tz,
    now,
    records: pump90,
    meterReadings: meter90,
    pdaVersion: "5.3.0",
    limits,
    setting: { unit: 0 as const, nameStyle: 0 as const },
  };
  const ok = <T extends { status: string }>(r: T): T => {
    if (r.status !== "ok") throw new Error(`benchmark input refused: ${JSON.stringify(r)}`);
    return r;
  };
  const reportFrom = shiftDate(lastDay, -13);

  return [
    pumpCase("2026-11-22"),
    pumpCase("2026-10-25"),
    timeIt(
      "report pump day model, dense day",
      `${denseRecords.length} records, ${tz}`,
      () => buildPumpDay(denseInput).totals.insulin,
    ),
    timeIt(
      "report CGM day model",
      `${dayReadings.length} readings, ${tz}`,
      () =>
        buildCgmDay({ date: lastDay, timeZone: tz, readings: dayReadings, limits }).points.length,
    ),
    timeIt(
      "report CGM 14-day overlay model",
      `${fortnight.length} readings, ${tz}`,
      () =>
        buildCgmOverlay({ endDate: lastDay, timeZone: tz, readings: fortnight, limits }).days
          .length,
    ),
    timeIt(
      "report CGM day + 14-day overlay from 14 days",
      `${fortnight.length} readings passed to both, ${tz}`,
      () => {
        const day = buildCgmDay({ date: lastDay, timeZone: tz, readings: fortnight, limits });
        const overlay = buildCgmOverlay({
          endDate: lastDay,
          timeZone: tz,
          readings: fortnight,
          limits,
        });
        return day.points.length + overlay.days.length;
      },
    ),
    timeIt(
      "report pump print model, 90 days",
      `${pump90.length} pump records, ${meter90.length} meter readings, ${tz}`,
      () => {
        const r = ok(buildPumpReport(pumpReportInput));
        return r.status === "ok" ? r.report.insulinTotals.total : 0;
      },
      3,
      15,
    ),
    timeIt(
      "report blood tests logbook model, 90 days",
      `${meter90.length} meter readings, ${tz}`,
      () => {
        const r = ok(
          buildBloodTestsReport({
            from: "2026-08-25",
            to: "2026-11-22",
            timeZone: tz,
            now,
            readings: meter90,
            limits,
          }),
        );
        return r.status === "ok" ? r.report.total.count : 0;
      },
    ),
    timeIt("report CGM print model, 14 days", `${fortnight.length} readings, ${tz}`, () => {
      const r = ok(
        buildCgmReport({
          from: reportFrom,
          to: lastDay,
          timeZone: tz,
          now,
          readings: cgm,
          limits,
          unit: 0,
        }),
      );
      return r.status === "ok" ? r.report.readingCount : 0;
    }),
    timeIt("report AGP model, 14 days", `${fortnight.length} readings, ${tz}`, () => {
      const r = ok(
        buildAgpReport({ from: reportFrom, to: lastDay, timeZone: tz, now, readings: cgm, limits }),
      );
      return r.status === "ok" ? r.report.fullDays : 0;
    }),
    timeIt(
      "report statistics model, 14 + 14 days",
      `${cgm.length} readings passed for each period, ${tz}`,
      () => {
        const r = ok(
          buildStatisticsReport({
            from: reportFrom,
            to: lastDay,
            timeZone: tz,
            now,
            readings: cgm,
            previousReadings: cgm,
            limits,
          }),
        );
        return r.status === "ok" ? r.report.rows.length : 0;
      },
    ),
  ];
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  for (const r of await benchReport()) {
    console.log(`${r.name}: ${r.ms} ms${r.detail ? `  (${r.detail})` : ""}`);
  }
}
