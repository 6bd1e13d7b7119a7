import {
  dropExpiredPartitions,
  makeMonthPartitions,
  type PartitionedLog,
} from "~/models/log-partitions.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import type { JobDefinition } from "./queue.server";

export type LogPartitionCounts = { made: string[]; dropped: string[] };

/** Months each partitioned log is kept (ACCESS_LOG_RETENTION_MONTHS, UPLOAD_ERROR_LOG_RETENTION_MONTHS). */
export function retentionMonths(): Record<PartitionedLog, number> {
  const { ACCESS_LOG_RETENTION_MONTHS, UPLOAD_ERROR_LOG_RETENTION_MONTHS } = env();
  return {
    AuditLog: ACCESS_LOG_RETENTION_MONTHS,
    UploadErrorLog: UPLOAD_ERROR_LOG_RETENTION_MONTHS,
  };
}

/**
 * Keeps the month partitions of the logs: makes the current and the next months' partitions
 * that are missing (running it again makes nothing), then drops the months wholly past
 * retention. Answers what it made and dropped.
 */
export async function maintainLogPartitions(
  now = new Date(),
  keep: Record<PartitionedLog, number> = retentionMonths(),
): Promise<LogPartitionCounts> {
  const made = await makeMonthPartitions(now);
  const dropped = [
    ...(await dropExpiredPartitions("AuditLog", now, keep.AuditLog)),
    ...(await dropExpiredPartitions("UploadErrorLog", now, keep.UploadErrorLog)),
  ];
  return { made, dropped };
}

/** Daily at 03:23 UTC, and once when a server starts (a new database has its months at once). */
export const logPartitionsJob: JobDefinition = {
  name: "log-partitions",
  cron: "23 3 * * *",
  async work() {
    const counts = await maintainLogPartitions();
    logger().info(counts, "log partitions kept");
  },
  // A failure here must not stop the server: the DEFAULT partitions take every row meanwhile,
  // and the daily run tries again.
  onStart: async () => {
    try {
      await maintainLogPartitions();
    } catch (error) {
      logger().warn(
        { err: error instanceof Error ? error.message : String(error) },
        "log partitions not kept now; the daily job will",
      );
    }
  },
};
