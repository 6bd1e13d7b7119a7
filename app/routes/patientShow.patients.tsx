import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { useTranslation } from "react-i18next";
import { AuditStatus } from "~/components/audit-status";
import { listSharedWithMe, mayReadSharedData } from "~/models/access.server";
import * as s from "~/styles/layout.css";
import { displayName } from "~/utils/names";
import { requireUser } from "~/utils/session.server";

const PAGE_SIZE = 10;
const query = z.object({ page: z.coerce.number().int().min(1).catch(1) });

/** The patients shared with the signed-in user; a clinic under audit sees its audit state instead. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { page } = query.parse(Object.fromEntries(new URL(request.url).searchParams));
  const allowed = mayReadSharedData(user);
  const { total, items } = await listSharedWithMe(user, { page, pageSize: PAGE_SIZE });
  return {
    allowed,
    isPass: user.isPass,
    reason: user.auditReason,
    total,
    page,
    patients: items.map((r) => ({
      key: r.id,
      name: r.nickName || displayName(r.provider),
      href: `/patientShow/${r.provider.patient!.id}/${r.provider.id}/patientHome`,
      newUploads: r.uploadIsNew === 0,
    })),
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
      {data.patients.length === 0 ? (
        <p>{t("empty")}</p>
      ) : (
        <ul>
          {data.patients.map((p) => (
            <li key={p.key}>
              <Link to={p.href}>{p.name}</Link>
              {p.newUploads ? <span> · {t("newUploads")}</span> : null}
            </li>
          ))}
        </ul>
      )}
      {data.total > PAGE_SIZE ? (
        <nav aria-label={t("pages")}>
          {data.page > 1 ? <Link to={`?page=${data.page - 1}`}>{t("previous")}</Link> : null}{" "}
          {data.page * PAGE_SIZE < data.total ? <Link to={`?page=${data.page + 1}`}>{t("next")}</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
