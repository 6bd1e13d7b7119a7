/**
 * The pump/BG print report model (`/{id}/print`, `POST /api/patient-data/pdf`, which answers it
 * under the names of app/wire/reports.ts): the patient report (glucoseDays, insulinDays, carbs,
 * alarms, glucoseSummary, insulinTotals, carbsPerEntry, setting, limits, pumpSettings) over a
 * range of local days, built from the per-day DAILY models (pump-day.ts `buildPumpDay`) and the
 * glucose summary (bg-range.ts `glucoseSummary`), plus the print layout helpers (tables of at most
 * 12 rows, multi-day charts in groups of 5 days, the 6-day chart's 4-hour ticks, big boluses only
 * when there are at most 25).
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
 * - Charts: the days with something to draw (a pump record or a glucose value) in runs of
 *   consecutive days, each run split into charts of at most 5 days; a run of days with nothing to
 *   draw is one line of text ("no data"), never an empty chart.
 * - `insulinTotals` over the range: the exact day totals summed, then rounded as in pump-day
 *   (units 0.01 U, basalPercent 0.1 %, bolusPercent = 100 - basalPercent); recordCount =
 *   records.
 */
import type { GlucoseLimits } from "../metrics/alarm";
import { ZoneOffsets } from "../metrics/timezone";
import { glucoseSummary, type BgReadingInput, type GlucoseSummary } from "./bg-range";
import { clockOf, dayWindow, hourTicks, type DayWindow, type IsoDate, type TimeTick } from "./day";
import {
  BIG_BOLUS_MAX_SHOWN,
  buildPumpDay,
  carriesRates,
  type AlarmSeverity,
  type BolusKind,
  type CarbSource,
  type PumpAlarmKind,
  type PumpDayModel,
  type PumpHistoryRecord,
  type InsulinTotals,
} from "./pump-day";
import { checkReportRange, type InvalidRange } from "./report-range";
import type { GlucoseUnit } from "../domain/glucose-unit";
import { roundHalfUp } from "./units";

export { BIG_BOLUS_MAX_SHOWN };

/** Rows per CHO or alarm table on the printed page. */
export const REPORT_TABLE_MAX_ROWS = 12;
/** Days per multi-day chart. */
export const CHART_GROUP_DAYS = 5;
/** Tick step of a 6-day chart, ms (144e5 ms = 4 h). */
export const SIX_DAY_TICK_STEP_MS = 144e5;
/** At most this many ticks on a multi-day chart (6 days x 24 h / 4 h = 36, the 6-day chart). */
export const MULTI_DAY_MAX_TICKS = 36;
/** Smallest multi-day tick step, h (the single-day chart's step, day.ts `hourTicks`). */
export const MULTI_DAY_MIN_TICK_HOURS = 3;

const HOUR_MS = 3_600_000;
/** Tick steps that divide a day, h. */
const NICE_TICK_HOURS = [3, 4, 6, 8, 12, 24] as const;

// ---------------------------------------------------------------------------------------------
// Layout helpers

/**
 * Splits rows into tables of at most `maxRows` rows (default 12), in order.
 * No rows: no table.
 */
export function paginateRows<T>(
  rows: readonly T[],
  maxRows: number = REPORT_TABLE_MAX_ROWS,
): T[][] {
  if (!Number.isInteger(maxRows) || maxRows < 1)
    throw new RangeError(`maxRows must be a positive integer, got ${maxRows}`);
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += maxRows) out.push(rows.slice(i, i + maxRows));
  return out;
}

/** Splits days into consecutive groups of `size` (default 5) for the multi-day charts; the last may be shorter. */
export function chartGroups<T>(days: readonly T[], size: number = CHART_GROUP_DAYS): T[][] {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`group size must be a positive integer, got ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < days.length; i += size) out.push(days.slice(i, i + size));
  return out;
}

/**
 * Tick step of a chart spanning `dayCount` days, ms. One point is fixed: 6 days -> 144e5 ms
 * (4 h). Rule (ours, through that point): the smallest step of 3, 4, 6, 8, 12 or 24 h (steps that
 * divide a day, so ticks fall on the same clock times every day; never finer than the day
 * chart's 3 h) that gives at most 36 ticks (6 x 24 / 4); beyond 36 days, whole days.
 * 1-4 days: 3 h; 5-6 days: 4 h; 7-9: 6 h; 10-12: 8 h; 13-18: 12 h; 19-36: 24 h; 37-72: 48 h.
 */
export function multiDayTickStepMs(dayCount: number): number {
  if (!Number.isInteger(dayCount) || dayCount < 1)
    throw new RangeError(`dayCount must be a positive integer, got ${dayCount}`);
  const minHours = Math.max(MULTI_DAY_MIN_TICK_HOURS, (dayCount * 24) / MULTI_DAY_MAX_TICKS);
  const hours = NICE_TICK_HOURS.find((h) => h >= minHours) ?? 24 * Math.ceil(minHours / 24);
  return hours * HOUR_MS;
}

/**
 * Ticks of a multi-day chart over consecutive day windows: local wall-clock hours 0, step, ...
 * of each day (DST-safe, day.ts `hourTicks`); with a step of several days, the local midnight
 * of every `step / 24 h`-th day.
 */
export function multiDayTicks(windows: readonly DayWindow[], stepMs: number): TimeTick[] {
  const stepHours = stepMs / HOUR_MS;
  if (!Number.isInteger(stepHours) || stepHours < 1)
    throw new RangeError(`tick step must be whole hours, got ${stepMs} ms`);
  if (stepHours <= 24) {
    if (24 % stepHours !== 0)
      throw new RangeError(`tick step must divide 24 h, got ${stepHours} h`);
    return windows.flatMap((w) => hourTicks(w, stepHours));
  }
  const every = stepHours / 24;
  if (!Number.isInteger(every))
    throw new RangeError(`a tick step over 24 h must be whole days, got ${stepHours} h`);
  return windows.filter((_, i) => i % every === 0).map((w) => ({ time: w.start, label: "00:00" }));
}

// ---------------------------------------------------------------------------------------------
// Types

/** Header alignment of the printed report: 0 left, 1 centre, 2 right. */
export type NameStyle = 0 | 1 | 2;

/** The report's `setting`: the reader's unit and header alignment. */
export interface ReportSetting {
  readonly unit: GlucoseUnit;
  readonly nameStyle: NameStyle;
}

/** The pump settings as stored (Prisma PumpSetting fields the report shows). */
export interface StoredPumpSettings {
  /** mg/dL per segment. */
  readonly lowBg: readonly number[];
  readonly highBg: readonly number[];
  /** Carbohydrate ratio, g per U, per segment. */
  readonly carbRatio: readonly number[];
  /** Insulin sensitivity, mg/dL per U, per segment. */
  readonly sensitivity: readonly number[];
  readonly originBasal: number | null;
  readonly bolusRate: number | null;
  readonly maxBolus: number | null;
  readonly doubleBolus: boolean | null;
  /** Active insulin time, min. */
  readonly effectiveTime: number | null;
}

/** One glucose value of `glucoseDays`. */
export interface GlucoseEntry {
  /** Epoch ms. */
  readonly time: number;
  /** "HH:mm" local. */
  readonly clock: string;
  readonly mgdl: number;
  /** "pump": entered on the handheld (3/0); "meter": a meter / finger-prick record. */
  readonly source: "pump" | "meter";
  readonly id?: string | number;
}

export interface GlucoseDay {
  readonly date: IsoDate;
  readonly readings: readonly GlucoseEntry[];
}

/** "basal": one constant basal step; "bolus": one bolus event (kind in `bolusKind`). */
export type InsulinEntryType = "basal" | "bolus";

/**
 * One entry of `insulinDays[].entries`, derived from the day model:
 * - dataType "basal": one per constant basal step of the day: `basalRate` = the step's rate
 *   (U/h), `bolusUnitsDisplay` 0, `extendedDisplayMs` 0, `bolusKind` null;
 * - dataType "bolus": one per bolus event: `basalRate` = the basal rate in force at its start
 *   (null when unknown), `bolusUnitsDisplay` = its units within the day rounded to 0.05 U (as
 *   the day table shows them; `units` is exact), `extendedDisplayMs` = the extended part's
 *   display length, ms (at least 480000 ms; 0 for a normal bolus), `bolusKind` normal /
 *   extended / dual.
 * `recordCount`: the number of the day's pump history records at instants in [start, end).
 */
export interface InsulinEntry {
  /** Start, epoch ms. */
  readonly start: number;
  /** End (exclusive), epoch ms. */
  readonly end: number;
  readonly clock: string;
  readonly dataType: InsulinEntryType;
  readonly bolusKind: BolusKind | null;
  /** U/h. */
  readonly basalRate: number | null;
  /** U, rounded to 0.05 (bolus), 0 for basal. */
  readonly bolusUnitsDisplay: number;
  /** Exact units: the step's basal units or the bolus's units within the day. */
  readonly units: number;
  /** ms. */
  readonly extendedDisplayMs: number;
  readonly recordCount: number;
}

export interface InsulinDay {
  readonly date: IsoDate;
  readonly hasData: boolean;
  readonly entries: readonly InsulinEntry[];
  /** The day's own insulin totals (pump-day). */
  readonly totals: InsulinTotals;
}

export interface CarbListEntry {
  readonly time: number;
  readonly date: IsoDate;
  readonly clock: string;
  readonly grams: number;
  readonly source: CarbSource;
}

export interface AlarmListEntry {
  readonly time: number;
  readonly date: IsoDate;
  readonly clock: string;
  /** The alarm kind key (pump-day `PumpAlarmKind`; the page translates it). */
  readonly kind: PumpAlarmKind;
  readonly severity: AlarmSeverity;
  /** "port/type/urgency". */
  readonly code: string;
}

/**
 * The report's chart pages in date order: a chart of up to 5 consecutive days with data, or a
 * run of consecutive days without any (printed as one line).
 */
export type PumpChartSection =
  | { readonly kind: "chart"; readonly group: PumpChartGroup }
  | {
      readonly kind: "noData";
      readonly from: IsoDate;
      readonly to: IsoDate;
      readonly dayCount: number;
    };

/** One multi-day chart: up to 5 consecutive days. */
export interface PumpChartGroup {
  readonly dates: readonly IsoDate[];
  /** Epoch ms: start of the first day, end of the last. */
  readonly start: number;
  readonly end: number;
  readonly tickStepMs: number;
  readonly ticks: readonly TimeTick[];
  readonly bolusCount: number;
  /** Bolus markers are drawn only when the chart has at most 25 boluses. */
  readonly showBolusMarkers: boolean;
}

export interface PumpReport {
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly timeZone: string;
  /** Epoch ms: [start of `from`, end of `to`). */
  readonly start: number;
  readonly end: number;
  readonly dates: readonly IsoDate[];
  readonly hasData: boolean;
  readonly glucoseDays: readonly GlucoseDay[];
  readonly insulinDays: readonly InsulinDay[];
  readonly carbs: {
    readonly entries: readonly CarbListEntry[];
    /** Mean grams per day with pump data (null when no day has pump data). */
    readonly perDay: number | null;
    readonly total: number;
    readonly daysWithData: number;
  };
  /** Mean grams per carbohydrate entry (null without entries). */
  readonly carbsPerEntry: number | null;
  readonly alarms: readonly AlarmListEntry[];
  readonly glucoseSummary: GlucoseSummary;
  readonly insulinTotals: InsulinTotals;
  readonly setting: ReportSetting;
  /** The patient's range, mg/dL. */
  readonly limits: GlucoseLimits;
  /** The newest pump settings upload, or null. */
  readonly pumpSettings: StoredPumpSettings | null;
  /** Carbohydrate and alarm lists paged into tables of at most 12 rows. */
  readonly carbTables: readonly (readonly CarbListEntry[])[];
  readonly alarmTables: readonly (readonly AlarmListEntry[])[];
  /** Multi-day charts of up to 5 consecutive days with data (the chart sections' groups). */
  readonly charts: readonly PumpChartGroup[];
  /** The charts and the runs of days without data between them, in date order. */
  readonly chartSections: readonly PumpChartSection[];
  /** Every bolus of the range, listed only when there are at most 25. */
  readonly bigBoluses: {
    readonly count: number;
    readonly shown: boolean;
    readonly entries: readonly (InsulinEntry & { readonly date: IsoDate })[];
  };
  /** The per-day DAILY models (for the day charts). */
  readonly days: readonly PumpDayModel[];
}

export interface PumpReportInput {
  /** First day, YYYY-MM-DD or YYYY/MM/DD (inclusive). */
  readonly from: string;
  /** Last day (inclusive); at most 90 days after `from`, not in the future. */
  readonly to: string;
  readonly timeZone: string;
  /** Now, epoch ms: no future dates; nothing is drawn or counted after it. */
  readonly now: number;
  /**
   * The patient's pump history for the range, plus the last rate-carrying record before it and
   * the first record after it (see pump-day `carriesRates`); any order; more is harmless.
   */
  readonly records: readonly PumpHistoryRecord[];
  /** Meter / finger-prick readings (mg/dL) shown with the pump's BG entries; optional. */
  readonly meterReadings?: readonly BgReadingInput[];
  readonly pdaVersion?: string | null;
  /** The patient's range, mg/dL. */
  readonly limits: GlucoseLimits;
  readonly setting: ReportSetting;
  readonly pumpSettings?: StoredPumpSettings | null;
}

export type PumpReportResult =
  { readonly status: "ok"; readonly report: PumpReport } | InvalidRange;

// ---------------------------------------------------------------------------------------------
// Builder

function compareRecords(
  a: { r: PumpHistoryRecord; i: number },
  b: { r: PumpHistoryRecord; i: number },
): number {
  return a.r.dateTime - b.r.dateTime || (a.r.eventIndex ?? 0) - (b.r.eventIndex ?? 0) || a.i - b.i;
}

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

/** Insulin totals from exact units, rounded as pump-day does for one day. */
export function insulinTotalsOf(basal: number, bolus: number, recordCount: number): InsulinTotals {
  const insulin = basal + bolus;
  const basalPercent = insulin > 0 ? roundHalfUp((basal / insulin) * 100, 1) : null;
  return {
    total: roundHalfUp(insulin, 2),
    basal: roundHalfUp(basal, 2),
    basalPercent,
    bolus: roundHalfUp(bolus, 2),
    bolusPercent: basalPercent === null ? null : roundHalfUp(100 - basalPercent, 1),
    recordCount,
  };
}

/** The settings the report shows, copied out of the stored ones (null passes through). */
function shownPumpSettings(s: StoredPumpSettings | null | undefined): StoredPumpSettings | null {
  if (!s) return null;
  return {
    lowBg: [...s.lowBg],
    highBg: [...s.highBg],
    carbRatio: [...s.carbRatio],
    sensitivity: [...s.sensitivity],
    originBasal: s.originBasal,
    bolusRate: s.bolusRate,
    maxBolus: s.maxBolus,
    doubleBolus: s.doubleBolus,
    effectiveTime: s.effectiveTime,
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

/** A day the charts draw something for: a pump record or a glucose value. */
export function hasChartData(day: Pick<PumpDayModel, "hasData" | "glucose">): boolean {
  return day.hasData || day.glucose.length > 0;
}

/** One multi-day chart over consecutive day models. */
function chartGroupOf(models: readonly PumpDayModel[]): PumpChartGroup {
  const windows = models.map((m) => m.window);
  const bolusCount = models.reduce((s, m) => s + m.boluses.length, 0);
  const tickStepMs = multiDayTickStepMs(windows.length);
  return {
    dates: windows.map((w) => w.date),
    start: windows[0]!.start,
    end: windows[windows.length - 1]!.end,
    tickStepMs,
    ticks: multiDayTicks(windows, tickStepMs),
    bolusCount,
    showBolusMarkers: bolusCount <= BIG_BOLUS_MAX_SHOWN,
  };
}

/**
 * The chart sections of consecutive day models (see the file comment): runs of days with data
 * become charts of at most `size` days (5), runs of days without data one `noData` section each.
 */
export function chartSectionsOf(
  days: readonly PumpDayModel[],
  size: number = CHART_GROUP_DAYS,
): PumpChartSection[] {
  const out: PumpChartSection[] = [];
  let i = 0;
  while (i < days.length) {
    const withData = hasChartData(days[i]!);
    let j = i;
    while (j < days.length && hasChartData(days[j]!) === withData) j++;
    const run = days.slice(i, j);
    if (withData)
      for (const group of chartGroups(run, size))
        out.push({ kind: "chart", group: chartGroupOf(group) });
    else
      out.push({
        kind: "noData",
        from: run[0]!.window.date,
        to: run[run.length - 1]!.window.date,
        dayCount: run.length,
      });
    i = j;
  }
  return out;
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

  const sorted = input.records
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => Number.isFinite(r.dateTime))
    .sort(compareRecords)
    .map(({ r }) => r);
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
