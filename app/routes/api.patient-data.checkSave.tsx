import type { LoaderFunctionArgs } from "@remix-run/node";
import { sliceCheckSchema } from "~/schemas/upload";
import { uploadSummary } from "~/services/ingest.server";
import { ingestAnswer, uploadCaller } from "~/services/upload-api.server";
import { apiInvalid } from "~/services/api.server";

/** How long an answer waits for a task being processed to end: less than the wizard's poll interval. */
const WAIT_MS = 3000;

/** GET /api/patient-data/checkSave?sliceId=: data false until the upload is processed, then its summary. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await uploadCaller(request);
  const parsed = sliceCheckSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return apiInvalid(request, parsed.error, "upload");
  const result = await uploadSummary(viewer, parsed.data.sliceId, WAIT_MS);
  return ingestAnswer(request, result.ok ? { ok: true, data: result.data ?? false } : result);
}
