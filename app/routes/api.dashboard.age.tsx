import { dashboardApiLoader } from "~/services/dashboard.server";

/** GET /api/dashboard/age: the caller's dashboard figure "age" (docs/api.md "Institution dashboard"). */
export const loader = dashboardApiLoader("age");
