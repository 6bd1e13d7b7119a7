import type { ActionFunctionArgs } from "@remix-run/node";
import { requestPasswordReset, sendChangeEmailCode, sendSignUpCode } from "~/models/account.server";
import { clientIp } from "~/models/rate-limit.server";
import { sendMailSchema } from "~/schemas/auth";
import {
  API_CODES,
  apiFail,
  apiInvalid,
  apiOk,
  postOnly,
  readBody,
  requireApiUserId,
} from "~/services/api.server";
import { getLocale } from "~/services/locale.server";
import { apiThrottled } from "~/services/throttle-response.server";

/**
 * POST /api/user/sendMail (email, type): mails a verification, reset or change-email code. The
 * answer does not say whether the address has an account (a taken sign-up address is mailed a
 * notice with a reset link instead of a code). 429 with Retry-After when a limit refuses; 503
 * with a translated message when the email cannot be handed to the mail server.
 */
export async function action({ request }: ActionFunctionArgs) {
  const parsed = sendMailSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error);
  const { email, type } = parsed.data;
  const locale = await getLocale(request);
  const ip = clientIp(request);
  const result =
    type === "reset"
      ? await requestPasswordReset({ email, locale, ip })
      : type === "register"
        ? await sendSignUpCode({ email, locale, ip })
        : await sendChangeEmailCode({ userId: await requireApiUserId(request), email, locale, ip });
  if (!result.ok) {
    // Besides a limit, only the mail server can refuse: the code is withdrawn, asking again works.
    return result.retryAfterSeconds === undefined
      ? apiFail(request, API_CODES.unavailable, `auth:${result.error}`)
      : apiThrottled(request, `auth:${result.error}`, result.retryAfterSeconds);
  }
  return apiOk(request, null, "codeSent");
}

export const loader = postOnly();
