/**
 * The statistics print report model: every metric of app/metrics `computeAll` for the period and
 * for the previous period of equal length (the caller passes both sets of readings), one row per
 * metric with its unit kind, sufficiency flag, control / risk level (levels.ts), the previous
 * value and the change, and the method text key with the parameters app/metrics actually used.
 *
 * The report's main metrics, in this order: MBG, M-value, LBGI, HBGI, ADRR, GRADE, MAGE, MODD,
 * SDBG, CV, J-index, IQR, AAC100, AUC100, LAGE, MAG, CONGA4, eHbA1c, TIR (19); then the other
 * numeric metrics of computeAll as further metrics (median, min, Q25, Q75, max, MAGE naive,
 * CONGA1, GMI, GRI, sensor active %). Not rows: the AGP (its own report), the trend arrow and alarm class (they describe
 * the latest reading, not a period) and the consensus targets (given per period in `targets`).
 *
 * Units and the mmol/L display (mmol/L = mg/dL / 18):
 * - "glucose" (mg/dL): MBG, median, min, max, Q25, Q75, SDBG, IQR, LAGE, MAGE, MAGE naive, MODD,
 *   CONGA. All are glucose values or differences / SDs of glucose values, so they scale
 *   linearly: divide by 18 for mmol/L (the change too).
 * - "glucosePerHour" (mg/dL/h): MAG; linear, / 18.
 * - "glucoseHoursPerDay" (mg/dL x h per day): AUC100, AAC100; linear, / 18 (their threshold,
 *   100 mg/dL, is a glucose parameter and shows as 5.6 mmol/L).
 * - "percent": CV, GMI, eHbA1c, TIR, sensor active %: the same in both units.
 * - "unitless": LBGI, HBGI, ADRR, GRADE, M-value, J-index, GRI. These are non-linear functions of
 *   mg/dL (logarithms, powers, mg/dL-based constants) and are defined on the mg/dL scale; their
 *   number is the same whichever unit the page shows and must NOT be divided by 18. (J-index is
 *   0.001 (mean + SD)^2 in mg/dL, equivalently 0.324 (mean + SD)^2 in mmol/L: the same number.)
 * `statisticInUnit` applies exactly this.
 */
import { AREA_THRESHOLD_MGDL } from "../metrics/area";
import { DEFAULT_LIMITS, type GlucoseLimits } from "../metrics/alarm";
import { GRID_STEP_MIN, INTER_GAP_MIN } from "../metrics/grid";
import { computeAll, type AllMetrics, type ComputeOptions } from "../metrics/index";
import type { Coverage, DataKind } from "../metrics/coverage";
import {
  CONSENSUS_MIN_ACTIVE_PERCENT,
  CONSENSUS_MIN_DAYS,
  METER_MIN_DAYS,
  METER_MIN_READINGS_PER_DAY,
} from "../metrics/coverage";
import type { ControlLevel, RiskLevel } from "../metrics/levels";
import type { ConsensusTargets, TargetPopulation, TimeInRanges } from "../metrics/ranges";
import { KOVATCHEV_SPLIT_MGDL } from "../metrics/risk";
import type { MetricResult, Reading } from "../metrics/types";
import { dayWindow, daysBetween, shiftDate, type IsoDate } from "./day";
import { checkReportRange, type InvalidRange } from "./report-range";
import { toUnit, type GlucoseUnit } from "../domain/glucose-unit";
import { unitCode } from "./units";

/**
 * The MAGE parameters computeAll uses: mage.ts `mageMaDirections` defaults (short_ma 5, long_ma
 * 32 five-minute points, segments split at gaps over 180 min; iglu 4.3.0 defaults). mage.ts does
 * not export them; statistics-report.test.ts checks that passing these explicitly gives
 * computeAll's MAGE, so a change there fails here.
 */
export const MAGE_PARAMETERS = { shortMa: 5, longMa: 32, maxGapMin: 180 } as const;
/** CONGA lags computeAll reports (index.ts: conga(ctx, 1) and conga(ctx, 4)), hours. */
export const CONGA_HOURS = { conga1: 1, conga4: 4 } as const;
/** MODD lag (variability.ts `modd` default), days. */
export const MODD_LAG_DAYS = 1;

export type StatisticUnitKind =
  "glucose" | "glucosePerHour" | "glucoseHoursPerDay" | "percent" | "unitless";

/** Row keys: the main metrics, then the other computeAll metrics. */
export type StatisticKey =
  | "MBG"
  | "M-value"
  | "LBGI"
  | "HBGI"
  | "ADRR"
  | "GRADE"
  | "MAGE"
  | "MODD"
  | "SDBG"
  | "CV"
  | "J-index"
  | "IQR"
  | "AAC100"
  | "AUC100"
  | "LAGE"
  | "MAG"
  | "CONGA4"
  | "eHbA1c"
  | "TIR"
  | "GMI"
  | "median"
  | "min"
  | "Q25"
  | "Q75"
  | "max"
  | "MAGE-naive"
  | "CONGA1"
  | "GRI"
  | "sensorActive";

/** The numeric computeAll fields a row may read (TIR reads timeInRanges.range70to180). */
type NumericField =
  | "mean"
  | "mValue"
  | "lbgi"
  | "hbgi"
  | "adrr"
  | "grade"
  | "mage"
  | "modd"
  | "sd"
  | "cv"
  | "jIndex"
  | "iqr"
  | "aac100"
  | "auc100"
  | "lage"
  | "mag"
  | "conga4"
  | "ea1c"
  | "gmi"
  | "median"
  | "min"
  | "q25"
  | "q75"
  | "max"
  | "mageNaive"
  | "conga1"
  | "gri"
  | "activePercent";

type LevelSource = "control" | "lbgi" | "hbgi" | "adrr";

interface StatisticDefinition {
  readonly key: StatisticKey;
  /** computeAll field (or "tir"). */
  readonly field: NumericField | "tir";
  readonly unitKind: StatisticUnitKind;
  /** One of the report's main metrics (its first table); the others follow as further metrics. */
  readonly inSpec: boolean;
  readonly level?: LevelSource;
  /** Method text key suffix: `statistics.method.<method>`. */
  readonly method: string;
  readonly params?: (m: AllMetrics) => Readonly<Record<string, number | string>>;
  /** Names of `params` that are mg/dL (convert for display). */
  readonly glucoseParams?: readonly string[];
}

const GRID = { gridStepMin: GRID_STEP_MIN, interGapMin: INTER_GAP_MIN };

/** Every row, in display order. */
export const STATISTIC_DEFINITIONS: readonly StatisticDefinition[] = [
  { key: "MBG", field: "mean", unitKind: "glucose", inSpec: true, method: "mbg" },
  {
    key: "M-value",
    field: "mValue",
    unitKind: "unitless",
    inSpec: true,
    method: "mValue",
    params: (m) => ({ referenceMgdl: m.meta.mValueRef }),
    glucoseParams: ["referenceMgdl"],
  },
  {
    key: "LBGI",
    field: "lbgi",
    unitKind: "unitless",
    inSpec: true,
    level: "lbgi",
    method: "lbgi",
    params: () => ({ splitMgdl: KOVATCHEV_SPLIT_MGDL }),
    glucoseParams: ["splitMgdl"],
  },
  {
    key: "HBGI",
    field: "hbgi",
    unitKind: "unitless",
    inSpec: true,
    level: "hbgi",
    method: "hbgi",
    params: () => ({ splitMgdl: KOVATCHEV_SPLIT_MGDL }),
    glucoseParams: ["splitMgdl"],
  },
  {
    key: "ADRR",
    field: "adrr",
    unitKind: "unitless",
    inSpec: true,
    level: "adrr",
    method: "adrr",
    params: () => ({ day: "localCalendarDay" }),
  },
  { key: "GRADE", field: "grade", unitKind: "unitless", inSpec: true, method: "grade" },
  {
    key: "MAGE",
    field: "mage",
    unitKind: "glucose",
    inSpec: true,
    method: "mage",
    params: () => ({ ...MAGE_PARAMETERS, direction: "avg", ...GRID }),
  },
  {
    key: "MODD",
    field: "modd",
    unitKind: "glucose",
    inSpec: true,
    method: "modd",
    params: () => ({ lagDays: MODD_LAG_DAYS, ...GRID }),
  },
  { key: "SDBG", field: "sd", unitKind: "glucose", inSpec: true, method: "sdbg" },
  { key: "CV", field: "cv", unitKind: "percent", inSpec: true, method: "cv" },
  { key: "J-index", field: "jIndex", unitKind: "unitless", inSpec: true, method: "jIndex" },
  {
    key: "IQR",
    field: "iqr",
    unitKind: "glucose",
    inSpec: true,
    method: "iqr",
    params: () => ({ quantileType: 7 }),
  },
  {
    key: "AAC100",
    field: "aac100",
    unitKind: "glucoseHoursPerDay",
    inSpec: true,
    method: "aac",
    params: () => ({ thresholdMgdl: AREA_THRESHOLD_MGDL, ...GRID }),
    glucoseParams: ["thresholdMgdl"],
  },
  {
    key: "AUC100",
    field: "auc100",
    unitKind: "glucoseHoursPerDay",
    inSpec: true,
    method: "auc",
    params: () => ({ thresholdMgdl: AREA_THRESHOLD_MGDL, ...GRID }),
    glucoseParams: ["thresholdMgdl"],
  },
  { key: "LAGE", field: "lage", unitKind: "glucose", inSpec: true, method: "lage" },
  {
    key: "MAG",
    field: "mag",
    unitKind: "glucosePerHour",
    inSpec: true,
    method: "mag",
    params: () => ({ intervalMin: GRID_STEP_MIN, ...GRID }),
  },
  {
    key: "CONGA4",
    field: "conga4",
    unitKind: "glucose",
    inSpec: true,
    method: "conga",
    params: () => ({ hours: CONGA_HOURS.conga4, ...GRID }),
  },
  { key: "eHbA1c", field: "ea1c", unitKind: "percent", inSpec: true, method: "ea1c" },
  {
    key: "TIR",
    field: "tir",
    unitKind: "percent",
    inSpec: true,
    method: "tir",
    params: () => ({ lowMgdl: 70, highMgdl: 180 }),
    glucoseParams: ["lowMgdl", "highMgdl"],
  },
  { key: "median", field: "median", unitKind: "glucose", inSpec: false, method: "median" },
  { key: "min", field: "min", unitKind: "glucose", inSpec: false, method: "min" },
  {
    key: "Q25",
    field: "q25",
    unitKind: "glucose",
    inSpec: false,
    method: "quantile",
    params: () => ({ percentile: 25, quantileType: 7 }),
  },
  {
    key: "Q75",
    field: "q75",
    unitKind: "glucose",
    inSpec: false,
    method: "quantile",
    params: () => ({ percentile: 75, quantileType: 7 }),
  },
  { key: "max", field: "max", unitKind: "glucose", inSpec: false, method: "max" },
  {
    key: "MAGE-naive",
    field: "mageNaive",
    unitKind: "glucose",
    inSpec: false,
    method: "mageNaive",
    params: () => ({ sdMultiplier: 1 }),
  },
  {
    key: "CONGA1",
    field: "conga1",
    unitKind: "glucose",
    inSpec: false,
    method: "conga",
    params: () => ({ hours: CONGA_HOURS.conga1, ...GRID }),
  },
  { key: "GMI", field: "gmi", unitKind: "percent", inSpec: false, method: "gmi" },
  {
    key: "GRI",
    field: "gri",
    unitKind: "unitless",
    inSpec: false,
    level: "control",
    method: "gri",
  },
  {
    key: "sensorActive",
    field: "activePercent",
    unitKind: "percent",
    inSpec: false,
    method: "sensorActive",
  },
];

/** True for the unit kinds whose numbers are divided by 18 for mmol/L. */
export function convertsWithUnit(kind: StatisticUnitKind): boolean {
  return kind === "glucose" || kind === "glucosePerHour" || kind === "glucoseHoursPerDay";
}

/** A statistic (or a change of one) in the display unit, unrounded; unitless and percent values unchanged. */
export function statisticInUnit(
  value: number | null,
  kind: StatisticUnitKind,
  unit: GlucoseUnit,
): number | null {
  if (value === null) return null;
  return convertsWithUnit(kind) ? toUnit(value, unit) : value;
}

/**
 * A row in the display unit: value, previous and change through {@link statisticInUnit}, and the
 * method's glucose parameters (`glucoseParams`) converted too; everything else as it is.
 */
export function statisticRowInUnit(row: StatisticRow, unit: GlucoseUnit): StatisticRow {
  const convert = (value: number | null) => statisticInUnit(value, row.unitKind, unit);
  const params = Object.fromEntries(
    Object.entries(row.method.params).map(([name, value]) => [
      name,
      typeof value === "number" && row.method.glucoseParams.includes(name)
        ? toUnit(value, unit)
        : value,
    ]),
  );
  return {
    ...row,
    value: convert(row.value),
    previous: convert(row.previous),
    change: convert(row.change),
    method: { ...row.method, params },
  };
}

/** Unit code of a row for a display unit (not translated; "" for unitless). */
export function statisticUnitCode(kind: StatisticUnitKind, unit: GlucoseUnit): string {
  const g = unitCode(unit);
  switch (kind) {
    case "glucose":
      return g;
    case "glucosePerHour":
      return `${g}/h`;
    case "glucoseHoursPerDay":
      return `${g}·h/day`;
    case "percent":
      return "%";
    case "unitless":
      return "";
  }
}

export interface StatisticLevel {
  readonly kind: "control" | "risk";
  readonly current: ControlLevel | RiskLevel | null;
  readonly currentSufficient: boolean;
  readonly previous: ControlLevel | RiskLevel | null;
  readonly previousSufficient: boolean;
}

export interface StatisticMethod {
  /** Translation key of the method line printed under the table. */
  readonly textKey: string;
  readonly params: Readonly<Record<string, number | string>>;
  /** Names of `params` in mg/dL (shown in the display unit). */
  readonly glucoseParams: readonly string[];
}

export interface StatisticRow {
  readonly key: StatisticKey;
  readonly unitKind: StatisticUnitKind;
  /** Divide value, previous and change by 18 for mmol/L. */
  readonly convertsWithUnit: boolean;
  /** One of the report's main metrics, shown in the first table. */
  readonly inSpec: boolean;
  /** mg/dL-based value (see the file comment for the unit). */
  readonly value: number | null;
  readonly sufficient: boolean;
  readonly previous: number | null;
  readonly previousSufficient: boolean;
  /** value - previous (null unless both exist). */
  readonly change: number | null;
  readonly level: StatisticLevel | null;
  readonly method: StatisticMethod;
}

export interface PeriodSummary {
  readonly from: IsoDate;
  readonly to: IsoDate;
  /** Epoch ms [start, end). */
  readonly start: number;
  readonly end: number;
  readonly readings: number;
  readonly coverage: Coverage;
  readonly timeInRanges: MetricResult<TimeInRanges>;
  readonly targets: MetricResult<ConsensusTargets>;
  readonly controlLevel: MetricResult<ControlLevel>;
}

export interface StatisticsReport {
  readonly timeZone: string;
  readonly dayCount: number;
  readonly current: PeriodSummary;
  readonly previous: PeriodSummary;
  readonly rows: readonly StatisticRow[];
  /** The data-sufficiency rules behind `sufficient` (coverage.ts), for the note under the table. */
  readonly sufficiencyRule: {
    readonly textKey: string;
    readonly params: {
      readonly cgmMinDays: number;
      readonly cgmMinActivePercent: number;
      readonly meterMinDays: number;
      readonly meterMinReadingsPerDay: number;
    };
  };
  readonly limits: GlucoseLimits;
}

export interface StatisticsReportInput {
  /** First day of the period (inclusive); the end at most 90 days later, not in the future. */
  readonly from: string;
  readonly to: string;
  readonly timeZone: string;
  readonly now: number;
  /** Readings (mg/dL) of the period; readings outside it are ignored. */
  readonly readings: readonly Reading[];
  /** Readings of the previous period of equal length (the days just before `from`). */
  readonly previousReadings: readonly Reading[];
  readonly limits?: GlucoseLimits;
  readonly mValueRef?: number;
  readonly targetPopulation?: TargetPopulation;
  readonly kind?: DataKind | "auto";
}

export type StatisticsReportResult =
  { readonly status: "ok"; readonly report: StatisticsReport } | InvalidRange;

function numberOf(m: AllMetrics, field: NumericField | "tir"): MetricResult {
  if (field === "tir") {
    const t = m.timeInRanges;
    return { value: t.value === null ? null : t.value.range70to180, sufficient: t.sufficient };
  }
  return m[field];
}

function levelOf(m: AllMetrics, source: LevelSource): MetricResult<ControlLevel | RiskLevel> {
  return source === "control" ? m.controlLevel : m.riskLevels[source];
}

/** The previous period of equal length: the `days` days before `from`. */
export function previousPeriod(from: IsoDate, to: IsoDate): { from: IsoDate; to: IsoDate } {
  const days = daysBetween(from, to) + 1;
  return { from: shiftDate(from, -days), to: shiftDate(from, -1) };
}

/** Builds the statistics report (see the file comment); a refused range is answered, not thrown. */
export function buildStatisticsReport(input: StatisticsReportInput): StatisticsReportResult {
  const checked = checkReportRange(input.from, input.to, "long", {
    timeZone: input.timeZone,
    now: input.now,
  });
  if (!checked.ok) return checked.invalid;
  const tz = input.timeZone;
  const limits = input.limits ?? DEFAULT_LIMITS;
  const options: ComputeOptions = {
    timeZone: tz,
    limits,
    ...(input.mValueRef === undefined ? {} : { mValueRef: input.mValueRef }),
    ...(input.targetPopulation === undefined ? {} : { targetPopulation: input.targetPopulation }),
    ...(input.kind === undefined ? {} : { kind: input.kind }),
  };
  const prev = previousPeriod(checked.from, checked.to);
  const period = (from: IsoDate, to: IsoDate, readings: readonly Reading[]) => {
    const start = dayWindow(from, tz).start;
    const end = dayWindow(to, tz).end;
    const inside = readings.filter((r) => r.time >= start && r.time < end);
    const metrics = computeAll(inside, options);
    const summary: PeriodSummary = {
      from,
      to,
      start,
      end,
      readings: metrics.meta.readings,
      coverage: metrics.coverage,
      timeInRanges: metrics.timeInRanges,
      targets: metrics.targets,
      controlLevel: metrics.controlLevel,
    };
    return { metrics, summary };
  };
  const cur = period(checked.from, checked.to, input.readings);
  const old = period(prev.from, prev.to, input.previousReadings);

  const rows: StatisticRow[] = STATISTIC_DEFINITIONS.map((d) => {
    const a = numberOf(cur.metrics, d.field);
    const b = numberOf(old.metrics, d.field);
    let level: StatisticLevel | null = null;
    if (d.level) {
      const la = levelOf(cur.metrics, d.level);
      const lb = levelOf(old.metrics, d.level);
      level = {
        kind: d.level === "control" ? "control" : "risk",
        current: la.value,
        currentSufficient: la.sufficient,
        previous: lb.value,
        previousSufficient: lb.sufficient,
      };
    }
    return {
      key: d.key,
      unitKind: d.unitKind,
      convertsWithUnit: convertsWithUnit(d.unitKind),
      inSpec: d.inSpec,
      value: a.value,
      sufficient: a.sufficient,
      previous: b.value,
      previousSufficient: b.sufficient,
      change: a.value !== null && b.value !== null ? a.value - b.value : null,
      level,
      method: {
        textKey: `statistics.method.${d.method}`,
        params: d.params ? d.params(cur.metrics) : {},
        glucoseParams: d.glucoseParams ?? [],
      },
    };
  });

  return {
    status: "ok",
    report: {
      timeZone: tz,
      dayCount: checked.dates.length,
      current: cur.summary,
      previous: old.summary,
      rows,
      sufficiencyRule: {
        textKey: "statistics.method.sufficiency",
        params: {
          cgmMinDays: CONSENSUS_MIN_DAYS,
          cgmMinActivePercent: CONSENSUS_MIN_ACTIVE_PERCENT,
          meterMinDays: METER_MIN_DAYS,
          meterMinReadingsPerDay: METER_MIN_READINGS_PER_DAY,
        },
      },
      limits,
    },
  };
}
