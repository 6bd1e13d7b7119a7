import { reinvite } from "~/models/read-power-request.server";
import { reinviteSchema } from "~/schemas/read-power";
import { shareAction } from "~/services/read-power-api.server";
import { postOnly } from "~/services/api.server";

/**
 * POST /api/read-power/reinvite (id): the clinic sends a waiting, refused or expired invitation
 * again, with a new email and link, for a new 14 days.
 */
export const action = shareAction(reinviteSchema, reinvite, "sharing:messages.inviteSuccess");

export const loader = postOnly();
