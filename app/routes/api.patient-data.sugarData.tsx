import { sugarData } from "~/models/patient-view.server";
import { rangeQuery } from "~/schemas/patient-view";
import { patientReadLoader } from "~/utils/patient-api.server";

/** GET /api/patient-data/sugarData (pid, start, end): meter readings per day with meal tags and sugarTotalCount. */
export const loader = patientReadLoader(rangeQuery, async (viewer, patient, query) => {
  const result = await sugarData(viewer, patient, query.start, query.end, Date.now());
  return result.ok ? result : { ok: false, msgKey: `views:problems.${result.problem}` };
});
