import type { LoaderFunctionArgs } from "@remix-run/node";
import type { TFunction } from "i18next";
import { Identity, passedAudit } from "~/domain/codes";
import { viewerById, type Viewer } from "~/models/access.server";
import { diabetesTypeCodes, sharingPatientFacts } from "~/models/dashboard.server";
import { accountZoneOf } from "~/models/setting.server";
import { countBarChart, type CountBar } from "~/report/charts/dashboard.server";
import {
  dashboardCounts,
  NO_TYPE_KEY,
  UNKNOWN_KEY,
  type CategoryCount,
  type DashboardCounts,
} from "~/report/dashboard";
import { todayIn } from "~/report/day";
import { getFixedT } from "~/utils/i18n.server";
import { apiFail, apiOk, API_CODES, requireApiUserId } from "./api.server";
import { getLocale } from "./locale.server";
import type { ViewCharts } from "./view-charts.server";

/** The three figures of the dashboard, as the page, its charts and the API name them. */
export const DASHBOARD_FIGURES = ["sex", "age", "ill"] as const;
export type DashboardFigure = (typeof DASHBOARD_FIGURES)[number];

/**
 * Who has a dashboard: a clinic (identity 2) whose organisation audit is approved. Persons and
 * clinics still in review or refused have none (their shares grant no reading either).
 */
export function mayUseDashboard(viewer: Pick<Viewer, "identity" | "isPass">): boolean {
  return viewer.identity === Identity.Clinic && passedAudit(viewer);
}

/**
 * The dashboard's counts of the patients who share with `viewer`, ages on today's date in
 * `zone` (the clinic's own zone); null for a viewer without a dashboard.
 */
export async function dashboardFor(
  viewer: Viewer,
  zone: string,
  now: number,
): Promise<DashboardCounts | null> {
  if (!mayUseDashboard(viewer)) return null;
  const [patients, types] = await Promise.all([sharingPatientFacts(viewer), diabetesTypeCodes()]);
  return dashboardCounts(patients, types, todayIn(zone, now));
}

/** The name of a category of a figure in the reader's language. */
export function categoryLabel(t: TFunction, figure: DashboardFigure, key: string): string {
  if (figure === "ill")
    return key === NO_TYPE_KEY ? t("dashboard:ill.none") : t(`options:names.${key}`);
  if (figure === "age" && key !== UNKNOWN_KEY) return t("dashboard:age.band", { band: key });
  return t(`dashboard:${figure}.${key}`);
}

/** A figure's chart, drawn wide and narrow, its categories named in the reader's language. */
export function dashboardChart(
  t: TFunction,
  locale: string,
  figure: DashboardFigure,
  counts: readonly CategoryCount[],
): ViewCharts {
  const bars: CountBar[] = counts.map((c) => ({
    key: c.key,
    label: categoryLabel(t, figure, c.key),
    count: c.count,
  }));
  const options = {
    locale,
    title: t(`dashboard:${figure}.chartTitle`),
    countLabel: t("dashboard:patients"),
  };
  return {
    wide: countBarChart(bars, options),
    narrow: countBarChart(bars, { ...options, narrow: true }),
  };
}

/**
 * `GET /api/dashboard/{sex,age,ill}`: one figure of the caller's dashboard, `{ total, counts:
 * [{ key, name, count }] }` (every category, zeros included, in the page's order; `name` in the
 * caller's language). 403 for a caller without a dashboard.
 */
export function dashboardApiLoader(figure: DashboardFigure) {
  return async ({ request }: LoaderFunctionArgs) => {
    const viewer = await viewerById(await requireApiUserId(request));
    if (!mayUseDashboard(viewer)) return apiFail(request, API_CODES.forbidden, "forbidden");
    const counts = await dashboardFor(viewer, await accountZoneOf(viewer.id), Date.now());
    if (!counts) return apiFail(request, API_CODES.forbidden, "forbidden");
    const t = await getFixedT(await getLocale(request), "dashboard");
    return apiOk(request, {
      total: counts.total,
      counts: counts[figure].map((c) => ({
        key: c.key,
        name: categoryLabel(t, figure, c.key),
        count: c.count,
      })),
    });
  };
}
