import type { Prisma } from "@prisma/client";
import { ShareSource, ShareState } from "~/domain/codes";
import { isExpired } from "~/domain/share-expiry";
import type { ProcessFromEmailInput, ProcessShareInput } from "~/schemas/read-power";
import { db } from "~/utils/db.server";
import {
  consumeInviteToken,
  peekInviteToken,
  type InviteTokenError,
} from "~/models/invite-token.server";
import { displayName } from "~/utils/names";
import { mayReadSharedData, type Viewer } from "./access.server";
import {
  errorKey,
  FORBIDDEN,
  personSelect,
  rowInclude,
  runShare,
  ShareError,
  toListItem,
  writeAudit,
  type PatientListItem,
  type ShareResult,
} from "./read-power.server";

/**
 * Answering shares: the recipient of a pending row approves or refuses it, in the app or from
 * an invitation email's link; what a link and a creator's pending share show before the answer.
 */

const LINK_ERRORS: Record<InviteTokenError, string> = {
  invalid: errorKey("linkInvalid"),
  expired: errorKey("linkExpired"),
  used: errorKey("linkUsed"),
};

/** The refusal of an answer to a request whose time to answer has run out, by its kind. */
const expiredKey = (sourceType: number) =>
  errorKey(sourceType === ShareSource.Invitation ? "invitationExpired" : "shareExpired");

async function processInTransaction(
  tx: Prisma.TransactionClient,
  viewer: Viewer,
  input: { id: number; state: number; message?: string; nickName?: string },
  via: "app" | "email",
  now = Date.now(),
) {
  const row = await tx.readPower.findFirst({
    where: {
      id: input.id,
      OR: [
        { sourceType: ShareSource.Share, readerId: viewer.id },
        { sourceType: ShareSource.Invitation, providerId: viewer.id },
        { sourceType: ShareSource.Created, providerId: viewer.id },
      ],
    },
  });
  if (!row) throw new ShareError(403, FORBIDDEN);
  if (row.state !== ShareState.Pending) throw new ShareError(400, errorKey("alreadyProcessed"));
  // An expired request can be neither accepted nor refused: only sending it again re-opens it.
  if (isExpired(row, now)) throw new ShareError(400, expiredKey(row.sourceType));
  const approve = input.state === ShareState.Accepted;
  // The nickname is the reader's name for the patient: only a reader sets it, and an empty one
  // keeps what was there (the previous nickname, or none so that the display name shows).
  const nickName =
    approve && row.readerId === viewer.id && input.nickName ? input.nickName : undefined;
  const changed = await tx.readPower.updateMany({
    where: {
      id: row.id,
      state: ShareState.Pending,
      // The very request checked above, not sent again meanwhile.
      sentAt: row.sentAt,
    },
    // An accepted share starts with the reader's "new data" dot (uploadIsNew 0): they have not
    // looked at the patient's data yet.
    data: {
      state: approve ? ShareState.Accepted : ShareState.Refused,
      isNew: 1,
      processedAt: new Date(now),
      ...(approve ? { uploadIsNew: 0 } : {}),
      ...(nickName ? { nickName } : {}),
    },
  });
  if (changed.count !== 1) throw new ShareError(400, errorKey("alreadyProcessed"));
  const updated = await tx.readPower.findUniqueOrThrow({
    where: { id: row.id },
    include: rowInclude,
  });
  await writeAudit(tx, viewer, updated, "share:process", { via, reply: input.message ?? null });
  return toListItem(updated, row.readerId === viewer.id ? "provider" : "reader", now);
}

/**
 * POST process: the recipient of a pending row approves (state 1, optional nickname) or
 * refuses (state 2). The recipient is the reader of a share and the patient of an invitation;
 * anyone else, and any id that does not exist, gets 403. An expired request gets a 400 that says
 * so.
 */
export async function processShare(
  viewer: Viewer,
  input: ProcessShareInput,
): Promise<ShareResult<PatientListItem>> {
  if (!mayReadSharedData(viewer))
    return { ok: false, status: 403, error: errorKey("auditRequired") };
  return runShare(() => db().$transaction((tx) => processInTransaction(tx, viewer, input, "app")));
}

/**
 * POST processFromEmail: the invitation link answers without signing in, as the invited
 * patient. The link is used up in the same transaction; a used, expired, forged link or one
 * whose invitation was deleted or has expired gets a clear 400.
 */
export async function processFromEmail(
  input: ProcessFromEmailInput,
): Promise<ShareResult<PatientListItem>> {
  return runShare(() =>
    db().$transaction(async (tx) => {
      const used = await consumeInviteToken(input.data, { client: tx });
      if (!used.ok) throw new ShareError(400, LINK_ERRORS[used.error]);
      const row = await tx.readPower.findUnique({
        where: { id: used.readPowerId },
        select: {
          id: true,
          sourceType: true,
          provider: {
            select: {
              id: true,
              identity: true,
              isPass: true,
              role: true,
              active: true,
              disabled: true,
              deletedAt: true,
            },
          },
        },
      });
      if (
        !row ||
        row.sourceType !== ShareSource.Invitation ||
        !row.provider.active ||
        row.provider.disabled ||
        row.provider.deletedAt
      ) {
        throw new ShareError(400, LINK_ERRORS.invalid);
      }
      const { id, identity, isPass, role } = row.provider;
      return processInTransaction(
        tx,
        { id, identity, isPass, role },
        { id: row.id, state: input.state, message: input.message },
        "email",
      );
    }),
  );
}

/** What the `/invite_result` page shows for a link, without using it up. */
export async function describeInvitationLink(
  data: string,
): Promise<ShareResult<{ readPowerId: number; doctorName: string; state: number }>> {
  const found = await peekInviteToken(data);
  if (!found.ok) return { ok: false, status: 400, error: LINK_ERRORS[found.error] };
  const row = await db().readPower.findUnique({
    where: { id: found.readPowerId },
    include: rowInclude,
  });
  if (!row || row.sourceType !== ShareSource.Invitation)
    return { ok: false, status: 400, error: LINK_ERRORS.invalid };
  if (row.state !== ShareState.Pending)
    return { ok: false, status: 400, error: errorKey("alreadyProcessed") };
  if (isExpired(row, Date.now()))
    return { ok: false, status: 400, error: expiredKey(row.sourceType) };
  return {
    ok: true,
    data: { readPowerId: row.id, doctorName: displayName(row.reader), state: row.state },
  };
}

export type CreatorShare = {
  readPowerId: number;
  creatorName: string;
  creatorEmail: string;
  creatorIdentity: number;
};

/**
 * The share that the person who created the viewer's account (/patientAdd) is waiting for, if
 * the viewer has not answered it yet: shown right after activation, so that the owner decides
 * whether their creator may read their data.
 */
export async function findPendingCreatorShare(viewerId: number): Promise<CreatorShare | null> {
  const row = await db().readPower.findFirst({
    where: { providerId: viewerId, sourceType: ShareSource.Created, state: ShareState.Pending },
    orderBy: { id: "asc" },
    include: { reader: { select: personSelect } },
  });
  return row
    ? {
        readPowerId: row.id,
        creatorName: displayName(row.reader),
        creatorEmail: row.reader.email,
        creatorIdentity: row.reader.identity,
      }
    : null;
}
