import {
  data as answer,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuditStatus } from "~/components/audit-status";
import { TriageList } from "~/components/triage-list";
import { Identity } from "~/domain/codes";
import { toGlucoseUnit } from "~/domain/glucose-unit";
import { mayReadSharedData } from "~/models/access.server";
import { parseTagForm } from "~/schemas/clinic-tags";
import { parseTriageQuery } from "~/schemas/triage";
import { applyTagForm } from "~/models/clinic-tags.server";
import { getLocale } from "~/services/locale.server";
import { requireUser } from "~/services/session.server";
import { clinicTriage } from "~/services/triage.server";
import * as s from "~/styles/layout.css";

/**
 * The right-hand side of the patient area's landing page. A clinic under audit sees its audit
 * state; an approved clinic the triage view of the patients who share with it (period, sort,
 * filters and page from the query, app/schemas/triage.ts); a person a pointer to the list on the left.
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

/**
 * A row's tag forms (`intent` attach or detach, `tagId`, `patientId`): the clinic's own tag on a
 * patient who shares with it (app/models/clinic-tags.server.ts). Done: back to the same list
 * (its query kept); refused: the list with the translated reason and the refusal's status.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseTagForm(await request.formData());
  const intent = parsed.success ? parsed.data.intent : null;
  if (!parsed.success || (intent !== "attach" && intent !== "detach"))
    return answer(
      { error: parsed.success ? "tags.errors.intentInvalid" : parsed.error.issues[0]!.message },
      { status: 400 },
    );
  const done = await applyTagForm(user, parsed.data);
  if (!done.ok) return answer({ error: done.error }, { status: done.status });
  const url = new URL(request.url);
  return redirect(`${url.pathname}${url.search}`);
}

export default function Patients() {
  const { t } = useTranslation("patients");
  const data = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
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
      {data.triage ? <TriageList data={data.triage} error={acted?.error ?? null} /> : null}
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
