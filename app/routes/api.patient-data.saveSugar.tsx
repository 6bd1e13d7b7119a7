import type { ActionFunctionArgs } from "@remix-run/node";
import { deviceSaveSchema } from "~/schemas/upload";
import { ingestDeviceCall } from "~/services/ingest.server";
import { ingestAnswer, uploadCaller } from "~/services/upload-api.server";
import { apiInvalid, postOnly, readBody } from "~/services/api.server";

/** POST /api/patient-data/saveSugar (dataList, timeZone, pid, deviceSn): blood-glucose meter readings in one call; data = the summary. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await uploadCaller(request);
  const parsed = deviceSaveSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "upload");
  return ingestAnswer(request, await ingestDeviceCall(viewer, "gocheck", parsed.data));
}

export const loader = postOnly();
