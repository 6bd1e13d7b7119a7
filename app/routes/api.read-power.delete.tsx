import { deleteShare } from "~/models/read-power-change.server";
import { deleteShareSchema } from "~/schemas/read-power";
import { shareAction } from "~/services/read-power-api.server";
import { postOnly } from "~/services/api.server";

/** POST /api/read-power/delete (readPowerId): either side of a share removes it. */
export const action = shareAction(
  deleteShareSchema,
  deleteShare,
  "sharing:messages.operateSuccess",
);

export const loader = postOnly();
