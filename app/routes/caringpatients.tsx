import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AlarmText, CaringMenu, CaringMissing, GlucoseValue, TrendText } from "~/components/caring";
import { Pager } from "~/components/pager";
import { toGlucoseUnit } from "~/domain/glucose-unit";
import { formatDate } from "~/report/locale-format";
import { caringPageQuery } from "~/schemas/caring";
import { SHARE_PAGE_SIZE } from "~/schemas/read-power";
import { requireCaring } from "~/services/caring-account.server";
import { caredForPage } from "~/services/caring.server";
import * as c from "~/styles/caring.css";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/patient-area.css";
import * as pv from "~/styles/patient-view.css";
import * as st from "~/styles/stack-table.css";

/**
 * `/caringpatients`: the people the viewer cares for (everyone whose share with the viewer is
 * accepted), 10 a page: name, date of birth, email, current CGM glucose with its trend arrow and
 * age, and the alarm of that value against the person's own target range. Each person shown is
 * one read in their access log.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user, locale, missing } = await requireCaring(request);
  const unit = toGlucoseUnit(user.setting?.unit);
  const { page } = caringPageQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  if (missing.length) return { missing, unit, page, count: 0, rows: [] };
  const { count, rows } = await caredForPage(user, { page, locale });
  return { missing, unit, page, count, rows };
}

export default function CaringPatients() {
  const { t, i18n } = useTranslation("caring");
  const { missing, unit, page, count, rows } = useLoaderData<typeof loader>();
  const pages = Math.max(1, Math.ceil(count / SHARE_PAGE_SIZE));
  return (
    <section className={`${s.card} ${pv.section}`} aria-labelledby="patients-title">
      <h1 id="patients-title">{t("patients.title")}</h1>
      <CaringMenu />
      {missing.length ? (
        <CaringMissing missing={missing} />
      ) : rows.length === 0 ? (
        <p>
          {count > 0 ? t("patients.pageEmpty") : t("patients.empty")}{" "}
          <Link to="/caringadd">{t("menu.add")}</Link>
        </p>
      ) : (
        <table className={`${p.table} ${st.stackTableWide}`} aria-labelledby="patients-title">
          <thead>
            <tr>
              <th className={p.nameCell}>{t("patients.name")}</th>
              <th className={p.cell}>{t("patients.birthDate")}</th>
              <th className={p.cell}>{t("patients.email")}</th>
              <th className={p.cell}>{t("patients.glucose")}</th>
              <th className={p.cell}>{t("views:cgms.trend")}</th>
              <th className={p.cell}>{t("views:cgms.alarm")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.pid}>
                <th scope="row" className={p.nameCell} data-label={t("patients.name")}>
                  <Link to={`/${row.userId}/caringdetail`}>{row.nickName || row.name}</Link>
                </th>
                <td className={p.cell} data-label={t("patients.birthDate")}>
                  {row.birthDate ? formatDate(row.birthDate, i18n.language) : "–"}
                </td>
                <td className={p.cell} data-label={t("patients.email")}>
                  {row.email}
                </td>
                <td className={p.cell} data-label={t("patients.glucose")}>
                  {row.glucose ? (
                    <>
                      <GlucoseValue mgdl={row.glucose.mgdl} unit={unit} />
                      <br />
                      <span className={c.small} title={row.glucose.at}>
                        {row.glucose.age}
                      </span>
                    </>
                  ) : (
                    t("patients.noReading")
                  )}
                </td>
                <td className={p.cell} data-label={t("views:cgms.trend")}>
                  {row.glucose ? <TrendText trend={row.glucose.trend} /> : "–"}
                </td>
                <td className={p.cell} data-label={t("views:cgms.alarm")}>
                  {row.glucose ? <AlarmText alarm={row.glucose.alarm} /> : "–"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        page={page}
        pages={pages}
        href={(n) => (n > 1 ? `/caringpatients?page=${n}` : "/caringpatients")}
        labels={{
          nav: t("patients.pages"),
          back: t("sharing:panel.previous"),
          forward: t("sharing:panel.next"),
          pageOf: t("sharing:panel.pageOf", { page, pages }),
        }}
      />
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
