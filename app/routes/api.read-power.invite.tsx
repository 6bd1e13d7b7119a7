import { invitePatient } from "~/models/read-power-request.server";
import { inviteSchema } from "~/schemas/read-power";
import { shareAction } from "~/services/read-power-api.server";
import { postOnly } from "~/services/api.server";

/** POST /api/read-power/invite (provideId, message): an approved clinic invites a patient, who is emailed a link. */
export const action = shareAction(inviteSchema, invitePatient, "sharing:messages.inviteSuccess");

export const loader = postOnly();
