import type { ActionFunctionArgs } from "@remix-run/node";
import { viewerById } from "~/models/access.server";
import { shareWith } from "~/models/read-power-request.server";
import { saveShareSchema } from "~/schemas/read-power";
import {
  apiFail,
  apiInvalid,
  apiOk,
  postOnly,
  readBody,
  requireApiUserId,
} from "~/services/api.server";

/** POST /api/read-power/save (readId, message): the caller shares their data; data holds the new share. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = saveShareSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "sharing");
  const result = await shareWith(viewer, parsed.data);
  return result.ok
    ? apiOk(request, result.data, "sharing:messages.shareSuccess")
    : apiFail(request, result.status, result.error);
}

export const loader = postOnly();
