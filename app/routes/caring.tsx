import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CaringMenu, CaringMissing } from "~/components/caring";
import { listCaredFor, listCaringRequests } from "~/models/read-power-list.server";
import { requireCaring } from "~/services/caring-account.server";
import * as c from "~/styles/caring.css";
import * as s from "~/styles/layout.css";

/**
 * `/caring`: remote caring's overview. Until the account's information (and a person's own
 * health record, or a clinic's organisation review) is complete it says what is missing, with
 * links; then it leads to the people one cares for, the pending requests and adding a person.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user, missing } = await requireCaring(request);
  if (missing.length) return { missing, patients: 0, pending: 0 };
  const [patients, pending] = await Promise.all([
    listCaredFor(user, { page: 1 }),
    listCaringRequests(user, { page: 1 }),
  ]);
  return { missing, patients: patients.count, pending: pending.count };
}

export default function Caring() {
  const { t } = useTranslation("caring");
  const { missing, patients, pending } = useLoaderData<typeof loader>();
  return (
    <section className={s.card} aria-labelledby="caring-title">
      <h1 id="caring-title">{t("hub.title")}</h1>
      <CaringMenu />
      <p>{t("hub.intro")}</p>
      {missing.length ? (
        <CaringMissing missing={missing} />
      ) : (
        <>
          <div className={c.cards}>
            <section className={c.hubCard} aria-labelledby="hub-patients">
              <h2 id="hub-patients">
                <Link to="/caringpatients">{t("menu.patients")}</Link>
              </h2>
              <p>{t("hub.patientsText")}</p>
              <p data-testid="caring-count-patients">
                {t("hub.patientsCount", { count: patients })}
              </p>
            </section>
            <section className={c.hubCard} aria-labelledby="hub-pending">
              <h2 id="hub-pending">
                <Link to="/caringpedding">{t("menu.pending")}</Link>
              </h2>
              <p>{t("hub.pendingText")}</p>
              <p data-testid="caring-count-pending">{t("hub.pendingCount", { count: pending })}</p>
            </section>
            <section className={c.hubCard} aria-labelledby="hub-add">
              <h2 id="hub-add">
                <Link to="/caringadd">{t("menu.add")}</Link>
              </h2>
              <p>{t("hub.addText")}</p>
            </section>
          </div>
          <p className={c.small}>
            {t("hub.cgmNote")} <Link to="/supports#devices">{t("hub.devicesLink")}</Link>
          </p>
        </>
      )}
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
