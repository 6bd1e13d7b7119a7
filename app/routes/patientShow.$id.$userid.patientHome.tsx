import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { Identity } from "~/domain/codes";
import { idParam } from "~/schemas/fields";
import { useTranslation } from "react-i18next";
import { BgView } from "~/components/patient-view/bg-view";
import { CgmsView } from "~/components/patient-view/cgms-view";
import { DailyView } from "~/components/patient-view/daily-view";
import { patientLinks } from "~/components/patient-view/links";
import { PatientTabs } from "~/components/patient-view/patient-tabs";
import { lastDayWithData } from "~/models/patient-data.server";
import { forPage, patientView, tabsFor } from "~/services/patient-view.server";
import { markUploadsSeen } from "~/models/read-power-change.server";
import { formatDate } from "~/report/locale-format";
import { viewChart } from "~/services/view-charts.server";
import { toGlucoseUnit } from "~/domain/glucose-unit";
import { parsePatientViewQuery } from "~/schemas/patient-view";
import { readPatient } from "~/services/patient-read.server";
import * as s from "~/styles/patient-view.css";
import * as layout from "~/styles/layout.css";
import { getLocale } from "~/services/locale.server";
import { getFixedT } from "~/utils/i18n.server";
import { displayName } from "~/utils/names";
import { homePath, requireUser } from "~/services/session.server";

const params = z.object({ id: idParam, userid: idParam });

/**
 * A patient's data: tabs DAILY, BG and CGMS with the chosen day or range.
 * Unknown or not-shared patients are a 404 (nothing is revealed).
 */
export async function loader({ request, params: raw }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const parsed = params.safeParse(raw);
  if (!parsed.success) throw new Response("Not Found", { status: 404 });
  const query = parsePatientViewQuery(new URL(request.url).searchParams);
  const read = await readPatient({
    viewer,
    pid: parsed.data.id,
    userId: parsed.data.userid,
    purpose: "patientHome",
    channel: "page",
    detail: {
      tab: query.tab,
      date: query.date.value,
      from: query.from.value,
      to: query.to.value,
      days: query.days,
    },
  });
  if (!read.ok) throw new Response("Not Found", { status: 404 });
  const { patient, now } = read;
  const locale = await getLocale(request);
  const unit = toGlucoseUnit(viewer.setting?.unit);
  const tabs = tabsFor(locale);
  const [view, t, cgmInReports] = await Promise.all([
    patientView(viewer, patient, query, locale, now),
    getFixedT(locale, "views"),
    // Where the CGMS tab is hidden, the reader is told that the patient's CGM data is in the reports.
    tabs.includes("cgms") ? null : lastDayWithData(viewer, patient.id, "cgm", patient.timeZone),
    patient.userId === viewer.id ? null : markUploadsSeen(viewer, patient.userId),
  ]);
  const chart = viewChart(view, { unit, locale, t });
  return {
    links: patientLinks(patient),
    pid: patient.id,
    name: displayName(patient.user),
    own: patient.userId === viewer.id,
    meHref: viewer.identity === Identity.Person ? homePath(viewer) : null,
    timeZone: patient.timeZone,
    tabs,
    cgmInReports,
    unit,
    view: forPage(view),
    chart,
  };
}

export default function PatientHome() {
  const { t, i18n } = useTranslation("views");
  const { t: tp } = useTranslation("patients");
  const data = useLoaderData<typeof loader>();
  const { view } = data;
  const base = data.links.home;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === base;
  const date = "nav" in view ? view.nav.date : view.range.to;
  return (
    <article
      className={`${layout.card} ${s.view}`}
      aria-labelledby="patient-title"
      aria-busy={loading || undefined}
    >
      <p role="status" className={s.visuallyHidden}>
        {loading ? t("loading") : ""}
      </p>
      <header className={s.header}>
        <div>
          <h1 id="patient-title" className={s.title}>
            {data.own ? tp("myHome") : data.name}
          </h1>
          <p className={s.note}>
            {t("unitNote", { unit: t(`common:units.${data.unit}`), zone: data.timeZone })}
          </p>
        </div>
        {data.meHref ? (
          <Link
            className={layout.buttonSecondary}
            to={data.meHref}
            title={t("meTitle")}
            aria-current={data.own ? "page" : undefined}
          >
            {t("me")}
          </Link>
        ) : null}
      </header>
      <nav aria-label={t("reports.label")} className={s.reportLinks}>
        <ReportLinks pid={data.pid} />
      </nav>
      {/* On a phone the same links fold into a disclosure; the CSS shows one of the two. */}
      <details className={s.reportMenu} data-testid="report-menu">
        <summary className={s.reportMenuSummary}>{t("reports.label")}</summary>
        <nav aria-label={t("reports.label")} className={s.reportMenuLinks}>
          <ReportLinks pid={data.pid} />
        </nav>
      </details>
      {data.cgmInReports ? (
        <p role="note" className={s.note} data-testid="cgm-in-reports">
          {t("cgmInReports", { date: formatDate(data.cgmInReports, i18n.language) })}{" "}
          <Link to={`/${data.pid}/cgmsprint`}>{t("reports.cgm")}</Link>
          {" · "}
          <Link to={`/${data.pid}/agpprint`}>{t("reports.agp")}</Link>
        </p>
      ) : null}
      <PatientTabs links={data.links} tabs={data.tabs} current={view.tab} date={date} />
      {view.tab === "daily" ? (
        <DailyView
          base={base}
          nav={view.nav}
          pump={view.pump}
          chart={data.chart}
          unit={data.unit}
        />
      ) : view.tab === "bg" ? (
        <BgView range={view.range} model={view.model} chart={data.chart} unit={data.unit} />
      ) : (
        <CgmsView base={base} data={view} chart={data.chart} unit={data.unit} />
      )}
    </article>
  );
}

/** The patient's reports. */
function ReportLinks({ pid }: { pid: number }) {
  const { t } = useTranslation("views");
  return (
    <>
      <Link to={`/${pid}/print`}>{t("reports.pump")}</Link>
      <Link to={`/${pid}/cgmsprint`}>{t("reports.cgm")}</Link>
      <Link to={`/${pid}/agpprint`}>{t("reports.agp")}</Link>
      <Link to={`/${pid}/statisticsprint`}>{t("reports.statistics")}</Link>
      <Link to={`/${pid}/bloodtestsprint`}>{t("reports.bloodTests")}</Link>
    </>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
