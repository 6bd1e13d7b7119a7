import { cgmList } from "~/models/patient-view.server";
import { rangeQuery } from "~/schemas/patient-view";
import { patientReadLoader } from "~/utils/patient-api.server";

/** GET /api/cgms/cgm-record/findList (pid, start, end; 1-14 days): CGM readings and time in ranges. */
export const loader = patientReadLoader(rangeQuery, async (viewer, patient, query) => {
  const result = await cgmList(viewer, patient, query.start, query.end, Date.now());
  return result.ok ? result : { ok: false, msgKey: `views:problems.${result.problem}` };
});
