import type { ActionFunctionArgs } from "@remix-run/node";
import { pumpSaveSchema } from "~/schemas/upload";
import { ingestNow } from "~/services/ingest.server";
import { ingestAnswer, uploadCaller } from "~/services/upload-api.server";
import { apiInvalid, postOnly, readBody } from "~/services/api.server";

/** POST /api/patient-data/save (pid, pdaSn, pdaVersion, timeZone, dataList): a pump upload of at most one slice, in one call; data = the summary. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await uploadCaller(request);
  const parsed = pumpSaveSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "upload");
  const { pid, pdaSn, pdaVersion, timeZone, dataList } = parsed.data;
  return ingestAnswer(
    request,
    await ingestNow(viewer, {
      pid,
      deviceKind: "equil",
      deviceSn: pdaSn,
      pdaVersion,
      timeZone,
      records: dataList,
    }),
  );
}

export const loader = postOnly();
