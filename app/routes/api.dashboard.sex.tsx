import { dashboardApiLoader } from "~/services/dashboard.server";

/** GET /api/dashboard/sex: the caller's dashboard figure "sex" (docs/api.md "Institution dashboard"). */
export const loader = dashboardApiLoader("sex");
