import { patientDayData } from "~/models/patient-view.server";
import { findPatientDataQuery } from "~/schemas/patient-view";
import { patientReadLoader } from "~/utils/patient-api.server";

/** GET /api/patient-data/findPatientData (pid, date): one local day's pump, CGM and meter models (docs/api.md). */
export const loader = patientReadLoader(findPatientDataQuery, async (viewer, patient, query) => ({
  ok: true,
  data: await patientDayData(viewer, patient, query.date, Date.now()),
}));
