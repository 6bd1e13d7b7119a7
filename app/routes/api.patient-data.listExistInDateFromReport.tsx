import { daysWithData } from "~/models/export-data.server";
import { rangeWindow } from "~/report/day";
import { RANGE_RULES } from "~/report/report-range";
import { daysWithDataSchema } from "~/schemas/excel-export";
import { postOnly } from "~/services/api.server";
import { patientReadAction } from "~/services/patient-api.server";

/**
 * POST /api/patient-data/listExistInDateFromReport (pid, start, end; at most 90 days, no future
 * end): the local days of the range (patient's zone) that have data, oldest first, each with the
 * kinds it has: `{ pid, timeZone, start, end, days: [{ date, cgm, bg, pump }] }`.
 */
export const action = patientReadAction(daysWithDataSchema, {
  purpose: "dataDays",
  messages: "reports",
  range: (query) => ({ rule: RANGE_RULES.long, dates: query }),
  read: async ({ viewer, patient, range }) => {
    const { start, end } = range!;
    const window = rangeWindow(start, end, patient.timeZone);
    const days = await daysWithData(viewer, patient.id, window, patient.timeZone);
    return {
      ok: true,
      data: { pid: patient.id, timeZone: patient.timeZone, start, end, days },
    };
  },
});

export const loader = postOnly();
