import type { LoaderFunctionArgs } from "@remix-run/node";
import { findVisiblePatient, viewerById } from "~/models/access.server";
import { cgmList } from "~/models/patient-view.server";
import { rangeQuery } from "~/schemas/patient-view";
import { apiFail, apiInvalid, apiOk, API_CODES, requireApiUserId } from "~/utils/api.server";

/** GET /api/cgms/cgm-record/findList (pid, start, end; 1-14 days): CGM readings and time in ranges. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = rangeQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return apiInvalid(request, parsed.error, "views");
  const patient = await findVisiblePatient(viewer, parsed.data.pid);
  if (!patient) return apiFail(request, API_CODES.notFound, "notFound");
  const result = await cgmList(viewer, patient, parsed.data.start, parsed.data.end, Date.now());
  return result.ok ? apiOk(request, result.data) : apiFail(request, API_CODES.invalid, `views:problems.${result.problem}`);
}
