import type { ActionFunctionArgs } from "@remix-run/node";
import { pumpReportFor, pumpReportResponse, reportContext } from "~/models/report.server";
import { REPORT_KINDS } from "~/report/report-kinds";
import { apiFail, apiOk, API_CODES, postOnly } from "~/utils/api.server";
import { readReportCall } from "~/utils/report-api.server";

/**
 * POST /api/patient-data/pdf (pid, start, end; at most 90 days): the pump/BG "Patient report
 * response" of spec 1 section 3 (glucose in mg/dL; `setting.unit` = the caller's unit setting),
 * the model of app/report/pump-report.ts without the per-day chart models.
 */
export async function action({ request }: ActionFunctionArgs) {
  const call = await readReportCall(request);
  if (call instanceof Response) return call;
  const { viewer, patient, range } = call;
  const context = await reportContext(viewer.id, patient);
  const nameStyle = context.nameStyle === "center" ? 1 : context.nameStyle === "right" ? 2 : 0;
  const result = await pumpReportFor(viewer, patient, range, Date.now(), { unit: context.unit, nameStyle });
  if (result.status !== "ok") return apiFail(request, API_CODES.invalid, REPORT_KINDS.pump.problemKeys[result.problem]);
  return apiOk(request, pumpReportResponse(patient.id, result.report));
}

export const loader = postOnly();
