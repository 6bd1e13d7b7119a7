import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Figure, ReportPage, ReportSection, reportMeta } from "~/components/report/report-page";
import { agpReportFor, defaultCgmRange } from "~/services/report.server";
import {
  AGP_CLAMP_MGDL,
  AGP_CV_GOAL_PERCENT,
  AGP_GMI_GOAL_PERCENT,
  AGP_GOAL_BOUNDS,
  AGP_MEAN_GOAL_MGDL,
  consensusGlucose,
  GMI_MIN_ACTIVE_PERCENT,
  insufficientMessageValues,
  type AgpGoalKey,
  type AgpReport,
  type MgdlBounds,
} from "~/report/agp-report";
import { formatDate, formatDayMonth, formatMinutes, formatPeriod } from "~/report/locale-format";
import { AGP_TIR_COLORS } from "~/report/agp-colours";
import { agpChart, agpDailyChart } from "~/report/charts.server";
import { cgmSummaryFileName, cgmSummaryHref } from "~/report/fhir-cgm-summary";
import { AGP_BAND_COLORS, CHART_PALETTE, TARGET_BAND_OPACITY } from "~/report/charts/palette";
import { formatGlucose, formatNumber, unitDecimals } from "~/report/units";
import * as s from "~/styles/report.css";
import { getFixedT } from "~/utils/i18n.server";
import { loadReportPage } from "~/services/report-page.server";

/**
 * The glucose profile (app/report/agp-report.ts), laid out as the international consensus's
 * one-page profile without its licensed name or logo: a range form like the CGM report (3-14
 * days, default the 14 days up to today), then on one portrait page (A4 or Letter, the reader's
 * paper size) the header (patient, birth date, period, % time CGM active, days with data), the
 * time-in-ranges stacked bar with each band's percent and time per day and the goals of the
 * patient's goal set beside it, the glucose metrics with their goals (GMI left out, with the
 * reason, below 70 % CGM wear), the AGP percentile chart with its how-to-read line, and the daily
 * profiles. With fewer than 5 full days it shows a message with the counts and no charts. A
 * patient the viewer may not see is a 404.
 *
 * Targets and goals: Battelino T, et al. Clinical Targets for Continuous Glucose Monitoring Data
 * Interpretation: Recommendations From the International Consensus on Time in Range. Diabetes
 * Care 2019;42(8):1593-1603 (docs/decisions/018-glucose-profile.md).
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
  // The message's dates as the reader writes them; the range above the report as the period is.
  const insufficient =
    result?.status === "insufficient"
      ? {
          ...insufficientMessageValues(result),
          from: formatDate(result.from, locale),
          to: formatDate(result.to, locale),
          range: formatPeriod(result.from, result.to, locale),
        }
      : null;

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
  const g = (mgdl: number) =>
    formatNumber(consensusGlucose(mgdl, unit), unitDecimals(unit), locale);
  let targetRange = "";
  let texts: {
    period: string;
    active: string;
    daysWithData: string;
    minutes: Record<string, string>;
    top: string;
  } | null = null;
  if (report) {
    const band = report.targetBand;
    targetRange = `${tv("chart.target")} ${g(band.low)}–${g(band.high)} ${unitText}`;
    const glucoseAxis = tv("chart.glucose", { unit: unitText });
    agpSvg = agpChart(report.agp, {
      unit,
      tooltips: !shell.print,
      locale,
      title: t("agp.chart"),
      targetBand: band,
      labels: {
        glucoseAxis,
        targetRange,
        outerBand: "5–95 %",
        innerBand: "25–75 %",
        median: t("agp.median"),
      },
    });
    // Every day on the AGP's one fixed scale, so that the days compare at a glance.
    daily = report.dailyProfiles.map((day) => ({
      date: day.date,
      full: day.full,
      figures: day.points.length ? dayFigures(day.points.map((p) => p.mgdl)) : null,
      svg: day.points.length
        ? agpDailyChart(day, {
            unit,
            locale,
            tooltips: !shell.print,
            title: t("agp.dayChart", { date: formatDate(day.date, locale) }),
            targetBand: band,
            labels: { glucoseAxis, targetRange },
          })
        : null,
    }));
    texts = {
      period: t("agp.period", {
        count: report.dayCount,
        dates: formatPeriod(report.from, report.to, locale),
      }),
      active: `${formatNumber(report.statistics.periodActivePercent, 1, locale)} %`,
      daysWithData: t("agp.daysWithDataValue", {
        days: report.daysWithData,
        dayCount: report.dayCount,
      }),
      minutes: Object.fromEntries(
        report.timeInRanges.bands.map((b) => [b.key, formatMinutes(b.minutesPerDay, locale)]),
      ),
      top: `${g(AGP_CLAMP_MGDL)} ${unitText}`,
    };
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
  return { shell, insufficient, report: figures, agpSvg, daily, targetRange, texts };
}

export const meta: MetaFunction<typeof loader> = (args) => reportMeta(args);

export default function AgpPrint() {
  const { t, i18n } = useTranslation("reports");
  const data = useLoaderData<typeof loader>();
  const { shell, texts } = data;
  const locale = i18n.language;
  const unitText = t(`common:units.${shell.unit}`);
  const glucose = (mgdl: number | null) => `${formatGlucose(mgdl, shell.unit, locale)} ${unitText}`;
  // A threshold as the consensus writes it (3.9, 10.0, 13.9 mmol/L).
  const g = (mgdl: number) =>
    formatNumber(consensusGlucose(mgdl, shell.unit), unitDecimals(shell.unit), locale);
  const percent = (value: number | null) => `${formatNumber(value, 1, locale)} %`;
  const { report, insufficient } = data;
  const range = texts ? texts.period : insufficient ? insufficient.range : null;
  // A band's bounds: "> 250", "181–250", "< 54" (in the reader's unit).
  const boundsText = ({ fromMgdl, toMgdl }: MgdlBounds) =>
    fromMgdl === null
      ? `< ${g(toMgdl!)}`
      : toMgdl === null
        ? `> ${g(fromMgdl)}`
        : `${g(fromMgdl)}–${g(toMgdl)}`;
  const goalLabel = (key: AgpGoalKey) => {
    const { fromMgdl, toMgdl } = AGP_GOAL_BOUNDS[key];
    const text =
      fromMgdl === null
        ? t("agp.goals.below", { value: `${g(toMgdl!)} ${unitText}` })
        : toMgdl === null
          ? t("agp.goals.above", { value: `${g(fromMgdl)} ${unitText}` })
          : t("agp.goals.inRange", { low: g(fromMgdl), high: `${g(toMgdl)} ${unitText}` });
    return `${text} (${t(`agp.goalBands.${key}`)})`;
  };
  const verdict = (met: boolean | null) =>
    met === null ? "" : ` · ${t(met ? "agp.met" : "agp.notMet")}`;
  const statistics = report?.statistics;
  return (
    <ReportPage
      shell={shell}
      title={t("agp.title")}
      range={range}
      quickNote={t("agp.quickNote")}
      rangeNote={t("agp.rangeNote")}
      pageOrientation="portrait"
      className={s.agpPage}
      headerMore={
        texts
          ? [
              { label: t("agp.activeHeader"), value: texts.active, testId: "agp-active" },
              {
                label: t("agp.daysWithData"),
                value: texts.daysWithData,
                testId: "agp-days-with-data",
              },
            ]
          : undefined
      }
      moreActions={
        report ? (
          <p className={s.note}>
            <a
              href={cgmSummaryHref(shell.pid, { start: report.from, end: report.to })}
              download={cgmSummaryFileName(report)}
              data-testid="fhir-download"
            >
              {t("fhir.download")}
            </a>{" "}
            {t("fhir.downloadNote")}
          </p>
        ) : null
      }
    >
      {insufficient ? (
        <p className={s.empty} role="status" data-testid="agp-insufficient">
          {t("agp.insufficient", insufficient)}
        </p>
      ) : null}
      {report && statistics && texts ? (
        <>
          <div className={s.agpTop}>
            <ReportSection id="agp-tir" title={t("agp.tir")}>
              <div className={s.agpTir}>
                <div className={s.agpTirBar} aria-hidden="true" data-testid="agp-tir-bar">
                  {report.timeInRanges.bands.map((band) => (
                    <div
                      key={band.key}
                      style={{
                        flexGrow: band.percent,
                        flexBasis: 0,
                        background: AGP_TIR_COLORS[band.key],
                      }}
                    />
                  ))}
                </div>
                <dl className={s.agpTirList} data-testid="agp-tir">
                  {report.timeInRanges.bands.map((band) => (
                    <div key={band.key} className={s.agpTirRow}>
                      <dt>
                        <span
                          className={s.agpSwatch}
                          style={{ background: AGP_TIR_COLORS[band.key] }}
                        />
                        {t(`agp.bands.${band.key}`)}
                        <span className={s.agpBounds} data-testid={`agp-bounds-${band.key}`}>
                          {`${boundsText(band)} ${unitText}`}
                        </span>
                      </dt>
                      <dd>
                        <span data-testid={`agp-tir-${band.key}`}>{percent(band.percent)}</span>
                        {" · "}
                        <span data-testid={`agp-time-${band.key}`}>{texts.minutes[band.key]}</span>
                      </dd>
                    </div>
                  ))}
                </dl>
                <div className={s.agpGoals}>
                  <h3 className={s.agpGoalsTitle}>
                    {t("agp.goalSet", {
                      name: t(`agp.goalSets.${report.timeInRanges.goalSet}`),
                    })}
                  </h3>
                  <ul data-testid="agp-goals" data-goal-set={report.timeInRanges.goalSet}>
                    {report.timeInRanges.goals.map((goal) => (
                      <li
                        key={goal.key}
                        data-testid={`agp-goal-${goal.key}`}
                        data-met={goal.met ? "yes" : "no"}
                      >
                        <span>{goalLabel(goal.key)}</span>{" "}
                        <strong>
                          {t(goal.comparator === "lt" ? "agp.lt" : "agp.gt", {
                            percent: goal.percent,
                          })}
                        </strong>
                        {` · ${percent(goal.actual)}${verdict(goal.met)}`}
                      </li>
                    ))}
                  </ul>
                </div>
              </div>
            </ReportSection>
            <ReportSection id="agp-statistics" title={t("agp.metrics")}>
              <dl className={s.agpFigures} data-testid="agp-statistics">
                <Figure
                  label={t("agp.mean")}
                  note={`${t("agp.meanGoal", { value: `${g(AGP_MEAN_GOAL_MGDL)} ${unitText}` })}${verdict(statistics.meanGoalMet)}`}
                >
                  <span data-testid="agp-mean">{glucose(statistics.mean.value)}</span>
                </Figure>
                <Figure
                  label={t("agp.gmi")}
                  note={
                    statistics.gmiWithheld
                      ? t("agp.gmiWithheld", {
                          active: texts.active,
                          percent: GMI_MIN_ACTIVE_PERCENT,
                        })
                      : `${t("agp.gmiGoal", { percent: AGP_GMI_GOAL_PERCENT })}${verdict(statistics.gmiGoalMet)}`
                  }
                >
                  <span data-testid="agp-gmi">
                    {statistics.gmiWithheld ? "—" : percent(statistics.gmi.value)}
                  </span>
                </Figure>
                <Figure
                  label={t("agp.cv")}
                  note={`${t("agp.cvGoal", { percent: AGP_CV_GOAL_PERCENT })}${verdict(statistics.cvGoalMet)}`}
                >
                  <span data-testid="agp-cv">{percent(statistics.cv.value)}</span>
                </Figure>
              </dl>
            </ReportSection>
          </div>
          <ReportSection id="agp-chart" title={t("agp.chartTitle")}>
            <p className={s.agpHowTo} data-testid="agp-how-to-read">
              {t("agp.howToRead", { top: texts.top })}
            </p>
            {data.agpSvg ? (
              <figure className={s.agpChart} data-testid="agp-chart">
                <div dangerouslySetInnerHTML={{ __html: data.agpSvg }} />
                <figcaption className={s.visuallyHidden}>
                  {t("agp.chartFigures", {
                    mean: glucose(statistics.mean.value),
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
            <p className={s.agpHowTo}>{t("agp.daysNote")}</p>
            <div className={s.agpDays}>
              {data.daily.map((day) => (
                <figure key={day.date} className={s.agpDay} data-testid="agp-day">
                  <figcaption>
                    {formatDayMonth(day.date, locale)}
                    {day.full ? "" : ` (${t("agp.notFull")})`}
                    {day.figures ? (
                      <span className={s.visuallyHidden}>{` · ${day.figures}`}</span>
                    ) : null}
                  </figcaption>
                  {day.svg ? <div dangerouslySetInnerHTML={{ __html: day.svg }} /> : null}
                </figure>
              ))}
            </div>
          </ReportSection>
          <p className={s.agpSource}>{t("agp.source")}</p>
        </>
      ) : null}
    </ReportPage>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
