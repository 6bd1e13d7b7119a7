import type { ActionFunctionArgs } from "@remix-run/node";
import { findVisiblePatient, viewerById } from "~/models/access.server";
import { cgmReportFor, cgmReportResponse, reportContext } from "~/models/report.server";
import { REPORT_KINDS } from "~/report/report-kinds";
import { reportApiSchema } from "~/schemas/report";
import { apiFail, apiInvalid, apiOk, API_CODES, postOnly, readBody, requireApiUserId } from "~/utils/api.server";

/**
 * POST /api/patient-data/sugarDevicePdf (pid, start, end; 3-14 days): the CGM report response of
 * spec 1 section 3 (glucose in mg/dL, `glucoseUnit` = the caller's unit setting) with every
 * reading as a row (pdid, dateTimeStr, statusShort0). See docs/api.md "Reports".
 */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = reportApiSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "reports");
  const patient = await findVisiblePatient(viewer, parsed.data.pid);
  if (!patient) return apiFail(request, API_CODES.notFound, "notFound");
  const { unit } = await reportContext(viewer.id, patient);
  const result = await cgmReportFor(viewer, patient, parsed.data, Date.now(), unit);
  if (result.status !== "ok") return apiFail(request, API_CODES.invalid, REPORT_KINDS.cgm.problemKeys[result.problem]);
  return apiOk(request, cgmReportResponse(patient.id, result.report));
}

export const loader = postOnly();
