import { Link, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as s from "~/styles/layout.css";

const KNOWN = new Set([401, 403, 404, 413]);

export interface ErrorPageProps {
  status: number;
  /** The failed request's id, shown so that a problem a user reports can be found in the log. */
  requestId?: string | null;
  /** For 413: the largest body the form accepts, in KB. */
  limitKb?: number | null;
}

/**
 * The translated error page for 401/403/404/413 and everything else: the status, one sentence
 * saying what went wrong, and the way back (the homepage; for a signed-in user refused a page or
 * a patient, also the patient list).
 */
export function ErrorPage({ status, requestId, limitKb }: ErrorPageProps) {
  const { t } = useTranslation();
  const root = useRouteLoaderData<{ user?: unknown }>("root");
  const signedIn = Boolean(root?.user);
  const key = KNOWN.has(status) ? String(status) : "default";
  const title =
    status === 404
      ? t("notFound.title")
      : status === 403
        ? t("forbidden.title")
        : t("errors.title");
  return (
    <section className={s.errorPage} aria-labelledby="error-title">
      <p>{t("errors.status", { status })}</p>
      <h1 id="error-title">{title}</h1>
      <p>{t(`errors.${key}`, { limitKb: limitKb ?? 64 })}</p>
      {status === 404 ? <p>{t("notFound.body")}</p> : null}
      {status >= 500 && requestId ? (
        <p data-testid="request-id">
          {t("errors.requestId")} <code>{requestId}</code>
        </p>
      ) : null}
      <p className={s.actions} style={{ justifyContent: "center" }}>
        <Link to="/" className={s.button}>
          {t("errors.backHome")}
        </Link>
        {signedIn && (status === 403 || status === 404) ? (
          <Link to="/patientShow/patients" className={s.buttonSecondary}>
            {t("errors.backToPatients")}
          </Link>
        ) : null}
      </p>
    </section>
  );
}
