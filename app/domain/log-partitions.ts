/**
 * The calendar of the month-partitioned logs (docs/decisions/025-partitioned-logs.md): each
 * partition holds one calendar month (UTC) of its table's time column and is named
 * `<table>_yYYYYmMM`. Pure functions: the job (app/jobs/log-partitions.server.ts) asks them which
 * months to make and which partitions retention may drop.
 */

/** The first instant (UTC) of the month that holds `instant`, moved by `months` (may be negative). */
export function monthStart(instant: Date, months = 0): Date {
  return new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth() + months, 1));
}

/** The current month and the `ahead` months after it, each as its first instant. */
export function monthsToMake(now: Date, ahead: number): Date[] {
  return Array.from({ length: ahead + 1 }, (_, i) => monthStart(now, i));
}

/** The name of `table`'s partition for the month that starts at `month`. */
export function partitionName(table: string, month: Date): string {
  const mm = String(month.getUTCMonth() + 1).padStart(2, "0");
  return `${table}_y${month.getUTCFullYear()}m${mm}`;
}

/** The month (first instant) a partition of `table` holds, or null for any other name (the DEFAULT partition). */
export function partitionMonth(table: string, name: string): Date | null {
  if (!name.startsWith(`${table}_`)) return null;
  const match = /^y(\d{4})m(\d{2})$/.exec(name.slice(table.length + 1));
  if (!match) return null;
  const month = Number(match[2]);
  if (month < 1 || month > 12) return null;
  return new Date(Date.UTC(Number(match[1]), month - 1, 1));
}

/**
 * The instant `months` calendar months before `now` (the same day and time; on a shorter month's
 * last day when that day does not exist): rows older than this are past retention.
 */
export function retentionLimit(now: Date, months: number): Date {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(now.getUTCDate(), lastDay),
      now.getUTCHours(),
      now.getUTCMinutes(),
      now.getUTCSeconds(),
      now.getUTCMilliseconds(),
    ),
  );
}

/**
 * The partitions of `table` (by name) that retention drops: those whose whole month ends at or
 * before the limit `retentionMonths` before `now`. A month that still holds a row within the limit
 * stays whole; the DEFAULT partition is never dropped.
 */
export function expiredPartitions(
  table: string,
  names: readonly string[],
  now: Date,
  retentionMonths: number,
): string[] {
  const limit = retentionLimit(now, retentionMonths).getTime();
  return names.filter((name) => {
    const month = partitionMonth(table, name);
    return month !== null && monthStart(month, 1).getTime() <= limit;
  });
}
