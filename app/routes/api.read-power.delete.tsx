import type { ActionFunctionArgs } from "@remix-run/node";
import { viewerById } from "~/models/access.server";
import { deleteShare } from "~/models/read-power-change.server";
import { deleteShareSchema } from "~/schemas/read-power";
import {
  apiFail,
  apiInvalid,
  apiOk,
  postOnly,
  readBody,
  requireApiUserId,
} from "~/services/api.server";

/** POST /api/read-power/delete (readPowerId): either side of a share removes it. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = deleteShareSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "sharing");
  const result = await deleteShare(viewer, parsed.data);
  return result.ok
    ? apiOk(request, result.data, "sharing:messages.operateSuccess")
    : apiFail(request, result.status, result.error);
}

export const loader = postOnly();
