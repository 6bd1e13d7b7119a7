import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Chart } from "~/components/patient-view/parts";
import { formatNumber } from "~/report/units";
import {
  categoryLabel,
  DASHBOARD_FIGURES,
  dashboardChart,
  dashboardFor,
  mayUseDashboard,
} from "~/services/dashboard.server";
import { getLocale } from "~/services/locale.server";
import { requireUser } from "~/services/session.server";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/patient-area.css";
import { getFixedT } from "~/utils/i18n.server";
import { accountZone } from "~/utils/time-zones";

/**
 * `/dashboard`: the institution dashboard of an audited clinic. How the patients who share their
 * data with the clinic divide by gender, age band (ages on today's date in the clinic's zone) and
 * type of diabetes: each as a chart drawn on the server and as a table of the same numbers, so
 * the page reads the same without JavaScript. Anyone else gets the 403 page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!mayUseDashboard(user)) throw new Response("Forbidden", { status: 403 });
  const counts = await dashboardFor(user, accountZone(user), Date.now());
  if (!counts) throw new Response("Forbidden", { status: 403 });
  const locale = await getLocale(request);
  const t = await getFixedT(locale, "dashboard");
  return {
    locale,
    total: counts.total,
    figures: DASHBOARD_FIGURES.map((figure) => ({
      figure,
      chart: dashboardChart(t, locale, figure, counts[figure]),
      rows: counts[figure].map((c) => ({
        key: c.key,
        label: categoryLabel(t, figure, c.key),
        count: c.count,
      })),
    })),
  };
}

export default function Dashboard() {
  const { t } = useTranslation("dashboard");
  const { locale, total, figures } = useLoaderData<typeof loader>();
  const percent = (count: number) =>
    total === 0 ? "—" : `${formatNumber((count / total) * 100, 0, locale)} %`;
  return (
    <section className={s.card} aria-labelledby="dashboard-title">
      <h1 id="dashboard-title">{t("title")}</h1>
      <p>{t("intro")}</p>
      <p data-testid="dashboard-total">{t("total", { count: total })}</p>
      {figures.map(({ figure, chart, rows }) => (
        <section key={figure} aria-labelledby={`dashboard-${figure}`}>
          <h2 id={`dashboard-${figure}`}>{t(`${figure}.title`)}</h2>
          <Chart chart={chart} caption={t("chartCaption")} />
          <table className={p.table} data-testid={`dashboard-table-${figure}`}>
            <caption>{t(`${figure}.title`)}</caption>
            <thead>
              <tr>
                <th className={p.cell} scope="col">
                  {t(`${figure}.category`)}
                </th>
                <th className={p.cell} scope="col">
                  {t("patients")}
                </th>
                <th className={p.cell} scope="col">
                  {t("share")}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key} data-key={row.key}>
                  <th className={p.cell} scope="row">
                    {row.label}
                  </th>
                  <td className={p.cell}>{formatNumber(row.count, 0, locale)}</td>
                  <td className={p.cell}>{percent(row.count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
