import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { RangeForm, ReportActions } from "~/components/report/report-controls";
import { ReportHeader } from "~/components/report/report-header";
import { findVisiblePatient } from "~/models/access.server";
import { logPatientAccess } from "~/models/audit-log.server";
import { cgmReportFor, defaultCgmRange, reportContext } from "~/models/report.server";
import { ZoneOffsets } from "~/metrics/timezone";
import { cgmDayChart } from "~/report/charts.server";
import { localDateTimeText, type CgmReport } from "~/report/cgm-report";
import { displayDate } from "~/report/day";
import { cgmPdfFileName, cgmPdfHref, RANGE_PROBLEM_KEY } from "~/report/report-links";
import { classify, formatGlucose, formatNumber, toGlucoseUnit } from "~/report/units";
import { CGM_QUICK_DAYS, parseReportQuery } from "~/schemas/report";
import * as s from "~/styles/report.css";
import { getFixedT, getLocale } from "~/utils/i18n.server";
import { displayName } from "~/utils/names";
import { requireUser } from "~/utils/session.server";

const pidParam = z.coerce.number().int().positive().max(2_147_483_647);

/** The hourly readings table: the first reading of each hour (docs/decisions/009-report-pages.md). */
function hourlyRows(report: CgmReport) {
  const out: { pdid: string | number | null; dateTimeStr: string; mgdl: number; class: ReturnType<typeof classify> }[] = [];
  let lastHour = Number.NaN;
  for (const row of report.rows) {
    const hour = Math.floor(row.time / 3_600_000);
    if (hour === lastHour) continue;
    lastHour = hour;
    out.push({ pdid: row.pdid, dateTimeStr: row.dateTimeStr, mgdl: row.statusShort0, class: classify(row.statusShort0, report.targetGlucoseRange) });
  }
  return out;
}

/**
 * The CGM print report (spec 1 sections 2-3; issue 7): a range form, Preview / Print / Download
 * PDF, and the report itself (header, the "CGM report response" figures, one chart per day, the
 * readings table). `print=1` (the PDF renderer) leaves out the controls. A patient the viewer may
 * not see is a 404, as on the patient page.
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
    range ? cgmReportFor(viewer, patient, range, now, unit) : null,
    logPatientAccess({ actorId: viewer.id, patientId: patient.id, action: "read:cgmsprint", detail: { start: range?.start ?? null, end: range?.end ?? null, print: query.print } }),
  ]);
  if (result && result.status !== "ok") problem = RANGE_PROBLEM_KEY[result.problem];
  const report = result?.status === "ok" ? result.report : null;

  const [t, tv] = await Promise.all([getFixedT(locale, "reports"), getFixedT(locale, "views")]);
  const unitText = t(`common:units.${unit}`);
  const charts = report
    ? report.days.map((day) => ({
        date: day.window.date,
        hasData: day.hasData,
        svg: day.hasData
          ? cgmDayChart(day, {
              unit,
              locale,
              title: t("cgm.dayChart", { date: displayDate(day.window.date) }),
              labels: {
                glucoseAxis: tv("chart.glucose", { unit: unitText }),
                targetRange: `${tv("chart.target")} ${formatGlucose(day.targetBand.low, unit, locale)}–${formatGlucose(day.targetBand.high, unit, locale)} ${unitText}`,
              },
            })
          : null,
      }))
    : [];
  const zone = new ZoneOffsets(patient.timeZone, now - 86_400_000, now + 86_400_000);
  const typed = query.kind === "default" ? null : query.typed;
  const shownRange = report ? { start: report.from, end: report.to } : null;
  const { days: _days, rows: _rows, ...figures } = report ?? { days: null, rows: null };
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
    report: report ? (figures as Omit<CgmReport, "days" | "rows">) : null,
    charts,
    hourly: report ? hourlyRows(report) : [],
    pdf: shownRange ? { href: cgmPdfHref(patient.id, shownRange), fileName: cgmPdfFileName(patient.id, shownRange) } : null,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: `${data.name} · CGM · ${data.form.start}–${data.form.end}` }] : []);

export default function CgmPrint() {
  const { t, i18n } = useTranslation("reports");
  const data = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const locale = i18n.language;
  const unitText = t(`common:units.${data.unit}`);
  const glucose = (mgdl: number | null) => `${formatGlucose(mgdl, data.unit, locale)} ${unitText}`;
  const percent = (value: number | null) => `${formatNumber(value, 1, locale)} %`;
  const { report } = data;
  const range = report ? `${displayDate(report.from)} – ${displayDate(report.to)}` : `${data.form.start} – ${data.form.end}`;
  return (
    <article className={s.report} aria-busy={navigation.state === "loading" || undefined}>
      <style>{`@page { size: A4 ${data.settings.orientation}; margin: 12mm; }`}</style>
      {data.print ? null : (
        <section className={s.controls} aria-label={t("common.controls")} data-print-hide>
          <RangeForm start={data.form.start} end={data.form.end} quickDays={CGM_QUICK_DAYS} problem={data.problem} quickNote={t("cgm.quickNote")} />
          {data.pdf ? <ReportActions pdfHref={data.pdf.href} fileName={data.pdf.fileName} supportHref="/supports#cgmsprintsettings" /> : null}
          <p className={s.note}>{t("cgm.rangeNote")}</p>
        </section>
      )}
      {report ? (
        <>
          <ReportHeader
            title={t("cgm.title")}
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
          {!report.hasData ? (
            <p className={s.empty} role="status">
              {t("cgm.noData", { from: displayDate(report.from), to: displayDate(report.to) })}
            </p>
          ) : (
            <>
              <section className={s.section} aria-labelledby="cgm-figures">
                <h2 id="cgm-figures" className={s.sectionTitle}>
                  {t("cgm.figures")}
                </h2>
                <dl className={s.figures} data-testid="cgm-figures">
                  <Figure label={t("cgm.unit")}>{unitText}</Figure>
                  <Figure label={t("cgm.targetRange")}>{`${formatGlucose(report.targetGlucoseRange.low, data.unit, locale)}–${glucose(report.targetGlucoseRange.high)}`}</Figure>
                  <Figure label={t("cgm.highest")} note={t("cgm.at", { time: report.timeWhenTheHighestValueShows ?? "" })}>
                    {glucose(report.highestValue)}
                  </Figure>
                  <Figure label={t("cgm.lowest")} note={t("cgm.at", { time: report.timeWhenTheLowestValueShows ?? "" })}>
                    {glucose(report.lowestValue)}
                  </Figure>
                  <Figure label={t("cgm.count")}>{report.numberOfValue}</Figure>
                  <Figure label={t("cgm.average")}>{glucose(report.periodAverage)}</Figure>
                  <Figure label={t("cgm.above")} note={t("cgm.values", { count: report.goalCounts.above })}>
                    {percent(report.valuesAboveGoal)}
                  </Figure>
                  <Figure label={t("cgm.within")} note={t("cgm.values", { count: report.goalCounts.within })}>
                    {percent(report.valuesWithinGoal)}
                  </Figure>
                  <Figure label={t("cgm.below")} note={t("cgm.values", { count: report.goalCounts.below })}>
                    {percent(report.valuesBelowGoal)}
                  </Figure>
                </dl>
              </section>
              <section className={s.section} aria-labelledby="cgm-days">
                <h2 id="cgm-days" className={s.sectionTitle}>
                  {t("cgm.days")}
                </h2>
                {data.charts.map((chart) =>
                  chart.svg ? (
                    <figure key={chart.date} className={s.dayChart} data-testid="day-chart" dangerouslySetInnerHTML={{ __html: chart.svg }} />
                  ) : (
                    <p key={chart.date} className={s.empty}>
                      {t("cgm.noDataDay", { date: displayDate(chart.date) })}
                    </p>
                  ),
                )}
              </section>
              <section className={s.section} aria-labelledby="cgm-readings">
                <h2 id="cgm-readings" className={s.sectionTitle}>
                  {t("cgm.readings")}
                </h2>
                <p className={s.note}>{t("cgm.readingsNote", { count: report.numberOfValue })}</p>
                <div className={s.tableColumns}>
                  <table className={s.table} data-testid="cgm-readings">
                    <thead>
                      <tr>
                        <th scope="col">{t("cgm.pdid")}</th>
                        <th scope="col">{t("cgm.dateTime")}</th>
                        <th scope="col">{t("cgm.value", { unit: unitText })}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.hourly.map((row) => (
                        <tr key={`${row.dateTimeStr}-${row.pdid}`}>
                          <td>{row.pdid ?? "—"}</td>
                          <td>{row.dateTimeStr}</td>
                          <td className={s.glucoseClass[row.class]}>{formatGlucose(row.mgdl, data.unit, locale)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </section>
            </>
          )}
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
