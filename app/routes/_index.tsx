import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as s from "~/styles/layout.css";
import { getSessionUser, homePath } from "~/services/session.server";

/** `/`: signed-in users go to their home (`homePath`); visitors see the welcome page. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  if (user) throw redirect(homePath(user));
  return null;
}

export default function Home() {
  const { t } = useTranslation();
  return (
    <>
      <section className={s.card} aria-labelledby="welcome">
        <h1 id="welcome">{t("home.welcome")}</h1>
        <p>{t("home.intro")}</p>
        <div className={s.actions}>
          <Link to="/signup" className={s.button}>
            {t("home.getStarted")}
          </Link>
          <Link to="/login" className={s.buttonSecondary}>
            {t("home.haveAccount")}
          </Link>
        </div>
      </section>
      <section className={s.card} aria-labelledby="features">
        <h2 id="features">{t("home.featuresTitle")}</h2>
        <ul>
          <li>{t("home.featureUpload")}</li>
          <li>{t("home.featureViews")}</li>
          <li>{t("home.featureShare")}</li>
          <li>{t("home.featureReports")}</li>
        </ul>
      </section>
      <section className={s.card} aria-labelledby="about">
        <h2 id="about">{t("home.aboutTitle")}</h2>
        <p>{t("home.about")}</p>
        <h2>{t("home.certificationsTitle")}</h2>
        <p>{t("home.certifications")}</p>
      </section>
    </>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
