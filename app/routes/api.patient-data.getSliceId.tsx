import type { ActionFunctionArgs } from "@remix-run/node";
import { sliceStartSchema } from "~/schemas/upload";
import { openSlicedUpload } from "~/services/ingest.server";
import { ingestAnswer, uploadCaller } from "~/services/upload-api.server";
import { apiInvalid, postOnly, readBody } from "~/services/api.server";

/** POST /api/patient-data/getSliceId (pid, deviceKind, deviceSn, pdaVersion, total, timeZone): opens a sliced upload; data = sliceId. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await uploadCaller(request);
  const parsed = sliceStartSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "upload");
  return ingestAnswer(request, await openSlicedUpload(viewer, parsed.data));
}

export const loader = postOnly();
