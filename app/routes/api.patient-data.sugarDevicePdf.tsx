import { cgmReportFor, reportContext } from "~/services/report.server";
import { rangeProblemKey } from "~/report/report-kinds";
import { reportApiAction } from "~/services/patient-api.server";
import { postOnly } from "~/services/api.server";
import { cgmReportToWire } from "~/wire/reports";

/**
 * POST /api/patient-data/sugarDevicePdf (pid, start, end; 3-14 days): the CGM report response
 * (glucose in mg/dL, `glucoseUnit` = the caller's unit setting) with every reading as a row
 * (pdid, dateTimeStr, statusShort0). See docs/api.md "Reports".
 */
export const action = reportApiAction("cgm", async ({ viewer, patient, range, now }) => {
  const { unit } = await reportContext(viewer.id, patient);
  const result = await cgmReportFor(viewer, patient, range, now, unit);
  if (result.status !== "ok") return { ok: false, msgKey: rangeProblemKey(result.problem, result) };
  return { ok: true, data: cgmReportToWire(patient.id, result.report) };
});

export const loader = postOnly();
