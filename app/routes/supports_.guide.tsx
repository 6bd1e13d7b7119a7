import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  Devices,
  DriverGuides,
  Environments,
  PrintPreparation,
  UploadPreparation,
  DOCUMENT_PAGE,
} from "~/components/support-guide";
import { getLocale } from "~/services/locale.server";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/pages.css";
import { getFixedT } from "~/utils/i18n.server";
import { appVersion } from "~/utils/version.server";

/**
 * `/supports/guide`: the user guide, a printable page in the visitor's language with the product
 * version; `/supports/guide.pdf` is this page printed by the server's Chromium. Public.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const version = appVersion();
  const t = await getFixedT(await getLocale(request), "support");
  return { version, title: `${t("guide.title")} ${t("guide.version", { version })}` };
}

/** The document title, which the PDF keeps as its title. */
export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.title }] : [];

export default function Guide() {
  const { t } = useTranslation("support");
  const { version } = useLoaderData<typeof loader>();
  return (
    <article className={p.document} aria-labelledby="guide-title">
      <style>{DOCUMENT_PAGE}</style>
      <h1 id="guide-title">{t("guide.title")}</h1>
      <p className={p.docMeta}>{t("guide.version", { version })}</p>
      <p>{t("guide.intro")}</p>
      <section className={s.card} aria-labelledby="using-title">
        <h2 id="using-title">{t("guide.usingTitle")}</h2>
        <ul>
          <li>{t("common:home.featureUpload")}</li>
          <li>{t("common:home.featureViews")}</li>
          <li>{t("common:home.featureShare")}</li>
          <li>{t("common:home.featureReports")}</li>
        </ul>
      </section>
      <Environments />
      <Devices />
      <UploadPreparation />
      <DriverGuides downloads={<p>{t("drivers.downloadsOnline")}</p>} />
      <PrintPreparation settingsLink={false} />
    </article>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
