import type { AgpReport } from "~/report/agp-report";
import type { CgmReport } from "~/report/cgm-report";
import type { PumpReport } from "~/report/pump-report";
import { glucoseSummaryToWire, insulinTotalsToWire } from "./patient-data";

/**
 * The print reports' calls' answers (`POST /api/patient-data/pdf`, `sugarDevicePdf` and
 * `POST /api/cgms/cgm-record/agp`; docs/api.md "Reports"): the report models of app/report under
 * the names the calls answer with, without the per-day chart models. app/wire/ is the one place
 * where the app's names meet the `/api/` contract's, one module per family of calls.
 *
 * Each answer is written out field by field, in the contract's order: a field added to a model
 * reaches the API only when it is added here.
 */

/** `pdf`: the pump/BG report. */
export function pumpReportToWire(pid: number, r: PumpReport) {
  return {
    pid,
    from: r.from,
    to: r.to,
    timeZone: r.timeZone,
    start: r.start,
    end: r.end,
    dates: r.dates,
    hasData: r.hasData,
    sugarList: r.sugarList,
    pumpList: r.pumpList.map((d) => ({
      date: d.date,
      hasData: d.hasData,
      pumps: d.pumps,
      pumpTotalCount: insulinTotalsToWire(d.pumpTotalCount),
    })),
    cho: r.cho,
    choAvg: r.choAvg,
    warmMsg: r.warmMsg,
    sugarTotalCount: glucoseSummaryToWire(r.sugarTotalCount),
    PumpTotalCount: insulinTotalsToWire(r.PumpTotalCount),
    setting: r.setting,
    patientInfo: r.patientInfo,
    pdaSetting: r.pdaSetting,
    choTables: r.choTables,
    warmMsgTables: r.warmMsgTables,
    charts: r.charts,
    chartSections: r.chartSections,
    bigBoluses: r.bigBoluses,
  };
}

/** `sugarDevicePdf`: the CGM report. */
export function cgmReportToWire(pid: number, r: CgmReport) {
  return {
    pid,
    from: r.from,
    to: r.to,
    timeZone: r.timeZone,
    start: r.start,
    end: r.end,
    hasData: r.hasData,
    glucoseUnit: r.glucoseUnit,
    glucoseUnitCode: r.glucoseUnitCode,
    targetGlucoseRange: r.targetGlucoseRange,
    highestValue: r.highestValue,
    lowestValue: r.lowestValue,
    timeWhenTheHighestValueShows: r.timeWhenTheHighestValueShows,
    timeWhenTheLowestValueShows: r.timeWhenTheLowestValueShows,
    highestValueTime: r.highestValueTime,
    lowestValueTime: r.lowestValueTime,
    numberOfValue: r.numberOfValue,
    periodAverage: r.periodAverage,
    valuesAboveGoal: r.valuesAboveGoal,
    valuesBelowGoal: r.valuesBelowGoal,
    valuesWithinGoal: r.valuesWithinGoal,
    goalCounts: r.goalCounts,
    rows: r.rows,
  };
}

/** `agp`: the AGP report, with the daily profiles' dates and counts but not their points. */
export function agpReportToWire(pid: number, report: AgpReport) {
  const { dailyProfiles, ...rest } = report;
  return { pid, ...rest, dailyProfiles: dailyProfiles.map(({ points: _points, ...day }) => day) };
}
