import { Prisma } from "@prisma/client";
import { fallbackLng, isLocale } from "~/i18n";
import { localDate, type IsoDate } from "~/report/day";
import {
  SEARCH_MIN_LENGTH,
  SHARE_PAGE_SIZE,
  type InviteInput,
  type ProcessFromEmailInput,
  type ProcessShareInput,
  type SaveShareInput,
  type UpdateShareInput,
} from "~/schemas/read-power";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import {
  consumeInviteToken,
  createInviteToken,
  peekInviteToken,
  type InviteTokenError,
} from "~/models/invite-token.server";
import { sendTranslatedMail } from "~/utils/mail.server";
import { displayName } from "~/utils/names";
import { mayReadSharedData, type Viewer } from "./access.server";
import { hitRateLimit, RATE_LIMITS } from "./rate-limit.server";

/**
 * Sharing: the read-power rows (who may read whose data) and their state machine.
 *
 * A row names a provider (the person whose data is shared, who has a Patient record) and a
 * reader. sourceType 0: the patient shared (the reader must accept); 1: a clinic invited the
 * patient (the patient must accept; an email link can answer too); 2: someone created the
 * patient's account and record (/patientAdd; the patient accepts or refuses once the account is
 * activated). state 0 pending, 1 accepted, 2 refused. One row
 * per (provider, reader). Only an accepted row gives access (access.server.ts decides that).
 *
 * Every function takes the viewer and puts its rules in the `where`: a row the viewer is not part
 * of and a row that does not exist give the same 403. Changes write an AuditLog row in the same
 * transaction. Failures are answered, not thrown: `{ ok: false, status, error }` where `error`
 * is an i18n key with its namespace (`sharing:errors.*`, `api:forbidden`).
 */

export const SOURCE_TYPE = { share: 0, invitation: 1, created: 2 } as const;
export const SHARE_STATE = { pending: 0, accepted: 1, refused: 2 } as const;

export type ShareFailure = { ok: false; status: 400 | 403 | 500; error: string };
export type ShareResult<T> = { ok: true; data: T } | ShareFailure;
export type ShareThrottled = { ok: false; status: 429; error: string; retryAfterSeconds: number };

type Client = Prisma.TransactionClient;

const FORBIDDEN = "api:forbidden";
const err = (key: string) => `sharing:errors.${key}`;
const LINK_ERRORS: Record<InviteTokenError, string> = {
  invalid: err("linkInvalid"),
  expired: err("linkExpired"),
  used: err("linkUsed"),
};

class ShareError extends Error {
  constructor(
    readonly status: ShareFailure["status"],
    readonly key: string,
  ) {
    super(key);
  }
}

async function run<T>(work: () => Promise<T>, onDuplicate?: string): Promise<ShareResult<T>> {
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

const personSelect = {
  id: true,
  email: true,
  firstName: true,
  lastName: true,
  identity: true,
  birthDate: true,
} satisfies Prisma.UserSelect;
const rowInclude = {
  provider: { select: { ...personSelect, patient: { select: { id: true } } } },
  reader: { select: personSelect },
} satisfies Prisma.ReadPowerInclude;
type ShareRow = Prisma.ReadPowerGetPayload<{ include: typeof rowInclude }>;

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
 * An entry of the patient lists: the list item and, when the viewer may read the patient's data
 * (an accepted share in "shared with me"), the patient's newest finished upload: when it finished
 * and its date in the patient's time zone; both null without one, and in every other entry.
 */
export type PatientListEntry = PatientListItem & {
  lastUploadAt: string | null;
  lastUploadDate: IsoDate | null;
};

export type ListPage<T> = { count: number; data: T[] };
export type ListOptions = { page: number; pageSize?: number; search?: string };

/**
 * A row as a list item. `person` says who the row is about for the viewer: the provider in
 * "shared with me" (the patient), the reader in "shared with others" (who reads my data).
 */
export function toListItem(row: ShareRow, person: "provider" | "reader"): PatientListItem {
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
    state: row.state,
    sourceType: row.sourceType,
    identity: who.identity,
    provideId: row.providerId,
    readId: row.readerId,
    code: null,
    // Patient data: only the patient's, and only once the share is accepted (never a reader's).
    birthDate:
      person === "provider" && row.state === SHARE_STATE.accepted && who.birthDate
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
  return row.sourceType === SOURCE_TYPE.share ? row.readerId : row.providerId;
}

/** Rows the viewer is part of, on either side. */
const partyOf = (viewer: Viewer): Prisma.ReadPowerWhereInput => ({
  OR: [{ providerId: viewer.id }, { readerId: viewer.id }],
});

/** `%`, `_` and `\` are LIKE wildcards to PostgreSQL; a search for them means the characters. */
function likeText(term: string) {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function pageArgs({ page, pageSize }: ListOptions) {
  const size = Math.min(Math.max(1, pageSize ?? SHARE_PAGE_SIZE), SHARE_PAGE_SIZE);
  return { skip: (Math.max(1, page) - 1) * size, take: size };
}

/** Each word of the search must match the nickname, or the email, first or last name of `person`. */
function searchSql(search: string | undefined, person: "provider" | "reader"): Prisma.Sql {
  const words = (search ?? "").trim().split(/\s+/).filter(Boolean).slice(0, 5);
  const who = Prisma.raw(person === "provider" ? "pu" : "ru");
  const matches = words.map((word) => {
    const pattern = `%${likeText(word)}%`;
    return Prisma.sql`AND (rp."nickName" ILIKE ${pattern} OR ${who}.email ILIKE ${pattern} OR ${who}."firstName" ILIKE ${pattern} OR ${who}."lastName" ILIKE ${pattern})`;
  });
  return matches.length ? Prisma.join(matches, " ") : Prisma.empty;
}

type RawShareRow = Omit<ShareRow, "provider" | "reader"> & {
  total: bigint;
  lastUploadAt: Date | null;
  pTimeZone: string | null;
  pEmail: string;
  pFirstName: string | null;
  pLastName: string | null;
  pIdentity: number;
  pBirthDate: Date | null;
  pPid: number | null;
  rEmail: string;
  rFirstName: string | null;
  rLastName: string | null;
  rIdentity: number;
  rBirthDate: Date | null;
};

const LIST_FROM = Prisma.sql`
  FROM "ReadPower" rp
  JOIN "User" pu ON pu.id = rp."providerId"
  JOIN "User" ru ON ru.id = rp."readerId"
  LEFT JOIN "Patient" pp ON pp."userId" = rp."providerId"`;

function shareRowOf(r: RawShareRow): ShareRow {
  const {
    total: _total,
    lastUploadAt: _lastUploadAt,
    pTimeZone: _pTimeZone,
    pEmail,
    pFirstName,
    pLastName,
    pIdentity,
    pBirthDate,
    pPid,
    rEmail,
    rFirstName,
    rLastName,
    rIdentity,
    rBirthDate,
    ...row
  } = r;
  return {
    ...row,
    provider: {
      id: row.providerId,
      email: pEmail,
      firstName: pFirstName,
      lastName: pLastName,
      identity: pIdentity,
      birthDate: pBirthDate,
      patient: pPid === null ? null : { id: pPid },
    },
    reader: {
      id: row.readerId,
      email: rEmail,
      firstName: rFirstName,
      lastName: rLastName,
      identity: rIdentity,
      birthDate: rBirthDate,
    },
  };
}

/**
 * The newest finished upload of the row's patient, for an accepted share only (the reader may
 * read that patient's data); a subquery of the list's one statement, not a query per row.
 */
const LAST_UPLOAD = Prisma.sql`CASE WHEN rp.state = ${SHARE_STATE.accepted} THEN
  (SELECT max(ut."completedAt") FROM "UploadTask" ut WHERE ut."patientId" = pp.id AND ut.status = 'done') END`;

function entryOf(row: RawShareRow, person: "provider" | "reader"): PatientListEntry {
  const at = person === "provider" ? row.lastUploadAt : null;
  return {
    ...toListItem(shareRowOf(row), person),
    lastUploadAt: at ? at.toISOString() : null,
    lastUploadDate: at && row.pTimeZone ? localDate(at.getTime(), row.pTimeZone) : null,
  };
}

/**
 * One page of rows (newest first) and their count in one round trip. Raw SQL: the patient
 * area's panel loads it on every page (docs/decisions/008-raw-sql-on-hot-paths.md).
 */
async function listPage(
  where: Prisma.Sql,
  options: ListOptions,
  person: "provider" | "reader",
): Promise<ListPage<PatientListEntry>> {
  const { skip, take } = pageArgs(options);
  const filter = Prisma.sql`WHERE ${where} ${searchSql(options.search, person)}`;
  const lastUpload = person === "provider" ? LAST_UPLOAD : Prisma.sql`NULL::timestamp(3)`;
  const rows = await db().$queryRaw<RawShareRow[]>`
    SELECT rp.*, count(*) OVER () AS total, ${lastUpload} AS "lastUploadAt", pp."timeZone" AS "pTimeZone",
           pu.email AS "pEmail", pu."firstName" AS "pFirstName", pu."lastName" AS "pLastName", pu.identity AS "pIdentity", pu."birthDate" AS "pBirthDate", pp.id AS "pPid",
           ru.email AS "rEmail", ru."firstName" AS "rFirstName", ru."lastName" AS "rLastName", ru.identity AS "rIdentity", ru."birthDate" AS "rBirthDate"
    ${LIST_FROM} ${filter}
    ORDER BY rp."createdAt" DESC, rp.id DESC LIMIT ${take} OFFSET ${skip}`;
  // Past the last page there is no row to carry the count.
  const count = rows[0]
    ? Number(rows[0].total)
    : skip === 0
      ? 0
      : Number(
          (await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n ${LIST_FROM} ${filter}`)[0]!
            .n,
        );
  return { count, data: rows.map((row) => entryOf(row, person)) };
}

/**
 * Tab 1, "shared with me": rows where the viewer is the reader. A person sees pending requests
 * to them and accepted shares. A clinic sees its invitations in every state, accepted shares and
 * pending share requests to it (it is their recipient), never a share it refused; a clinic whose
 * organisation is not approved sees nothing.
 */
export async function listSharedWithMeEntries(
  viewer: Viewer,
  options: ListOptions,
): Promise<ListPage<PatientListEntry>> {
  if (!mayReadSharedData(viewer)) return { count: 0, data: [] };
  const mine =
    viewer.identity === 2
      ? Prisma.sql`rp."readerId" = ${viewer.id} AND NOT (rp."sourceType" = ${SOURCE_TYPE.share} AND rp.state = ${SHARE_STATE.refused})`
      : Prisma.sql`rp."readerId" = ${viewer.id} AND rp.state IN (${SHARE_STATE.pending}, ${SHARE_STATE.accepted})`;
  return listPage(Prisma.sql`${mine} AND pp.id IS NOT NULL`, options, "provider");
}

/**
 * Tab 2, "shared with others" (identity 1 only): every row where the viewer is the provider,
 * in every state: shares they made, invitations to them (pending ones are theirs to answer).
 */
export async function listSharedWithOthers(
  viewer: Viewer,
  options: ListOptions,
): Promise<ShareResult<ListPage<PatientListEntry>>> {
  if (viewer.identity !== 1) return { ok: false, status: 403, error: FORBIDDEN };
  return {
    ok: true,
    data: await listPage(Prisma.sql`rp."providerId" = ${viewer.id}`, options, "reader"),
  };
}

/** An entry of the drawers' list: a request the viewer made, the account it names and its answer. */
export type SentRequest = {
  readPowerId: number;
  userId: number;
  name: string;
  email: string;
  identity: number;
  state: number;
};

/**
 * The drawers' list, newest first, a page at a time with the count: for a person the shares they
 * made (the reader's details), for a clinic the invitations it sent (the patient's details), in
 * every state; nothing for a clinic whose organisation is not approved, nor for any other
 * account. `userId` is the other side's account, the one that sharing or inviting again names.
 */
export async function listSentRequests(
  viewer: Viewer,
  options: ListOptions,
): Promise<ListPage<SentRequest>> {
  const entry = (item: PatientListEntry, userId: number): SentRequest => ({
    readPowerId: item.readPowerId,
    userId,
    name: item.name,
    email: item.email,
    identity: item.identity,
    state: item.state,
  });
  if (viewer.identity === 1) {
    const page = await listPage(
      Prisma.sql`rp."providerId" = ${viewer.id} AND rp."sourceType" = ${SOURCE_TYPE.share}`,
      options,
      "reader",
    );
    return { count: page.count, data: page.data.map((item) => entry(item, item.readId)) };
  }
  if (viewer.identity === 2 && mayReadSharedData(viewer)) {
    const page = await listPage(
      Prisma.sql`rp."readerId" = ${viewer.id} AND rp."sourceType" = ${SOURCE_TYPE.invitation}`,
      options,
      "provider",
    );
    return { count: page.count, data: page.data.map((item) => entry(item, item.provideId)) };
  }
  return { count: 0, data: [] };
}

/**
 * One row the viewer is part of, as a list item seen from the viewer's side (the patient when
 * the viewer reads, the reader when the viewer provides); null for anyone else, for an id that
 * does not exist, and for a clinic whose organisation is not approved (as in its lists).
 */
export async function findShareForViewer(
  viewer: Viewer,
  readPowerId: number,
): Promise<PatientListItem | null> {
  if (!mayReadSharedData(viewer)) return null;
  const row = await db().readPower.findFirst({
    where: { id: readPowerId, ...partyOf(viewer) },
    include: rowInclude,
  });
  return row ? toListItem(row, row.readerId === viewer.id ? "provider" : "reader") : null;
}

export type ShareCandidate = {
  userId: number;
  name: string;
  email: string;
  identity: number;
  readPowerId: number | null;
  state: number | null;
};

/**
 * The drawers' user search: only an exact, whole email (trimmed, case-insensitive) finds an
 * account, so the search cannot list who uses the service. At most one row; never the viewer,
 * never a deleted, disabled or not yet activated account. A person finds any other account to
 * share with; an approved clinic finds persons with a health record to invite. Each search
 * counts against the viewer's limit (429 with the seconds to wait). readPowerId and state name
 * the row the action would make, if it exists already.
 */
export async function searchShareCandidates(
  viewer: Viewer,
  options: ListOptions & { search: string },
): Promise<ShareResult<ListPage<ShareCandidate>> | ShareThrottled> {
  const email = options.search.trim().toLowerCase();
  if (email.length < SEARCH_MIN_LENGTH)
    return { ok: false, status: 400, error: err("searchTooShort") };
  const inviting = viewer.identity === 2;
  if (inviting && !mayReadSharedData(viewer))
    return { ok: false, status: 403, error: err("auditRequired") };
  const limit = await hitRateLimit(`share-search:${viewer.id}`, RATE_LIMITS.shareSearchPerAccount);
  if (!limit.allowed)
    return {
      ok: false,
      status: 429,
      error: err("searchThrottled"),
      retryAfterSeconds: limit.retryAfterSeconds,
    };
  const user = await db().user.findFirst({
    where: {
      email,
      id: { not: viewer.id },
      active: true,
      disabled: false,
      deletedAt: null,
      ...(inviting ? { identity: 1, patient: { isNot: null } } : {}),
    },
    select: {
      id: true,
      email: true,
      firstName: true,
      lastName: true,
      identity: true,
      reading: { where: { providerId: viewer.id }, select: { id: true, state: true } },
      provided: { where: { readerId: viewer.id }, select: { id: true, state: true } },
    },
  });
  if (!user || (options.page ?? 1) > 1)
    return { ok: true, data: { count: user ? 1 : 0, data: [] } };
  const row = (inviting ? user.provided : user.reading)[0];
  return {
    ok: true,
    data: {
      count: 1,
      data: [
        {
          userId: user.id,
          name: displayName(user),
          email: user.email,
          identity: user.identity,
          readPowerId: row?.id ?? null,
          state: row?.state ?? null,
        },
      ],
    },
  };
}

async function writeAudit(
  client: Client,
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

const activeAccount = {
  active: true,
  disabled: false,
  deletedAt: null,
} satisfies Prisma.UserWhereInput;

/** The address of an invitation email's link. */
export function invitationLink(doctorName: string, token: string): string {
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
  client: Client,
  readPowerId: number,
  clinic: { firstName: string | null; lastName: string | null; email: string },
  patientUserId: number,
): Promise<InvitationMail> {
  const patient = await client.user.findUniqueOrThrow({
    where: { id: patientUserId },
    select: { email: true, setting: { select: { lang: true } } },
  });
  await client.inviteToken.deleteMany({ where: { readPowerId } });
  const token = await createInviteToken(readPowerId, { client });
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
      values: { doctorName: mail.doctorName, link: invitationLink(mail.doctorName, mail.token) },
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
 * accept. Sharing again with someone who refused re-opens that row as a new request.
 */
export async function shareWith(
  viewer: Viewer,
  input: SaveShareInput,
): Promise<ShareResult<PatientListItem>> {
  return run(async () => {
    if (viewer.identity !== 1) throw new ShareError(403, err("notAPatient"));
    const own = await db().patient.findUnique({
      where: { userId: viewer.id },
      select: { id: true },
    });
    if (!own) throw new ShareError(403, err("notAPatient"));
    if (input.readId === viewer.id) throw new ShareError(400, err("selfShare"));
    const reader = await db().user.findFirst({
      where: { id: input.readId, ...activeAccount },
      select: { id: true },
    });
    if (!reader) throw new ShareError(400, err("userNotFound"));
    return db().$transaction(async (tx) => {
      const pair = { providerId_readerId: { providerId: viewer.id, readerId: reader.id } };
      const existing = await tx.readPower.findUnique({ where: pair });
      if (existing && existing.state !== SHARE_STATE.refused)
        throw new ShareError(400, err("alreadyShared"));
      const opened = {
        sourceType: SOURCE_TYPE.share,
        state: SHARE_STATE.pending,
        isNew: 0,
        message: input.message ?? null,
        processedAt: null,
      };
      let row: ShareRow;
      if (existing) {
        const reopened = await tx.readPower.updateMany({
          where: { id: existing.id, state: SHARE_STATE.refused },
          data: opened,
        });
        if (reopened.count !== 1) throw new ShareError(400, err("alreadyShared"));
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
      return toListItem(row, "reader");
    });
  }, err("alreadyShared"));
}

/**
 * POST invite: an approved clinic invites the patient `provideId` (an active person with a
 * health record), who is emailed a single-use link. Inviting again after a refusal re-opens
 * the row (like reinvite).
 */
export async function invitePatient(
  viewer: Viewer,
  input: InviteInput,
): Promise<ShareResult<PatientListItem>> {
  const opened = await run(async () => {
    if (viewer.identity !== 2) throw new ShareError(403, err("clinicsOnly"));
    if (!mayReadSharedData(viewer)) throw new ShareError(403, err("auditRequired"));
    const clinic = await db().user.findUniqueOrThrow({
      where: { id: viewer.id },
      select: { email: true, firstName: true, lastName: true },
    });
    const patient = await db().user.findFirst({
      where: { id: input.provideId, identity: 1, patient: { isNot: null }, ...activeAccount },
      select: { id: true },
    });
    if (!patient) throw new ShareError(400, err("patientNotFound"));
    return db().$transaction(async (tx) => {
      const existing = await tx.readPower.findUnique({
        where: { providerId_readerId: { providerId: patient.id, readerId: viewer.id } },
      });
      if (existing && existing.state !== SHARE_STATE.refused)
        throw new ShareError(400, err("alreadyInvited"));
      const opened = {
        sourceType: SOURCE_TYPE.invitation,
        state: SHARE_STATE.pending,
        isNew: 0,
        message: input.message ?? null,
        processedAt: null,
      };
      let id: number;
      if (existing) {
        const reopened = await tx.readPower.updateMany({
          where: { id: existing.id, state: SHARE_STATE.refused },
          data: opened,
        });
        if (reopened.count !== 1) throw new ShareError(400, err("alreadyInvited"));
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
        item: toListItem(row, "provider"),
        mail: await prepareInvitation(tx, id, clinic, patient.id),
      };
    });
  }, err("alreadyInvited"));
  if (!opened.ok) return opened;
  return (
    (await mailInvitation(opened.data.item.readPowerId, opened.data.mail)) ?? {
      ok: true,
      data: opened.data.item,
    }
  );
}

/**
 * POST reinvite ("send again"): the clinic that sent an invitation that was refused, or is still
 * pending (e.g. its email could not be sent), opens it again with a new link and email.
 */
export async function reinvite(
  viewer: Viewer,
  { id }: { id: number },
): Promise<ShareResult<PatientListItem>> {
  const opened = await run(async () => {
    if (viewer.identity !== 2) throw new ShareError(403, FORBIDDEN);
    if (!mayReadSharedData(viewer)) throw new ShareError(403, err("auditRequired"));
    const clinic = await db().user.findUniqueOrThrow({
      where: { id: viewer.id },
      select: { email: true, firstName: true, lastName: true },
    });
    return db().$transaction(async (tx) => {
      const row = await tx.readPower.findFirst({
        where: { id, readerId: viewer.id, sourceType: SOURCE_TYPE.invitation },
      });
      if (!row) throw new ShareError(403, FORBIDDEN);
      const reopened = await tx.readPower.updateMany({
        where: { id: row.id, state: { in: [SHARE_STATE.refused, SHARE_STATE.pending] } },
        data: { state: SHARE_STATE.pending, isNew: 0, processedAt: null },
      });
      if (reopened.count !== 1) throw new ShareError(400, err("notRefused"));
      const updated = await tx.readPower.findUniqueOrThrow({
        where: { id: row.id },
        include: rowInclude,
      });
      await writeAudit(tx, viewer, updated, "share:reinvite");
      return {
        item: toListItem(updated, "provider"),
        mail: await prepareInvitation(tx, row.id, clinic, row.providerId),
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

async function processInTransaction(
  tx: Client,
  viewer: Viewer,
  input: { id: number; state: number; message?: string; nickName?: string },
  via: "app" | "email",
) {
  const row = await tx.readPower.findFirst({
    where: {
      id: input.id,
      OR: [
        { sourceType: SOURCE_TYPE.share, readerId: viewer.id },
        { sourceType: SOURCE_TYPE.invitation, providerId: viewer.id },
        { sourceType: SOURCE_TYPE.created, providerId: viewer.id },
      ],
    },
  });
  if (!row) throw new ShareError(403, FORBIDDEN);
  if (row.state !== SHARE_STATE.pending) throw new ShareError(400, err("alreadyProcessed"));
  const approve = input.state === SHARE_STATE.accepted;
  // The nickname is the reader's name for the patient: only a reader sets it, and an empty one
  // keeps what was there (the previous nickname, or none so that the display name shows).
  const nickName =
    approve && row.readerId === viewer.id && input.nickName ? input.nickName : undefined;
  const changed = await tx.readPower.updateMany({
    where: { id: row.id, state: SHARE_STATE.pending },
    // An accepted share starts with the reader's "new data" dot (uploadIsNew 0): they have not
    // looked at the patient's data yet.
    data: {
      state: approve ? SHARE_STATE.accepted : SHARE_STATE.refused,
      isNew: 1,
      processedAt: new Date(),
      ...(approve ? { uploadIsNew: 0 } : {}),
      ...(nickName ? { nickName } : {}),
    },
  });
  if (changed.count !== 1) throw new ShareError(400, err("alreadyProcessed"));
  const updated = await tx.readPower.findUniqueOrThrow({
    where: { id: row.id },
    include: rowInclude,
  });
  await writeAudit(tx, viewer, updated, "share:process", { via, reply: input.message ?? null });
  return toListItem(updated, row.readerId === viewer.id ? "provider" : "reader");
}

/**
 * POST process: the recipient of a pending row approves (state 1, optional nickname) or
 * refuses (state 2). The recipient is the reader of a share and the patient of an invitation;
 * anyone else, and any id that does not exist, gets 403.
 */
export async function processShare(
  viewer: Viewer,
  input: ProcessShareInput,
): Promise<ShareResult<PatientListItem>> {
  if (!mayReadSharedData(viewer)) return { ok: false, status: 403, error: err("auditRequired") };
  return run(() => db().$transaction((tx) => processInTransaction(tx, viewer, input, "app")));
}

/**
 * POST processFromEmail: the invitation link answers without signing in, as the invited
 * patient. The link is used up in the same transaction; a used, expired, forged link or one
 * whose invitation was deleted gets a clear 400.
 */
export async function processFromEmail(
  input: ProcessFromEmailInput,
): Promise<ShareResult<PatientListItem>> {
  return run(() =>
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
        row.sourceType !== SOURCE_TYPE.invitation ||
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
  if (!row || row.sourceType !== SOURCE_TYPE.invitation)
    return { ok: false, status: 400, error: LINK_ERRORS.invalid };
  if (row.state !== SHARE_STATE.pending)
    return { ok: false, status: 400, error: err("alreadyProcessed") };
  return {
    ok: true,
    data: { readPowerId: row.id, doctorName: displayName(row.reader), state: row.state },
  };
}

/**
 * POST delete: either side removes the row (the patient stops sharing, the reader gives it up,
 * a pending request is withdrawn or declined). Access ends at once; the row's links die with it.
 */
export async function deleteShare(
  viewer: Viewer,
  { readPowerId }: { readPowerId: number },
): Promise<ShareResult<{ readPowerId: number }>> {
  return run(() =>
    db().$transaction(async (tx) => {
      const row = await tx.readPower.findFirst({
        where: { id: readPowerId, ...partyOf(viewer) },
        include: rowInclude,
      });
      if (!row) throw new ShareError(403, FORBIDDEN);
      const gone = await tx.readPower.deleteMany({ where: { id: row.id } });
      if (gone.count !== 1) throw new ShareError(403, FORBIDDEN);
      await writeAudit(tx, viewer, row, "share:delete");
      return { readPowerId: row.id };
    }),
  );
}

/**
 * POST update: the reader sets the nickname ("" clears it) and uploadIsNew; the recipient sets
 * isNew. A clinic whose organisation is not approved changes nothing here.
 */
export async function updateShare(
  viewer: Viewer,
  input: UpdateShareInput,
): Promise<ShareResult<PatientListItem>> {
  if (!mayReadSharedData(viewer)) return { ok: false, status: 403, error: err("auditRequired") };
  return run(() =>
    db().$transaction(async (tx) => {
      const row = await tx.readPower.findFirst({
        where: { id: input.readPowerId, ...partyOf(viewer) },
      });
      if (!row) throw new ShareError(403, FORBIDDEN);
      if (
        (input.nickName !== undefined || input.uploadIsNew !== undefined) &&
        row.readerId !== viewer.id
      )
        throw new ShareError(403, FORBIDDEN);
      if (input.isNew !== undefined && recipientOf(row) !== viewer.id)
        throw new ShareError(403, FORBIDDEN);
      const data: Prisma.ReadPowerUpdateInput = {};
      if (input.nickName !== undefined) data.nickName = input.nickName || null;
      if (input.isNew !== undefined) data.isNew = input.isNew;
      if (input.uploadIsNew !== undefined) data.uploadIsNew = input.uploadIsNew;
      const updated = await tx.readPower.update({
        where: { id: row.id },
        data,
        include: rowInclude,
      });
      const changed: Record<string, string | number | null> = {};
      for (const key of ["nickName", "isNew", "uploadIsNew"] as const)
        if (input[key] !== undefined) changed[key] = updated[key];
      await writeAudit(tx, viewer, updated, "share:update", changed);
      return toListItem(updated, row.readerId === viewer.id ? "provider" : "reader");
    }),
  );
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
    where: { providerId: viewerId, sourceType: SOURCE_TYPE.created, state: SHARE_STATE.pending },
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

/** Opening a patient's entry clears the reader's "new uploads" dot (uploadIsNew 1). */
export async function markUploadsSeen(viewer: Viewer, providerUserId: number): Promise<void> {
  // Raw SQL: it runs on every patient page view (docs/decisions/008-raw-sql-on-hot-paths.md).
  await db().$executeRaw`
    UPDATE "ReadPower" SET "uploadIsNew" = 1, "updatedAt" = now()
     WHERE "readerId" = ${viewer.id} AND "providerId" = ${providerUserId} AND state = ${SHARE_STATE.accepted} AND "uploadIsNew" = 0`;
}

/** New data for a patient: every accepted reader gets the "new uploads" dot (uploadIsNew 0). */
export async function markUploadsNew(providerUserId: number): Promise<void> {
  await db().readPower.updateMany({
    where: { providerId: providerUserId, state: SHARE_STATE.accepted, uploadIsNew: 1 },
    data: { uploadIsNew: 0 },
  });
}

/**
 * Deletes invitation link tokens past their expiry (used or not: an expired link answers
 * "expired" from its signature alone); for the periodic purge.
 */
export async function purgeExpiredInviteTokens(now = new Date()): Promise<number> {
  const { count } = await db().inviteToken.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}
