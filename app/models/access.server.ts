import { Prisma, type Patient } from "@prisma/client";
import { passedAudit, ShareState } from "~/domain/codes";
import { db } from "~/utils/db.server";

export type Viewer = { id: number; identity: number; isPass: number; role: string };

/** A clinic sees patient data only once its organisation audit is approved. */
export function mayReadSharedData(viewer: Viewer): boolean {
  return passedAudit(viewer);
}

/**
 * The `where` for patients this viewer may see: their own record, and records shared with them
 * by an approved share. Every query of patient data goes through it (or its SQL twin below).
 */
export function visiblePatients(viewer: Viewer): Prisma.PatientWhereInput {
  const own: Prisma.PatientWhereInput = { userId: viewer.id };
  if (!mayReadSharedData(viewer)) return own;
  return {
    OR: [
      own,
      { user: { provided: { some: { readerId: viewer.id, state: ShareState.Accepted } } } },
    ],
  };
}

/**
 * The same rule as {@link visiblePatients} as an SQL condition on a "Patient" row alias, for the
 * raw reads of the hot paths (docs/decisions/008-raw-sql-on-hot-paths.md). A test checks that
 * both forms agree for every kind of viewer.
 */
export function visiblePatientSql(viewer: Viewer, alias: Prisma.Sql): Prisma.Sql {
  const own = Prisma.sql`${alias}."userId" = ${viewer.id}`;
  if (!mayReadSharedData(viewer)) return Prisma.sql`(${own})`;
  return Prisma.sql`(${own} OR EXISTS (SELECT 1 FROM "ReadPower" rp WHERE rp."providerId" = ${alias}."userId" AND rp."readerId" = ${viewer.id} AND rp.state = ${ShareState.Accepted}))`;
}

/**
 * The records of other people that `viewer` may read now (accepted shares; none for a clinic not
 * yet approved), decided on the primary: a list whose figures are read on a standby must not show
 * a patient whose share ended a moment ago, before the standby has replayed that.
 */
export async function sharedPatientIds(viewer: Viewer): Promise<number[]> {
  const rows = await db().$queryRaw<{ id: number }[]>`
    SELECT p.id FROM "Patient" p
     WHERE ${visiblePatientSql(viewer, Prisma.sql`p`)} AND p."userId" <> ${viewer.id}`;
  return rows.map((r) => r.id);
}

type PatientUser = {
  id: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  identity: number;
  birthDate: Date | null;
};
export type VisiblePatient = Patient & { user: PatientUser };

type VisibleRow = Patient & {
  userEmail: string;
  userFirstName: string | null;
  userLastName: string | null;
  userIdentity: number;
  userBirthDate: Date | null;
};

/** The patients matching `where` (on the "Patient" alias `p`) that the viewer may see, in pid order. */
async function visiblePatientRows(viewer: Viewer, where: Prisma.Sql): Promise<VisiblePatient[]> {
  const rows = await db().$queryRaw<VisibleRow[]>`
    SELECT p.*, u.email AS "userEmail", u."firstName" AS "userFirstName", u."lastName" AS "userLastName", u.identity AS "userIdentity", u."birthDate" AS "userBirthDate"
      FROM "Patient" p JOIN "User" u ON u.id = p."userId"
     WHERE ${where} AND ${visiblePatientSql(viewer, Prisma.sql`p`)}
     ORDER BY p.id`;
  return rows.map(
    ({ userEmail, userFirstName, userLastName, userIdentity, userBirthDate, ...patient }) => ({
      ...patient,
      user: {
        id: patient.userId,
        email: userEmail,
        firstName: userFirstName,
        lastName: userLastName,
        identity: userIdentity,
        birthDate: userBirthDate,
      },
    }),
  );
}

/**
 * The patient with this pid (and user id, when given), or, with no pid, the record of the account
 * `userId`, if the viewer may see it; else null (one query).
 */
export async function findVisiblePatient(
  viewer: Viewer,
  pid: number | null,
  userId?: number,
): Promise<VisiblePatient | null> {
  if (pid === null && userId === undefined) return null;
  const samePid = pid === null ? Prisma.sql`TRUE` : Prisma.sql`p.id = ${pid}`;
  const sameUser = userId === undefined ? Prisma.empty : Prisma.sql`AND p."userId" = ${userId}`;
  return (await visiblePatientRows(viewer, Prisma.sql`${samePid} ${sameUser}`))[0] ?? null;
}

/** Of these pids, the patients the viewer may see (one query; the others are left out). */
export async function findVisiblePatients(
  viewer: Viewer,
  pids: readonly number[],
): Promise<VisiblePatient[]> {
  if (pids.length === 0) return [];
  return visiblePatientRows(viewer, Prisma.sql`p.id IN (${Prisma.join([...pids])})`);
}

/** The viewer behind an authenticated call (an `/api/` token or a page session); one raw query, as it runs on every API call. */
export async function viewerById(userId: number): Promise<Viewer> {
  const rows = await db().$queryRaw<
    Viewer[]
  >`SELECT id, identity, "isPass", role::text AS role FROM "User" WHERE id = ${userId}`;
  const viewer = rows[0];
  if (!viewer) throw new Error(`no user ${userId}`);
  return viewer;
}
