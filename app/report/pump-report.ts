/**
 * The pump/BG print report model (`/{id}/print`, `POST /api/patient-data/pdf`, which answers it
 * under the names of app/wire/reports.ts): the patient report (glucoseDays, insulinDays, carbs,
 * alarms, glucoseSummary, insulinTotals, carbsPerEntry, setting, limits, pumpSettings) over a
 * range of local days, built from the per-day DAILY models (pump-day.ts `buildPumpDay`) and the
 * glucose summary (bg-range.ts `glucoseSummary`), with its print layout (pump-report-layout.ts:
 * tables of at most 12 rows, charts of up to 5 days) and the big boluses listed only when there
 * are at most 25. The model's types are in pump-report-model.ts.
 *
 * Units: glucose mg/dL (whatever the display unit; the page converts), insulin U and U/h,
 * carbohydrate g, instants epoch ms, dates ISO.
 *
 * Field definitions (DiaCare's; app/report/README.md "Decisions"):
 * - `insulinDays[].entries` come from the day model: one "basal" entry per constant basal
 *   step and one "bolus" entry per bolus event (see {@link InsulinEntry}); `recordCount` = the
 *   number of the day's pump history records at instants inside the entry's [start, end).
 * - `carbs.perDay`: total grams / days with pump data (a day on which the pump recorded
 *   anything; a day without any pump record is unknown, not zero). `carbsPerEntry`: mean grams
 *   per carbohydrate entry (per meal). Both null without a divisor.
 * - `glucoseDays`: the BG values entered on the pump (port 3 type 0) and, when given, the meter's
 *   readings, per local day, in time order; `glucoseSummary` over all of them. It is each day
 *   model's `glucose` (pump-day), the list the DAILY chart draws, so screen and paper agree.
 * - `insulinTotals` over the range: the exact day totals summed, then rounded as in pump-day
 *   (units 0.01 U, basalPercent 0.1 %, bolusPercent = 100 - basalPercent); recordCount =
 *   records.
 */
import { ZoneOffsets } from "../metrics/timezone";
import { glucoseSummary } from "./bg-range";
import { clockOf, dayWindow } from "./day";
import { BIG_BOLUS_MAX_SHOWN, buildPumpDay, insulinTotalsOf } from "./pump-day";
import type { PumpDayModel } from "./pump-day-model";
import { carriesRates, sortedRecords, type PumpHistoryRecord } from "./pump-records";
import { chartSectionsOf, paginateRows } from "./pump-report-layout";
import type {
  AlarmListEntry,
  CarbListEntry,
  GlucoseDay,
  InsulinDay,
  InsulinEntry,
  PumpReport,
  PumpReportInput,
  PumpReportResult,
  StoredPumpSettings,
} from "./pump-report-model";
import { checkReportRange } from "./report-range";

const HOUR_MS = 3_600_000;

/** First index with time >= x in ascending `times`. */
function lowerBound(times: readonly number[], x: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The settings the report shows, copied out of the stored ones (null passes through). */
function shownPumpSettings(s: StoredPumpSettings | null | undefined): StoredPumpSettings | null {
  if (!s) return null;
  return {
    pdaSn: s.pdaSn,
    pdaVersion: s.pdaVersion,
    lowBg: [...s.lowBg],
    highBg: [...s.highBg],
    carbRatio: [...s.carbRatio],
    sensitivity: [...s.sensitivity],
    originBasal: s.originBasal,
    bolusRate: s.bolusRate,
    maxBolus: s.maxBolus,
    doubleBolus: s.doubleBolus,
    effectiveTime: s.effectiveTime,
    maxBasalRate: s.maxBasalRate,
    bolusIncrement: s.bolusIncrement,
    quickBolusIncrement: s.quickBolusIncrement,
    lowReserveThreshold: s.lowReserveThreshold,
    tempBasalRate: s.tempBasalRate,
  };
}

/** `insulinDays` entries of one day model; `times` = the day's record instants in [start, dataEnd), ascending. */
export function insulinEntries(
  day: PumpDayModel,
  times: readonly number[],
  zone: ZoneOffsets,
): InsulinEntry[] {
  const count = (start: number, end: number) => lowerBound(times, end) - lowerBound(times, start);
  const steps = day.basal.steps;
  const basalAt = (t: number): number | null => {
    for (const s of steps) if (s.start <= t && t < s.end) return s.rateUh;
    return null;
  };
  const entries: InsulinEntry[] = [
    ...steps.map((s) => ({
      start: s.start,
      end: s.end,
      clock: clockOf(s.start, zone),
      dataType: "basal" as const,
      bolusKind: null,
      basalRate: s.rateUh,
      bolusUnitsDisplay: 0,
      units: (s.rateUh * (s.end - s.start)) / HOUR_MS,
      extendedDisplayMs: 0,
      recordCount: count(s.start, s.end),
    })),
    ...day.boluses.map((b) => ({
      start: b.start,
      end: b.end,
      clock: b.clock,
      dataType: "bolus" as const,
      bolusKind: b.kind,
      basalRate: basalAt(b.start),
      bolusUnitsDisplay: b.unitsDisplay,
      units: b.units,
      extendedDisplayMs: b.extended?.displayDurationMs ?? 0,
      recordCount: count(b.start, b.end),
    })),
  ];
  return entries.sort(
    (a, b) =>
      a.start - b.start || (a.dataType === b.dataType ? 0 : a.dataType === "basal" ? -1 : 1),
  );
}

/** Builds the pump/BG print report (see the file comment); a refused range is answered, not thrown. */
export function buildPumpReport(input: PumpReportInput): PumpReportResult {
  const checked = checkReportRange(input.from, input.to, "long", {
    timeZone: input.timeZone,
    now: input.now,
  });
  if (!checked.ok) return checked.invalid;
  const { from, to, dates } = checked;
  const tz = input.timeZone;
  const windows = dates.map((d) => dayWindow(d, tz));
  const start = windows[0]!.start;
  const end = windows[windows.length - 1]!.end;
  const zone = new ZoneOffsets(tz, start - 86_400_000, end + 86_400_000);

  const sorted = sortedRecords(input.records);
  const times = sorted.map((r) => r.dateTime);
  // Meter readings by instant, so that each day takes its own slice (the day model checks them).
  const meter = (input.meterReadings ?? [])
    .filter((r) => Number.isFinite(r.time))
    .sort((a, b) => a.time - b.time);
  const meterTimes = meter.map((r) => r.time);

  const days: PumpDayModel[] = [];
  const insulinDays: InsulinDay[] = [];
  const glucoseDays: GlucoseDay[] = [];
  const carbs: CarbListEntry[] = [];
  const alarms: AlarmListEntry[] = [];
  let basal = 0;
  let bolus = 0;
  let recordCount = 0;
  let pumpDays = 0;
  for (const w of windows) {
    const lo = lowerBound(times, w.start);
    const hi = lowerBound(times, w.end);
    let previous: PumpHistoryRecord | null = null;
    for (let k = lo - 1; k >= 0; k--) {
      if (carriesRates(sorted[k]!)) {
        previous = sorted[k]!;
        break;
      }
    }
    const day = buildPumpDay({
      date: w.date,
      timeZone: tz,
      records: sorted.slice(lo, hi),
      previous,
      next: sorted[hi] ?? null,
      pdaVersion: input.pdaVersion ?? null,
      until: input.now,
      limits: input.limits,
      meterReadings: meter.slice(lowerBound(meterTimes, w.start), lowerBound(meterTimes, w.end)),
    });
    days.push(day);
    const dayTimes = times.slice(lo, lowerBound(times, day.dataEnd));
    insulinDays.push({
      date: w.date,
      hasData: day.hasData,
      entries: insulinEntries(day, dayTimes, zone),
      totals: day.insulinTotals,
    });
    glucoseDays.push({
      date: w.date,
      readings: day.glucose.map((g) => ({
        time: g.time,
        clock: g.clock,
        mgdl: g.mgdl,
        source: g.source,
        ...(g.id === undefined ? {} : { id: g.id }),
      })),
    });
    for (const c of day.carbs)
      carbs.push({
        time: c.time,
        date: w.date,
        clock: c.clock,
        grams: c.grams,
        source: c.source,
      });
    for (const a of day.alarms)
      alarms.push({
        time: a.time,
        date: w.date,
        clock: a.clock,
        kind: a.kind,
        severity: a.severity,
        code: a.code,
      });
    basal += day.totals.basal;
    bolus += day.totals.bolus;
    recordCount += day.insulinTotals.recordCount;
    if (day.hasData) pumpDays++;
  }

  const glucose = glucoseDays.flatMap((d) => d.readings.map((e) => e.mgdl));

  const carbTotal = carbs.reduce((s, c) => s + c.grams, 0);

  const chartSections = chartSectionsOf(days);
  const charts = chartSections.flatMap((c) => (c.kind === "chart" ? [c.group] : []));

  const bolusEntries = insulinDays.flatMap((d) =>
    d.entries.filter((p) => p.dataType === "bolus").map((p) => ({ ...p, date: d.date })),
  );
  const bigShown = bolusEntries.length <= BIG_BOLUS_MAX_SHOWN;

  const report: PumpReport = {
    from,
    to,
    timeZone: tz,
    start,
    end,
    dates,
    hasData: pumpDays > 0 || glucose.length > 0,
    glucoseDays,
    insulinDays,
    carbs: {
      entries: carbs,
      perDay: pumpDays > 0 ? carbTotal / pumpDays : null,
      total: carbTotal,
      daysWithData: pumpDays,
    },
    carbsPerEntry: carbs.length > 0 ? carbTotal / carbs.length : null,
    alarms,
    glucoseSummary: glucoseSummary(glucose, input.limits),
    insulinTotals: insulinTotalsOf(basal, bolus, recordCount),
    setting: { unit: input.setting.unit, nameStyle: input.setting.nameStyle },
    limits: { low: input.limits.low, high: input.limits.high },
    pumpSettings: shownPumpSettings(input.pumpSettings),
    carbTables: paginateRows(carbs),
    alarmTables: paginateRows(alarms),
    charts,
    chartSections,
    bigBoluses: {
      count: bolusEntries.length,
      shown: bigShown,
      entries: bigShown ? bolusEntries : [],
    },
    days,
  };
  return { status: "ok", report };
}
