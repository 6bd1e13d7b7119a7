import { caringMissing, mayUseCaring, type CaringStep } from "~/domain/caring";
import { Identity, ShareSource, ShareState } from "~/domain/codes";
import type { Locale } from "~/i18n";
import { isAccountActive, sendActivationCode } from "~/models/account.server";
import { ownHealthRecordFields } from "~/models/patient.server";
import { deleteShare } from "~/models/read-power-change.server";
import { findShareForViewer } from "~/models/read-power-list.server";
import { invitePatient, reinvite } from "~/models/read-power-request.server";
import { getLocale } from "~/services/locale.server";
import { requireUser, type SessionUser } from "~/services/session.server";

/**
 * Remote caring's pages around the data: who may open them and what must be completed first,
 * and the viewer's pending requests (send again, delete), which are the app's shares and
 * invitations. Nothing here reads a patient's data (caring.server.ts does, through the gateway).
 */

export type CaringAccess = {
  readonly user: SessionUser;
  readonly locale: Locale;
  /** What to complete first (app/domain/caring.ts); empty: the caring pages are open. */
  readonly missing: CaringStep[];
};

/**
 * The signed-in user of a caring page and what they still have to complete. A page the account
 * is not offered (a person in the Russian interface) is a 404.
 */
export async function requireCaring(request: Request): Promise<CaringAccess> {
  const user = await requireUser(request);
  const locale = await getLocale(request);
  if (!mayUseCaring(user.identity, locale)) throw new Response("Not Found", { status: 404 });
  const health = user.identity === Identity.Person ? await ownHealthRecordFields(user.id) : null;
  return { user, locale, missing: caringMissing(user, health) };
}

type RequestOutcome =
  | { readonly ok: true; readonly notice: string }
  | { readonly ok: false; readonly status: number; readonly error: string };

/** One of the viewer's own caring requests (an invitation, or a record made for someone) not yet accepted, or null. */
async function ownCaringRequest(viewer: SessionUser, id: number) {
  const share = await findShareForViewer(viewer, id);
  if (
    !share ||
    share.readId !== viewer.id ||
    share.state === ShareState.Accepted ||
    (share.sourceType !== ShareSource.Invitation && share.sourceType !== ShareSource.Created)
  )
    return null;
  return share;
}

/**
 * "Send again" on a pending caring request, by what it is: an invitation (waiting, expired or
 * refused) is sent again with a new link for another 14 days; a record the viewer made for
 * someone whose owner refused to share it becomes an invitation to them; one whose owner has not
 * activated the account yet gets the activation email again. A made record still waiting for its
 * activated owner's answer has nothing to send (400).
 */
export async function sendCaringRequestAgain(
  viewer: SessionUser,
  id: number,
  context: { locale: Locale; ip: string },
): Promise<RequestOutcome> {
  const share = await ownCaringRequest(viewer, id);
  if (!share) return { ok: false, status: 404, error: "api:forbidden" };
  if (share.sourceType === ShareSource.Invitation) {
    const done = await reinvite(viewer, { id });
    return done.ok ? { ok: true, notice: "sharing:messages.inviteSuccess" } : done;
  }
  if (share.state === ShareState.Refused) {
    const done = await invitePatient(viewer, { provideId: share.provideId });
    return done.ok ? { ok: true, notice: "sharing:messages.inviteSuccess" } : done;
  }
  if (await isAccountActive(share.provideId))
    return { ok: false, status: 400, error: "caring:pending.awaitingAnswer" };
  const sent = await sendActivationCode({
    email: share.email,
    locale: context.locale,
    ip: context.ip,
    wait: true,
  });
  if (sent.ok) return { ok: true, notice: "caring:pending.activationSent" };
  // A code sent a moment ago (when the file was filled in, or a click before) says so.
  return sent.error === "errors.codeCooldown"
    ? { ok: false, status: 429, error: "auth:errors.codeCooldown" }
    : { ok: false, status: 429, error: "caring:pending.activationFailed" };
}

/** Deletes one of the viewer's pending caring requests (the share row; a made record stays its owner's). */
export async function deleteCaringRequest(
  viewer: SessionUser,
  id: number,
): Promise<RequestOutcome> {
  if (!(await ownCaringRequest(viewer, id)))
    return { ok: false, status: 404, error: "api:forbidden" };
  const done = await deleteShare(viewer, { readPowerId: id });
  return done.ok ? { ok: true, notice: "caring:pending.deleted" } : done;
}
