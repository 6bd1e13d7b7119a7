import { randomBytes } from "node:crypto";
import type { Prisma } from "@prisma/client";
import { db } from "~/utils/db.server";

type SessionUserSelect = {
  id: true;
  email: true;
  identity: true;
  role: true;
  active: true;
  isPass: true;
  auditReason: true;
  firstName: true;
  lastName: true;
  patient: { select: { id: true; timeZone: true } };
  setting: { select: { lang: true; unit: true; timeZone: true } };
  photo: { select: { updatedAt: true } };
};

export type SessionUser = Prisma.UserGetPayload<{ select: SessionUserSelect }>;

/** Stores a new page session for a user and answers its random id. */
export async function createSessionRow(
  userId: number,
  data: unknown,
  expiresAt: Date,
): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  await db().session.create({
    data: { id, userId, data: data as Prisma.InputJsonValue, expiresAt },
  });
  return id;
}

/** The data of a live session (not revoked, not expired), or null. */
export async function readSessionData(id: string): Promise<Record<string, unknown> | null> {
  // Raw SQL: every page reads its session (docs/decisions/008-raw-sql-on-hot-paths.md).
  const rows = await db().$queryRaw<{ data: Record<string, unknown> }[]>`
    SELECT data FROM "Session" WHERE id = ${id} AND "revokedAt" IS NULL AND "expiresAt" >= now()`;
  return rows[0]?.data ?? null;
}

export async function updateSessionData(
  id: string,
  data: unknown,
  expires: Date | undefined,
): Promise<void> {
  await db().session.updateMany({
    where: { id, revokedAt: null },
    data: { data: data as Prisma.InputJsonValue, ...(expires ? { expiresAt: expires } : {}) },
  });
}

/**
 * Removes one key from a live session's data; true only for the call that removed it (of
 * requests racing for it, one wins).
 */
export async function removeSessionKey(id: string, key: string): Promise<boolean> {
  const removed = await db().$executeRaw`
    UPDATE "Session" SET data = data - ${key}
     WHERE id = ${id} AND "revokedAt" IS NULL AND jsonb_exists(data, ${key})`;
  return removed === 1;
}

/** Revokes a session: it stops working on every app server at once. */
export async function revokeSessionRow(id: string): Promise<void> {
  await db().session.updateMany({ where: { id }, data: { revokedAt: new Date() } });
}

type SessionUserRow = Omit<SessionUser, "patient" | "setting" | "photo"> & {
  pid: number | null;
  patientZone: string | null;
  lang: string | null;
  unit: number | null;
  settingZone: string | null;
  photoAt: Date | null;
};

/** The user of a session, with the `SessionUser` shape, in one query (it runs on every page). */
export async function findSessionUser(userId: number): Promise<SessionUser | null> {
  const rows = await db().$queryRaw<SessionUserRow[]>`
    SELECT u.id, u.email, u.identity, u.role::text AS role, u.active, u."isPass", u."auditReason", u."firstName", u."lastName",
           p.id AS pid, p."timeZone" AS "patientZone", s.lang, s.unit, s."timeZone" AS "settingZone",
           ph."updatedAt" AS "photoAt"
      FROM "User" u LEFT JOIN "Patient" p ON p."userId" = u.id LEFT JOIN "Setting" s ON s."userId" = u.id
           LEFT JOIN "ProfilePhoto" ph ON ph."userId" = u.id
     WHERE u.id = ${userId} AND NOT u.disabled AND u."deletedAt" IS NULL`;
  const row = rows[0];
  if (!row) return null;
  const { pid, patientZone, lang, unit, settingZone, photoAt, ...user } = row;
  return {
    ...user,
    patient: pid === null || patientZone === null ? null : { id: pid, timeZone: patientZone },
    setting: lang === null || unit === null ? null : { lang, unit, timeZone: settingZone },
    photo: photoAt === null ? null : { updatedAt: photoAt },
  };
}

/** Deletes page sessions that can no longer be used (expired or revoked); for the periodic purge. */
export async function purgeDeadSessions(now = new Date()): Promise<number> {
  const { count } = await db().session.deleteMany({
    where: { OR: [{ expiresAt: { lt: now } }, { revokedAt: { not: null } }] },
  });
  return count;
}
