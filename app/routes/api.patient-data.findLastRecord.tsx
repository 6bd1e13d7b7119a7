import type { LoaderFunctionArgs } from "@remix-run/node";
import { findVisiblePatient, viewerById } from "~/models/access.server";
import { findLastRecord } from "~/models/patient-data.server";
import { findLastRecordQuery } from "~/schemas/patient-view";
import { apiFail, apiInvalid, apiOk, API_CODES, requireApiUserId } from "~/utils/api.server";

/** GET /api/patient-data/findLastRecord (pid, origin: 2 = AiDEX, else pump): the newest stored record, or null. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = findLastRecordQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return apiInvalid(request, parsed.error, "views");
  const patient = await findVisiblePatient(viewer, parsed.data.pid);
  if (!patient) return apiFail(request, API_CODES.notFound, "notFound");
  return apiOk(request, await findLastRecord(viewer, patient.id, parsed.data.origin));
}
