import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DriverDownloads } from "~/components/driver-downloads";
import {
  Devices,
  DriverGuides,
  Environments,
  PrintPreparation,
  UploadPreparation,
} from "~/components/support-guide";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/pages.css";
import { placedDrivers } from "~/utils/drivers.server";
import { appVersion } from "~/utils/version.server";

/**
 * `/supports`: systems and browsers, devices, upload preparation, drivers, report printing, the
 * user guide and terms as PDFs, and the terms' summary. Public.
 */
export async function loader(_: LoaderFunctionArgs) {
  return { drivers: placedDrivers(), version: appVersion() };
}

const CONTENTS = [
  ["environments", "environments.title"],
  ["devices", "devices.title"],
  ["upload", "upload.title"],
  ["drivers-help", "drivers.title"],
  ["printsettings", "print.title"],
  ["cgmsprintsettings", "cgmPrint.title"],
  ["downloads", "downloads.title"],
  ["terms", "terms.title"],
  ["privacy", "privacy.title"],
] as const;

export default function Supports() {
  const { t } = useTranslation("support");
  const { drivers, version } = useLoaderData<typeof loader>();
  return (
    <>
      <section className={s.card} aria-labelledby="support-title">
        <h1 id="support-title">{t("title")}</h1>
        <p>{t("intro")}</p>
        <nav aria-label={t("contents")}>
          <ul>
            {CONTENTS.map(([anchor, key]) => (
              <li key={anchor}>
                <a href={`#${anchor}`}>{t(key)}</a>
              </li>
            ))}
          </ul>
        </nav>
      </section>
      <Environments />
      <Devices />
      <UploadPreparation />
      <DriverGuides downloads={<DriverDownloads drivers={drivers} />} />
      <PrintPreparation settingsLink />
      <section id="downloads" className={s.card} aria-labelledby="downloads-title">
        <h2 id="downloads-title">{t("downloads.title")}</h2>
        <p>{t("downloads.intro", { version })}</p>
        <ul className={p.linkList}>
          <li>
            <a href="/supports/guide.pdf" download>
              {t("downloads.guide")}
            </a>{" "}
            · <a href="/supports/guide">{t("downloads.guideOnline")}</a>
          </li>
          <li>
            <a href="/supports/terms.pdf" download>
              {t("downloads.terms")}
            </a>{" "}
            · <a href="/supports/terms">{t("downloads.termsOnline")}</a>
          </li>
        </ul>
      </section>
      <section id="terms" className={s.card} aria-labelledby="terms-title">
        <h2 id="terms-title">{t("terms.title")}</h2>
        <p>{t("terms.body")}</p>
      </section>
      <section id="privacy" className={s.card} aria-labelledby="privacy-title">
        <h2 id="privacy-title">{t("privacy.title")}</h2>
        <p>{t("privacy.body")}</p>
        <p>
          <a href="/supports/terms">{t("downloads.termsOnline")}</a>
        </p>
      </section>
    </>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
