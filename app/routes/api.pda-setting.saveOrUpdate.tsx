import type { ActionFunctionArgs } from "@remix-run/node";
import { pumpSettingSchema } from "~/schemas/upload";
import { savePumpSettings } from "~/services/ingest.server";
import { ingestAnswer, uploadCaller } from "~/services/upload-api.server";
import { apiInvalid, postOnly, readBody } from "~/services/api.server";
import { pumpSettingsFromWire } from "~/wire/upload";

/** POST /api/pda-setting/saveOrUpdate (pdaSn, pdaVersion, the 15 settings, pid): the handheld's settings. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await uploadCaller(request);
  const parsed = pumpSettingSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "upload");
  return ingestAnswer(request, await savePumpSettings(viewer, pumpSettingsFromWire(parsed.data)));
}

export const loader = postOnly();
