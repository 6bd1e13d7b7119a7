import { dashboardApiLoader } from "~/services/dashboard.server";

/** GET /api/dashboard/ill: the caller's dashboard figure "ill" (docs/api.md "Institution dashboard"). */
export const loader = dashboardApiLoader("ill");
