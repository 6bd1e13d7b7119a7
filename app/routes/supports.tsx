import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DriverDownloads } from "~/components/driver-downloads";
import * as s from "~/styles/layout.css";
import { driverAvailability } from "~/utils/drivers.server";

/** The support area: environments, devices, upload, drivers, printing, terms. */
export async function loader(_: LoaderFunctionArgs) {
  return { drivers: driverAvailability() };
}

const SECTIONS = [
  "environments",
  "devices",
  "upload",
  "drivers",
  "print",
  "terms",
  "privacy",
] as const;
const ANCHOR: Record<(typeof SECTIONS)[number], string> = {
  environments: "environments",
  devices: "devices",
  upload: "upload",
  drivers: "drivers-help",
  print: "printsettings",
  terms: "terms",
  privacy: "privacy",
};

export default function Supports() {
  const { t } = useTranslation("support");
  const { drivers } = useLoaderData<typeof loader>();
  return (
    <>
      <section className={s.card} aria-labelledby="support-title">
        <h1 id="support-title">{t("title")}</h1>
        <p>{t("intro")}</p>
        <nav aria-label={t("contents")}>
          <ul>
            {SECTIONS.map((key) => (
              <li key={key}>
                <a href={`#${ANCHOR[key]}`}>{t(`${key}.title`)}</a>
              </li>
            ))}
          </ul>
        </nav>
      </section>
      <section id="environments" className={s.card} aria-labelledby="environments-title">
        <h2 id="environments-title">{t("environments.title")}</h2>
        <p>{t("environments.os")}</p>
        <p>{t("environments.browser")}</p>
      </section>
      <section id="devices" className={s.card} aria-labelledby="devices-title">
        <h2 id="devices-title">{t("devices.title")}</h2>
        <ul>
          <li>{t("devices.pump")}</li>
          <li>{t("devices.meter")}</li>
          <li>{t("devices.cgm")}</li>
        </ul>
        <p>{t("devices.clock")}</p>
      </section>
      <section id="upload" className={s.card} aria-labelledby="upload-title">
        <h2 id="upload-title">{t("upload.title")}</h2>
        <ol>
          <li>{t("upload.step1")}</li>
          <li>{t("upload.step2")}</li>
          <li>{t("upload.step3")}</li>
          <li>{t("upload.step4")}</li>
        </ol>
      </section>
      <section id="drivers-help" aria-labelledby="drivers-help-title">
        <h2 id="drivers-help-title" className={s.skipLink}>
          {t("drivers.title")}
        </h2>
        <DriverDownloads drivers={drivers} />
        <p>{t("drivers.check")}</p>
      </section>
      <section id="printsettings" className={s.card} aria-labelledby="print-title">
        <h2 id="print-title">{t("print.title")}</h2>
        <p>{t("print.pump")}</p>
        <p id="cgmsprintsettings">{t("print.cgm")}</p>
        <p>{t("print.settings")}</p>
      </section>
      <section id="terms" className={s.card} aria-labelledby="terms-title">
        <h2 id="terms-title">{t("terms.title")}</h2>
        <p>{t("terms.body")}</p>
      </section>
      <section id="privacy" className={s.card} aria-labelledby="privacy-title">
        <h2 id="privacy-title">{t("privacy.title")}</h2>
        <p>{t("privacy.body")}</p>
      </section>
    </>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
