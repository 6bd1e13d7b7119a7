import type { ActionFunctionArgs } from "@remix-run/node";
import { basalSaveSchema } from "~/schemas/upload";
import { saveBasalPresets } from "~/services/ingest.server";
import { ingestAnswer, uploadCaller } from "~/services/upload-api.server";
import { apiInvalid, postOnly, readBody } from "~/services/api.server";

/** POST /api/basal-rate-base-setting/save (list, pdaVersion, pdaSn, pdaTimeZone, pid): the handheld's basal presets. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await uploadCaller(request);
  const parsed = basalSaveSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "upload");
  return ingestAnswer(request, await saveBasalPresets(viewer, parsed.data));
}

export const loader = postOnly();
