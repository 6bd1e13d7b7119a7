import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { accountEmail, activateAccount } from "~/models/account.server";
import { checkApiToken } from "~/models/api-token.server";
import { findPendingCreatorShare } from "~/models/read-power-answer.server";
import { activateSchema, claimAccountSchema } from "~/schemas/auth";
import { API_CODES, apiFail, apiInvalid, apiOk, postOnly, readBody } from "~/services/api.server";
import { verifyOriginToken } from "~/utils/origin-token.server";

/**
 * POST /api/active/active (origin, code; without a token also email, password, confirmPassword):
 * activates an account created for someone else. Answers `data.creatorShare`: who created the
 * account and the id of their read share, which stays pending (the creator reads nothing) until
 * the owner answers it with POST /api/read-power/process { id: readPowerId, state: 1 | 2 };
 * null when there is none.
 */
export async function action({ request }: ActionFunctionArgs) {
  const body = await readBody(request);
  const token = await checkApiToken(request.headers.get("token"));
  const parsed = (token.ok ? activateSchema : claimAccountSchema).safeParse(body);
  if (!parsed.success) return apiInvalid(request, parsed.error as z.ZodError);
  if (!verifyOriginToken(parsed.data.origin))
    return apiFail(request, API_CODES.invalid, "auth:errors.originExpired");
  const email = token.ok
    ? await accountEmail(token.viewer.id)
    : (parsed.data as unknown as { email: string }).email;
  const done = await activateAccount({
    email,
    code: parsed.data.code,
    password: (parsed.data as unknown as { password?: string }).password,
  });
  if (!done.ok) return apiFail(request, API_CODES.invalid, `auth:${done.error}`);
  return apiOk(request, { creatorShare: await findPendingCreatorShare(done.userId) }, "activated");
}

export const loader = postOnly();
