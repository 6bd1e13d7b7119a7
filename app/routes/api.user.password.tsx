import type { ActionFunctionArgs } from "@remix-run/node";
import { changePassword, resetPassword } from "~/models/account.server";
import { changePasswordSchema, resetPasswordSchema } from "~/schemas/auth";
import {
  API_CODES,
  apiFail,
  apiInvalid,
  apiOk,
  postOnly,
  readBody,
  requireApiUserId,
} from "~/services/api.server";

/**
 * POST /api/user/password. With a token: currentPassword, password, confirmPassword (change).
 * Without: email, code, password, confirmPassword (reset by emailed code).
 */
export async function action({ request }: ActionFunctionArgs) {
  const body = await readBody(request);
  if (request.headers.get("token")) {
    const userId = await requireApiUserId(request);
    const parsed = changePasswordSchema.safeParse({
      ...body,
      currentPassword: body.currentPassword ?? body.oldPassword,
    });
    if (!parsed.success) return apiInvalid(request, parsed.error);
    const done = await changePassword({
      userId,
      currentPassword: parsed.data.currentPassword,
      password: parsed.data.password,
    });
    return done.ok
      ? apiOk(request, null, "passwordChanged")
      : apiFail(request, API_CODES.invalid, `auth:${done.error}`);
  }
  const parsed = resetPasswordSchema.safeParse(body);
  if (!parsed.success) return apiInvalid(request, parsed.error);
  const done = await resetPassword(parsed.data);
  return done.ok
    ? apiOk(request, null, "passwordChanged")
    : apiFail(request, API_CODES.invalid, `auth:${done.error}`);
}

export const loader = postOnly();
