import type { ActionFunctionArgs } from "@remix-run/node";
import { findVisiblePatient, viewerById } from "~/models/access.server";
import { pumpReportFor, pumpReportResponse, reportContext } from "~/models/report.server";
import { REPORT_KINDS } from "~/report/report-kinds";
import { reportApiSchema } from "~/schemas/report";
import { apiFail, apiInvalid, apiOk, API_CODES, postOnly, readBody, requireApiUserId } from "~/utils/api.server";

/**
 * POST /api/patient-data/pdf (pid, start, end; at most 90 days): the pump/BG "Patient report
 * response" of spec 1 section 3 (glucose in mg/dL; `setting.unit` = the caller's unit setting),
 * the model of app/report/pump-report.ts without the per-day chart models.
 */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = reportApiSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "reports");
  const patient = await findVisiblePatient(viewer, parsed.data.pid);
  if (!patient) return apiFail(request, API_CODES.notFound, "notFound");
  const context = await reportContext(viewer.id, patient);
  const nameStyle = context.nameStyle === "center" ? 1 : context.nameStyle === "right" ? 2 : 0;
  const result = await pumpReportFor(viewer, patient, parsed.data, Date.now(), { unit: context.unit, nameStyle });
  if (result.status !== "ok") return apiFail(request, API_CODES.invalid, REPORT_KINDS.pump.problemKeys[result.problem]);
  return apiOk(request, pumpReportResponse(patient.id, result.report));
}

export const loader = postOnly();
