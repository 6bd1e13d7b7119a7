import { Prisma } from "@prisma/client";
import { Identity, ShareSource, ShareState } from "~/domain/codes";
import {
  EXPIRING_SOURCES,
  expiredIfSentBy,
  isExpired,
  SHARE_REQUEST_DAYS,
} from "~/domain/share-expiry";
import { fallbackLng, isLocale } from "~/i18n";
import type { InviteInput, SaveShareInput } from "~/schemas/read-power";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { createInviteToken } from "~/models/invite-token.server";
import { sendTranslatedMail } from "~/utils/mail.server";
import { displayName } from "~/utils/names";
import { mayReadSharedData, type Viewer } from "./access.server";
import {
  errorKey,
  FORBIDDEN,
  rowInclude,
  runShare,
  ShareError,
  toListItem,
  writeAudit,
  type PatientListItem,
  type ShareFailure,
  type ShareResult,
  type ShareRow,
} from "./read-power.server";

/**
 * Opening shares: a patient shares their data (save), a clinic invites a patient (invite) or
 * sends an invitation again (reinvite); invitations are emailed with a single-use link. Each
 * sending sets `sentAt`, which starts the days the request waits for its answer
 * (app/domain/share-expiry.ts); a refused or expired request may be sent again.
 */

/** The rows that sending again re-opens at `now`: refused ones and expired ones. */
const mayOpenAgain = (now: number): Prisma.ReadPowerWhereInput => ({
  OR: [
    { state: ShareState.Refused },
    {
      state: ShareState.Pending,
      sourceType: { in: [...EXPIRING_SOURCES] },
      sentAt: { lte: expiredIfSentBy(now) },
    },
  ],
});

/** Whether an existing row between the pair may be opened again (refused or expired). */
const openableAgain = (
  row: { state: number; sourceType: number; sentAt: Date },
  now: number,
): boolean => row.state === ShareState.Refused || isExpired(row, now);

const activeAccount = {
  active: true,
  disabled: false,
  deletedAt: null,
} satisfies Prisma.UserWhereInput;

/** The address of an invitation email's link. */
function invitationLink(doctorName: string, token: string): string {
  const base = env().APP_URL.replace(/\/+$/, "");
  return `${base}/invite_result?doctorName=${encodeURIComponent(doctorName)}&data=${encodeURIComponent(token)}`;
}

type InvitationMail = {
  to: string;
  lang: string | null | undefined;
  doctorName: string;
  token: string;
};

/**
 * Makes a fresh single-use link for the invitation (older links of it stop working), inside the
 * transaction that opens the invitation; the email itself goes out after the commit
 * (`mailInvitation`), so that a slow mail server never holds a transaction open.
 */
async function prepareInvitation(
  client: Prisma.TransactionClient,
  readPowerId: number,
  clinic: { firstName: string | null; lastName: string | null; email: string },
  patientUserId: number,
  now: number,
): Promise<InvitationMail> {
  const patient = await client.user.findUniqueOrThrow({
    where: { id: patientUserId },
    select: { email: true, setting: { select: { lang: true } } },
  });
  await client.inviteToken.deleteMany({ where: { readPowerId } });
  // The link lives exactly as long as the invitation sent at `now`.
  const token = await createInviteToken(readPowerId, { client, now });
  return { to: patient.email, lang: patient.setting?.lang, doctorName: displayName(clinic), token };
}

/**
 * Emails a committed invitation in the patient's language. When the email cannot be sent the
 * invitation stays open (pending) and the clinic is told to use "send again", which makes a new
 * link and email.
 */
async function mailInvitation(
  readPowerId: number,
  mail: InvitationMail,
): Promise<ShareFailure | null> {
  try {
    const locale = isLocale(mail.lang) ? mail.lang : fallbackLng;
    await sendTranslatedMail({
      to: mail.to,
      locale,
      key: "invitation",
      values: {
        doctorName: mail.doctorName,
        link: invitationLink(mail.doctorName, mail.token),
        count: SHARE_REQUEST_DAYS,
      },
    });
    return null;
  } catch (error) {
    console.error(
      `[sharing] the invitation email for invitation ${readPowerId} could not be sent:`,
      error instanceof Error ? error.message : error,
    );
    return { ok: false, status: 500, error: "sharing:messages.inviteMailFailed" };
  }
}

/**
 * POST save: the viewer (a person with a health record) shares it with `readId`, who must
 * accept. Sharing again with someone who refused, or whose request expired, re-opens that row as
 * a new request.
 */
export async function shareWith(
  viewer: Viewer,
  input: SaveShareInput,
): Promise<ShareResult<PatientListItem>> {
  return runShare(async () => {
    if (viewer.identity !== Identity.Person) throw new ShareError(403, errorKey("notAPatient"));
    const own = await db().patient.findUnique({
      where: { userId: viewer.id },
      select: { id: true },
    });
    if (!own) throw new ShareError(403, errorKey("notAPatient"));
    if (input.readId === viewer.id) throw new ShareError(400, errorKey("selfShare"));
    const reader = await db().user.findFirst({
      where: { id: input.readId, ...activeAccount },
      select: { id: true },
    });
    if (!reader) throw new ShareError(400, errorKey("userNotFound"));
    const now = Date.now();
    return db().$transaction(async (tx) => {
      const pair = { providerId_readerId: { providerId: viewer.id, readerId: reader.id } };
      const existing = await tx.readPower.findUnique({ where: pair });
      if (existing && !openableAgain(existing, now))
        throw new ShareError(400, errorKey("alreadyShared"));
      const opened = {
        sourceType: ShareSource.Share,
        state: ShareState.Pending,
        isNew: 0,
        message: input.message ?? null,
        processedAt: null,
        sentAt: new Date(now),
      };
      let row: ShareRow;
      if (existing) {
        const reopened = await tx.readPower.updateMany({
          where: { id: existing.id, ...mayOpenAgain(now) },
          data: opened,
        });
        if (reopened.count !== 1) throw new ShareError(400, errorKey("alreadyShared"));
        await tx.inviteToken.deleteMany({ where: { readPowerId: existing.id } });
        row = await tx.readPower.findUniqueOrThrow({
          where: { id: existing.id },
          include: rowInclude,
        });
      } else {
        row = await tx.readPower.create({
          data: { providerId: viewer.id, readerId: reader.id, ...opened },
          include: rowInclude,
        });
      }
      await writeAudit(tx, viewer, row, "share:save", { reopened: existing ? 1 : 0 });
      return toListItem(row, "reader", now);
    });
  }, errorKey("alreadyShared"));
}

/**
 * POST invite: an approved clinic, or a person caring for a relative or friend (remote caring),
 * invites the patient `provideId` (another active person with a health record) to share their
 * data with it; the patient is emailed a single-use link and decides. Inviting again after a
 * refusal or an expiry re-opens the row (like reinvite).
 */
export async function invitePatient(
  viewer: Viewer,
  input: InviteInput,
): Promise<ShareResult<PatientListItem>> {
  const opened = await runShare(async () => {
    if (!mayReadSharedData(viewer)) throw new ShareError(403, errorKey("auditRequired"));
    if (input.provideId === viewer.id) throw new ShareError(400, errorKey("selfInvite"));
    const clinic = await db().user.findUniqueOrThrow({
      where: { id: viewer.id },
      select: { email: true, firstName: true, lastName: true },
    });
    const patient = await db().user.findFirst({
      where: {
        id: input.provideId,
        identity: Identity.Person,
        patient: { isNot: null },
        ...activeAccount,
      },
      select: { id: true },
    });
    if (!patient) throw new ShareError(400, errorKey("patientNotFound"));
    const now = Date.now();
    return db().$transaction(async (tx) => {
      const existing = await tx.readPower.findUnique({
        where: { providerId_readerId: { providerId: patient.id, readerId: viewer.id } },
      });
      if (existing && !openableAgain(existing, now))
        throw new ShareError(400, errorKey("alreadyInvited"));
      const opened = {
        sourceType: ShareSource.Invitation,
        state: ShareState.Pending,
        isNew: 0,
        message: input.message ?? null,
        processedAt: null,
        sentAt: new Date(now),
      };
      let id: number;
      if (existing) {
        const reopened = await tx.readPower.updateMany({
          where: { id: existing.id, ...mayOpenAgain(now) },
          data: opened,
        });
        if (reopened.count !== 1) throw new ShareError(400, errorKey("alreadyInvited"));
        id = existing.id;
      } else {
        id = (
          await tx.readPower.create({
            data: { providerId: patient.id, readerId: viewer.id, ...opened },
            select: { id: true },
          })
        ).id;
      }
      const row = await tx.readPower.findUniqueOrThrow({ where: { id }, include: rowInclude });
      await writeAudit(tx, viewer, row, "share:invite", { reopened: existing ? 1 : 0 });
      return {
        item: toListItem(row, "provider", now),
        mail: await prepareInvitation(tx, id, clinic, patient.id, now),
      };
    });
  }, errorKey("alreadyInvited"));
  if (!opened.ok) return opened;
  return (
    (await mailInvitation(opened.data.item.readPowerId, opened.data.mail)) ?? {
      ok: true,
      data: opened.data.item,
    }
  );
}

/**
 * POST reinvite ("send again"): the account (a clinic, or a person caring for someone) that sent
 * an invitation that was refused, has expired, or is still pending (e.g. its email could not be
 * sent), opens it again with a new link and email; its days to be answered start anew.
 */
export async function reinvite(
  viewer: Viewer,
  { id }: { id: number },
): Promise<ShareResult<PatientListItem>> {
  const opened = await runShare(async () => {
    if (!mayReadSharedData(viewer)) throw new ShareError(403, errorKey("auditRequired"));
    const clinic = await db().user.findUniqueOrThrow({
      where: { id: viewer.id },
      select: { email: true, firstName: true, lastName: true },
    });
    const now = Date.now();
    return db().$transaction(async (tx) => {
      const row = await tx.readPower.findFirst({
        where: { id, readerId: viewer.id, sourceType: ShareSource.Invitation },
      });
      if (!row) throw new ShareError(403, FORBIDDEN);
      // Pending covers both a waiting invitation and an expired one (expiry is not stored).
      const reopened = await tx.readPower.updateMany({
        where: { id: row.id, state: { in: [ShareState.Refused, ShareState.Pending] } },
        data: { state: ShareState.Pending, isNew: 0, processedAt: null, sentAt: new Date(now) },
      });
      if (reopened.count !== 1) throw new ShareError(400, errorKey("notRefused"));
      const updated = await tx.readPower.findUniqueOrThrow({
        where: { id: row.id },
        include: rowInclude,
      });
      await writeAudit(tx, viewer, updated, "share:reinvite");
      return {
        item: toListItem(updated, "provider", now),
        mail: await prepareInvitation(tx, row.id, clinic, row.providerId, now),
      };
    });
  });
  if (!opened.ok) return opened;
  return (
    (await mailInvitation(opened.data.item.readPowerId, opened.data.mail)) ?? {
      ok: true,
      data: opened.data.item,
    }
  );
}

/**
 * Deletes invitation link tokens past their expiry (used or not: an expired link answers
 * "expired" from its signature alone); for the periodic purge.
 */
export async function purgeExpiredInviteTokens(now = new Date()): Promise<number> {
  const { count } = await db().inviteToken.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}
