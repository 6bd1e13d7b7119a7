import { db } from "~/utils/db.server";

/** Whether the database answers a trivial query. */
export async function databaseAnswers(): Promise<boolean> {
  try {
    await db().$queryRaw`SELECT 1`;
    return true;
  } catch {
    return false;
  }
}
