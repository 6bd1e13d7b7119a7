import type { ActionFunctionArgs } from "@remix-run/node";
import { createApiToken } from "~/models/api-token.server";
import { findAccountWithSetting, verifyLogin } from "~/models/account.server";
import { clientIp } from "~/models/rate-limit.server";
import { apiLoginSchema } from "~/schemas/auth";
import {
  API_CODES,
  apiFail,
  apiInvalid,
  apiOk,
  postOnly,
  readBody,
  userInfo,
} from "~/services/api.server";
import { apiThrottled } from "~/services/throttle-response.server";

/** POST /api/user/login (userName, password, identity): the token in a `token` header and in data. */
export async function action({ request }: ActionFunctionArgs) {
  const parsed = apiLoginSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error);
  const result = await verifyLogin({
    email: parsed.data.userName,
    password: parsed.data.password,
    identity: parsed.data.identity,
    ip: clientIp(request),
  });
  if (!result.ok) {
    return result.retryAfterSeconds !== undefined
      ? apiThrottled(request, `auth:${result.error}`, result.retryAfterSeconds)
      : apiFail(request, API_CODES.unauthorized, `auth:${result.error}`);
  }
  const token = await createApiToken(result.userId, request.headers.get("user-agent"));
  const user = await findAccountWithSetting(result.userId);
  const info = userInfo(user);
  return apiOk(request, { ...info, token, active: user.active }, "loginSuccess", { token });
}

export const loader = postOnly();
