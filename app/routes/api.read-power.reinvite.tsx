import type { ActionFunctionArgs } from "@remix-run/node";
import { viewerById } from "~/models/access.server";
import { reinvite } from "~/models/read-power-request.server";
import { reinviteSchema } from "~/schemas/read-power";
import {
  apiFail,
  apiInvalid,
  apiOk,
  postOnly,
  readBody,
  requireApiUserId,
} from "~/services/api.server";

/** POST /api/read-power/reinvite (id): the clinic sends a refused invitation again. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = reinviteSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "sharing");
  const result = await reinvite(viewer, parsed.data);
  return result.ok
    ? apiOk(request, result.data, "sharing:messages.inviteSuccess")
    : apiFail(request, result.status, result.error);
}

export const loader = postOnly();
