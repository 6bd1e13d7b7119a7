import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { REPORT_KINDS, reportPageHref, type ReportKind } from "~/report/report-kinds";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/pages.css";
import { patientLinks } from "./patient-view/links";

/** Who looks at the welcome page: a visitor, a person with their own data, or a reader of others'. */
export type WelcomeViewer =
  | { kind: "visitor" }
  | { kind: "person"; patient: { id: number; userId: number } }
  | { kind: "reader"; home: string };

const REPORTS: readonly ReportKind[] = ["pump", "cgm", "agp", "statistics", "bloodTests"];

function NextSteps({ viewer }: { viewer: WelcomeViewer }) {
  const { t } = useTranslation();
  if (viewer.kind === "visitor")
    return (
      <div className={s.actions}>
        <Link to="/signup" className={s.button}>
          {t("home.getStarted")}
        </Link>
        <Link to="/login" className={s.buttonSecondary}>
          {t("home.haveAccount")}
        </Link>
      </div>
    );
  if (viewer.kind === "reader")
    return (
      <>
        <h3>{t("home.patientsTitle")}</h3>
        <p>{t("home.patientsHint")}</p>
        <div className={s.actions}>
          <Link to={viewer.home} className={s.button}>
            {t("home.patientsLink")}
          </Link>
          <Link to="/patientShow/add" className={s.buttonSecondary}>
            {t("home.addPatient")}
          </Link>
        </div>
      </>
    );
  const links = patientLinks(viewer.patient);
  return (
    <>
      <h3>{t("home.uploadTitle")}</h3>
      <p>{t("home.uploadHint")}</p>
      <div className={s.actions}>
        <Link to={links.upload} className={s.button}>
          {t("home.uploadLink")}
        </Link>
        <Link to={links.home} className={s.buttonSecondary}>
          {t("home.dataLink")}
        </Link>
      </div>
      <h3>{t("home.reportsTitle")}</h3>
      <p>{t("home.reportsHint")}</p>
      <ul className={p.linkList}>
        {REPORTS.map((kind) => (
          <li key={kind}>
            <Link to={reportPageHref(kind, viewer.patient.id)}>
              {t(REPORT_KINDS[kind].titleKey)}
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}

/** The welcome page: what DiaCare does, and the next steps for whoever looks. */
export function Welcome({ viewer }: { viewer: WelcomeViewer }) {
  const { t } = useTranslation();
  return (
    <>
      <section className={s.card} aria-labelledby="welcome">
        <h1 id="welcome">{t("home.welcome")}</h1>
        <p>{t("home.intro")}</p>
        {viewer.kind === "visitor" ? <NextSteps viewer={viewer} /> : null}
      </section>
      {viewer.kind === "visitor" ? null : (
        <section className={s.card} aria-labelledby="next-steps">
          <h2 id="next-steps">{t("home.nextTitle")}</h2>
          <NextSteps viewer={viewer} />
        </section>
      )}
      <section className={s.card} aria-labelledby="features">
        <h2 id="features">{t("home.featuresTitle")}</h2>
        <ul>
          <li>{t("home.featureUpload")}</li>
          <li>{t("home.featureViews")}</li>
          <li>{t("home.featureShare")}</li>
          <li>{t("home.featureReports")}</li>
        </ul>
        <p>
          {t("home.help")} <Link to="/supports">{t("home.helpLink")}</Link> ·{" "}
          <Link to="/about">{t("nav.about")}</Link>
        </p>
      </section>
    </>
  );
}
