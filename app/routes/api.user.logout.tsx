import type { ActionFunctionArgs } from "@remix-run/node";
import { revokeApiToken } from "~/models/api-token.server";
import { apiOk, postOnly, requireApiUserId } from "~/services/api.server";

/** POST /api/user/logout: revokes the calling token; later calls with it answer 803. */
export async function action({ request }: ActionFunctionArgs) {
  await requireApiUserId(request, { allowInactive: true });
  await revokeApiToken(request.headers.get("token")!);
  return apiOk(request, null, "loggedOut");
}

export const loader = postOnly();
