import { computeAll } from "~/metrics";
import { mgdlToMmol } from "~/domain/glucose-unit";
import { buildBgRange } from "~/report/bg-range";
import { buildCgmDay, buildCgmOverlay, OVERLAY_DAYS } from "~/report/cgm-day";
import {
  checkRange,
  dayWindow,
  shiftDate,
  todayIn,
  type DayWindow,
  type IsoDate,
  type RangeProblem,
} from "~/report/day";
import { buildPumpDay } from "~/report/pump-day";
import { QUICK_DAYS, quickDaysOf, quickRange } from "~/report/quick-ranges";
import { RANGE_RULES } from "~/report/report-range";
import {
  DEFAULT_BG_DAYS,
  type DateField,
  type PatientViewQuery,
  type ViewTab,
} from "~/schemas/patient-view";
import type { VisiblePatient, Viewer } from "~/models/access.server";
import {
  bgReadings,
  cgmReadings,
  lastDayWithData,
  nearestDayWith,
  pumpDayRecords,
  pumpVersion,
  type DataKind,
} from "~/models/patient-data.server";

/** Minutes before midnight whose CGM readings let the trend at 00:05 use the evening's values. */
const TREND_LEAD_MS = 20 * 60_000;

export type DateProblem = "invalid" | "future";

/** Where the date navigator of a one-day view points: previous, next and last day with data. */
export interface DayNavigation {
  readonly date: IsoDate;
  readonly today: IsoDate;
  readonly previous: IsoDate;
  /** null when the next day would be in the future. */
  readonly next: IsoDate | null;
  /** The newest day with data of this view's kind (null without any). */
  readonly lastDay: IsoDate | null;
  /** For a day without data: the nearest day with data. */
  readonly nearest: IsoDate | null;
  /** What was wrong with the date asked for, if anything (then `date` is the default day). */
  readonly problem: DateProblem | null;
  /** The date as typed, for the picker when it was refused. */
  readonly typed: string;
}

function patientLimits(patient: VisiblePatient) {
  return { low: patient.lowLimit, high: patient.highLimit };
}

function mealWindows(patient: VisiblePatient) {
  const { breakfastStart, breakfastEnd, lunchStart, lunchEnd, supperStart, supperEnd } = patient;
  return { breakfastStart, breakfastEnd, lunchStart, lunchEnd, supperStart, supperEnd };
}

/** Checks a chosen date against the patient's today; null when it is acceptable. */
function dateProblem(field: DateField, today: IsoDate): DateProblem | null {
  if (field.invalid) return "invalid";
  if (field.value !== null && field.value > today) return "future";
  return null;
}

/**
 * A one-day view: the chosen date, else the last day with data of its kind, else today. A chosen
 * day's data loads while the last day with data is looked up; a day without data gets the
 * nearest day with data (the empty state's offer).
 */
async function loadDay<T>(
  viewer: Viewer,
  patient: VisiblePatient,
  kind: DataKind,
  field: DateField,
  now: number,
  load: (window: DayWindow) => Promise<T>,
  hasData: (data: T) => boolean,
): Promise<{ window: DayWindow; nav: DayNavigation; data: T }> {
  const timeZone = patient.timeZone;
  const today = todayIn(timeZone, now);
  const problem = dateProblem(field, today);
  const lastDayFound = lastDayWithData(viewer, patient.id, kind, timeZone);
  const date = (problem === null ? field.value : null) ?? (await lastDayFound) ?? today;
  const window = dayWindow(date, timeZone);
  const [lastDay, data] = await Promise.all([lastDayFound, load(window)]);
  const nearest =
    hasData(data) || lastDay === null
      ? null
      : await nearestDayWith(viewer, patient.id, kind, window);
  const next = shiftDate(date, 1);
  return {
    window,
    data,
    nav: {
      date,
      today,
      previous: shiftDate(date, -1),
      next: next > today ? null : next,
      lastDay,
      nearest,
      problem,
      typed: field.raw,
    },
  };
}

/**
 * One local day of pump history as the DAILY model (nothing drawn beyond `now`), with the day's
 * meter readings among its glucose, as the printed pump report draws them.
 */
async function pumpDay(viewer: Viewer, patient: VisiblePatient, window: DayWindow, now: number) {
  const [around, version, meterReadings] = await Promise.all([
    pumpDayRecords(viewer, patient.id, window),
    pumpVersion(viewer, patient.id),
    bgReadings(viewer, patient.id, { start: window.start, end: window.end }),
  ]);
  return buildPumpDay({
    date: window.date,
    timeZone: window.timeZone,
    ...around,
    pdaVersion: version,
    until: Math.min(now, window.end),
    limits: patientLimits(patient),
    meterReadings,
  });
}

/** One local day of CGM readings: the CGMS day model and the day's metrics (app/metrics). */
async function cgmDay(viewer: Viewer, patient: VisiblePatient, window: DayWindow) {
  const readings = await cgmReadings(viewer, patient.id, {
    start: window.start - TREND_LEAD_MS,
    end: window.end,
  });
  const day = buildCgmDay({
    date: window.date,
    timeZone: window.timeZone,
    readings,
    limits: patientLimits(patient),
  });
  const metrics = computeAll(
    readings.filter((r) => r.time >= window.start),
    { timeZone: window.timeZone, limits: patientLimits(patient) },
  );
  return {
    day,
    stats: {
      mean: metrics.mean.value,
      sd: metrics.sd.value,
      cv: metrics.cv.value,
      gmi: metrics.gmi.value,
    },
  };
}

/** Meter readings of whole local days `from` to `to` as the BG model. */
async function bgRange(viewer: Viewer, patient: VisiblePatient, from: IsoDate, to: IsoDate) {
  const { start } = dayWindow(from, patient.timeZone);
  const { end } = dayWindow(to, patient.timeZone);
  const readings = await bgReadings(viewer, patient.id, { start, end });
  return buildBgRange({
    from,
    to,
    timeZone: patient.timeZone,
    readings,
    limits: patientLimits(patient),
    mealWindows: mealWindows(patient),
  });
}

/** DAILY: one local day of pump history. */
export async function dailyView(
  viewer: Viewer,
  patient: VisiblePatient,
  query: PatientViewQuery,
  now: number,
) {
  const { nav, data: pump } = await loadDay(
    viewer,
    patient,
    "pump",
    query.date,
    now,
    (window) => pumpDay(viewer, patient, window, now),
    (pump) => pump.hasData,
  );
  return { tab: "daily" as const, nav, pump };
}

/** CGMS, one day: the trace, trend, alarm class, ranges and the day's metrics. */
export async function cgmDayView(
  viewer: Viewer,
  patient: VisiblePatient,
  query: PatientViewQuery,
  now: number,
) {
  const { nav, data } = await loadDay(
    viewer,
    patient,
    "cgm",
    query.date,
    now,
    (window) => cgmDay(viewer, patient, window),
    (cgm) => cgm.day.hasData,
  );
  return { tab: "cgms" as const, view: "day" as const, nav, ...data };
}

/** The 14-day overlay ending on a day, with the period's ranges and statistics. */
async function cgmOverlay(viewer: Viewer, patient: VisiblePatient, window: DayWindow) {
  const start = dayWindow(shiftDate(window.date, -(OVERLAY_DAYS - 1)), window.timeZone).start;
  const readings = await cgmReadings(viewer, patient.id, { start, end: window.end });
  const overlay = buildCgmOverlay({
    endDate: window.date,
    timeZone: window.timeZone,
    readings,
    limits: patientLimits(patient),
  });
  const metrics = computeAll(readings, {
    timeZone: window.timeZone,
    limits: patientLimits(patient),
  });
  const stats = {
    readings: metrics.meta.readings,
    mean: metrics.mean.value,
    cv: metrics.cv.value,
    gmi: metrics.gmi.value,
    activePercent: metrics.activePercent.value,
    timeInRanges: metrics.timeInRanges.value,
  };
  return { overlay, stats };
}

/** CGMS, 14-day overlay ending on the chosen day, or today for the quick range. */
export async function cgmOverlayView(
  viewer: Viewer,
  patient: VisiblePatient,
  query: PatientViewQuery,
  now: number,
) {
  const quick = quickDaysOf(query.days, QUICK_DAYS.cgmOverlay);
  const date: DateField =
    quick === null
      ? query.date
      : { value: quickRange(quick, patient.timeZone, now).end, raw: "", invalid: false };
  const { nav, data } = await loadDay(
    viewer,
    patient,
    "cgm",
    date,
    now,
    (window) => cgmOverlay(viewer, patient, window),
    (o) => o.overlay.hasData,
  );
  return { tab: "cgms" as const, view: "overlay" as const, nav, ...data };
}

/** The BG range shown and what was wrong with the one asked for. */
export interface BgRangeChoice {
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly today: IsoDate;
  readonly lastDay: IsoDate | null;
  readonly problem: DateProblem | RangeProblem | null;
  readonly typed: { readonly from: string; readonly to: string };
}

/**
 * BG: meter readings of a range of whole days (default: two weeks ending on the last day with
 * readings; a quick range: the last N days ending today). A refused range (bad date, end before
 * start, future, over 90 days) is reported and the default range shown.
 */
export async function bgView(
  viewer: Viewer,
  patient: VisiblePatient,
  query: PatientViewQuery,
  now: number,
) {
  const timeZone = patient.timeZone;
  const today = todayIn(timeZone, now);
  const lastDay = await lastDayWithData(viewer, patient.id, "bg", timeZone);
  const fallbackTo = lastDay ?? today;
  const quick = quickDaysOf(query.days, QUICK_DAYS.bgView);
  const asked =
    quick === null
      ? { to: query.to.value ?? query.date.value ?? fallbackTo, from: query.from.value }
      : { to: today, from: quickRange(quick, timeZone, now).start };
  const askedFrom = asked.from ?? shiftDate(asked.to, -(DEFAULT_BG_DAYS - 1));
  const typedProblem =
    quick === null ? (dateProblem(query.from, today) ?? dateProblem(query.to, today)) : null;
  const problem =
    typedProblem ??
    checkRange(askedFrom, asked.to, { timeZone, now, maxDays: RANGE_RULES.long.maxDays });
  const to = problem ? fallbackTo : asked.to;
  const from = problem ? shiftDate(fallbackTo, -(DEFAULT_BG_DAYS - 1)) : askedFrom;
  const model = await bgRange(viewer, patient, from, to);
  const range: BgRangeChoice = {
    from,
    to,
    today,
    lastDay,
    problem,
    typed: { from: query.from.raw, to: query.to.raw },
  };
  return { tab: "bg" as const, range, model };
}

/** The tabs a viewer gets: no CGMS when the interface language is Russian. */
export function tabsFor(locale: string): ViewTab[] {
  return locale === "ru" ? ["daily", "bg"] : ["daily", "bg", "cgms"];
}

/** The view of the patient page asked for by the query (CGMS falls back to DAILY where it is hidden). */
export function patientView(
  viewer: Viewer,
  patient: VisiblePatient,
  query: PatientViewQuery,
  locale: string,
  now: number,
) {
  const tab = tabsFor(locale).includes(query.tab) ? query.tab : "daily";
  if (tab === "bg") return bgView(viewer, patient, query, now);
  if (tab === "cgms")
    return query.view === "overlay"
      ? cgmOverlayView(viewer, patient, query, now)
      : cgmDayView(viewer, patient, query, now);
  return dailyView(viewer, patient, query, now);
}

/**
 * The data API's day (GET /api/patient-data/findPatientData): the DAILY, CGMS and BG models of
 * one local day, with the nearest day with data of each kind when the day has none.
 */
export async function patientDayData(
  viewer: Viewer,
  patient: VisiblePatient,
  date: IsoDate,
  now: number,
) {
  const window = dayWindow(date, patient.timeZone);
  const [pump, cgm, bg] = await Promise.all([
    pumpDay(viewer, patient, window, now),
    cgmDay(viewer, patient, window),
    bgRange(viewer, patient, date, date),
  ]);
  const nearest = (kind: DataKind, has: boolean) =>
    has ? Promise.resolve(date) : nearestDayWith(viewer, patient.id, kind, window);
  const [pumpDate, cgmDate, bgDate] = await Promise.all([
    nearest("pump", pump.hasData),
    nearest("cgm", cgm.day.hasData),
    nearest("bg", bg.hasData),
  ]);
  return {
    pid: patient.id,
    date,
    timeZone: patient.timeZone,
    nearestWithData: { pump: pumpDate, cgm: cgmDate, bg: bgDate },
    pump,
    cgm: cgm.day,
    cgmStats: cgm.stats,
    bg,
  };
}

export type PatientDay = Awaited<ReturnType<typeof patientDayData>>;

/** The data API's meter readings (GET /api/patient-data/sugarData) of whole local days; the range is checked by the caller. */
export async function patientMeterReadings(
  viewer: Viewer,
  patient: VisiblePatient,
  from: IsoDate,
  to: IsoDate,
) {
  const model = await bgRange(viewer, patient, from, to);
  return {
    pid: patient.id,
    timeZone: patient.timeZone,
    limits: model.limits,
    summary: model.summary,
    days: model.days,
    byTag: model.byTag,
  };
}

export type PatientMeterReadings = Awaited<ReturnType<typeof patientMeterReadings>>;

/** The data API's CGM readings (GET /api/cgms/cgm-record/findList) of whole local days; the range is checked by the caller. */
export async function cgmList(viewer: Viewer, patient: VisiblePatient, from: IsoDate, to: IsoDate) {
  const { start } = dayWindow(from, patient.timeZone);
  const { end } = dayWindow(to, patient.timeZone);
  const readings = await cgmReadings(viewer, patient.id, { start, end });
  const metrics = computeAll(readings, {
    timeZone: patient.timeZone,
    limits: patientLimits(patient),
  });
  return {
    pid: patient.id,
    timeZone: patient.timeZone,
    count: readings.length,
    timeInRanges: metrics.timeInRanges.value,
    readings: readings.map((r) => ({
      dateTime: new Date(r.time).toISOString(),
      mgdl: r.mgdl,
      mmol: mgdlToMmol(r.mgdl),
    })),
  };
}

export type PatientView = Awaited<ReturnType<typeof patientView>>;

/**
 * What the page needs of a view once its chart is drawn: the per-reading arrays of the CGM
 * models and the pump day's rate steps are left out of the page data (the SVG already shows them;
 * the table keeps every event), which keeps the document small.
 */
export function forPage(view: PatientView) {
  if (view.tab === "daily") {
    const { basal: _basal, boluses: _boluses, ...pump } = view.pump;
    return { ...view, pump };
  }
  if (view.tab === "cgms" && view.view === "day") {
    const { points: _points, ...day } = view.day;
    return { ...view, day };
  }
  if (view.tab === "cgms") {
    const { days: _days, ...overlay } = view.overlay;
    return { ...view, overlay };
  }
  return view;
}
