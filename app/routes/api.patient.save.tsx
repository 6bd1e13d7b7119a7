import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { createPatientRecord, unitOf, updatePatientRecord } from "~/models/patient.server";
import { clientIp } from "~/models/rate-limit.server";
import {
  fromSavePayload,
  newPatientSchema,
  patientRecordSchema,
  pidField,
} from "~/schemas/patient";
import {
  API_CODES,
  apiInvalid,
  apiMessage,
  apiResponse,
  postOnly,
  readPayload,
  requireApiViewer,
} from "~/services/api.server";
import { getLocale } from "~/services/locale.server";

/**
 * POST /api/patient/save: a JSON list of one patient object (a bare object is taken too). Without
 * `pid` a new person's record is created (as /patientAdd does); with `pid` the caller's own record
 * is saved. Limits are in the caller's unit (their setting, or `unit` 0/1 in the object).
 * 200 'Add Success' with { pid, userId, mailed? }; 400 the first validation message; other
 * failures answer 'Add Failed' with the reason in data (403 not allowed, 404 not visible,
 * 409 email taken). See docs/api.md "Patient record".
 */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireApiViewer(request);
  const userId = viewer.id;
  const { patient, count } = fromSavePayload(await readPayload(request));
  if (count !== 1)
    return apiResponse(API_CODES.invalid, await apiMessage(request, "record:errors.listOfOne"), {
      fields: {},
    });
  const values: Record<string, unknown> = { unit: await unitOf(userId), ...patient };

  // A choice the database refuses (an option of the wrong type) is a validation failure like any other.
  const failed = async (result: { status: number; error: string; field?: string }) => {
    const error = await apiMessage(request, `record:${result.error}`);
    if (result.status === API_CODES.invalid)
      return apiResponse(API_CODES.invalid, error, {
        fields: result.field ? { [result.field]: [result.error] } : {},
      });
    return apiResponse(result.status, await apiMessage(request, "addFailed"), {
      error,
      ...(result.field ? { field: result.field } : {}),
    });
  };

  if (values.pid === undefined || values.pid === null || values.pid === "") {
    const parsed = newPatientSchema.safeParse(values);
    if (!parsed.success) return apiInvalid(request, parsed.error, "record");
    const created = await createPatientRecord(viewer, parsed.data, {
      locale: await getLocale(request),
      ip: clientIp(request),
    });
    if (!created.ok) return failed(created);
    return apiResponse(API_CODES.ok, await apiMessage(request, "addSuccess"), {
      pid: created.pid,
      userId: created.userId,
      mailed: created.mailed,
    });
  }

  const pid = pidField.safeParse(values.pid);
  if (!pid.success) return apiInvalid(request, pid.error as z.ZodError, "record");
  const parsed = patientRecordSchema.safeParse(values);
  if (!parsed.success) return apiInvalid(request, parsed.error, "record");
  const saved = await updatePatientRecord(viewer, pid.data, parsed.data);
  if (!saved.ok) return failed(saved);
  return apiResponse(API_CODES.ok, await apiMessage(request, "addSuccess"), {
    pid: saved.pid,
    userId: saved.userId,
  });
}

export const loader = postOnly();
