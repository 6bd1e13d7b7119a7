import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as s from "~/styles/layout.css";

const KNOWN = new Set([401, 403, 404]);

/** The translated error page for 401/403/404 and everything else (spec 2 section 8). */
export function ErrorPage({ status }: { status: number }) {
  const { t } = useTranslation();
  const key = KNOWN.has(status) ? String(status) : "default";
  return (
    <section className={s.errorPage} aria-labelledby="error-title">
      <p>{t("errors.status", { status })}</p>
      <h1 id="error-title">{status === 404 ? t("notFound.title") : t("errors.title")}</h1>
      <p>{t(`errors.${key}`)}</p>
      {status === 404 ? <p>{t("notFound.body")}</p> : null}
      <p>
        <Link to="/" className={s.button}>
          {t("errors.backHome")}
        </Link>
      </p>
    </section>
  );
}
