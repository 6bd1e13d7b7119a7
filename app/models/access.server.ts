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

type PatientUser = {
  id: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  identity: number;
};
export type VisiblePatient = Patient & { user: PatientUser };

/** The patient with this pid (and user id, when given) if the viewer may see it, else null (one query). */
export async function findVisiblePatient(
  viewer: Viewer,
  pid: number,
  userId?: number,
): Promise<VisiblePatient | null> {
  const sameUser = userId === undefined ? Prisma.empty : Prisma.sql`AND p."userId" = ${userId}`;
  const rows = await db().$queryRaw<
    (Patient & {
      userEmail: string;
      userFirstName: string | null;
      userLastName: string | null;
      userIdentity: number;
    })[]
  >`
    SELECT p.*, u.email AS "userEmail", u."firstName" AS "userFirstName", u."lastName" AS "userLastName", u.identity AS "userIdentity"
      FROM "Patient" p JOIN "User" u ON u.id = p."userId"
     WHERE p.id = ${pid} ${sameUser} AND ${visiblePatientSql(viewer, Prisma.sql`p`)}`;
  const row = rows[0];
  if (!row) return null;
  const { userEmail, userFirstName, userLastName, userIdentity, ...patient } = row;
  return {
    ...patient,
    user: {
      id: patient.userId,
      email: userEmail,
      firstName: userFirstName,
      lastName: userLastName,
      identity: userIdentity,
    },
  };
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
