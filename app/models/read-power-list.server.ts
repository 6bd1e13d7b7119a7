import { Prisma } from "@prisma/client";
import { Identity, ShareSource, ShareState } from "~/domain/codes";
import { shareStateAt } from "~/domain/share-expiry";
import { localDate, type IsoDate } from "~/report/day";
import { SEARCH_MIN_LENGTH, SHARE_PAGE_SIZE } from "~/schemas/read-power";
import { db } from "~/utils/db.server";
import { displayName } from "~/utils/names";
import { mayReadSharedData, type Viewer } from "./access.server";
import { hitRateLimit, RATE_LIMITS } from "./rate-limit.server";
import {
  errorKey,
  FORBIDDEN,
  partyOf,
  rowInclude,
  toListItem,
  type PatientListItem,
  type ShareResult,
  type ShareRow,
  type ShareThrottled,
} from "./read-power.server";

/**
 * Reading shares: the patient lists (shared with me, shared with others), the drawers' lists of
 * sent requests, one share, and the drawers' search for an account to share with or invite.
 */

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
const LAST_UPLOAD = Prisma.sql`CASE WHEN rp.state = ${ShareState.Accepted} THEN
  (SELECT max(ut."completedAt") FROM "UploadTask" ut WHERE ut."patientId" = pp.id AND ut.status = 'done') END`;

function entryOf(row: RawShareRow, person: "provider" | "reader", now: number): PatientListEntry {
  const at = person === "provider" ? row.lastUploadAt : null;
  return {
    ...toListItem(shareRowOf(row), person, now),
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
  const now = Date.now();
  return { count, data: rows.map((row) => entryOf(row, person, now)) };
}

/**
 * Tab 1, "shared with me": rows where the viewer is the reader. A person sees requests to them
 * (waiting or expired) and accepted shares. A clinic sees its invitations in every state,
 * accepted shares and share requests to it (it is their recipient), never a share it refused; a
 * clinic whose organisation is not approved sees nothing.
 */
export async function listSharedWithMeEntries(
  viewer: Viewer,
  options: ListOptions,
): Promise<ListPage<PatientListEntry>> {
  if (!mayReadSharedData(viewer)) return { count: 0, data: [] };
  const mine =
    viewer.identity === Identity.Clinic
      ? Prisma.sql`rp."readerId" = ${viewer.id} AND NOT (rp."sourceType" = ${ShareSource.Share} AND rp.state = ${ShareState.Refused})`
      : Prisma.sql`rp."readerId" = ${viewer.id} AND rp.state IN (${ShareState.Pending}, ${ShareState.Accepted})`;
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
  if (viewer.identity !== Identity.Person) return { ok: false, status: 403, error: FORBIDDEN };
  return {
    ok: true,
    data: await listPage(Prisma.sql`rp."providerId" = ${viewer.id}`, options, "reader"),
  };
}

/**
 * Remote caring's list of the people the viewer cares for: every accepted share of a patient
 * record with the viewer as its reader (a clinic's once its organisation is approved), newest
 * first, a page at a time.
 */
export async function listCaredFor(
  viewer: Viewer,
  options: ListOptions,
): Promise<ListPage<PatientListEntry>> {
  if (!mayReadSharedData(viewer)) return { count: 0, data: [] };
  return listPage(
    Prisma.sql`rp."readerId" = ${viewer.id} AND rp.state = ${ShareState.Accepted} AND pp.id IS NOT NULL`,
    options,
    "provider",
  );
}

/**
 * Remote caring's pending requests: the viewer's invitations and the records the viewer created
 * for someone (their share back waits for the new owner), not yet accepted: waiting, expired or
 * refused, newest first, a page at a time.
 */
export async function listCaringRequests(
  viewer: Viewer,
  options: ListOptions,
): Promise<ListPage<PatientListEntry & { active: boolean }>> {
  if (!mayReadSharedData(viewer)) return { count: 0, data: [] };
  const page = await listPage(
    Prisma.sql`rp."readerId" = ${viewer.id} AND rp."sourceType" IN (${ShareSource.Invitation}, ${ShareSource.Created}) AND rp.state <> ${ShareState.Accepted} AND pp.id IS NOT NULL`,
    options,
    "provider",
  );
  const ids = page.data.map((item) => item.provideId);
  const active = new Set(
    ids.length
      ? (
          await db().user.findMany({
            where: { id: { in: ids }, active: true },
            select: { id: true },
          })
        ).map((u) => u.id)
      : [],
  );
  return {
    count: page.count,
    data: page.data.map((item) => ({ ...item, active: active.has(item.provideId) })),
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
 * every state (waiting, accepted, refused, expired); nothing for a clinic whose organisation is not approved, nor for any other
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
  if (viewer.identity === Identity.Person) {
    const page = await listPage(
      Prisma.sql`rp."providerId" = ${viewer.id} AND rp."sourceType" = ${ShareSource.Share}`,
      options,
      "reader",
    );
    return { count: page.count, data: page.data.map((item) => entry(item, item.readId)) };
  }
  if (viewer.identity === Identity.Clinic && mayReadSharedData(viewer)) {
    const page = await listPage(
      Prisma.sql`rp."readerId" = ${viewer.id} AND rp."sourceType" = ${ShareSource.Invitation}`,
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

const shareStateSelect = {
  id: true,
  state: true,
  sourceType: true,
  sentAt: true,
} satisfies Prisma.ReadPowerSelect;

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
 * share with; an approved clinic, and a person inviting someone to care for (remote caring,
 * `invite`), find persons with a health record to invite. Each search counts against the
 * viewer's limit (429 with the seconds to wait). readPowerId and state name the row the action
 * would make, if it exists already.
 */
export async function searchShareCandidates(
  viewer: Viewer,
  options: ListOptions & { search: string; invite?: boolean },
): Promise<ShareResult<ListPage<ShareCandidate>> | ShareThrottled> {
  const email = options.search.trim().toLowerCase();
  if (email.length < SEARCH_MIN_LENGTH)
    return { ok: false, status: 400, error: errorKey("searchTooShort") };
  const inviting = options.invite === true || viewer.identity === Identity.Clinic;
  if (inviting && !mayReadSharedData(viewer))
    return { ok: false, status: 403, error: errorKey("auditRequired") };
  const limit = await hitRateLimit(`share-search:${viewer.id}`, RATE_LIMITS.shareSearchPerAccount);
  if (!limit.allowed)
    return {
      ok: false,
      status: 429,
      error: errorKey("searchThrottled"),
      retryAfterSeconds: limit.retryAfterSeconds,
    };
  const user = await db().user.findFirst({
    where: {
      email,
      id: { not: viewer.id },
      active: true,
      disabled: false,
      deletedAt: null,
      ...(inviting ? { identity: Identity.Person, patient: { isNot: null } } : {}),
    },
    select: {
      id: true,
      email: true,
      firstName: true,
      lastName: true,
      identity: true,
      reading: { where: { providerId: viewer.id }, select: shareStateSelect },
      provided: { where: { readerId: viewer.id }, select: shareStateSelect },
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
          state: row ? shareStateAt(row, Date.now()) : null,
        },
      ],
    },
  };
}
