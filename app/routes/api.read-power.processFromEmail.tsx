import { processFromEmail } from "~/models/read-power-answer.server";
import { processFromEmailSchema } from "~/schemas/read-power";
import { linkAction } from "~/services/read-power-api.server";
import { postOnly } from "~/services/api.server";

/**
 * POST /api/read-power/processFromEmail (state 1 | 2, data): answers an invitation from the
 * email link, without signing in; `data` is the link's signed, expiring, single-use token.
 */
export const action = linkAction(
  processFromEmailSchema,
  processFromEmail,
  "sharing:messages.operateSuccess",
);

export const loader = postOnly();
