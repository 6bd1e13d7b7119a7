import { patientMeterReadings } from "~/services/patient-view.server";
import { RANGE_RULES } from "~/report/report-range";
import { rangeQuery } from "~/schemas/patient-view";
import { patientReadLoader } from "~/services/patient-api.server";
import { meterReadingsToWire } from "~/wire/patient-data";

/** GET /api/patient-data/sugarData (pid, start, end; at most 90 days): meter readings per day with meal tags and sugarTotalCount. */
export const loader = patientReadLoader(rangeQuery, {
  purpose: "meterReadings",
  messages: "views",
  range: (query) => ({ rule: RANGE_RULES.long, dates: query }),
  read: async ({ viewer, patient, query }) => ({
    ok: true,
    data: meterReadingsToWire(await patientMeterReadings(viewer, patient, query.start, query.end)),
  }),
});
