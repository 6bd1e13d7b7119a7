import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/pages.css";
import { openSourceList } from "~/utils/open-source.server";
import { appVersion } from "~/utils/version.server";

/**
 * `/about`: the company, the product version (package.json), the certifications, and the
 * open-source packages the product ships with their licences (read from node_modules). Public.
 */
export async function loader(_: LoaderFunctionArgs) {
  return { version: appVersion(), packages: openSourceList() };
}

export default function About() {
  const { t } = useTranslation();
  const { t: tApi } = useTranslation("apidocs");
  const { version, packages } = useLoaderData<typeof loader>();
  return (
    <>
      <section className={s.card} aria-labelledby="about-title">
        <h1 id="about-title">{t("about.title")}</h1>
        <h2>{t("about.companyTitle")}</h2>
        <p>{t("about.company")}</p>
        <p>{t("about.mission")}</p>
        <h2>{t("about.versionTitle")}</h2>
        <p data-testid="product-version">{t("about.version", { version })}</p>
        <p>
          <Link to="/api-docs">{tApi("link")}</Link>
        </p>
        <h2>{t("about.certificationsTitle")}</h2>
        <p>{t("about.certifications")}</p>
      </section>
      <section id="licences" className={s.card} aria-labelledby="licences-title">
        <h2 id="licences-title">{t("about.licencesTitle")}</h2>
        <p>{t("about.licencesIntro")}</p>
        <div className={p.tableRegion} role="region" aria-label={t("about.caption")} tabIndex={0}>
          <table className={p.table}>
            <caption>{t("about.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("about.package")}</th>
                <th scope="col">{t("about.packageVersion")}</th>
                <th scope="col">{t("about.licence")}</th>
              </tr>
            </thead>
            <tbody>
              {packages.map((pkg) => (
                <tr key={pkg.name}>
                  <th scope="row">{pkg.name}</th>
                  <td>{pkg.version}</td>
                  <td>{pkg.licence ?? t("about.noLicence")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
