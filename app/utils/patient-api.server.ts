import type { LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import { findVisiblePatient, viewerById, type Viewer, type VisiblePatient } from "~/models/access.server";
import { apiFail, apiInvalid, apiOk, API_CODES, requireApiUserId } from "./api.server";

/** What a read answers: its data, or the i18n key of why the request is refused (code 400). */
export type PatientReadAnswer = { ok: true; data: unknown } | { ok: false; msgKey: string };

/**
 * A GET `/api/` read of one patient's data: the caller from the `token` header, the query checked
 * with `schema` (messages of the `views` namespace), the patient through the access rules (404
 * when not visible, whether it exists or not), then `read`, wrapped in `{ code, msg, data }`.
 */
export function patientReadLoader<T extends { pid: number }>(
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  read: (viewer: Viewer, patient: VisiblePatient, query: T) => Promise<PatientReadAnswer>,
) {
  return async ({ request }: LoaderFunctionArgs) => {
    const viewer = await viewerById(await requireApiUserId(request));
    const parsed = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) return apiInvalid(request, parsed.error, "views");
    const patient = await findVisiblePatient(viewer, parsed.data.pid);
    if (!patient) return apiFail(request, API_CODES.notFound, "notFound");
    const answer = await read(viewer, patient, parsed.data);
    return answer.ok ? apiOk(request, answer.data) : apiFail(request, API_CODES.invalid, answer.msgKey);
  };
}
