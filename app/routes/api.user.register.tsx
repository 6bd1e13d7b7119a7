import type { ActionFunctionArgs } from "@remix-run/node";
import { Identity } from "~/domain/codes";
import { registerAccount } from "~/models/account.server";
import { createApiToken } from "~/models/api-token.server";
import { identityField, registerClinicSchema, registerPersonSchema } from "~/schemas/auth";
import { API_CODES, apiFail, apiInvalid, apiOk, postOnly, readBody } from "~/services/api.server";
import { getLocale } from "~/services/locale.server";

/** POST /api/user/register: the registration form's fields plus identity (1 person, 2 clinic); `agree` must be "on" or true. */
export async function action({ request }: ActionFunctionArgs) {
  const body = await readBody(request);
  const normalized = {
    ...body,
    agree: body.agree === true || body.agree === "on" ? "on" : undefined,
  };
  const identity = identityField.safeParse(body.identity ?? Identity.Person);
  if (!identity.success) return apiInvalid(request, identity.error);
  const lang = await getLocale(request);
  let created;
  if (identity.data === Identity.Person) {
    const parsed = registerPersonSchema.safeParse(normalized);
    if (!parsed.success) return apiInvalid(request, parsed.error);
    created = await registerAccount({
      ...parsed.data,
      lang,
      identity: Identity.Person,
      profile: parsed.data,
    });
  } else {
    const parsed = registerClinicSchema.safeParse(normalized);
    if (!parsed.success) return apiInvalid(request, parsed.error);
    created = await registerAccount({ ...parsed.data, lang, identity: Identity.Clinic });
  }
  if (!created.ok) return apiFail(request, API_CODES.invalid, `auth:${created.error}`);
  const token = await createApiToken(created.userId, request.headers.get("user-agent"));
  return apiOk(request, { userId: created.userId, token }, "registered", { token });
}

export const loader = postOnly();
