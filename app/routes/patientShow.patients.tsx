import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuditStatus } from "~/components/audit-status";
import { Identity } from "~/domain/codes";
import { mayReadSharedData } from "~/models/access.server";
import * as s from "~/styles/layout.css";
import { requireUser } from "~/services/session.server";

/** The right-hand side of the clinics' landing page; a clinic under audit sees its audit state. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return {
    allowed: mayReadSharedData(user),
    identity: user.identity,
    isPass: user.isPass,
    reason: user.auditReason,
  };
}

export default function Patients() {
  const { t } = useTranslation("patients");
  const data = useLoaderData<typeof loader>();
  if (!data.allowed) {
    return (
      <section className={s.card} aria-labelledby="patients-title">
        <h1 id="patients-title">{t("title")}</h1>
        <AuditStatus isPass={data.isPass} reason={data.reason} />
        <p>{t("auditNeeded")}</p>
        <Link to="/organisation" className={s.button}>
          {t("completeOrganisation")}
        </Link>
      </section>
    );
  }
  return (
    <section className={s.card} aria-labelledby="patients-title">
      <h1 id="patients-title">{t("title")}</h1>
      <p>{data.identity === Identity.Clinic ? t("chooseClinic") : t("choosePerson")}</p>
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
