import type { ActionFunctionArgs } from "@remix-run/node";
import { viewerById } from "~/models/access.server";
import { invitePatient } from "~/models/read-power-request.server";
import { inviteSchema } from "~/schemas/read-power";
import {
  apiFail,
  apiInvalid,
  apiOk,
  postOnly,
  readBody,
  requireApiUserId,
} from "~/services/api.server";

/** POST /api/read-power/invite (provideId, message): an approved clinic invites a patient, who is emailed a link. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await viewerById(await requireApiUserId(request));
  const parsed = inviteSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "sharing");
  const result = await invitePatient(viewer, parsed.data);
  return result.ok
    ? apiOk(request, result.data, "sharing:messages.inviteSuccess")
    : apiFail(request, result.status, result.error);
}

export const loader = postOnly();
