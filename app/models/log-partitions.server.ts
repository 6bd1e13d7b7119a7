import {
  expiredPartitions,
  monthsToMake,
  partitionMonth,
  partitionName,
} from "~/domain/log-partitions";
import { db } from "~/utils/db.server";

/**
 * The month partitions of the logs (docs/decisions/025-partitioned-logs.md): the access log by
 * `at`, the upload error reports by `createdAt`. Partitions are made by the database function
 * `log_month_partition` (migration 20261129000000_partitioned_logs), which also moves rows the
 * DEFAULT partition caught for that month.
 */
export const PARTITIONED_LOGS = [
  { table: "AuditLog", key: "at" },
  { table: "UploadErrorLog", key: "createdAt" },
] as const;

export type PartitionedLog = (typeof PARTITIONED_LOGS)[number]["table"];

/** Months made ahead of the current one, so that the job may miss runs for weeks. */
export const MONTHS_AHEAD = 3;

/**
 * Makes the partitions of the current month and the `ahead` months after it that are missing;
 * answers the names it made (none when they all exist).
 */
export async function makeMonthPartitions(now: Date, ahead = MONTHS_AHEAD): Promise<string[]> {
  const made: string[] = [];
  for (const { table, key } of PARTITIONED_LOGS) {
    // The month as text: a timestamp would be cast to a date in the session's time zone.
    for (const month of monthsToMake(now, ahead)) {
      const [row] = await db().$queryRaw<{ made: boolean }[]>`
        SELECT "log_month_partition"(${table}, ${key}, ${month.toISOString().slice(0, 10)}::date) AS made`;
      if (row?.made) made.push(partitionName(table, month));
    }
  }
  return made;
}

/** The partitions of `table` by name, the DEFAULT one included. */
export async function partitionsOf(table: PartitionedLog): Promise<string[]> {
  const rows = await db().$queryRaw<{ name: string }[]>`
    SELECT c.relname::text AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = to_regclass(${`"${table}"`}) ORDER BY c.relname`;
  return rows.map((r) => r.name);
}

/**
 * Drops the partitions of `table` whose whole month is older than `retentionMonths` before
 * `now`, oldest first; answers their names. Only names of the partition pattern are dropped,
 * and each is quoted as an identifier.
 */
export async function dropExpiredPartitions(
  table: PartitionedLog,
  now: Date,
  retentionMonths: number,
): Promise<string[]> {
  const expired = expiredPartitions(table, await partitionsOf(table), now, retentionMonths).sort(
    (a, b) => partitionMonth(table, a)!.getTime() - partitionMonth(table, b)!.getTime(),
  );
  for (const name of expired) await db().$executeRawUnsafe(`DROP TABLE IF EXISTS "${name}"`);
  return expired;
}
