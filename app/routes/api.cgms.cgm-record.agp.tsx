import type { ActionFunctionArgs } from "@remix-run/node";
import { findVisiblePatient, viewerById } from "~/models/access.server";
import { agpReportFor, agpReportResponse } from "~/models/report.server";
import { displayDate } from "~/report/day";
import { REPORT_KINDS } from "~/report/report-kinds";
import { reportApiSchema } from "~/schemas/report";
import { apiFail, apiInvalid, apiOk, API_CODES, postOnly, readBody, requireApiUserId } from "~/utils/api.server";

/**
 * POST /api/cgms/cgm-record/agp (pid, start, end; 3-14 days): the AGP report (app/report/agp-report.ts,
 * glucose in mg/dL) with the daily profiles' dates and counts but not their points. Fewer than 5
 * full days of CGM data is code 400 with the translated message and counts; a patient the caller
 * may not see is 404.
 */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = reportApiSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "reports");
  const patient = await findVisiblePatient(viewer, parsed.data.pid);
  if (!patient) return apiFail(request, API_CODES.notFound, "notFound");
  const result = await agpReportFor(viewer, patient, parsed.data, Date.now());
  if (result.status === "invalidRange") return apiFail(request, API_CODES.invalid, REPORT_KINDS.agp.problemKeys[result.problem]);
  if (result.status === "insufficient") {
    return apiFail(request, API_CODES.invalid, "reports:agp.insufficient", {
      fullDays: result.fullDays,
      requiredFullDays: result.requiredFullDays,
      dayCount: result.dayCount,
      percent: Math.round(result.fullDayFraction * 100),
      from: displayDate(result.from),
      to: displayDate(result.to),
    });
  }
  return apiOk(request, agpReportResponse(patient.id, result.report));
}

export const loader = postOnly();
