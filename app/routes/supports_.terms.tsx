import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getLocale } from "~/services/locale.server";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/pages.css";
import { DOCUMENT_PAGE } from "~/components/support-guide";
import { getFixedT } from "~/utils/i18n.server";
import { appVersion } from "~/utils/version.server";

/**
 * `/supports/terms`: the terms of service and the privacy policy, a printable page in the
 * visitor's language with the product version; `/supports/terms.pdf` is this page printed by the
 * server's Chromium. Public.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const version = appVersion();
  const t = await getFixedT(await getLocale(request), "support");
  return { version, title: `${t("legal.title")} ${t("legal.version", { version })}` };
}

/** The document title, which the PDF keeps as its title. */
export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.title }] : [];

const TERMS = [
  "service",
  "noAdvice",
  "account",
  "accuracy",
  "clinics",
  "availability",
  "liability",
  "ending",
  "changes",
] as const;
const PRIVACY = [
  "controller",
  "data",
  "purpose",
  "recipients",
  "security",
  "retention",
  "rights",
  "cookies",
] as const;

export default function Terms() {
  const { t } = useTranslation("support");
  const { version } = useLoaderData<typeof loader>();
  return (
    <article className={p.document} aria-labelledby="legal-title">
      <style>{DOCUMENT_PAGE}</style>
      <h1 id="legal-title">{t("legal.title")}</h1>
      <p className={p.docMeta}>{t("legal.version", { version })}</p>
      <section id="terms" className={s.card} aria-labelledby="terms-title">
        <h2 id="terms-title">{t("legal.termsTitle")}</h2>
        <ol className={p.steps}>
          {TERMS.map((key) => (
            <li key={key}>{t(`legal.${key}`)}</li>
          ))}
        </ol>
      </section>
      <section id="privacy" className={s.card} aria-labelledby="privacy-title">
        <h2 id="privacy-title">{t("legal.privacyTitle")}</h2>
        <ol className={p.steps}>
          {PRIVACY.map((key) => (
            <li key={key}>{t(`legal.${key}`)}</li>
          ))}
        </ol>
      </section>
    </article>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
