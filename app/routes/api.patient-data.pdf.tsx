import { pumpReportFor, reportContext } from "~/services/report.server";
import { rangeProblemKey } from "~/report/report-kinds";
import { nameStyleCode } from "~/schemas/setting";
import { reportApiAction } from "~/services/patient-api.server";
import { postOnly } from "~/services/api.server";
import { pumpReportToWire } from "~/wire/reports";

/**
 * POST /api/patient-data/pdf (pid, start, end; at most 90 days): the pump/BG "Patient report
 * response" (glucose in mg/dL; `setting.unit` = the caller's unit setting), the model of
 * app/report/pump-report.ts without the per-day chart models.
 */
export const action = reportApiAction("pump", async ({ viewer, patient, range, now }) => {
  const context = await reportContext(viewer.id, patient);
  const result = await pumpReportFor(viewer, patient, range, now, {
    unit: context.unit,
    nameStyle: nameStyleCode(context.nameStyle),
  });
  if (result.status !== "ok") return { ok: false, msgKey: rangeProblemKey(result.problem, result) };
  return { ok: true, data: pumpReportToWire(patient.id, result.report) };
});

export const loader = postOnly();
