import type { ActionFunctionArgs } from "@remix-run/node";
import { viewerById } from "~/models/access.server";
import { updateShare } from "~/models/read-power-change.server";
import { updateShareSchema } from "~/schemas/read-power";
import {
  apiFail,
  apiInvalid,
  apiOk,
  postOnly,
  readBody,
  requireApiUserId,
} from "~/services/api.server";

/** POST /api/read-power/update (readPowerId, nickName, isNew, uploadIsNew): the reader's nickname and badge, the recipient's isNew. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = updateShareSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "sharing");
  const result = await updateShare(viewer, parsed.data);
  return result.ok
    ? apiOk(request, result.data, "sharing:messages.operateSuccess")
    : apiFail(request, result.status, result.error);
}

export const loader = postOnly();
