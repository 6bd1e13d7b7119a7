import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuditStatus } from "~/components/audit-status";
import { TriageList } from "~/components/triage-list";
import { Identity } from "~/domain/codes";
import { toGlucoseUnit } from "~/domain/glucose-unit";
import { mayReadSharedData } from "~/models/access.server";
import { parseTriageQuery } from "~/schemas/triage";
import { getLocale } from "~/services/locale.server";
import { requireUser } from "~/services/session.server";
import { clinicTriage } from "~/services/triage.server";
import * as s from "~/styles/layout.css";

/**
 * The right-hand side of the patient area's landing page. A clinic under audit sees its audit
 * state; an approved clinic the triage list of the patients who share with it (sorted, filtered
 * and paged by the query, app/schemas/triage.ts); a person a pointer to the list on the left.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const allowed = mayReadSharedData(user);
  const triage =
    allowed && user.identity === Identity.Clinic
      ? await clinicTriage(user, parseTriageQuery(new URL(request.url).searchParams), {
          unit: toGlucoseUnit(user.setting?.unit),
          locale: await getLocale(request),
        })
      : null;
  return {
    allowed,
    identity: user.identity,
    isPass: user.isPass,
    reason: user.auditReason,
    triage,
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
      {data.triage ? <TriageList data={data.triage} /> : null}
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
