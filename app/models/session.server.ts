import { db } from "~/utils/db.server";

/** Deletes page sessions that can no longer be used (expired or revoked); for the periodic purge. */
export async function purgeDeadSessions(now = new Date()): Promise<number> {
  const { count } = await db().session.deleteMany({
    where: { OR: [{ expiresAt: { lt: now } }, { revokedAt: { not: null } }] },
  });
  return count;
}
