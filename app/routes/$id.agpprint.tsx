import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { RangeForm, ReportActions } from "~/components/report/report-controls";
import { ReportHeader } from "~/components/report/report-header";
import { findVisiblePatient } from "~/models/access.server";
import { logPatientAccess } from "~/models/audit-log.server";
import { agpReportFor, defaultCgmRange, reportContext } from "~/models/report.server";
import { ZoneOffsets } from "~/metrics/timezone";
import { AGP_CV_GOAL_PERCENT, type AgpBandKey, type AgpReport } from "~/report/agp-report";
import { agpChart, agpDailyChart } from "~/report/charts.server";
import { CHART_PALETTE } from "~/report/charts/palette";
import { localDateTimeText } from "~/report/cgm-report";
import { displayDate } from "~/report/day";
import { agpPdfFileName, agpPdfHref, RANGE_PROBLEM_KEY } from "~/report/report-links";
import { formatGlucose, formatNumber, toGlucoseUnit } from "~/report/units";
import { CGM_QUICK_DAYS, parseReportQuery } from "~/schemas/report";
import * as s from "~/styles/report.css";
import { getFixedT, getLocale } from "~/utils/i18n.server";
import { displayName } from "~/utils/names";
import { requireUser } from "~/utils/session.server";

const pidParam = z.coerce.number().int().positive().max(2_147_483_647);

/** Colours of the time-in-ranges stacked bar, top to bottom. */
const BAND_COLOR: Readonly<Record<AgpBandKey, string>> = {
  veryHigh: CHART_PALETTE.veryHigh,
  high: CHART_PALETTE.high,
  inRange: CHART_PALETTE.inRange,
  low: CHART_PALETTE.low,
  veryLow: CHART_PALETTE.veryLow,
};

/**
 * The AGP report (issue 7; app/report/agp-report.ts): a range form like the CGM report (3-14
 * days, default the 14 days up to the last day with CGM data), and the one-page consensus
 * layout: glucose statistics (mean, GMI, CV with its goal, sensor active %), the time-in-ranges
 * stacked bar with the goals, the AGP percentile chart and the daily glucose profiles. With fewer
 * than 5 full days it shows a message with the counts and no charts. A patient the viewer may not
 * see is a 404.
 *
 * Targets and goals: Battelino T, et al. Clinical Targets for Continuous Glucose Monitoring Data
 * Interpretation: Recommendations From the International Consensus on Time in Range. Diabetes
 * Care 2019;42(8):1593-1603 (> 70 % in 70-180 mg/dL, < 4 % below 70, < 1 % below 54, < 25 %
 * above 180, < 5 % above 250; CV <= 36 %).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const pid = pidParam.safeParse(params.id);
  if (!pid.success) throw new Response("Not Found", { status: 404 });
  const patient = await findVisiblePatient(viewer, pid.data);
  if (!patient) throw new Response("Not Found", { status: 404 });
  const now = Date.now();
  const unit = toGlucoseUnit(viewer.setting?.unit);
  const query = parseReportQuery(new URL(request.url).searchParams, CGM_QUICK_DAYS);
  const [locale, context] = await Promise.all([getLocale(request), reportContext(viewer.id, patient)]);

  let problem: string | null = query.kind === "problem" ? `reports:${query.message}` : null;
  const range = query.kind === "range" ? query.range : query.kind === "default" ? await defaultCgmRange(viewer, patient, now) : null;
  const [result] = await Promise.all([
    range ? agpReportFor(viewer, patient, range, now) : null,
    logPatientAccess({ actorId: viewer.id, patientId: patient.id, action: "read:agpprint", detail: { start: range?.start ?? null, end: range?.end ?? null, print: query.print } }),
  ]);
  if (result?.status === "invalidRange") problem = RANGE_PROBLEM_KEY[result.problem];
  const report: AgpReport | null = result?.status === "ok" ? result.report : null;
  const insufficient =
    result?.status === "insufficient"
      ? {
          fullDays: result.fullDays,
          requiredFullDays: result.requiredFullDays,
          dayCount: result.dayCount,
          percent: Math.round(result.fullDayFraction * 100),
          from: displayDate(result.from),
          to: displayDate(result.to),
        }
      : null;

  const [t, tv] = await Promise.all([getFixedT(locale, "reports"), getFixedT(locale, "views")]);
  const unitText = t(`common:units.${unit}`);
  let agpSvg: string | null = null;
  let daily: { date: string; full: boolean; svg: string | null }[] = [];
  if (report) {
    const targetRange = `${tv("chart.target")} ${formatGlucose(report.targetBand.low, unit, locale)}–${formatGlucose(report.targetBand.high, unit, locale)} ${unitText}`;
    const glucoseAxis = tv("chart.glucose", { unit: unitText });
    agpSvg = agpChart(report.agp, {
      unit,
      locale,
      title: t("agp.chart"),
      targetBand: report.targetBand,
      labels: { glucoseAxis, targetRange, outerBand: "5–95 %", innerBand: "25–75 %", median: t("agp.median") },
    });
    daily = report.dailyProfiles.map((day) => ({
      date: day.date,
      full: day.full,
      svg: day.points.length ? agpDailyChart(day, { unit, locale, title: t("agp.dayChart", { date: displayDate(day.date) }), targetBand: report.targetBand, labels: { glucoseAxis, targetRange } }) : null,
    }));
  }
  const zone = new ZoneOffsets(patient.timeZone, now - 86_400_000, now + 86_400_000);
  const typed = query.kind === "default" ? null : query.typed;
  const shownRange = report ? { start: report.from, end: report.to } : null;
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
  return {
    pid: patient.id,
    name: displayName(patient.user),
    birthDate: context.birthDate ? displayDate(context.birthDate) : null,
    timeZone: patient.timeZone,
    generatedAt: localDateTimeText(now, zone),
    settings: { nameStyle: context.nameStyle, orientation: context.orientation, splitLine: context.splitLine, logoSrc: context.hasLogo ? "/report-logo" : null },
    unit,
    print: query.print,
    form: {
      start: problem && typed ? typed.start : range ? displayDate(range.start) : (typed?.start ?? ""),
      end: problem && typed ? typed.end : range ? displayDate(range.end) : (typed?.end ?? ""),
    },
    problem,
    insufficient,
    report: figures,
    agpSvg,
    daily,
    pdf: shownRange ? { href: agpPdfHref(patient.id, shownRange), fileName: agpPdfFileName(patient.id, shownRange) } : null,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: `${data.name} · AGP · ${data.form.start}–${data.form.end}` }] : []);

export default function AgpPrint() {
  const { t, i18n } = useTranslation("reports");
  const data = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const locale = i18n.language;
  const unitText = t(`common:units.${data.unit}`);
  const glucose = (mgdl: number | null) => `${formatGlucose(mgdl, data.unit, locale)} ${unitText}`;
  const g = (mgdl: number) => formatGlucose(mgdl, data.unit, locale);
  const percent = (value: number | null) => `${formatNumber(value, 1, locale)} %`;
  const { report, insufficient } = data;
  const range = report ? `${displayDate(report.from)} – ${displayDate(report.to)}` : insufficient ? `${insufficient.from} – ${insufficient.to}` : `${data.form.start} – ${data.form.end}`;
  const bandRange: Record<AgpBandKey, string> = { veryHigh: `> ${g(250)}`, high: `${g(181)}–${g(250)}`, inRange: `${g(70)}–${g(180)}`, low: `${g(54)}–${g(69)}`, veryLow: `< ${g(54)}` };
  const goalLabel = (key: string) =>
    key === "inRange"
      ? t("agp.goals.inRange", { low: g(70), high: `${g(180)} ${unitText}` })
      : key.startsWith("above")
        ? t("agp.goals.above", { value: `${g(Number(key.slice(5)))} ${unitText}` })
        : t("agp.goals.below", { value: `${g(Number(key.slice(5)))} ${unitText}` });
  return (
    <article className={s.report} aria-busy={navigation.state === "loading" || undefined}>
      <style>{`@page { size: A4 ${data.settings.orientation}; margin: 12mm; }`}</style>
      {data.print ? null : (
        <section className={s.controls} aria-label={t("common.controls")} data-print-hide>
          <RangeForm start={data.form.start} end={data.form.end} quickDays={CGM_QUICK_DAYS} problem={data.problem} quickNote={t("agp.quickNote")} />
          {data.pdf ? <ReportActions pdfHref={data.pdf.href} fileName={data.pdf.fileName} supportHref="/supports#cgmsprintsettings" /> : null}
          <p className={s.note}>{t("agp.rangeNote")}</p>
        </section>
      )}
      {report || insufficient ? (
        <ReportHeader
          title={t("agp.title")}
          patientName={data.name}
          birthDate={data.birthDate}
          range={range}
          unitText={unitText}
          generatedAt={data.generatedAt}
          timeZone={data.timeZone}
          nameStyle={data.settings.nameStyle}
          splitLine={data.settings.splitLine}
          logoSrc={data.settings.logoSrc}
        />
      ) : null}
      {insufficient ? (
        <p className={s.empty} role="status" data-testid="agp-insufficient">
          {t("agp.insufficient", insufficient)}
        </p>
      ) : null}
      {report ? (
        <>
          <section className={s.section} aria-labelledby="agp-statistics">
            <h2 id="agp-statistics" className={s.sectionTitle}>
              {t("agp.statistics")}
            </h2>
            <dl className={s.figures} data-testid="agp-statistics">
              <Figure label={t("agp.mean")}>{glucose(report.statistics.mean.value)}</Figure>
              <Figure label={t("agp.gmi")}>{percent(report.statistics.gmi.value)}</Figure>
              <Figure label={t("agp.cv")} note={`${t("agp.cvGoal", { percent: AGP_CV_GOAL_PERCENT })}${report.statistics.cvGoalMet === null ? "" : ` · ${t(report.statistics.cvGoalMet ? "agp.met" : "agp.notMet")}`}`}>
                {percent(report.statistics.cv.value)}
              </Figure>
              <Figure label={t("agp.active")} note={t("agp.activeNote", { readings: report.statistics.readings })}>
                {percent(report.statistics.activePercent.value)}
              </Figure>
              <Figure label={t("agp.fullDays")}>{t("agp.fullDaysValue", { fullDays: report.fullDays, dayCount: report.dayCount })}</Figure>
            </dl>
          </section>
          <section className={s.section} aria-labelledby="agp-tir">
            <h2 id="agp-tir" className={s.sectionTitle}>
              {t("agp.tir")}
            </h2>
            <div className={s.agpTir}>
              <div className={s.agpTirBar} aria-hidden="true">
                {report.timeInRanges.bands.map((band) => (
                  <div key={band.key} style={{ flexGrow: band.percent, flexBasis: 0, background: BAND_COLOR[band.key] }} />
                ))}
              </div>
              <dl className={s.agpTirList} data-testid="agp-tir">
                {report.timeInRanges.bands.map((band) => (
                  <div key={band.key} className={s.agpTirRow}>
                    <dt>
                      <span className={s.agpSwatch} style={{ background: BAND_COLOR[band.key] }} />
                      {`${t(`agp.bands.${band.key}`)} (${bandRange[band.key]} ${unitText})`}
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
                    <td>{t(goal.comparator === "lt" ? "agp.lt" : "agp.gt", { percent: goal.percent })}</td>
                    <td>{t(goal.met ? "agp.met" : "agp.notMet")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className={s.note}>{t("agp.source")}</p>
          </section>
          <section className={s.section} aria-labelledby="agp-chart">
            <h2 id="agp-chart" className={s.sectionTitle}>
              {t("agp.chartTitle")}
            </h2>
            {data.agpSvg ? <figure className={s.dayChart} data-testid="agp-chart" dangerouslySetInnerHTML={{ __html: data.agpSvg }} /> : null}
          </section>
          <section className={s.section} aria-labelledby="agp-days">
            <h2 id="agp-days" className={s.sectionTitle}>
              {t("agp.days")}
            </h2>
            <div className={s.agpDays}>
              {data.daily.map((day) => (
                <figure key={day.date} className={s.agpDay} data-testid="agp-day">
                  <figcaption>
                    {displayDate(day.date)}
                    {day.full ? "" : ` (${t("agp.notFull")})`}
                  </figcaption>
                  {day.svg ? <div dangerouslySetInnerHTML={{ __html: day.svg }} /> : null}
                </figure>
              ))}
            </div>
          </section>
        </>
      ) : null}
    </article>
  );
}

function Figure({ label, note, children }: { label: string; note?: string; children: React.ReactNode }) {
  return (
    <div className={s.figure}>
      <dt className={s.figureLabel}>{label}</dt>
      <dd className={s.figureValue}>{children}</dd>
      {note ? <dd className={s.figureNote}>{note}</dd> : null}
    </div>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
