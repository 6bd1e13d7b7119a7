import { shareWith } from "~/models/read-power-request.server";
import { saveShareSchema } from "~/schemas/read-power";
import { shareAction } from "~/services/read-power-api.server";
import { postOnly } from "~/services/api.server";

/** POST /api/read-power/save (readId, message): the caller shares their data; data holds the new share. */
export const action = shareAction(saveShareSchema, shareWith, "sharing:messages.shareSuccess");

export const loader = postOnly();
