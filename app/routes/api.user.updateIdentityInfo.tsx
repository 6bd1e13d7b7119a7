import type { ActionFunctionArgs } from "@remix-run/node";
import { AuditState } from "~/domain/codes";
import { submitOrganisation } from "~/models/organisation.server";
import { organisationSchema } from "~/schemas/auth";
import {
  API_CODES,
  apiFail,
  apiInvalid,
  apiOk,
  postOnly,
  readBody,
  requireApiUserId,
} from "~/services/api.server";

/** POST /api/user/updateIdentityInfo: a clinic submits its organisation info for audit (isPass becomes 3). */
export async function action({ request }: ActionFunctionArgs) {
  const userId = await requireApiUserId(request);
  const parsed = organisationSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error);
  const done = await submitOrganisation(userId, parsed.data);
  return done.ok
    ? apiOk(request, { isPass: AuditState.InReview }, "auth:audit.submitted")
    : apiFail(request, API_CODES.forbidden, `auth:${done.error}`);
}

export const loader = postOnly();
