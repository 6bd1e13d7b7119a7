import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Figure, ReportPage, ReportSection, reportMeta } from "~/components/report/report-page";
import { agpReportFor, defaultCgmRange } from "~/services/report.server";
import {
  AGP_CV_GOAL_PERCENT,
  AGP_GOAL_BOUNDS,
  insufficientMessageValues,
  type AgpBandKey,
  type AgpGoalKey,
  type AgpReport,
  type MgdlBounds,
} from "~/report/agp-report";
import { agpChart, agpDailyChart, dailyProfilesMax } from "~/report/charts.server";
import { cgmSummaryFileName, cgmSummaryHref } from "~/report/fhir-cgm-summary";
import { AGP_BAND_COLORS, CHART_PALETTE, TARGET_BAND_OPACITY } from "~/report/charts/palette";
import { displayDate } from "~/report/day";
import { formatGlucose, formatNumber } from "~/report/units";
import * as s from "~/styles/report.css";
import { getFixedT } from "~/utils/i18n.server";
import { loadReportPage } from "~/services/report-page.server";

/** Colours of the time-in-ranges stacked bar, top to bottom. */
const BAND_COLOR: Readonly<Record<AgpBandKey, string>> = {
  veryHigh: CHART_PALETTE.veryHigh,
  high: CHART_PALETTE.high,
  inRange: CHART_PALETTE.inRange,
  low: CHART_PALETTE.low,
  veryLow: CHART_PALETTE.veryLow,
};

/**
 * The AGP report (app/report/agp-report.ts): a range form like the CGM report (3-14 days, default
 * the 14 days up to the last day with CGM data), and the one-page consensus layout: glucose
 * statistics (mean, GMI, CV with its goal, sensor active %), the time-in-ranges stacked bar with
 * the goals, the AGP percentile chart and the daily glucose profiles. With fewer than 5 full days
 * it shows a message with the counts and no charts. A patient the viewer may not see is a 404.
 *
 * Targets and goals: Battelino T, et al. Clinical Targets for Continuous Glucose Monitoring Data
 * Interpretation: Recommendations From the International Consensus on Time in Range. Diabetes
 * Care 2019;42(8):1593-1603 (> 70 % in 70-180 mg/dL, < 4 % below 70, < 1 % below 54, < 25 %
 * above 180, < 5 % above 250; CV <= 36 %).
 */
export async function loader(args: LoaderFunctionArgs) {
  const {
    shell,
    value: result,
    unit,
    locale,
  } = await loadReportPage(args, "agp", {
    defaultRange: defaultCgmRange,
    dataKinds: ["cgm"],
    async build({ viewer, patient, range, now }) {
      const answer = await agpReportFor(viewer, patient, range, now);
      if (answer.status === "invalidRange")
        return { value: null, problem: answer.problem, shown: null, empty: false };
      return {
        value: answer,
        problem: null,
        shown: answer.status === "ok" ? { start: answer.report.from, end: answer.report.to } : null,
        empty: answer.status === "insufficient" && answer.readings === 0,
      };
    },
  });
  const report: AgpReport | null = result?.status === "ok" ? result.report : null;
  const insufficient = result?.status === "insufficient" ? insufficientMessageValues(result) : null;

  const [t, tv] = await Promise.all([getFixedT(locale, "reports"), getFixedT(locale, "views")]);
  const unitText = t(`common:units.${unit}`);
  let agpSvg: string | null = null;
  let daily: { date: string; full: boolean; figures: string | null; svg: string | null }[] = [];
  // A day's text alternative: its mean and range.
  const dayFigures = (values: number[]) =>
    t("agp.dayFigures", {
      mean: formatGlucose(values.reduce((a, b) => a + b, 0) / values.length, unit, locale),
      low: formatGlucose(Math.min(...values), unit, locale),
      high: formatGlucose(Math.max(...values), unit, locale),
      unit: unitText,
    });
  let targetRange = "";
  if (report) {
    targetRange = `${tv("chart.target")} ${formatGlucose(report.targetBand.low, unit, locale)}–${formatGlucose(report.targetBand.high, unit, locale)} ${unitText}`;
    const glucoseAxis = tv("chart.glucose", { unit: unitText });
    agpSvg = agpChart(report.agp, {
      unit,
      tooltips: !shell.print,
      locale,
      title: t("agp.chart"),
      targetBand: report.targetBand,
      labels: {
        glucoseAxis,
        targetRange,
        outerBand: "5–95 %",
        innerBand: "25–75 %",
        median: t("agp.median"),
      },
    });
    // One glucose scale for every day, so that the days compare at a glance.
    const sharedMaxMgdl = dailyProfilesMax(report.dailyProfiles);
    daily = report.dailyProfiles.map((day) => ({
      date: day.date,
      full: day.full,
      figures: day.points.length ? dayFigures(day.points.map((p) => p.mgdl)) : null,
      svg: day.points.length
        ? agpDailyChart(day, {
            unit,
            locale,
            tooltips: !shell.print,
            title: t("agp.dayChart", { date: displayDate(day.date) }),
            targetBand: report.targetBand,
            sharedMaxMgdl,
            labels: { glucoseAxis, targetRange },
          })
        : null,
    }));
  }
  const figures = report
    ? {
        from: report.from,
        to: report.to,
        dayCount: report.dayCount,
        fullDays: report.fullDays,
        statistics: report.statistics,
        timeInRanges: report.timeInRanges,
      }
    : null;
  return { shell, insufficient, report: figures, agpSvg, daily, targetRange };
}

export const meta: MetaFunction<typeof loader> = (args) => reportMeta(args);

export default function AgpPrint() {
  const { t, i18n } = useTranslation("reports");
  const data = useLoaderData<typeof loader>();
  const { shell } = data;
  const locale = i18n.language;
  const unitText = t(`common:units.${shell.unit}`);
  const glucose = (mgdl: number | null) => `${formatGlucose(mgdl, shell.unit, locale)} ${unitText}`;
  const g = (mgdl: number) => formatGlucose(mgdl, shell.unit, locale);
  const percent = (value: number | null) => `${formatNumber(value, 1, locale)} %`;
  const { report, insufficient } = data;
  const range = report
    ? `${displayDate(report.from)} – ${displayDate(report.to)}`
    : insufficient
      ? `${insufficient.from} – ${insufficient.to}`
      : null;
  // A band's bounds: "> 250", "181–250", "< 54" (in the reader's unit).
  const boundsText = ({ fromMgdl, toMgdl }: MgdlBounds) =>
    fromMgdl === null
      ? `< ${g(toMgdl!)}`
      : toMgdl === null
        ? `> ${g(fromMgdl)}`
        : `${g(fromMgdl)}–${g(toMgdl)}`;
  const goalLabel = (key: AgpGoalKey) => {
    const { fromMgdl, toMgdl } = AGP_GOAL_BOUNDS[key];
    if (fromMgdl === null) return t("agp.goals.below", { value: `${g(toMgdl!)} ${unitText}` });
    if (toMgdl === null) return t("agp.goals.above", { value: `${g(fromMgdl)} ${unitText}` });
    return t("agp.goals.inRange", { low: g(fromMgdl), high: `${g(toMgdl)} ${unitText}` });
  };
  return (
    <ReportPage
      shell={shell}
      title={t("agp.title")}
      range={range}
      quickNote={t("agp.quickNote")}
      rangeNote={t("agp.rangeNote")}
    >
      {insufficient ? (
        <p className={s.empty} role="status" data-testid="agp-insufficient">
          {t("agp.insufficient", insufficient)}
        </p>
      ) : null}
      {report ? (
        <>
          {shell.print ? null : (
            <p className={s.note} data-print-hide>
              <a
                href={cgmSummaryHref(shell.pid, { start: report.from, end: report.to })}
                download={cgmSummaryFileName(report)}
                data-testid="fhir-download"
              >
                {t("fhir.download")}
              </a>{" "}
              {t("fhir.downloadNote")}
            </p>
          )}
          <ReportSection id="agp-statistics" title={t("agp.statistics")}>
            <dl className={s.figures} data-testid="agp-statistics">
              <Figure label={t("agp.mean")}>{glucose(report.statistics.mean.value)}</Figure>
              <Figure label={t("agp.gmi")}>{percent(report.statistics.gmi.value)}</Figure>
              <Figure
                label={t("agp.cv")}
                note={`${t("agp.cvGoal", { percent: AGP_CV_GOAL_PERCENT })}${report.statistics.cvGoalMet === null ? "" : ` · ${t(report.statistics.cvGoalMet ? "agp.met" : "agp.notMet")}`}`}
              >
                {percent(report.statistics.cv.value)}
              </Figure>
              <Figure
                label={t("agp.active")}
                note={t("agp.activeNote", { readings: report.statistics.readings })}
              >
                {percent(report.statistics.activePercent.value)}
              </Figure>
              <Figure label={t("agp.fullDays")}>
                {t("agp.fullDaysValue", { fullDays: report.fullDays, dayCount: report.dayCount })}
              </Figure>
            </dl>
          </ReportSection>
          <ReportSection id="agp-tir" title={t("agp.tir")}>
            <div className={s.agpTir}>
              <div className={s.agpTirBar} aria-hidden="true">
                {report.timeInRanges.bands.map((band) => (
                  <div
                    key={band.key}
                    style={{
                      flexGrow: band.percent,
                      flexBasis: 0,
                      background: BAND_COLOR[band.key],
                    }}
                  />
                ))}
              </div>
              <dl className={s.agpTirList} data-testid="agp-tir">
                {report.timeInRanges.bands.map((band) => (
                  <div key={band.key} className={s.agpTirRow}>
                    <dt>
                      <span className={s.agpSwatch} style={{ background: BAND_COLOR[band.key] }} />
                      {`${t(`agp.bands.${band.key}`)} (${boundsText(band)} ${unitText})`}
                    </dt>
                    <dd data-testid={`agp-tir-${band.key}`}>{percent(band.percent)}</dd>
                  </div>
                ))}
              </dl>
            </div>
            <h3 className={s.sectionTitle}>{t("agp.goalsTitle")}</h3>
            <table className={s.table} data-testid="agp-goals">
              <tbody>
                {report.timeInRanges.goals.map((goal) => (
                  <tr key={goal.key}>
                    <th scope="row">{goalLabel(goal.key)}</th>
                    <td>{percent(goal.actual)}</td>
                    <td>
                      {t(goal.comparator === "lt" ? "agp.lt" : "agp.gt", { percent: goal.percent })}
                    </td>
                    <td>{t(goal.met ? "agp.met" : "agp.notMet")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className={s.note}>{t("agp.source")}</p>
          </ReportSection>
          <ReportSection id="agp-chart" title={t("agp.chartTitle")}>
            {data.agpSvg ? (
              <figure className={s.dayChart} data-testid="agp-chart">
                <div dangerouslySetInnerHTML={{ __html: data.agpSvg }} />
                <figcaption className={s.chartFigures}>
                  {t("agp.chartFigures", {
                    mean: glucose(report.statistics.mean.value),
                    inRange: percent(
                      report.timeInRanges.bands.find((b) => b.key === "inRange")?.percent ?? null,
                    ),
                  })}
                </figcaption>
              </figure>
            ) : null}
            <ul className={s.agpLegend} data-testid="agp-legend">
              <li>
                <span className={s.agpSwatch} style={{ background: AGP_BAND_COLORS.outerBand }} />
                {t("agp.legend.outer")}
              </li>
              <li>
                <span className={s.agpSwatch} style={{ background: AGP_BAND_COLORS.innerBand }} />
                {t("agp.legend.inner")}
              </li>
              <li>
                <span
                  className={s.agpSwatch}
                  style={{ background: AGP_BAND_COLORS.median, height: "3px" }}
                />
                {t("agp.legend.median")}
              </li>
              <li>
                <span
                  className={s.agpSwatch}
                  style={{ background: CHART_PALETTE.targetBand, opacity: TARGET_BAND_OPACITY * 3 }}
                />
                {data.targetRange}
              </li>
            </ul>
          </ReportSection>
          <ReportSection id="agp-days" title={t("agp.days")}>
            <p className={s.note}>{t("agp.daysNote")}</p>
            <div className={s.agpDays}>
              {data.daily.map((day) => (
                <figure key={day.date} className={s.agpDay} data-testid="agp-day">
                  <figcaption>
                    {displayDate(day.date)}
                    {day.full ? "" : ` (${t("agp.notFull")})`}
                    {day.figures ? (
                      <span className={s.chartFigures}>{` · ${day.figures}`}</span>
                    ) : null}
                  </figcaption>
                  {day.svg ? <div dangerouslySetInnerHTML={{ __html: day.svg }} /> : null}
                </figure>
              ))}
            </div>
          </ReportSection>
        </>
      ) : null}
    </ReportPage>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
