import { pumpUploadTimeZone } from "~/models/patient-data.server";
import { pdaTimeZoneQuery } from "~/schemas/patient-view";
import { patientReadLoader } from "~/services/patient-api.server";

/** GET /api/patient-data/getPdaTimeZone (pid): the zone of the patient's newest pump upload, { pdaSn, timeZone }, or null. */
export const loader = patientReadLoader(pdaTimeZoneQuery, {
  purpose: "pdaTimeZone",
  messages: "views",
  read: async ({ viewer, patient }) => ({
    ok: true,
    data: await pumpUploadTimeZone(viewer, patient.id),
  }),
});
