import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { isEmailTaken, requestPasswordReset, sendEmailCode } from "~/models/account.server";
import { clientIp } from "~/models/rate-limit.server";
import { emailField } from "~/schemas/auth";
import { API_CODES, apiFail, apiInvalid, apiOk, postOnly, readBody, requireApiUserId } from "~/utils/api.server";
import { getLocale } from "~/utils/i18n.server";

const schema = z.object({ email: emailField, type: z.enum(["register", "reset", "changeEmail"]).default("register") });

/** POST /api/user/sendMail (email, type): mails a verification, reset or change-email code. */
export async function action({ request }: ActionFunctionArgs) {
  const parsed = schema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error);
  const { email, type } = parsed.data;
  const locale = await getLocale(request);
  const ip = clientIp(request);
  let result;
  if (type === "reset") {
    result = await requestPasswordReset({ email, locale, ip });
  } else {
    const userId = type === "changeEmail" ? await requireApiUserId(request) : undefined;
    if (await isEmailTaken(email)) return apiFail(request, API_CODES.invalid, "auth:errors.emailTaken");
    result = await sendEmailCode({ email, purpose: type === "register" ? "verify_email" : "change_email", locale, ip, userId });
  }
  if (!result.ok) return apiFail(request, API_CODES.rateLimited, `auth:${result.error}`);
  return apiOk(request, null, "codeSent");
}

export const loader = postOnly();
