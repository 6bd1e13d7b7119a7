import type { AgpReport } from "~/report/agp-report";
import type { CgmReport } from "~/report/cgm-report";
import type {
  AlarmListEntry,
  CarbListEntry,
  InsulinEntry,
  PumpReport,
  StoredPumpSettings,
} from "~/report/pump-report-model";
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

/** Glucose values per day as `sugarList`: the readings are `patientData`, mg/dL `statusShort0`. */
function glucoseDaysToWire(days: PumpReport["glucoseDays"]) {
  return days.map((d) => ({
    date: d.date,
    patientData: d.readings.map((e) => ({
      dateTime: e.time,
      clock: e.clock,
      statusShort0: e.mgdl,
      source: e.source,
      ...(e.id === undefined ? {} : { id: e.id }),
    })),
  }));
}

/**
 * An insulin entry as a `pumps` item: its start is `deviceRecordTime`, its rounded bolus
 * `totalBolusRate`, its extended part's length `delayTime`, its record count `points`.
 */
function insulinEntryToWire(e: InsulinEntry) {
  return {
    deviceRecordTime: e.start,
    end: e.end,
    clock: e.clock,
    dataType: e.dataType,
    bolusKind: e.bolusKind,
    basalRate: e.basalRate,
    totalBolusRate: e.bolusUnitsDisplay,
    units: e.units,
    delayTime: e.extendedDisplayMs,
    points: e.recordCount,
  };
}

/** A carbohydrate entry of `cho`. */
function carbEntryToWire(c: CarbListEntry) {
  return { dateTime: c.time, date: c.date, clock: c.clock, grams: c.grams, source: c.source };
}

/** An alarm as a `warmMsg` item: its kind is `remark`. */
function alarmToWire(a: AlarmListEntry) {
  return {
    dateTime: a.time,
    date: a.date,
    clock: a.clock,
    remark: a.kind,
    severity: a.severity,
    code: a.code,
  };
}

/** The pump settings as `pdaSetting`: the lists end in `Array`, carbRatio is `defaultCho`, sensitivity `sensitiveSilver`. */
function pumpSettingsToWire(s: StoredPumpSettings) {
  return {
    defaultChoArray: s.carbRatio,
    bolusRate: s.bolusRate,
    doubleBolus: s.doubleBolus,
    effectiveTime: s.effectiveTime,
    highBgArray: s.highBg,
    lowBgArray: s.lowBg,
    maxBolus: s.maxBolus,
    originBasal: s.originBasal,
    sensitiveSilverArray: s.sensitivity,
  };
}

/**
 * `pdf`: the pump/BG report. Insulin days are `pumpList`, carbohydrates `cho` (`list`, `avg` per
 * day) and `choAvg` per entry, alarms `warmMsg`, the patient's limits `patientInfo`.
 */
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
    sugarList: glucoseDaysToWire(r.glucoseDays),
    pumpList: r.insulinDays.map((d) => ({
      date: d.date,
      hasData: d.hasData,
      pumps: d.entries.map(insulinEntryToWire),
      pumpTotalCount: insulinTotalsToWire(d.totals),
    })),
    cho: {
      list: r.carbs.entries.map(carbEntryToWire),
      avg: r.carbs.perDay,
      total: r.carbs.total,
      daysWithData: r.carbs.daysWithData,
    },
    choAvg: r.carbsPerEntry,
    warmMsg: r.alarms.map(alarmToWire),
    sugarTotalCount: glucoseSummaryToWire(r.glucoseSummary),
    PumpTotalCount: insulinTotalsToWire(r.insulinTotals),
    setting: r.setting,
    patientInfo: { highLimit: r.limits.high, lowLimit: r.limits.low },
    pdaSetting: r.pumpSettings && pumpSettingsToWire(r.pumpSettings),
    choTables: r.carbTables.map((t) => t.map(carbEntryToWire)),
    warmMsgTables: r.alarmTables.map((t) => t.map(alarmToWire)),
    charts: r.charts,
    chartSections: r.chartSections,
    bigBoluses: {
      count: r.bigBoluses.count,
      shown: r.bigBoluses.shown,
      entries: r.bigBoluses.entries.map((e) => ({ ...insulinEntryToWire(e), date: e.date })),
    },
  };
}

/**
 * `sugarDevicePdf`: the CGM report. The limits are `targetGlucoseRange`; the highest and lowest
 * value `highestValue` / `lowestValue`, their local times `timeWhenThe...ValueShows` and instants
 * `...ValueTime`; the count `numberOfValue`, the mean `periodAverage`, the percentages
 * `values...Goal`; a row's id is `pdid`, its local time `dateTimeStr`, its mg/dL `statusShort0`.
 */
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
    targetGlucoseRange: { low: r.limits.low, high: r.limits.high },
    highestValue: r.highest,
    lowestValue: r.lowest,
    timeWhenTheHighestValueShows: r.highestLocalTime,
    timeWhenTheLowestValueShows: r.lowestLocalTime,
    highestValueTime: r.highestAt,
    lowestValueTime: r.lowestAt,
    numberOfValue: r.readingCount,
    periodAverage: r.mean,
    valuesAboveGoal: r.abovePercent,
    valuesBelowGoal: r.belowPercent,
    valuesWithinGoal: r.withinPercent,
    goalCounts: r.goalCounts,
    rows: r.rows.map((row) => ({
      pdid: row.id,
      dateTimeStr: row.localTime,
      time: row.time,
      statusShort0: row.mgdl,
    })),
  };
}

/** `agp`: the AGP report, with the daily profiles' dates and counts but not their points. */
export function agpReportToWire(pid: number, report: AgpReport) {
  const { dailyProfiles, ...rest } = report;
  return { pid, ...rest, dailyProfiles: dailyProfiles.map(({ points: _points, ...day }) => day) };
}
