import type { LoaderFunctionArgs } from "@remix-run/node";
import { viewerById } from "~/models/access.server";
import { findPatientRecord, recordView, unitOf } from "~/models/patient.server";
import { findOneQuery } from "~/schemas/patient";
import { API_CODES, apiFail, apiInvalid, apiOk, requireApiUserId } from "~/utils/api.server";
import { getFixedT, getLocale } from "~/utils/i18n.server";

/**
 * GET /api/patient/findOne?pid=N: a patient's health record when the caller may see it (their
 * own, or shared with them and accepted); 404 otherwise. Shape: docs/api.md "Patient record".
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireApiUserId(request);
  const query = findOneQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return apiInvalid(request, query.error, "record");
  const viewer = await viewerById(userId);
  const record = await findPatientRecord(viewer, query.data.pid);
  if (!record) return apiFail(request, API_CODES.notFound, "notFound");
  const t = await getFixedT(await getLocale(request), "options");
  const named = (o: { id: number; code: string }) => ({ ...o, name: t(`names.${o.code}`) });
  const view = recordView(record, await unitOf(userId));
  return apiOk(request, {
    ...view,
    diabetesType: view.diabetesType ? named(view.diabetesType) : null,
    basicDiseases: view.basicDiseases.map(named),
    complications: view.complications.map(named),
  });
}
