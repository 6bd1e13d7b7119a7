import type { LoaderFunctionArgs } from "@remix-run/node";
import { findVisiblePatient, viewerById } from "~/models/access.server";
import { patientDayData } from "~/models/patient-view.server";
import { findPatientDataQuery } from "~/schemas/patient-view";
import { apiFail, apiInvalid, apiOk, API_CODES, requireApiUserId } from "~/utils/api.server";

/** GET /api/patient-data/findPatientData (pid, date): one local day's pump, CGM and meter models (docs/api.md). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = findPatientDataQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return apiInvalid(request, parsed.error, "views");
  const patient = await findVisiblePatient(viewer, parsed.data.pid);
  if (!patient) return apiFail(request, API_CODES.notFound, "notFound");
  return apiOk(request, await patientDayData(viewer, patient, parsed.data.date, Date.now()));
}
