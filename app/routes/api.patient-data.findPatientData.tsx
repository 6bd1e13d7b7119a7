import { patientDayData } from "~/services/patient-view.server";
import { RANGE_RULES } from "~/report/report-range";
import { findPatientDataQuery } from "~/schemas/patient-view";
import { patientReadLoader } from "~/services/patient-api.server";
import { patientDayToWire } from "~/wire/patient-data";

/** GET /api/patient-data/findPatientData (pid, date; not in the future): one local day's pump, CGM and meter models (docs/api.md). */
export const loader = patientReadLoader(findPatientDataQuery, {
  purpose: "dayData",
  messages: "views",
  range: (query) => ({ rule: RANGE_RULES.day, dates: { start: query.date, end: query.date } }),
  read: async ({ viewer, patient, query, now }) => ({
    ok: true,
    data: patientDayToWire(await patientDayData(viewer, patient, query.date, now)),
  }),
});
