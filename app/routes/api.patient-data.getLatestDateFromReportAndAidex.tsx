import { lastDayWithData } from "~/models/patient-data.server";
import { latestDateSchema } from "~/schemas/excel-export";
import { patientReadLoader } from "~/services/patient-api.server";

const newer = (a: string | null, b: string | null) =>
  a === null ? b : b === null || a > b ? a : b;

/**
 * GET /api/patient-data/getLatestDateFromReportAndAidex?pid=N: the newest local day (patient's
 * zone) with report data (pump records or blood values: `report`), with AiDEX CGM readings
 * (`aidex`), and the newer of the two (`latest`); null where there is none. An export's range
 * picker ends on it.
 */
export const loader = patientReadLoader(latestDateSchema, {
  purpose: "dataDays",
  messages: "reports",
  read: async ({ viewer, patient }) => {
    const [pump, bg, cgm] = await Promise.all(
      (["pump", "bg", "cgm"] as const).map((kind) =>
        lastDayWithData(viewer, patient.id, kind, patient.timeZone),
      ),
    );
    const report = newer(pump ?? null, bg ?? null);
    return {
      ok: true,
      data: {
        pid: patient.id,
        timeZone: patient.timeZone,
        report,
        aidex: cgm ?? null,
        latest: newer(report, cgm ?? null),
      },
    };
  },
});
