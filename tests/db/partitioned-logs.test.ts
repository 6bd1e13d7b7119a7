/**
 * The month-partitioned logs (docs/decisions/025-partitioned-logs.md): the migration moves the
 * rows of the old tables, rows land in their month's partition or the DEFAULT one, the job that
 * makes months ahead may run any number of times, retention drops only whole months past the
 * limit, and the access log and upload history page every row once, in order, through their links.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { pageHref } from "~/domain/keyset";
import { maintainLogPartitions } from "~/jobs/log-partitions.server";
import {
  dropExpiredPartitions,
  makeMonthPartitions,
  partitionsOf,
} from "~/models/log-partitions.server";
import { loader as accessLogPage } from "~/routes/patientShow.accessLog";
import { loader as uploadsPage } from "~/routes/patientShow.$id.$userid.uploads";
import { db } from "~/utils/db.server";
import { databaseUrl, dropDatabase, withAdmin } from "./database";
import { withMigratedEmbedded } from "./embedded-support";
import { cookieFor } from "./report-support";

const MIGRATIONS = "prisma/migrations";
const PARTITIONING = "20261129000000_partitioned_logs";

/** The partition a row of the access log with this action is in. */
async function auditPartition(action: string): Promise<string[]> {
  const rows = await db().$queryRaw<{ part: string }[]>`
    SELECT tableoid::regclass::text AS part FROM "AuditLog" WHERE action = ${action} ORDER BY id`;
  return rows.map((r) => r.part);
}

async function insertAudit(action: string, at: string, patientId: number | null = null) {
  await db().$executeRaw`
    INSERT INTO "AuditLog" ("patientId", action, at) VALUES (${patientId}, ${action}, ${at}::timestamp)`;
}

describe("the partitioning migration", () => {
  it("moves every row of the old tables into its month's partition, keeping ids and the sequences", async () => {
    const admin = inject("adminDatabaseUrl");
    const name = `diacare_test_partmig_${process.pid}`;
    await dropDatabase(admin, name);
    await withAdmin(admin, (c) => c.query(`CREATE DATABASE "${name}"`));
    const client = new pg.Client({ connectionString: databaseUrl(admin, name) });
    await client.connect();
    try {
      const before = readdirSync(MIGRATIONS)
        .filter((d) => /^\d{14}_/.test(d) && d < PARTITIONING)
        .sort();
      for (const dir of before)
        await client.query(readFileSync(path.join(MIGRATIONS, dir, "migration.sql"), "utf8"));
      await client.query(`INSERT INTO "User" (email, "updatedAt") VALUES ('mig@part.test', now())`);
      await client.query(`INSERT INTO "AuditLog" ("actorId", action, at) VALUES
        (1, 'old-a', '2024-01-31 23:59:59.999'), (1, 'old-b', '2024-02-01 00:00:00'),
        (1, 'old-c', '2025-07-14 12:00:00')`);
      await client.query(`INSERT INTO "UploadErrorLog" ("operatorUserId", content, "createdAt") VALUES
        (1, 'err-a', '2025-03-03 10:00:00')`);
      await client.query(
        readFileSync(path.join(MIGRATIONS, PARTITIONING, "migration.sql"), "utf8"),
      );
      const audit = await client.query(
        `SELECT id::int, action, tableoid::regclass::text AS part FROM "AuditLog" ORDER BY id`,
      );
      expect(audit.rows).toEqual([
        { id: 1, action: "old-a", part: `"AuditLog_y2024m01"` },
        { id: 2, action: "old-b", part: `"AuditLog_y2024m02"` },
        { id: 3, action: "old-c", part: `"AuditLog_y2025m07"` },
      ]);
      const errors = await client.query(
        `SELECT id, content, tableoid::regclass::text AS part FROM "UploadErrorLog"`,
      );
      expect(errors.rows).toEqual([{ id: 1, content: "err-a", part: `"UploadErrorLog_y2025m03"` }]);
      // New rows continue the old ids; the actor's key still holds.
      const next = await client.query(
        `INSERT INTO "AuditLog" ("actorId", action) VALUES (1, 'new') RETURNING id::int`,
      );
      expect(next.rows).toEqual([{ id: 4 }]);
      await expect(
        client.query(`INSERT INTO "AuditLog" ("actorId", action) VALUES (999, 'nobody')`),
      ).rejects.toThrow(/foreign key/);
    } finally {
      await client.end();
      await dropDatabase(admin, name);
    }
  });
});

describe("the month partitions", () => {
  it("take each row in its month's partition, and the DEFAULT partition a row of a month without one", async () => {
    await makeMonthPartitions(new Date("2031-05-20T00:00:00Z"));
    await insertAudit("in-june", "2031-06-30 23:59:59.999");
    await insertAudit("in-july", "2031-07-01 00:00:00");
    await insertAudit("far-future", "2040-01-01 00:00:00");
    expect(await auditPartition("in-june")).toEqual([`"AuditLog_y2031m06"`]);
    expect(await auditPartition("in-july")).toEqual([`"AuditLog_y2031m07"`]);
    expect(await auditPartition("far-future")).toEqual([`"AuditLog_default"`]);
  });

  it("made later for a month the DEFAULT partition caught rows of, take those rows over", async () => {
    await insertAudit("caught", "2033-03-10 08:00:00");
    expect(await auditPartition("caught")).toEqual([`"AuditLog_default"`]);
    await makeMonthPartitions(new Date("2033-03-01T00:00:00Z"), 0);
    expect(await auditPartition("caught")).toEqual([`"AuditLog_y2033m03"`]);
  });

  it("are made ahead by a job that makes nothing when run again", async () => {
    const keepAll = { AuditLog: 1200, UploadErrorLog: 1200 };
    const first = await maintainLogPartitions(new Date("2035-11-15T00:00:00Z"), keepAll);
    expect(first).toEqual({
      made: [
        "AuditLog_y2035m11",
        "AuditLog_y2035m12",
        "AuditLog_y2036m01",
        "AuditLog_y2036m02",
        "UploadErrorLog_y2035m11",
        "UploadErrorLog_y2035m12",
        "UploadErrorLog_y2036m01",
        "UploadErrorLog_y2036m02",
      ],
      dropped: [],
    });
    expect(await maintainLogPartitions(new Date("2035-11-15T00:00:00Z"), keepAll)).toEqual({
      made: [],
      dropped: [],
    });
  });

  it("past retention are dropped only when their whole month is older than the limit", async () => {
    await makeMonthPartitions(new Date("2019-09-01T00:00:00Z"), 2);
    await insertAudit("sep-2019", "2019-09-30 12:00:00");
    await insertAudit("oct-2019", "2019-10-31 23:00:00");
    await insertAudit("nov-2019", "2019-11-02 00:00:00");
    await insertAudit("old-default", "2019-01-05 00:00:00");
    // Six years before 26 November 2025 08:30: October 2019 ended before it, November 2019 not.
    const dropped = await dropExpiredPartitions("AuditLog", new Date("2025-11-26T08:30:00Z"), 72);
    expect(dropped).toEqual(["AuditLog_y2019m09", "AuditLog_y2019m10"]);
    expect(await auditPartition("sep-2019")).toEqual([]);
    expect(await auditPartition("oct-2019")).toEqual([]);
    expect(await auditPartition("nov-2019")).toEqual([`"AuditLog_y2019m11"`]);
    expect(await auditPartition("old-default")).toEqual([`"AuditLog_default"`]);
    const left = await partitionsOf("AuditLog");
    expect(left).toContain("AuditLog_default");
    expect(left).toContain("AuditLog_y2019m11");
    expect(left).not.toContain("AuditLog_y2019m10");
  });
});

/** Follows a list's "next" links from its first page, then its "back" links from the last. */
async function walk<Item>(
  open: (search: string) => Promise<{
    items: readonly Item[];
    page: number;
    pages: number;
    first: string | null;
    last: string | null;
  }>,
  param: string,
) {
  const forward: (readonly Item[])[] = [];
  let answer = await open("");
  forward.push(answer.items);
  const searches: string[] = [];
  while (answer.page < answer.pages) {
    const href = pageHref(param, answer.page, answer.page + 1, answer);
    searches.push(href);
    answer = await open(href);
    forward.push(answer.items);
  }
  const backward: (readonly Item[])[] = [answer.items];
  while (answer.page > 1) {
    const href = pageHref(param, answer.page, answer.page - 1, answer);
    searches.push(href);
    answer = await open(href);
    backward.unshift(answer.items);
  }
  return { forward, backward, searches };
}

describe("keyset paging", () => {
  it("of the access log gives every entry once, newest first, forward and back", async () => {
    const owner = await db().user.create({
      data: { email: "pager@part.test", identity: 1, patient: { create: {} } },
      include: { patient: true },
    });
    const reader = await db().user.create({
      data: { email: "reader@part.test", identity: 2, firstName: "Rea", lastName: "Der" },
    });
    const pid = owner.patient!.id;
    // 45 reads by the clinic across three months, the last five at one instant (newest written
    // first among them), and one read by the owner, which the page never shows.
    const instants = [
      ...Array.from(
        { length: 40 },
        (_, i) => `2031-0${5 + (i % 3)}-0${1 + (i % 9)} 0${i % 10}:00:00`,
      ),
      ...Array.from({ length: 5 }, () => "2031-07-20 10:00:00"),
    ];
    for (const [i, at] of instants.entries())
      await db().$executeRaw`
        INSERT INTO "AuditLog" ("actorId", "patientId", action, at) VALUES (${reader.id}, ${pid}, ${`read:n${i}`}, ${at}::timestamp)`;
    await db()
      .$executeRaw`INSERT INTO "AuditLog" ("actorId", "patientId", action, at) VALUES (${owner.id}, ${pid}, 'read:own', '2031-07-21 00:00:00')`;
    const expected = instants
      .map((at, i) => ({ at, i }))
      .sort((a, b) => b.at.localeCompare(a.at) || b.i - a.i)
      .map((e) => `accessLog.actions.read_n${e.i}`);
    const cookie = await cookieFor(owner.id);
    const open = async (search: string) =>
      (await accessLogPage({
        request: new Request(`http://localhost/patientShow/accessLog${search}`, {
          headers: { Cookie: cookie },
        }),
        params: {},
        context: {},
      })) as {
        items: { what: string[] }[];
        page: number;
        pages: number;
        first: string | null;
        last: string | null;
      };
    const { forward, backward, searches } = await walk(open, "logPage");
    const actions = (pages: (readonly { what: string[] }[])[]) =>
      pages.map((p) => p.map((item) => item.what.find((k) => k.includes("read_n"))));
    expect(forward.map((p) => p.length)).toEqual([20, 20, 5]);
    expect(actions(forward).flat()).toEqual(expected);
    expect(actions(backward)).toEqual(actions(forward));
    // Every link after the first page carried a cursor.
    expect(searches.every((s) => /^\?(after|before)=/.test(s))).toBe(true);
    // A page named by number alone (an old link) still answers by its place in the list.
    expect(actions([(await open("?logPage=2")).items])).toEqual([actions(forward)[1]]);
  });

  it("of the upload history gives every upload once, newest first, forward and back", async () => {
    const owner = await db().user.create({
      data: { email: "uploads@part.test", identity: 1, patient: { create: { timeZone: "UTC" } } },
      include: { patient: true },
    });
    const pid = owner.patient!.id;
    // 43 uploads: 40 a day apart, then 3 at one instant.
    const created = [
      ...Array.from({ length: 40 }, (_, i) => new Date(Date.UTC(2026, 0, 1 + i, 8))),
      ...Array.from({ length: 3 }, () => new Date(Date.UTC(2026, 3, 1, 8))),
    ];
    const ids: number[] = [];
    for (const createdAt of created) {
      const task = await db().uploadTask.create({
        data: {
          patientId: pid,
          uploaderId: owner.id,
          deviceKind: "aidex",
          deviceSn: "AX-P",
          timeZone: "UTC",
          status: "done",
          createdAt,
        },
      });
      ids.push(task.id);
    }
    const expected = created
      .map((at, i) => ({ at: at.getTime(), id: ids[i]! }))
      .sort((a, b) => b.at - a.at || b.id - a.id)
      .map((e) => e.id);
    const cookie = await cookieFor(owner.id);
    const open = async (search: string) =>
      (
        (await uploadsPage({
          request: new Request(`http://localhost/patientShow/${pid}/${owner.id}/uploads${search}`, {
            headers: { Cookie: cookie },
          }),
          params: { id: String(pid), userid: String(owner.id) },
          context: {},
        })) as {
          history: {
            items: readonly { id: number }[];
            page: number;
            pages: number;
            first: string | null;
            last: string | null;
          };
        }
      ).history;
    const { forward, backward } = await walk(open, "page");
    const idsOf = (pages: (readonly { id: number }[])[]) =>
      pages.map((p) => p.map((item) => item.id));
    expect(forward.map((p) => p.length)).toEqual([20, 20, 3]);
    expect(idsOf(forward).flat()).toEqual(expected);
    expect(idsOf(backward)).toEqual(idsOf(forward));
  });
});

describe("on the embedded database (PGlite)", () => {
  it("the migration makes the partitions, rows land in their month or the DEFAULT partition, and a later month takes its caught rows", async () => {
    await withMigratedEmbedded("parts", async (client) => {
      const part = async (action: string) =>
        (
          await client.query(
            `SELECT tableoid::regclass::text AS part FROM "AuditLog" WHERE action = $1`,
            [action],
          )
        ).rows;
      await client.query(`INSERT INTO "AuditLog" (action) VALUES ('now')`);
      await client.query(`INSERT INTO "AuditLog" (action, at) VALUES ('later', '2044-02-03')`);
      const now = new Date();
      const month = `${now.getUTCFullYear()}m${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
      expect(await part("now")).toEqual([{ part: `"AuditLog_y${month}"` }]);
      expect(await part("later")).toEqual([{ part: `"AuditLog_default"` }]);
      await client.query(`SELECT "log_month_partition"('AuditLog', 'at', '2044-02-01')`);
      expect(await part("later")).toEqual([{ part: `"AuditLog_y2044m02"` }]);
    });
  }, 240_000);
});
