import { updateShare } from "~/models/read-power-change.server";
import { updateShareSchema } from "~/schemas/read-power";
import { shareAction } from "~/services/read-power-api.server";
import { postOnly } from "~/services/api.server";

/** POST /api/read-power/update (readPowerId, nickName, isNew, uploadIsNew): the reader's nickname and badge, the recipient's isNew. */
export const action = shareAction(
  updateShareSchema,
  updateShare,
  "sharing:messages.operateSuccess",
);

export const loader = postOnly();
