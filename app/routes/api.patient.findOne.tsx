import { findPatientRecord, recordView, unitOf } from "~/models/patient.server";
import { findOneQuery } from "~/schemas/patient";
import { patientReadLoader } from "~/services/patient-api.server";
import { getLocale } from "~/services/locale.server";
import { getFixedT } from "~/utils/i18n.server";

/**
 * GET /api/patient/findOne?pid=N: a patient's health record when the caller may see it (their
 * own, or shared with them and accepted); 404 otherwise. Shape: docs/api.md "Patient record".
 */
export const loader = patientReadLoader(findOneQuery, {
  purpose: "record",
  messages: "record",
  async read({ request, viewer, patient }) {
    const record = await findPatientRecord(viewer, patient.id);
    if (!record) return { ok: false, msgKey: "notFound" };
    const t = await getFixedT(await getLocale(request), "options");
    const named = (o: { id: number; code: string }) => ({ ...o, name: t(`names.${o.code}`) });
    const view = recordView(record, await unitOf(viewer.id));
    return {
      ok: true,
      data: {
        ...view,
        diabetesType: view.diabetesType ? named(view.diabetesType) : null,
        basicDiseases: view.basicDiseases.map(named),
        complications: view.complications.map(named),
      },
    };
  },
});
