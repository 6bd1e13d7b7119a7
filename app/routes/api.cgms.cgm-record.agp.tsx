import type { ActionFunctionArgs } from "@remix-run/node";
import { agpReportFor, agpReportResponse } from "~/models/report.server";
import { insufficientMessageValues } from "~/report/agp-report";
import { REPORT_KINDS } from "~/report/report-kinds";
import { apiFail, apiOk, API_CODES, postOnly } from "~/utils/api.server";
import { readReportCall } from "~/utils/report-api.server";

/**
 * POST /api/cgms/cgm-record/agp (pid, start, end; 3-14 days): the AGP report (app/report/agp-report.ts,
 * glucose in mg/dL) with the daily profiles' dates and counts but not their points. Fewer than 5
 * full days of CGM data is code 400 with the translated message and counts; a patient the caller
 * may not see is 404.
 */
export async function action({ request }: ActionFunctionArgs) {
  const call = await readReportCall(request);
  if (call instanceof Response) return call;
  const { viewer, patient, range } = call;
  const result = await agpReportFor(viewer, patient, range, Date.now());
  if (result.status === "invalidRange") return apiFail(request, API_CODES.invalid, REPORT_KINDS.agp.problemKeys[result.problem]);
  if (result.status === "insufficient") {
    return apiFail(request, API_CODES.invalid, "reports:agp.insufficient", insufficientMessageValues(result));
  }
  return apiOk(request, agpReportResponse(patient.id, result.report));
}

export const loader = postOnly();
