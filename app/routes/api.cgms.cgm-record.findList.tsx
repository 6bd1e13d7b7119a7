import { cgmList } from "~/services/patient-view.server";
import { RANGE_RULES } from "~/report/report-range";
import { rangeQuery } from "~/schemas/patient-view";
import { patientReadLoader } from "~/services/patient-api.server";

/** GET /api/cgms/cgm-record/findList (pid, start, end; 1-14 days): CGM readings and time in ranges. */
export const loader = patientReadLoader(rangeQuery, {
  purpose: "cgmReadings",
  messages: "views",
  range: (query) => ({ rule: RANGE_RULES.cgmReadings, dates: query }),
  read: async ({ viewer, patient, query }) => ({
    ok: true,
    data: await cgmList(viewer, patient, query.start, query.end),
  }),
});
