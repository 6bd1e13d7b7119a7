import { findLastRecord } from "~/models/patient-data.server";
import { findLastRecordQuery } from "~/schemas/patient-view";
import { patientReadLoader } from "~/services/patient-api.server";

/** GET /api/patient-data/findLastRecord (pid, origin: 2 = AiDEX, else pump): the newest stored record, or null. */
export const loader = patientReadLoader(findLastRecordQuery, {
  purpose: "lastRecord",
  messages: "views",
  read: async ({ viewer, patient, query }) => ({
    ok: true,
    data: await findLastRecord(viewer, patient.id, query.origin),
  }),
});
