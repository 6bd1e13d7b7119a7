import type { ActionFunctionArgs } from "@remix-run/node";
import { cgmReportFor, cgmReportResponse, reportContext } from "~/models/report.server";
import { REPORT_KINDS } from "~/report/report-kinds";
import { apiFail, apiOk, API_CODES, postOnly } from "~/utils/api.server";
import { readReportCall } from "~/utils/report-api.server";

/**
 * POST /api/patient-data/sugarDevicePdf (pid, start, end; 3-14 days): the CGM report response of
 * spec 1 section 3 (glucose in mg/dL, `glucoseUnit` = the caller's unit setting) with every
 * reading as a row (pdid, dateTimeStr, statusShort0). See docs/api.md "Reports".
 */
export async function action({ request }: ActionFunctionArgs) {
  const call = await readReportCall(request);
  if (call instanceof Response) return call;
  const { viewer, patient, range } = call;
  const { unit } = await reportContext(viewer.id, patient);
  const result = await cgmReportFor(viewer, patient, range, Date.now(), unit);
  if (result.status !== "ok") return apiFail(request, API_CODES.invalid, REPORT_KINDS.cgm.problemKeys[result.problem]);
  return apiOk(request, cgmReportResponse(patient.id, result.report));
}

export const loader = postOnly();
