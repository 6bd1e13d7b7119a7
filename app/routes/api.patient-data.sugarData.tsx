import type { LoaderFunctionArgs } from "@remix-run/node";
import { findVisiblePatient, viewerById } from "~/models/access.server";
import { sugarData } from "~/models/patient-view.server";
import { rangeQuery } from "~/schemas/patient-view";
import { apiFail, apiInvalid, apiOk, API_CODES, requireApiUserId } from "~/utils/api.server";

/** GET /api/patient-data/sugarData (pid, start, end): meter readings per day with meal tags and sugarTotalCount. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = rangeQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return apiInvalid(request, parsed.error, "views");
  const patient = await findVisiblePatient(viewer, parsed.data.pid);
  if (!patient) return apiFail(request, API_CODES.notFound, "notFound");
  const result = await sugarData(viewer, patient, parsed.data.start, parsed.data.end, Date.now());
  return result.ok ? apiOk(request, result.data) : apiFail(request, API_CODES.invalid, `views:problems.${result.problem}`);
}
