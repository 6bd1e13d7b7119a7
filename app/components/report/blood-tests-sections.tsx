import { useTranslation } from "react-i18next";
import type { GlucoseSummary } from "~/report/bg-range";
import type { BloodTestsReport, LogbookValue } from "~/report/blood-tests-report";
import { formatDate } from "~/report/locale-format";
import type { MealPeriodBounds } from "~/report/meal-periods";
import {
  formatGlucose,
  formatQuantity,
  isAboveRange,
  isBelowRange,
  type GlucoseClass,
} from "~/report/units";
import type { GlucoseUnit } from "~/domain/glucose-unit";
import * as s from "~/styles/report.css";
import { Figure, ReportSection } from "./report-page";

type Props = { report: BloodTestsReport; unit: GlucoseUnit };

/** The printed mark of a value outside the range, so that the class reads without colour. */
function markOf(c: GlucoseClass): "↓" | "↑" | null {
  return isBelowRange(c) ? "↓" : isAboveRange(c) ? "↑" : null;
}

/** "HH:mm" of seconds after local midnight. */
function clockText(seconds: number): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(Math.floor(seconds / 3600) % 24)}:${two(Math.floor((seconds % 3600) / 60))}`;
}

function useLogbookFormat(unit: GlucoseUnit) {
  const { t, i18n } = useTranslation("reports");
  const locale = i18n.language;
  const unitText = t(`common:units.${unit}`);
  return {
    t,
    locale,
    unitText,
    number: (mgdl: number | null) => formatGlucose(mgdl, unit, locale),
    glucose: (mgdl: number | null) => `${formatGlucose(mgdl, unit, locale)} ${unitText}`,
  };
}

/** The period's figures: average, number of values and lows of every value, the range and the days with values. */
export function BloodTestsFigures({ report, unit }: Props) {
  const { t, locale, glucose, number } = useLogbookFormat(unit);
  const { total, limits } = report;
  return (
    <ReportSection id="blood-tests-figures" title={t("bloodTests.figures")}>
      <dl className={s.figures} data-testid="blood-tests-figures">
        <Figure label={t("bloodTests.average")}>{glucose(total.mean)}</Figure>
        <Figure label={t("bloodTests.count")}>{formatQuantity(total.count, locale)}</Figure>
        <Figure label={t("bloodTests.lows", { limit: glucose(limits.low) })}>
          {formatQuantity(total.low, locale)}
        </Figure>
        <Figure label={t("bloodTests.targetRange")}>
          {`${number(limits.low)}–${glucose(limits.high)}`}
        </Figure>
        <Figure label={t("bloodTests.daysWithData")}>
          {t("bloodTests.daysWithDataValue", {
            count: report.daysWithData,
            days: report.dayCount,
          })}
        </Figure>
      </dl>
    </ReportSection>
  );
}

function Value({
  value,
  format: { t, number },
}: {
  value: LogbookValue;
  format: ReturnType<typeof useLogbookFormat>;
}) {
  const mark = markOf(value.class);
  return (
    <span className={s.logbookValue} data-class={value.class}>
      <span className={s.logbookClass[value.class]}>
        {mark ? (
          <span aria-hidden="true" className={s.logbookMark}>
            {mark}
          </span>
        ) : null}
        {number(value.mgdl)}
        {mark ? (
          <span className={s.visuallyHidden}>
            {" "}
            ({t(isBelowRange(value.class) ? "bloodTests.belowRange" : "bloodTests.aboveRange")})
          </span>
        ) : null}
      </span>{" "}
      <span className={s.logbookClock}>{value.clock}</span>
    </span>
  );
}

function periodHeading(period: MealPeriodBounds) {
  return `${clockText(period.start)}–${clockText(period.end)}`;
}

/**
 * The logbook: a row per day, a column per meal period with the period's clock times under its
 * name, every value of the day and period in its cell (marked ↓ below and ↑ above the patient's
 * range, coloured by class), and under the days each column's average, number of values and lows.
 */
export function BloodTestsLogbook({ report, unit }: Props) {
  const format = useLogbookFormat(unit);
  const { t, locale, glucose, number } = format;
  const { columns, limits } = report;
  const footer: { key: string; label: string; cell: (summary: GlucoseSummary) => string }[] = [
    {
      key: "average",
      label: t("bloodTests.columnAverage"),
      cell: (summary) => number(summary.mean),
    },
    {
      key: "count",
      label: t("bloodTests.columnCount"),
      cell: (summary) => formatQuantity(summary.count, locale),
    },
    {
      key: "lows",
      label: t("bloodTests.columnLows"),
      cell: (summary) => formatQuantity(summary.low, locale),
    },
  ];
  return (
    <ReportSection id="blood-tests-logbook" title={t("bloodTests.logbook")}>
      {/* On a phone the eight columns keep a readable width and scroll inside this box; the keyboard reaches it too. */}
      <div
        className={s.matrixScroll}
        tabIndex={0}
        role="region"
        aria-label={t("bloodTests.logbook")}
      >
        <table className={`${s.table} ${s.logbook}`} data-testid="blood-tests-logbook">
          <caption className={s.logbookCaption}>
            {t("bloodTests.caption", {
              from: formatDate(report.from, locale),
              to: formatDate(report.to, locale),
              unit: t(`common:units.${unit}`),
            })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t("bloodTests.date")}</th>
              {columns.map((column) => (
                <th key={column.key} scope="col" data-period={column.key}>
                  <span className={s.logbookPeriodName}>
                    {t(`bloodTests.periods.${column.key}`)}
                  </span>
                  <span className={s.logbookPeriodTime}>{periodHeading(column)}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.days.map((day) => (
              <tr key={day.date} data-date={day.date}>
                <th scope="row">{formatDate(day.date, locale)}</th>
                {day.cells.map((cell, i) => (
                  <td key={columns[i]!.key} data-period={columns[i]!.key}>
                    {cell.map((value, k) => (
                      <Value key={k} value={value} format={format} />
                    ))}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot>
            {footer.map((row) => (
              <tr key={row.key} data-testid={`column-${row.key}`}>
                <th scope="row">{row.label}</th>
                {columns.map((column) => (
                  <td key={column.key} data-period={column.key}>
                    {row.cell(column.summary)}
                  </td>
                ))}
              </tr>
            ))}
          </tfoot>
        </table>
      </div>
      <p className={s.methodsNote} data-testid="blood-tests-legend">
        {t("bloodTests.legend", { low: glucose(limits.low), high: glucose(limits.high) })}
      </p>
      <p className={s.methodsNote}>{t("bloodTests.periodsNote")}</p>
    </ReportSection>
  );
}
