import { findVisiblePatient, viewerById, type Viewer, type VisiblePatient } from "~/models/access.server";
import { reportApiSchema, type ReportRange } from "~/schemas/report";
import { apiFail, apiInvalid, API_CODES, readBody, requireApiUserId } from "~/utils/api.server";

/**
 * The start of every `/api/` report call: the caller (API token), the body (pid, start, end;
 * a translated 400 when invalid) and the patient (404 when the caller may not see them). Returns
 * the answer to send instead when the call stops here.
 */
export async function readReportCall(request: Request): Promise<{ viewer: Viewer; patient: VisiblePatient; range: ReportRange } | Response> {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = reportApiSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "reports");
  const patient = await findVisiblePatient(viewer, parsed.data.pid);
  if (!patient) return apiFail(request, API_CODES.notFound, "notFound");
  return { viewer, patient, range: { start: parsed.data.start, end: parsed.data.end } };
}
