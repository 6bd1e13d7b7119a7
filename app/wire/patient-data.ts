import type { PatientDay, PatientMeterReadings } from "~/services/patient-view.server";
import type { BgRangeModel, GlucoseSummary } from "~/report/bg-range";
import type { CgmDayModel, CgmDaySummary } from "~/report/cgm-day";
import type { InsulinTotals, PumpDayModel } from "~/report/pump-day-model";

/**
 * The patient-data read calls' answers (`GET /api/patient-data/findPatientData` and
 * `sugarData`; docs/api.md "Patient data reads"): the app's day and range models under the names
 * the calls answer with. app/wire/ is the one place where the app's names meet the `/api/`
 * contract's, one module per family of calls; the print reports' calls use the summaries below
 * too (app/wire/reports.ts).
 *
 * Each answer is written out field by field, in the contract's order: a field added to a model
 * reaches the API only when it is added here.
 */

/** A glucose summary as `sugarTotalCount`: the mean is `sugarAvg`, the count `size`. */
export function glucoseSummaryToWire(s: GlucoseSummary) {
  return {
    sugarAvg: s.mean,
    size: s.count,
    high: s.high,
    highPercent: s.highPercent,
    low: s.low,
    lowPercent: s.lowPercent,
  };
}

/** Insulin totals as `PumpTotalCount`: the number of pump records is `points`. */
export function insulinTotalsToWire(t: InsulinTotals) {
  return {
    total: t.total,
    basal: t.basal,
    basalPercent: t.basalPercent,
    bolus: t.bolus,
    bolusPercent: t.bolusPercent,
    points: t.recordCount,
  };
}

/** The DAILY model; its insulin totals as `pumpTotalCount`. */
export function pumpDayToWire(d: PumpDayModel) {
  return {
    window: d.window,
    dataEnd: d.dataEnd,
    hasData: d.hasData,
    pdaVersion: d.pdaVersion,
    carbEncoding: d.carbEncoding,
    basal: d.basal,
    boluses: d.boluses,
    showBolusMarkers: d.showBolusMarkers,
    carbs: d.carbs,
    flaggedCalculations: d.flaggedCalculations,
    bg: d.bg,
    glucose: d.glucose,
    alarms: d.alarms,
    totals: d.totals,
    pumpTotalCount: insulinTotalsToWire(d.insulinTotals),
    device: d.device,
    table: d.table,
  };
}

/** The CGMS day's figures: the count is `numberOfValue`, the mean `periodAverage`. */
function cgmDaySummaryToWire(s: CgmDaySummary) {
  return {
    numberOfValue: s.readingCount,
    periodAverage: s.mean,
    highest: s.highest,
    lowest: s.lowest,
  };
}

/** The CGMS day model. */
export function cgmDayToWire(d: CgmDayModel) {
  return {
    window: d.window,
    hasData: d.hasData,
    points: d.points,
    targetBand: d.targetBand,
    latest: d.latest,
    trend: d.trend,
    alarm: d.alarm,
    timeInRanges: d.timeInRanges,
    goal: d.goal,
    summary: d.summary && cgmDaySummaryToWire(d.summary),
    ticks: d.ticks,
  };
}

/** The BG model; its summary as `sugarTotalCount` names it. */
export function bgRangeToWire(m: BgRangeModel) {
  return {
    from: m.from,
    to: m.to,
    timeZone: m.timeZone,
    start: m.start,
    end: m.end,
    limits: m.limits,
    mealWindows: m.mealWindows,
    days: m.days,
    hasData: m.hasData,
    summary: glucoseSummaryToWire(m.summary),
    classes: m.classes,
    byTag: m.byTag,
  };
}

/** `findPatientData`: one local day's DAILY, CGMS and BG models. */
export function patientDayToWire(day: PatientDay) {
  return {
    pid: day.pid,
    date: day.date,
    timeZone: day.timeZone,
    nearestWithData: day.nearestWithData,
    pump: pumpDayToWire(day.pump),
    cgm: cgmDayToWire(day.cgm),
    cgmStats: day.cgmStats,
    bg: bgRangeToWire(day.bg),
  };
}

/** `sugarData`: the meter readings of a range of days, their summary as `sugarTotalCount`. */
export function meterReadingsToWire(r: PatientMeterReadings) {
  return {
    pid: r.pid,
    timeZone: r.timeZone,
    limits: r.limits,
    sugarTotalCount: glucoseSummaryToWire(r.summary),
    days: r.days,
    byTag: r.byTag,
  };
}
