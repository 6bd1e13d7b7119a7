import type { ActionFunctionArgs } from "@remix-run/node";
import { processFromEmail } from "~/models/read-power-answer.server";
import { processFromEmailSchema } from "~/schemas/read-power";
import { apiFail, apiInvalid, apiOk, postOnly, readBody } from "~/services/api.server";

/**
 * POST /api/read-power/processFromEmail (state 1 | 2, data): answers an invitation from the
 * email link, without signing in; `data` is the link's signed, expiring, single-use token.
 */
export async function action({ request }: ActionFunctionArgs) {
  const parsed = processFromEmailSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiInvalid(request, parsed.error, "sharing");
  const result = await processFromEmail(parsed.data);
  return result.ok
    ? apiOk(request, result.data, "sharing:messages.operateSuccess")
    : apiFail(request, result.status, result.error);
}

export const loader = postOnly();
