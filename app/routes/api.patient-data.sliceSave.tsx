import type { ActionFunctionArgs } from "@remix-run/node";
import { sliceSaveSchema } from "~/schemas/upload";
import { saveSlice } from "~/services/ingest.server";
import { ingestAnswer, uploadCaller } from "~/services/upload-api.server";
import { apiInvalid, postOnly, readBody } from "~/services/api.server";

/** POST /api/patient-data/sliceSave (sliceId, index, dataList): stores one slice before answering. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await uploadCaller(request);
  const parsed = sliceSaveSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "upload");
  return ingestAnswer(request, await saveSlice(viewer, parsed.data));
}

export const loader = postOnly();
