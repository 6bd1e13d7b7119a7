import { Prisma } from "@prisma/client";
import { ShareSource, ShareState } from "~/domain/codes";
import { shareStateAt } from "~/domain/share-expiry";
import { displayName } from "~/utils/names";
import type { Viewer } from "./access.server";

/**
 * Sharing: the read-power rows (who may read whose data) and their state machine.
 *
 * A row names a provider (the person whose data is shared, who has a Patient record) and a
 * reader. sourceType 0: the patient shared (the reader must accept); 1: a clinic invited the
 * patient (the patient must accept; an email link can answer too); 2: someone created the
 * patient's account and record (/patientAdd; the patient accepts or refuses once the account is
 * activated). state 0 pending, 1 accepted, 2 refused; a share request or invitation still
 * pending 14 days after it was last sent (`sentAt`) is reported as 3, invalid
 * (app/domain/share-expiry.ts), and can no longer be answered. One row per (provider, reader).
 * Only an accepted row gives access (access.server.ts decides that).
 *
 * Every function takes the viewer and puts its rules in the `where`: a row the viewer is not part
 * of and a row that does not exist give the same 403. Changes write an AuditLog row in the same
 * transaction. Failures are answered, not thrown: `{ ok: false, status, error }` where `error`
 * is an i18n key with its namespace (`sharing:errors.*`, `api:forbidden`).
 *
 * This file holds what every operation needs: the row and its list item, the result type and the
 * audit row (the sources and states are named in app/domain/codes.ts). The operations sit beside
 * it, one file per responsibility: read-power-list (the lists, one share, the account search),
 * read-power-request (share, invite, reinvite), read-power-answer (approve or refuse) and
 * read-power-change (update, delete, the "new" dots).
 */

export type ShareFailure = { ok: false; status: 400 | 403 | 500; error: string };
export type ShareResult<T> = { ok: true; data: T } | ShareFailure;
export type ShareThrottled = { ok: false; status: 429; error: string; retryAfterSeconds: number };

export const FORBIDDEN = "api:forbidden";
/** The i18n key of a sharing error. */
export const errorKey = (key: string) => `sharing:errors.${key}`;

/** A refusal thrown inside `runShare`, answered as `{ ok: false, status, error }`. */
export class ShareError extends Error {
  constructor(
    readonly status: ShareFailure["status"],
    readonly key: string,
  ) {
    super(key);
  }
}

/**
 * Runs a sharing operation and answers its result: a thrown `ShareError` as its refusal, a
 * duplicate (provider, reader) as `onDuplicate`, anything else as a logged 500.
 */
export async function runShare<T>(
  work: () => Promise<T>,
  onDuplicate?: string,
): Promise<ShareResult<T>> {
  try {
    return { ok: true, data: await work() };
  } catch (error) {
    if (error instanceof ShareError) return { ok: false, status: error.status, error: error.key };
    // Two simultaneous first shares between the same pair: the unique (provider, reader) decides.
    if (
      onDuplicate &&
      error instanceof Prisma.PrismaClientKnownRequestError &&
      error.code === "P2002"
    )
      return { ok: false, status: 400, error: onDuplicate };
    console.error("[sharing] operation failed:", error);
    return { ok: false, status: 500, error: "sharing:messages.operateFailed" };
  }
}

export const personSelect = {
  id: true,
  email: true,
  firstName: true,
  lastName: true,
  identity: true,
  birthDate: true,
} satisfies Prisma.UserSelect;
export const rowInclude = {
  provider: { select: { ...personSelect, patient: { select: { id: true } } } },
  reader: { select: personSelect },
} satisfies Prisma.ReadPowerInclude;
export type ShareRow = Prisma.ReadPowerGetPayload<{ include: typeof rowInclude }>;

/** An entry of the patient lists (as `/api/read-power/findList` answers it) and its display name. */
export type PatientListItem = {
  pid: number | null;
  firstName: string | null;
  lastName: string | null;
  email: string;
  name: string;
  nickName: string | null;
  readPowerId: number;
  isNew: number;
  uploadIsNew: number;
  /** 0 waiting, 1 accepted, 2 refused, 3 invalid (expired, app/domain/share-expiry.ts). */
  state: number;
  sourceType: number;
  identity: number;
  provideId: number;
  readId: number;
  code: null;
  birthDate: string | null;
  message: string | null;
  /** The provider's user id (with pid, the address of the patient's page). */
  userId: number;
};

/**
 * A row as a list item at `now`. `person` says who the row is about for the viewer: the provider
 * in "shared with me" (the patient), the reader in "shared with others" (who reads my data). Its
 * state is the one at `now`: an expired request is reported invalid.
 */
export function toListItem(
  row: ShareRow,
  person: "provider" | "reader",
  now = Date.now(),
): PatientListItem {
  const who = person === "provider" ? row.provider : row.reader;
  return {
    pid: row.provider.patient?.id ?? null,
    firstName: who.firstName,
    lastName: who.lastName,
    email: who.email,
    name: displayName(who),
    nickName: row.nickName,
    readPowerId: row.id,
    isNew: row.isNew,
    uploadIsNew: row.uploadIsNew,
    state: shareStateAt(row, now),
    sourceType: row.sourceType,
    identity: who.identity,
    provideId: row.providerId,
    readId: row.readerId,
    code: null,
    // Patient data: only the patient's, and only once the share is accepted (never a reader's).
    birthDate:
      person === "provider" && row.state === ShareState.Accepted && who.birthDate
        ? who.birthDate.toISOString().slice(0, 10)
        : null,
    message: row.message,
    userId: row.providerId,
  };
}

/** Who must answer a pending row: the reader of a share, the patient of an invitation or of a created account. */
export function recipientOf(row: {
  sourceType: number;
  providerId: number;
  readerId: number;
}): number {
  return row.sourceType === ShareSource.Share ? row.readerId : row.providerId;
}

/** Rows the viewer is part of, on either side. */
export const partyOf = (viewer: Viewer): Prisma.ReadPowerWhereInput => ({
  OR: [{ providerId: viewer.id }, { readerId: viewer.id }],
});

/** The audit row of a change to `row`, written by the viewer in the change's transaction. */
export async function writeAudit(
  client: Prisma.TransactionClient,
  viewer: Viewer,
  row: ShareRow,
  action: string,
  detail: Record<string, string | number | null> = {},
) {
  await client.auditLog.create({
    data: {
      actorId: viewer.id,
      patientId: row.provider.patient?.id ?? null,
      action,
      detail: {
        readPowerId: row.id,
        providerId: row.providerId,
        readerId: row.readerId,
        sourceType: row.sourceType,
        state: row.state,
        ...detail,
      },
    },
  });
}
