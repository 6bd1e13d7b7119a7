import { processShare } from "~/models/read-power-answer.server";
import { processShareSchema } from "~/schemas/read-power";
import { shareAction } from "~/services/read-power-api.server";
import { postOnly } from "~/services/api.server";

/** POST /api/read-power/process (id, state 1 approve | 2 refuse, message, nickName): the recipient answers a pending share or invitation. */
export const action = shareAction(
  processShareSchema,
  processShare,
  "sharing:messages.operateSuccess",
);

export const loader = postOnly();
