import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { RangeForm, ReportActions } from "~/components/report/report-controls";
import { ReportHeader } from "~/components/report/report-header";
import { findVisiblePatient } from "~/models/access.server";
import { logPatientAccess } from "~/models/audit-log.server";
import { defaultPumpRange, pumpReportFor, reportContext } from "~/models/report.server";
import { ZoneOffsets } from "~/metrics/timezone";
import { localDateTimeText } from "~/report/cgm-report";
import { pumpDayChart } from "~/report/charts.server";
import { pumpChartLabels } from "~/report/view-charts.server";
import { displayDate } from "~/report/day";
import type { PumpReport } from "~/report/pump-report";
import { PUMP_RANGE_PROBLEM_KEY, pumpPdfFileName, pumpPdfHref } from "~/report/report-links";
import { classify, formatGlucose, formatNumber, toGlucoseUnit } from "~/report/units";
import { parseReportQuery, PUMP_MISSING_END_DAYS, PUMP_QUICK_DAYS } from "~/schemas/report";
import * as s from "~/styles/report.css";
import { getFixedT, getLocale } from "~/utils/i18n.server";
import { displayName } from "~/utils/names";
import { requireUser } from "~/utils/session.server";

const pidParam = z.coerce.number().int().positive().max(2_147_483_647);

/**
 * The pump/BG print report (spec 1 sections 2, 3 and 9; issue 7): a range form (default the 15
 * days ending today; quick ranges 7, 15, 30 days; a start alone is start + 1 day; at most 90
 * days), Preview / Print / Download PDF, and the report of app/report/pump-report.ts (header,
 * glucose statistics, pump totals, per-day glucose and pump tables, carbohydrates and alarms in
 * tables of at most 12 rows, big boluses when at most 25, the pump settings, a day chart per day
 * in groups of 5 days). `print=1` (the PDF renderer) leaves out the controls. A patient the viewer
 * may not see is a 404, as on the patient page.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const pid = pidParam.safeParse(params.id);
  if (!pid.success) throw new Response("Not Found", { status: 404 });
  const patient = await findVisiblePatient(viewer, pid.data);
  if (!patient) throw new Response("Not Found", { status: 404 });
  const now = Date.now();
  const unit = toGlucoseUnit(viewer.setting?.unit);
  const query = parseReportQuery(new URL(request.url).searchParams, PUMP_QUICK_DAYS, { missingEndDays: PUMP_MISSING_END_DAYS });
  const [locale, context] = await Promise.all([getLocale(request), reportContext(viewer.id, patient)]);
  const nameStyle = context.nameStyle === "center" ? 1 : context.nameStyle === "right" ? 2 : 0;

  let problem: string | null = query.kind === "problem" ? `reports:${query.message}` : null;
  const range = query.kind === "range" ? query.range : query.kind === "default" ? defaultPumpRange(patient, now) : null;
  const [result] = await Promise.all([
    range ? pumpReportFor(viewer, patient, range, now, { unit, nameStyle }) : null,
    logPatientAccess({ actorId: viewer.id, patientId: patient.id, action: "read:print", detail: { start: range?.start ?? null, end: range?.end ?? null, print: query.print } }),
  ]);
  if (result && result.status !== "ok") problem = PUMP_RANGE_PROBLEM_KEY[result.problem];
  const report = result?.status === "ok" ? result.report : null;

  const tv = await getFixedT(locale, "views");
  const labels = pumpChartLabels(tv, unit);
  const charts = report
    ? report.charts.map((group) => ({
        dates: group.dates,
        days: group.dates.map((date) => {
          const day = report.days.find((d) => d.window.date === date);
          return {
            date,
            svg: day && day.hasData ? pumpDayChart(day, { unit, locale, title: tv("daily.chartTitle", { date: displayDate(date) }), labels }) : null,
          };
        }),
      }))
    : [];
  const zone = new ZoneOffsets(patient.timeZone, now - 86_400_000, now + 86_400_000);
  const typed = query.kind === "default" ? null : query.typed;
  const shownRange = report ? { start: report.from, end: report.to } : null;
  const { days: _days, ...figures } = report ?? { days: null };
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
    report: report ? (figures as Omit<PumpReport, "days">) : null,
    charts,
    pdf: shownRange ? { href: pumpPdfHref(patient.id, shownRange), fileName: pumpPdfFileName(patient.id, shownRange) } : null,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: `${data.name} · ${data.form.start}–${data.form.end}` }] : []);

const minutes = (ms: number) => Math.round(ms / 60_000);

export default function PumpPrint() {
  const { t, i18n } = useTranslation("reports");
  const data = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const locale = i18n.language;
  const unitText = t(`common:units.${data.unit}`);
  const u = t("views:units.u");
  const uh = t("views:units.uh");
  const g = t("views:units.g");
  const glucose = (mgdl: number | null) => `${formatGlucose(mgdl, data.unit, locale)} ${unitText}`;
  const percent = (value: number | null) => `${formatNumber(value, 1, locale)} %`;
  const insulin = (value: number | null) => `${formatNumber(value, 2, locale)} ${u}`;
  const { report } = data;
  const range = report ? `${displayDate(report.from)} – ${displayDate(report.to)}` : `${data.form.start} – ${data.form.end}`;
  const limits = report ? { low: report.patientInfo.lowLimit, high: report.patientInfo.highLimit } : null;
  const list = (values: readonly number[], format: (v: number) => string) => (values.length > 0 ? values.map(format).join(" · ") : "—");
  return (
    <article className={s.report} aria-busy={navigation.state === "loading" || undefined}>
      <style>{`@page { size: A4 ${data.settings.orientation}; margin: 12mm; }`}</style>
      {data.print ? null : (
        <section className={s.controls} aria-label={t("common.controls")} data-print-hide>
          <RangeForm start={data.form.start} end={data.form.end} quickDays={PUMP_QUICK_DAYS} problem={data.problem} />
          {data.pdf ? <ReportActions pdfHref={data.pdf.href} fileName={data.pdf.fileName} supportHref="/supports#printsettings" /> : null}
          <p className={s.note}>{t("pump.rangeNote")}</p>
        </section>
      )}
      {report && limits ? (
        <>
          <ReportHeader
            title={t("pump.title")}
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
              {t("pump.noData", { from: displayDate(report.from), to: displayDate(report.to) })}
            </p>
          ) : (
            <>
              <section className={s.section} aria-labelledby="pump-glucose">
                <h2 id="pump-glucose" className={s.sectionTitle}>
                  {t("pump.glucose")}
                </h2>
                <dl className={s.figures} data-testid="pump-glucose">
                  <Figure label={t("pump.average")}>{glucose(report.sugarTotalCount.sugarAvg)}</Figure>
                  <Figure label={t("pump.count")}>{report.sugarTotalCount.size}</Figure>
                  <Figure label={t("pump.high")} note={t("pump.values", { count: report.sugarTotalCount.high })}>
                    {percent(report.sugarTotalCount.highPercent)}
                  </Figure>
                  <Figure label={t("pump.low")} note={t("pump.values", { count: report.sugarTotalCount.low })}>
                    {percent(report.sugarTotalCount.lowPercent)}
                  </Figure>
                  <Figure label={t("pump.targetRange")}>{`${formatGlucose(limits.low, data.unit, locale)}–${glucose(limits.high)}`}</Figure>
                </dl>
              </section>
              <section className={s.section} aria-labelledby="pump-totals">
                <h2 id="pump-totals" className={s.sectionTitle}>
                  {t("pump.totals")}
                </h2>
                <dl className={s.figures} data-testid="pump-totals">
                  <Figure label={t("pump.total")}>{insulin(report.PumpTotalCount.total)}</Figure>
                  <Figure label={t("pump.basal")} note={percent(report.PumpTotalCount.basalPercent)}>
                    {insulin(report.PumpTotalCount.basal)}
                  </Figure>
                  <Figure label={t("pump.bolus")} note={percent(report.PumpTotalCount.bolusPercent)}>
                    {insulin(report.PumpTotalCount.bolus)}
                  </Figure>
                  <Figure label={t("pump.points")}>{report.PumpTotalCount.points}</Figure>
                  <Figure label={t("pump.choAvg")} note={t("pump.choPerMeal", { value: `${formatNumber(report.choAvg, 1, locale)} ${g}` })}>
                    {`${formatNumber(report.cho.avg, 1, locale)} ${g}`}
                  </Figure>
                </dl>
              </section>
              <section className={s.section} aria-labelledby="pump-days">
                <h2 id="pump-days" className={s.sectionTitle}>
                  {t("pump.perDay")}
                </h2>
                <table className={s.table} data-testid="pump-days">
                  <thead>
                    <tr>
                      <th scope="col">{t("pump.date")}</th>
                      <th scope="col">{t("pump.total")}</th>
                      <th scope="col">{t("pump.basal")}</th>
                      <th scope="col">{t("pump.bolus")}</th>
                      <th scope="col">{t("pump.points")}</th>
                      <th scope="col">{t("pump.glucoseCount")}</th>
                      <th scope="col">{t("pump.average")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.pumpList.map((day, i) => {
                      const sugar = report.sugarList[i]!.patientData;
                      const avg = sugar.length > 0 ? sugar.reduce((a, e) => a + e.statusShort0, 0) / sugar.length : null;
                      return (
                        <tr key={day.date}>
                          <td>{displayDate(day.date)}</td>
                          <td>{day.hasData ? insulin(day.pumpTotalCount.total) : "—"}</td>
                          <td>{day.hasData ? `${insulin(day.pumpTotalCount.basal)} (${percent(day.pumpTotalCount.basalPercent)})` : "—"}</td>
                          <td>{day.hasData ? `${insulin(day.pumpTotalCount.bolus)} (${percent(day.pumpTotalCount.bolusPercent)})` : "—"}</td>
                          <td>{day.pumpTotalCount.points}</td>
                          <td>{sugar.length}</td>
                          <td>{formatGlucose(avg, data.unit, locale)}</td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </section>
              <section className={s.section} aria-labelledby="pump-bg">
                <h2 id="pump-bg" className={s.sectionTitle}>
                  {t("pump.bgPerDay")}
                </h2>
                {report.sugarList.some((d) => d.patientData.length > 0) ? (
                  <div className={s.tableColumns}>
                    <table className={s.table} data-testid="pump-bg">
                      <thead>
                        <tr>
                          <th scope="col">{t("pump.dateTime")}</th>
                          <th scope="col">{t("pump.value", { unit: unitText })}</th>
                          <th scope="col">{t("pump.source")}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {report.sugarList.flatMap((day) =>
                          day.patientData.map((e) => (
                            <tr key={`${e.source}-${e.dateTime}-${e.id ?? ""}`}>
                              <td>{`${displayDate(day.date)} ${e.clock}`}</td>
                              <td className={s.glucoseClass[classify(e.statusShort0, limits)]}>{formatGlucose(e.statusShort0, data.unit, locale)}</td>
                              <td>{t(`pump.sources.${e.source}`)}</td>
                            </tr>
                          )),
                        )}
                      </tbody>
                    </table>
                  </div>
                ) : (
                  <p className={s.note}>{t("pump.noGlucose")}</p>
                )}
              </section>
              <section className={s.section} aria-labelledby="pump-data">
                <h2 id="pump-data" className={s.sectionTitle}>
                  {t("pump.pumpPerDay")}
                </h2>
                {report.pumpList
                  .filter((day) => day.pumps.length > 0)
                  .map((day) => (
                    <table key={day.date} className={s.table} data-testid="pump-day-data" style={{ marginBottom: "0.75rem", breakInside: "avoid" }}>
                      <caption style={{ textAlign: "start", fontWeight: 600 }}>{displayDate(day.date)}</caption>
                      <thead>
                        <tr>
                          <th scope="col">{t("pump.time")}</th>
                          <th scope="col">{t("pump.type")}</th>
                          <th scope="col">{t("pump.basalRate", { unit: uh })}</th>
                          <th scope="col">{t("pump.bolusUnits", { unit: u })}</th>
                          <th scope="col">{t("pump.delay")}</th>
                          <th scope="col">{t("pump.points")}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {day.pumps.map((p) => (
                          <tr key={`${p.dataType}-${p.deviceRecordTime}`}>
                            <td>{p.clock}</td>
                            <td>{p.dataType === "bolus" && p.bolusKind ? t(`views:daily.bolusKind.${p.bolusKind}`) : t("pump.basalStep")}</td>
                            <td>{formatNumber(p.basalRate, 3, locale)}</td>
                            <td>{p.dataType === "bolus" ? formatNumber(p.totalBolusRate, 2, locale) : "—"}</td>
                            <td>{p.delayTime > 0 ? t("pump.minutes", { count: minutes(p.delayTime) }) : "—"}</td>
                            <td>{p.points}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  ))}
              </section>
              <section className={s.section} aria-labelledby="pump-cho">
                <h2 id="pump-cho" className={s.sectionTitle}>
                  {t("pump.cho")}
                </h2>
                <p className={s.note}>
                  {t("pump.choSummary", {
                    total: `${formatNumber(report.cho.total, 0, locale)} ${g}`,
                    avg: `${formatNumber(report.cho.avg, 1, locale)} ${g}`,
                    days: report.cho.daysWithData,
                    perMeal: `${formatNumber(report.choAvg, 1, locale)} ${g}`,
                  })}
                </p>
                {report.choTables.length === 0 ? <p className={s.note}>{t("pump.noCho")}</p> : null}
                <div className={s.tableColumns}>
                  {report.choTables.map((rows, i) => (
                    <table key={i} className={s.table} data-testid="pump-cho" style={{ breakInside: "avoid", marginBottom: "0.75rem" }}>
                      <thead>
                        <tr>
                          <th scope="col">{t("pump.dateTime")}</th>
                          <th scope="col">{t("pump.grams", { unit: g })}</th>
                          <th scope="col">{t("pump.source")}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {rows.map((c) => (
                          <tr key={`${c.dateTime}-${c.grams}`}>
                            <td>{`${displayDate(c.date)} ${c.clock}`}</td>
                            <td>{formatNumber(c.grams, 0, locale)}</td>
                            <td>{t(`views:daily.carbSource.${c.source}`)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  ))}
                </div>
              </section>
              <section className={s.section} aria-labelledby="pump-alarms">
                <h2 id="pump-alarms" className={s.sectionTitle}>
                  {t("pump.alarms")}
                </h2>
                {report.warmMsgTables.length === 0 ? <p className={s.note}>{t("pump.noAlarms")}</p> : null}
                <div className={s.tableColumns}>
                  {report.warmMsgTables.map((rows, i) => (
                    <table key={i} className={s.table} data-testid="pump-alarms" style={{ breakInside: "avoid", marginBottom: "0.75rem" }}>
                      <thead>
                        <tr>
                          <th scope="col">{t("pump.dateTime")}</th>
                          <th scope="col">{t("pump.alarm")}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {rows.map((a) => (
                          <tr key={`${a.dateTime}-${a.code}`}>
                            <td>{`${displayDate(a.date)} ${a.clock}`}</td>
                            <td>{`${t(`views:daily.alarms.${a.remark}`)} (${t(`views:daily.severity.${a.severity}`)})`}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  ))}
                </div>
              </section>
              <section className={s.section} aria-labelledby="pump-boluses">
                <h2 id="pump-boluses" className={s.sectionTitle}>
                  {t("pump.boluses")}
                </h2>
                {!report.bigBoluses.shown ? (
                  <p className={s.note}>{t("pump.tooManyBoluses", { count: report.bigBoluses.count })}</p>
                ) : report.bigBoluses.count === 0 ? (
                  <p className={s.note}>{t("pump.noBoluses")}</p>
                ) : (
                  <table className={s.table} data-testid="pump-boluses">
                    <thead>
                      <tr>
                        <th scope="col">{t("pump.dateTime")}</th>
                        <th scope="col">{t("pump.type")}</th>
                        <th scope="col">{t("pump.bolusUnits", { unit: u })}</th>
                        <th scope="col">{t("pump.delay")}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {report.bigBoluses.entries.map((b) => (
                        <tr key={`${b.date}-${b.deviceRecordTime}`}>
                          <td>{`${displayDate(b.date)} ${b.clock}`}</td>
                          <td>{b.bolusKind ? t(`views:daily.bolusKind.${b.bolusKind}`) : "—"}</td>
                          <td>{formatNumber(b.totalBolusRate, 2, locale)}</td>
                          <td>{b.delayTime > 0 ? t("pump.minutes", { count: minutes(b.delayTime) }) : "—"}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </section>
              <section className={s.section} aria-labelledby="pump-settings">
                <h2 id="pump-settings" className={s.sectionTitle}>
                  {t("pump.settings.title")}
                </h2>
                {report.pdaSetting ? (
                  <table className={s.table} data-testid="pump-settings">
                    <tbody>
                      <tr>
                        <th scope="row">{t("pump.settings.originBasal", { unit: uh })}</th>
                        <td>{formatNumber(report.pdaSetting.originBasal, 3, locale)}</td>
                      </tr>
                      <tr>
                        <th scope="row">{t("pump.settings.bolusRate")}</th>
                        <td>{formatNumber(report.pdaSetting.bolusRate, 2, locale)}</td>
                      </tr>
                      <tr>
                        <th scope="row">{t("pump.settings.maxBolus", { unit: u })}</th>
                        <td>{formatNumber(report.pdaSetting.maxBolus, 2, locale)}</td>
                      </tr>
                      <tr>
                        <th scope="row">{t("pump.settings.doubleBolus")}</th>
                        <td>{report.pdaSetting.doubleBolus === null ? "—" : t(report.pdaSetting.doubleBolus ? "pump.settings.on" : "pump.settings.off")}</td>
                      </tr>
                      <tr>
                        <th scope="row">{t("pump.settings.effectiveTime")}</th>
                        <td>{report.pdaSetting.effectiveTime === null ? "—" : t("pump.minutes", { count: report.pdaSetting.effectiveTime })}</td>
                      </tr>
                      <tr>
                        <th scope="row">{t("pump.settings.lowBg", { unit: unitText })}</th>
                        <td>{list(report.pdaSetting.lowBgArray, (v) => formatGlucose(v, data.unit, locale))}</td>
                      </tr>
                      <tr>
                        <th scope="row">{t("pump.settings.highBg", { unit: unitText })}</th>
                        <td>{list(report.pdaSetting.highBgArray, (v) => formatGlucose(v, data.unit, locale))}</td>
                      </tr>
                      <tr>
                        <th scope="row">{t("pump.settings.defaultCho", { unit: `${g}/${u}` })}</th>
                        <td>{list(report.pdaSetting.defaultChoArray, (v) => formatNumber(v, 1, locale))}</td>
                      </tr>
                      <tr>
                        <th scope="row">{t("pump.settings.sensitivity", { unit: `${unitText}/${u}` })}</th>
                        <td>{list(report.pdaSetting.sensitiveSilverArray, (v) => formatGlucose(v, data.unit, locale))}</td>
                      </tr>
                    </tbody>
                  </table>
                ) : (
                  <p className={s.note}>{t("pump.settings.none")}</p>
                )}
              </section>
              <section className={s.section} aria-labelledby="pump-charts">
                <h2 id="pump-charts" className={s.sectionTitle}>
                  {t("pump.charts")}
                </h2>
                {data.charts.map((group) => (
                  <div key={group.dates[0]} data-testid="chart-group" style={{ breakBefore: "page" }}>
                    <h3 className={s.sectionTitle}>{`${displayDate(group.dates[0]!)} – ${displayDate(group.dates[group.dates.length - 1]!)}`}</h3>
                    {group.days.map((day) =>
                      day.svg ? (
                        <figure key={day.date} className={s.dayChart} data-testid="day-chart" dangerouslySetInnerHTML={{ __html: day.svg }} />
                      ) : (
                        <p key={day.date} className={s.empty}>
                          {t("pump.noDataDay", { date: displayDate(day.date) })}
                        </p>
                      ),
                    )}
                  </div>
                ))}
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
