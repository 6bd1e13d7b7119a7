import type { ActionFunctionArgs } from "@remix-run/node";
import { reportUploadErrors } from "~/models/upload-error-log.server";
import { uploadErrLogSchema } from "~/schemas/upload-error-log";
import {
  apiFail,
  apiInvalid,
  apiOk,
  postOnly,
  readBody,
  requireApiUserId,
} from "~/services/api.server";
import { apiThrottled } from "~/services/throttle-response.server";

/**
 * POST /api/patient-data/uploadErrLog ({ list: [{ operatorUserId, patientUserId, content }] }):
 * stores the upload wizard's error reports; data: { count }. 403 when a report names another
 * operator than the caller; 429 (and Retry-After) past 20 calls in 10 minutes.
 */
export async function action({ request }: ActionFunctionArgs) {
  const userId = await requireApiUserId(request);
  const parsed = uploadErrLogSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "api");
  const result = await reportUploadErrors(userId, parsed.data.list);
  if (result.ok) return apiOk(request, { count: result.count });
  return result.status === 429
    ? apiThrottled(request, `api:${result.error}`, result.retryAfterSeconds)
    : apiFail(request, result.status, result.error);
}

export const loader = postOnly();
