import type { ActionFunctionArgs } from "@remix-run/node";
import { viewerById } from "~/models/access.server";
import { processShare } from "~/models/read-power-answer.server";
import { processShareSchema } from "~/schemas/read-power";
import {
  apiFail,
  apiInvalid,
  apiOk,
  postOnly,
  readBody,
  requireApiUserId,
} from "~/services/api.server";

/** POST /api/read-power/process (id, state 1 approve | 2 refuse, message, nickName): the recipient answers a pending share or invitation. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = processShareSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "sharing");
  const result = await processShare(viewer, parsed.data);
  return result.ok
    ? apiOk(request, result.data, "sharing:messages.operateSuccess")
    : apiFail(request, result.status, result.error);
}

export const loader = postOnly();
