import type { ActionFunctionArgs } from "@remix-run/node";
import { enqueueUpload } from "~/jobs/process-upload.server";
import { sliceCompleteSchema } from "~/schemas/upload";
import { completeSlicedUpload } from "~/services/ingest.server";
import { ingestAnswer, uploadCaller } from "~/services/upload-api.server";
import { apiInvalid, postOnly, readBody } from "~/services/api.server";

/** POST /api/patient-data/completeSliceTask (sliceId, isSuccess): every slice sent (processing starts) or the upload abandoned. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await uploadCaller(request);
  const parsed = sliceCompleteSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "upload");
  return ingestAnswer(request, await completeSlicedUpload(viewer, parsed.data, enqueueUpload));
}

export const loader = postOnly();
