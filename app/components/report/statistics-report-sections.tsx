import { useTranslation } from "react-i18next";
import type { DataKind } from "~/metrics/coverage";
import { formatDateRange } from "~/report/locale-format";
import {
  convertsWithUnit,
  type PeriodSummary,
  type StatisticRow,
  type StatisticsReport,
  type StatisticUnitKind,
} from "~/report/statistics-report";
import type { GlucoseUnit } from "~/domain/glucose-unit";
import {
  formatNumber,
  formatQuantity,
  NO_VALUE_TEXT,
  roundHalfUp,
  unitDecimals,
} from "~/report/units";
import * as s from "~/styles/report.css";
import * as st from "~/styles/stack-table.css";
import { ReportSection } from "./report-page";

/** The statistics report as the page gets it (app/services/report.server.ts `statisticsReportFor`). */
export interface StatisticsFigures {
  /** Where both periods' readings come from. */
  readonly source: DataKind;
  readonly dayCount: number;
  readonly current: PeriodSummary;
  readonly previous: PeriodSummary;
  /** Rows already in the reader's unit (`statisticRowInUnit`). */
  readonly rows: readonly StatisticRow[];
  readonly sufficiencyRule: StatisticsReport["sufficiencyRule"];
}

type Props = { report: StatisticsFigures; unit: GlucoseUnit };

/** The printed mark of a value computed from too little data; the legend under the table explains it. */
const INSUFFICIENT_MARK = "†";

/** Decimals of a row's numbers: glucose-based ones as the unit (mmol/L 0.1, mg/dL 1), percent 0.1, unitless indices 0.01. */
function decimalsOf(kind: StatisticUnitKind, unit: GlucoseUnit): number {
  if (convertsWithUnit(kind)) return unitDecimals(unit);
  return kind === "percent" ? 1 : 2;
}

/** Names, numbers and units of the statistics report in the reader's language and glucose unit. */
function useStatisticsFormat(unit: GlucoseUnit) {
  const { t, i18n } = useTranslation("reports");
  const locale = i18n.language;
  const unitText = t(`common:units.${unit}`);
  // Method parameters are exact (112.5 mg/dL stays 112.5; 70 mg/dL is 3.89 mmol/L), not display-rounded.
  const parameter = new Intl.NumberFormat(locale, {
    minimumFractionDigits: 0,
    maximumFractionDigits: 2,
    useGrouping: false,
  });
  const glucoseParameter = new Intl.NumberFormat(locale, {
    minimumFractionDigits: unitDecimals(unit),
    maximumFractionDigits: unitDecimals(unit) + 1,
    useGrouping: false,
  });
  return {
    t,
    unitText,
    name: (row: StatisticRow) => t(`statistics.metrics.${row.key}.name`),
    number: (value: number | null, kind: StatisticUnitKind) =>
      formatNumber(value, decimalsOf(kind, unit), locale),
    /** A change with its sign (+, − or none for zero as shown). */
    change: (value: number | null, kind: StatisticUnitKind) => {
      if (value === null) return NO_VALUE_TEXT;
      const decimals = decimalsOf(kind, unit);
      const shown = roundHalfUp(value, decimals);
      return `${shown > 0 ? "+" : shown < 0 ? "−" : ""}${formatNumber(Math.abs(value), decimals, locale)}`;
    },
    unitOf: (kind: StatisticUnitKind) => t(`statistics.units.${kind}`, { unit: unitText }),
    level: (level: NonNullable<StatisticRow["level"]>, which: "current" | "previous") =>
      level[which] === null ? NO_VALUE_TEXT : t(`statistics.level.${level.kind}.${level[which]}`),
    method: (row: StatisticRow) => {
      const values = Object.fromEntries(
        Object.entries(row.method.params).map(([name, value]) => [
          name,
          typeof value === "string"
            ? t(`statistics.paramValues.${value}`)
            : row.method.glucoseParams.includes(name)
              ? `${glucoseParameter.format(value)} ${unitText}`
              : parameter.format(value),
        ]),
      );
      return t(row.method.textKey, values);
    },
  };
}

/** The "insufficient data" mark: visible on screen and paper, spelled out for screen readers. */
function InsufficientMark() {
  const { t } = useTranslation("reports");
  return (
    <span className={s.flag} data-testid="insufficient">
      <span aria-hidden="true">{INSUFFICIENT_MARK}</span>
      <span className={s.visuallyHidden}>{` (${t("statistics.insufficient")})`}</span>
    </span>
  );
}

/** The two periods: dates, readings, the data source and whether each meets the data rule. */
export function StatisticsPeriods({ report }: Props) {
  const { t, i18n } = useTranslation("reports");
  const wear = (p: PeriodSummary) =>
    report.source === "cgm"
      ? `${formatNumber(p.coverage.wearPercent, 1, i18n.language)} %`
      : t("statistics.daysOf", {
          days: p.coverage.daysWithThreeReadings,
          dayCount: report.dayCount,
        });
  const periods = [
    { id: "current", label: t("statistics.currentPeriod"), period: report.current },
    { id: "previous", label: t("statistics.previousPeriod"), period: report.previous },
  ] as const;
  return (
    <ReportSection id="statistics-periods" title={t("statistics.periods")}>
      <p className={s.note} data-testid="statistics-source">
        {t(`statistics.source.${report.source}`)}
      </p>
      <table
        className={`${s.table} ${s.statisticsTable} ${st.stackTable}`}
        data-testid="statistics-periods"
      >
        <thead>
          <tr>
            <th scope="col">{t("statistics.period")}</th>
            <th scope="col">{t("statistics.dates")}</th>
            <th scope="col" className={s.numeric}>
              {t("statistics.readings")}
            </th>
            <th scope="col" className={s.numeric}>
              {t("statistics.daysWithData")}
            </th>
            <th scope="col" className={s.numeric}>
              {t(report.source === "cgm" ? "statistics.wear" : "statistics.daysWithThree")}
            </th>
            <th scope="col">{t("statistics.dataRule")}</th>
          </tr>
        </thead>
        <tbody>
          {periods.map(({ id, label, period }) => (
            <tr key={id} data-testid={`period-${id}`}>
              <th scope="row" data-label={t("statistics.period")}>
                {label}
              </th>
              <td data-label={t("statistics.dates")}>
                {formatDateRange(period.from, period.to, i18n.language)}
              </td>
              <td data-label={t("statistics.readings")} className={s.numeric}>
                {formatQuantity(period.readings, i18n.language)}
              </td>
              <td data-label={t("statistics.daysWithData")} className={s.numeric}>
                {t("statistics.daysOf", {
                  days: period.coverage.daysWithData,
                  dayCount: report.dayCount,
                })}
              </td>
              <td
                data-label={t(
                  report.source === "cgm" ? "statistics.wear" : "statistics.daysWithThree",
                )}
                className={s.numeric}
              >
                {wear(period)}
              </td>
              <td data-label={t("statistics.dataRule")}>
                {period.coverage.standard ? (
                  t("statistics.ruleMet")
                ) : (
                  <>
                    {t("statistics.ruleNotMet")}
                    <InsufficientMark />
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ReportSection>
  );
}

/** One table of statistics: metric, current value, unit, level, previous value (and level), change. */
function StatisticsTable({
  rows,
  unit,
  testId,
}: {
  rows: readonly StatisticRow[];
  unit: GlucoseUnit;
  testId: string;
}) {
  const { t, name, number, change, unitOf, level } = useStatisticsFormat(unit);
  const value = (row: StatisticRow, which: "value" | "previous") => {
    const sufficient = which === "value" ? row.sufficient : row.previousSufficient;
    return (
      <>
        <span data-testid="value">{number(row[which], row.unitKind)}</span>
        {sufficient || row[which] === null ? null : <InsufficientMark />}
      </>
    );
  };
  return (
    <table
      className={`${s.table} ${s.statisticsTable} ${s.statisticsColumns} ${st.stackTableWide}`}
      data-testid={testId}
    >
      <thead>
        <tr>
          <th scope="col">{t("statistics.columns.metric")}</th>
          <th scope="col" className={s.numeric}>
            {t("statistics.currentPeriod")}
          </th>
          <th scope="col">{t("statistics.columns.unit")}</th>
          <th scope="col">{t("statistics.columns.level")}</th>
          <th scope="col" className={s.numeric}>
            {t("statistics.previousPeriod")}
          </th>
          <th scope="col" className={s.numeric}>
            {t("statistics.columns.change")}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} data-testid={`statistic-${row.key}`}>
            <th scope="row" data-label={t("statistics.columns.metric")}>
              <span className={s.metricName}>{name(row)}</span>
              <span className={s.metricNote}>{t(`statistics.metrics.${row.key}.description`)}</span>
            </th>
            <td
              className={s.numeric}
              data-testid="current"
              data-label={t("statistics.currentPeriod")}
            >
              {value(row, "value")}
            </td>
            <td data-label={t("statistics.columns.unit")}>{unitOf(row.unitKind)}</td>
            <td data-testid="level" data-label={t("statistics.columns.level")}>
              {row.level ? level(row.level, "current") : NO_VALUE_TEXT}
            </td>
            <td
              className={s.numeric}
              data-testid="previous"
              data-label={t("statistics.previousPeriod")}
            >
              {value(row, "previous")}
              {row.level ? <span className={s.subNote}>{level(row.level, "previous")}</span> : null}
            </td>
            <td
              className={s.numeric}
              data-testid="change"
              data-label={t("statistics.columns.change")}
            >
              {change(row.change, row.unitKind)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The metrics: the main ones first, then the others under their own heading, and the legend of the mark. */
export function StatisticsTables({ report, unit }: Props) {
  const { t } = useTranslation("reports");
  return (
    <ReportSection id="statistics-metrics" title={t("statistics.tableTitle")}>
      <StatisticsTable
        rows={report.rows.filter((row) => row.inSpec)}
        unit={unit}
        testId="statistics-spec"
      />
      <h3 className={s.sectionTitle}>{t("statistics.otherMetrics")}</h3>
      <StatisticsTable
        rows={report.rows.filter((row) => !row.inSpec)}
        unit={unit}
        testId="statistics-other"
      />
      <p
        className={s.note}
        data-testid="statistics-legend"
      >{`${INSUFFICIENT_MARK} ${t("statistics.legend")}`}</p>
    </ReportSection>
  );
}

/** How each metric was computed, with the parameters used, the data rule and where the levels come from. */
export function StatisticsMethods({ report, unit }: Props) {
  const { t, name, method } = useStatisticsFormat(unit);
  return (
    <ReportSection id="statistics-methods" title={t("statistics.methods")}>
      <ul className={s.methods} data-testid="statistics-methods">
        {report.rows.map((row) => (
          <li key={row.key} data-testid={`method-${row.key}`}>
            <strong>{name(row)}</strong>
            {`: ${method(row)}`}
          </li>
        ))}
      </ul>
      <p className={s.methodsNote} data-testid="statistics-rule">
        {t(report.sufficiencyRule.textKey, report.sufficiencyRule.params)}
      </p>
      <p className={s.methodsNote}>{t("statistics.levelsNote")}</p>
    </ReportSection>
  );
}
