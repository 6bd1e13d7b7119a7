import { describe, expect, it } from "vitest";
import {
  expiredPartitions,
  monthsToMake,
  partitionMonth,
  partitionName,
  retentionLimit,
} from "./log-partitions";

const iso = (d: Date) => d.toISOString();

describe("month partitions of the logs", () => {
  it("are made for the current month and the months ahead, across a year's end", () => {
    expect(monthsToMake(new Date("2026-11-26T23:59:00Z"), 3).map(iso)).toEqual([
      "2026-11-01T00:00:00.000Z",
      "2026-12-01T00:00:00.000Z",
      "2027-01-01T00:00:00.000Z",
      "2027-02-01T00:00:00.000Z",
    ]);
  });

  it("are named by table, year and two-digit month, and the name gives the month back", () => {
    expect(partitionName("AuditLog", new Date("2027-02-01T00:00:00Z"))).toBe("AuditLog_y2027m02");
    expect(iso(partitionMonth("AuditLog", "AuditLog_y2027m02")!)).toBe("2027-02-01T00:00:00.000Z");
    expect(partitionMonth("AuditLog", "AuditLog_default")).toBeNull();
    expect(partitionMonth("AuditLog", "UploadErrorLog_y2027m02")).toBeNull();
    expect(partitionMonth("AuditLog", "AuditLog_y2027m13")).toBeNull();
  });

  it("keep rows for whole calendar months back from now, on a shorter month's last day when needed", () => {
    expect(iso(retentionLimit(new Date("2026-11-26T08:30:00Z"), 72))).toBe(
      "2020-11-26T08:30:00.000Z",
    );
    // 31 May minus 3 months: there is no 31 February.
    expect(iso(retentionLimit(new Date("2026-05-31T12:00:00Z"), 3))).toBe(
      "2026-02-28T12:00:00.000Z",
    );
  });

  it("retention drops only partitions wholly older than the limit", () => {
    const names = [
      "AuditLog_default",
      "AuditLog_y2020m09",
      "AuditLog_y2020m10",
      "AuditLog_y2020m11",
      "AuditLog_y2020m12",
      "AuditLog_y2026m11",
    ];
    // Six years before 26 November 2026: October 2020 ended before the limit, November 2020
    // still holds rows after it.
    expect(expiredPartitions("AuditLog", names, new Date("2026-11-26T08:30:00Z"), 72)).toEqual([
      "AuditLog_y2020m09",
      "AuditLog_y2020m10",
    ]);
    // On the first day of the month at midnight the month before ends exactly at the limit.
    expect(expiredPartitions("AuditLog", names, new Date("2026-12-01T00:00:00Z"), 72)).toEqual([
      "AuditLog_y2020m09",
      "AuditLog_y2020m10",
      "AuditLog_y2020m11",
    ]);
  });
});
