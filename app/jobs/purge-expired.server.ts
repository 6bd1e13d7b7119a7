import { purgeDeadApiTokens } from "~/models/api-token.server";
import { purgeExpiredEmailCodes } from "~/models/email-code.server";
import { purgeImportDrafts } from "~/models/import-draft.server";
import { pruneRateLimits } from "~/models/rate-limit.server";
import { purgeExpiredInviteTokens } from "~/models/read-power-request.server";
import { purgeDeadSessions } from "~/models/session.server";
import type { JobDefinition } from "./queue.server";

export type PurgeCounts = {
  sessions: number;
  apiTokens: number;
  emailCodes: number;
  inviteTokens: number;
  rateLimits: number;
  importDrafts: number;
};

/**
 * Deletes what can no longer be used: expired or revoked page sessions and API tokens, emailed
 * codes and invitation link tokens past their expiry, rate-limit counters whose window has
 * ended, and files read for an import preview that was neither confirmed nor cancelled within an hour. Answers how many rows of each went.
 */
export async function purgeExpired(now = new Date()): Promise<PurgeCounts> {
  return {
    sessions: await purgeDeadSessions(now),
    apiTokens: await purgeDeadApiTokens(now),
    emailCodes: await purgeExpiredEmailCodes(now),
    inviteTokens: await purgeExpiredInviteTokens(now),
    rateLimits: await pruneRateLimits(now),
    importDrafts: await purgeImportDrafts(now),
  };
}

/** The purge, every hour at minute 17. */
export const purgeExpiredJob: JobDefinition = {
  name: "purge-expired",
  cron: "17 * * * *",
  async work() {
    const counts = await purgeExpired();
    console.log(`[jobs] purge-expired: ${JSON.stringify(counts)}`);
  },
};
