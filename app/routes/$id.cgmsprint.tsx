import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Figure, ReportPage, ReportSection, reportMeta } from "~/components/report/report-page";
import { cgmReportFor, defaultCgmRange } from "~/services/report.server";
import { cgmDayChart } from "~/report/charts.server";
import type { CgmReport } from "~/report/cgm-report";
import { displayDate } from "~/report/day";
import {
  formatDate,
  formatDateRange,
  formatDateTime,
  formatDayMonth,
} from "~/report/locale-format";
import { classify, formatGlucose, formatNumber, formatQuantity } from "~/report/units";
import * as s from "~/styles/report.css";
import { getFixedT } from "~/utils/i18n.server";
import { loadReportPage } from "~/services/report-page.server";

/**
 * The readings table: a row per day, a cell per clock hour with the first reading of that hour
 * (docs/decisions/009-report-pages.md). On a 25-hour day the repeated hour shows its first
 * occurrence; on a 23-hour day the skipped hour stays empty.
 */
function hourlyMatrix(report: CgmReport) {
  const days = new Map(
    report.days.map((day) => [
      // A row's local time starts with the day as "YYYY/MM/DD".
      displayDate(day.window.date),
      {
        date: day.window.date,
        cells: new Array<{ mgdl: number; class: ReturnType<typeof classify> } | null>(24).fill(
          null,
        ),
      },
    ]),
  );
  for (const row of report.rows) {
    const [date = "", time = ""] = row.localTime.split(" ");
    const cells = days.get(date)?.cells;
    const hour = Number(time.slice(0, 2));
    if (cells && !cells[hour])
      cells[hour] = {
        mgdl: row.mgdl,
        class: classify(row.mgdl, report.limits),
      };
  }
  return [...days.values()];
}

const HOURS = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, "0"));

/**
 * The CGM print report (app/report/cgm-report.ts): a range form, Preview / Print / Download PDF,
 * and the report itself (header, the CGM report's figures, one chart per day, the readings table).
 * `print=1` (the PDF renderer) leaves out the controls. A patient the viewer may not see is a 404,
 * as on the patient page.
 */
export async function loader(args: LoaderFunctionArgs) {
  const {
    shell,
    value: report,
    unit,
    locale,
  } = await loadReportPage(args, "cgm", {
    defaultRange: defaultCgmRange,
    dataKinds: ["cgm"],
    async build({ viewer, patient, range, now, unit }) {
      const result = await cgmReportFor(viewer, patient, range, now, unit);
      if (result.status !== "ok")
        return { value: null, problem: result.problem, shown: null, empty: false };
      return {
        value: result.report,
        problem: null,
        shown: { start: result.report.from, end: result.report.to },
        empty: !result.report.hasData,
      };
    },
  });
  const [t, tv] = await Promise.all([getFixedT(locale, "reports"), getFixedT(locale, "views")]);
  const unitText = t(`common:units.${unit}`);
  const charts = (report?.days ?? []).map((day) => ({
    date: day.window.date,
    // The chart's text alternative: the day's key figures.
    caption: day.summary
      ? t("cgm.chartFigures", {
          count: day.summary.readingCount,
          mean: `${formatGlucose(day.summary.mean, unit, locale)} ${unitText}`,
          low: formatGlucose(day.summary.lowest.mgdl, unit, locale),
          high: formatGlucose(day.summary.highest.mgdl, unit, locale),
        })
      : null,
    svg: day.hasData
      ? cgmDayChart(day, {
          unit,
          tooltips: !shell.print,
          locale,
          title: t("cgm.dayChart", { date: formatDate(day.window.date, locale) }),
          labels: {
            glucoseAxis: tv("chart.glucose", { unit: unitText }),
            targetRange: `${tv("chart.target")} ${formatGlucose(day.targetBand.low, unit, locale)}–${formatGlucose(day.targetBand.high, unit, locale)} ${unitText}`,
          },
        })
      : null,
  }));
  const { days: _days, rows: _rows, ...figures } = report ?? { days: null, rows: null };
  return {
    shell,
    report: report ? (figures as Omit<CgmReport, "days" | "rows">) : null,
    charts,
    hourly: report ? hourlyMatrix(report) : [],
  };
}

export const meta: MetaFunction<typeof loader> = (args) => reportMeta(args);

export default function CgmPrint() {
  const { t, i18n } = useTranslation("reports");
  const data = useLoaderData<typeof loader>();
  const { shell, report } = data;
  const locale = i18n.language;
  const unitText = t(`common:units.${shell.unit}`);
  const glucose = (mgdl: number | null) => `${formatGlucose(mgdl, shell.unit, locale)} ${unitText}`;
  const percent = (value: number | null) => `${formatNumber(value, 1, locale)} %`;
  const at = (time: number | null) =>
    time === null ? "" : formatDateTime(time, shell.timeZone, locale);
  return (
    <ReportPage
      shell={shell}
      title={t("cgm.title")}
      range={report ? formatDateRange(report.from, report.to, locale) : null}
      quickNote={t("cgm.quickNote")}
      rangeNote={t("cgm.rangeNote")}
    >
      {report === null ? null : !report.hasData ? (
        <p className={s.empty} role="status">
          {t("cgm.noData", {
            from: formatDate(report.from, locale),
            to: formatDate(report.to, locale),
          })}
        </p>
      ) : (
        <>
          <ReportSection id="cgm-figures" title={t("cgm.figures")}>
            <dl className={s.figures} data-testid="cgm-figures">
              <Figure label={t("cgm.unit")}>{unitText}</Figure>
              <Figure
                label={t("cgm.targetRange")}
              >{`${formatGlucose(report.limits.low, shell.unit, locale)}–${glucose(report.limits.high)}`}</Figure>
              <Figure label={t("cgm.highest")} note={t("cgm.at", { time: at(report.highestAt) })}>
                {glucose(report.highest)}
              </Figure>
              <Figure label={t("cgm.lowest")} note={t("cgm.at", { time: at(report.lowestAt) })}>
                {glucose(report.lowest)}
              </Figure>
              <Figure label={t("cgm.count")}>{formatQuantity(report.readingCount, locale)}</Figure>
              <Figure label={t("cgm.average")}>{glucose(report.mean)}</Figure>
              <Figure
                label={t("cgm.above")}
                note={t("cgm.values", { count: report.goalCounts.above })}
              >
                {percent(report.abovePercent)}
              </Figure>
              <Figure
                label={t("cgm.within")}
                note={t("cgm.values", { count: report.goalCounts.within })}
              >
                {percent(report.withinPercent)}
              </Figure>
              <Figure
                label={t("cgm.below")}
                note={t("cgm.values", { count: report.goalCounts.below })}
              >
                {percent(report.belowPercent)}
              </Figure>
            </dl>
          </ReportSection>
          <ReportSection id="cgm-days" title={t("cgm.days")}>
            {data.charts.map((chart) =>
              chart.svg ? (
                <figure key={chart.date} className={s.dayChart} data-testid="day-chart">
                  <figcaption className={s.chartCaption}>
                    {formatDate(chart.date, locale)}
                    {chart.caption ? (
                      <span className={s.chartFigures}>{` · ${chart.caption}`}</span>
                    ) : null}
                  </figcaption>
                  <div dangerouslySetInnerHTML={{ __html: chart.svg }} />
                </figure>
              ) : (
                <p key={chart.date} className={s.empty}>
                  {t("cgm.noDataDay", { date: formatDate(chart.date, locale) })}
                </p>
              ),
            )}
          </ReportSection>
          <ReportSection id="cgm-readings" title={t("cgm.readings")}>
            <p className={s.note}>{t("cgm.readingsNote", { count: report.readingCount })}</p>
            {/* On a phone the 25 columns keep a readable width and scroll inside this box; the keyboard reaches it too. */}
            <div
              className={s.matrixScroll}
              tabIndex={0}
              role="region"
              aria-label={t("cgm.readings")}
            >
              <table className={`${s.table} ${s.hourMatrix}`} data-testid="cgm-readings">
                <thead>
                  <tr>
                    <th scope="col">{t("cgm.date")}</th>
                    {HOURS.map((hour) => (
                      <th key={hour} scope="col">
                        {hour}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.hourly.map((day) => (
                    <tr key={day.date}>
                      <th scope="row">{formatDayMonth(day.date, locale)}</th>
                      {day.cells.map((cell, hour) => (
                        <td key={hour} className={cell ? s.glucoseClass[cell.class] : undefined}>
                          {cell ? formatGlucose(cell.mgdl, shell.unit, locale) : "·"}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </ReportSection>
        </>
      )}
    </ReportPage>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
