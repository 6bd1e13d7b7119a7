import { agpReportFor } from "~/services/report.server";
import { insufficientMessageValues } from "~/report/agp-report";
import { rangeProblemKey } from "~/report/report-kinds";
import { reportApiAction } from "~/services/patient-api.server";
import { postOnly } from "~/services/api.server";
import { agpReportToWire } from "~/wire/reports";

/**
 * POST /api/cgms/cgm-record/agp (pid, start, end; 3-14 days): the AGP report (app/report/agp-report.ts,
 * glucose in mg/dL) with the daily profiles' dates and counts but not their points. Fewer than 5
 * full days of CGM data is code 400 with the translated message and counts; a patient the caller
 * may not see is 404.
 */
export const action = reportApiAction("agp", async ({ viewer, patient, range, now }) => {
  const result = await agpReportFor(viewer, patient, range, now);
  if (result.status === "invalidRange")
    return { ok: false, msgKey: rangeProblemKey(result.problem, result) };
  if (result.status === "insufficient")
    return {
      ok: false,
      msgKey: "reports:agp.insufficient",
      values: insufficientMessageValues(result),
    };
  return { ok: true, data: agpReportToWire(patient.id, result.report) };
});

export const loader = postOnly();
