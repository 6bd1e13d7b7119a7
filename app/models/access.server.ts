import type { Prisma } from "@prisma/client";
import { db } from "~/utils/db.server";

export type Viewer = { id: number; identity: number; isPass: number; role: string };

/** A clinic sees patient data only once its organisation audit is approved (isPass 1). */
export function mayReadSharedData(viewer: Viewer): boolean {
  return viewer.identity !== 2 || viewer.isPass === 1;
}

/**
 * The `where` for patients this viewer may see: their own record, and records shared with them
 * by an approved share. Every query of patient data goes through it.
 */
export function visiblePatients(viewer: Viewer): Prisma.PatientWhereInput {
  const own: Prisma.PatientWhereInput = { userId: viewer.id };
  if (!mayReadSharedData(viewer)) return own;
  return { OR: [own, { user: { provided: { some: { readerId: viewer.id, state: 1 } } } }] };
}

/** The patient with this pid (and user id, when given) if the viewer may see it, else null. */
export async function findVisiblePatient(viewer: Viewer, pid: number, userId?: number) {
  return db().patient.findFirst({
    where: { AND: [{ id: pid, ...(userId === undefined ? {} : { userId }) }, visiblePatients(viewer)] },
    include: { user: { select: { id: true, email: true, firstName: true, lastName: true, identity: true } } },
  });
}

export type VisiblePatient = NonNullable<Awaited<ReturnType<typeof findVisiblePatient>>>;

/** The viewer behind an authenticated call (an `/api/` token or a page session). */
export async function viewerById(userId: number): Promise<Viewer> {
  return db().user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, identity: true, isPass: true, role: true } });
}
