import { Prisma } from "@prisma/client";
import {
  BELOW_RANGE_LIMIT_PERCENT,
  NO_UPLOAD_DAYS,
  TIR_TARGET_PERCENT,
  TRIAGE_BANDS,
  TRIAGE_DAYS,
  type TriageCounts,
} from "~/report/triage";
import {
  TRIAGE_FLAGS,
  type SortDirection,
  type TriageFlag,
  type TriageSort,
} from "~/schemas/triage";
import { db } from "~/utils/db.server";
import { visiblePatientSql, type Viewer } from "./access.server";

/**
 * The counts behind the clinic's triage list (app/report/triage.ts), for every patient who shares
 * with the viewer, in one statement: the access rule (`visiblePatientSql`) picks the patients
 * (not the viewer's own record), and per patient the 14-day window, the band counts and the mean
 * over its CGM readings, the local days with data and the newest finished upload. The filter and
 * the order are applied in the same statement. Raw SQL: 500 patients x 14 days of 5-minute CGM
 * (2 million readings) must take well under a second, which needs the covering index
 * `CgmRecord (patientId, dateTime) INCLUDE (eventData)` (an index-only scan) and no per-row
 * time-zone arithmetic (docs/decisions/017-triage-list.md).
 */

export type TriageRow = TriageCounts & {
  patientId: number;
  userId: number;
  timeZone: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  /** The viewer's nickname for the patient (their share's), null without one. */
  nickName: string | null;
};

export type TriageListOptions = {
  sort: TriageSort;
  dir: SortDirection;
  /** Only patients with any of these flags; empty: every patient. */
  flags: readonly TriageFlag[];
  /** Epoch ms the window ends at. */
  now: number;
};

type RawRow = Omit<TriageRow, "lastUploadAt" | "meanMgdl"> & {
  lastUploadAt: Date | null;
  meanMgdl: number | null;
};

/** The flags as SQL conditions on the statement's `f` row; the same comparisons as app/report/triage.ts. */
function flagSql(flag: TriageFlag, nowUtc: Prisma.Sql): Prisma.Sql {
  switch (flag) {
    case "noUpload":
      return Prisma.sql`(f."lastUploadAt" IS NULL OR f."lastUploadAt" < ${nowUtc} - make_interval(days => ${NO_UPLOAD_DAYS}))`;
    case "belowRange":
      return Prisma.sql`(f.readings > 0 AND 100 * f.below70 > ${BELOW_RANGE_LIMIT_PERCENT} * f.readings)`;
    case "lowTir":
      return Prisma.sql`(f.readings > 0 AND 100 * f."inRange" < ${TIR_TARGET_PERCENT} * f.readings)`;
  }
}

/** The name the list shows: the viewer's nickname, else first and last name, else the email (as `displayName`). */
const NAME_SQL = Prisma.sql`lower(coalesce(nullif(btrim(f."nickName"), ''), CASE WHEN coalesce(btrim(u."firstName"), '') = '' THEN u.email ELSE btrim(btrim(u."firstName") || ' ' || coalesce(btrim(u."lastName"), '')) END))`;

const ratio = (count: string) => Prisma.raw(`f."${count}"::float8 / nullif(f.readings, 0)`);

/** A column's order; figures of a patient without readings come last either way, a missing upload counts as the oldest. */
function orderSql(sort: TriageSort, dir: SortDirection, nowUtc: Prisma.Sql): Prisma.Sql {
  const d = Prisma.raw(dir === "asc" ? "ASC" : "DESC");
  switch (sort) {
    case "name":
      return Prisma.sql`${NAME_SQL} ${d}`;
    case "lastUpload":
      return Prisma.sql`f."lastUploadAt" ${d} ${Prisma.raw(dir === "asc" ? "NULLS FIRST" : "NULLS LAST")}`;
    case "days":
      return Prisma.sql`f."daysWithData" ${d}`;
    case "tir":
      return Prisma.sql`${ratio("inRange")} ${d} NULLS LAST`;
    case "below70":
      return Prisma.sql`${ratio("below70")} ${d} NULLS LAST`;
    case "below54":
      return Prisma.sql`${ratio("below54")} ${d} NULLS LAST`;
    case "gmi":
      // GMI rises with the mean: ordering by the mean orders by GMI.
      return Prisma.sql`f."meanMgdl" ${d} NULLS LAST`;
    case "flags": {
      const count = Prisma.join(
        TRIAGE_FLAGS.map((flag) => Prisma.sql`(${flagSql(flag, nowUtc)})::int`),
        " + ",
      );
      return Prisma.sql`(${count}) ${d}, ${ratio("inRange")} ASC NULLS LAST`;
    }
  }
}

const COUNT_COLUMNS = ["readings", "below54", "below70", "inRange", "meanMgdl"] as const;

/** The band counts and the mean of the glucose values `g` (mg/dL), named as {@link COUNT_COLUMNS}. */
function bandCounts(g: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`count(*)::int AS readings,
    (count(*) FILTER (WHERE ${g} < ${TRIAGE_BANDS.veryLow}))::int AS below54,
    (count(*) FILTER (WHERE ${g} < ${TRIAGE_BANDS.low}))::int AS below70,
    (count(*) FILTER (WHERE ${g} >= ${TRIAGE_BANDS.low} AND ${g} <= ${TRIAGE_BANDS.high}))::int AS "inRange",
    avg(${g})::float8 AS "meanMgdl"`;
}

/**
 * Every patient who shares with `viewer` and matches the filter, in the chosen order (then by
 * name), with the counts of the last 14 local days ending at `now`. A viewer who may not read
 * shared data (a clinic not yet approved) gets none: the access rule leaves only their own record,
 * which the list never shows.
 */
export async function triageRows(viewer: Viewer, options: TriageListOptions): Promise<TriageRow[]> {
  const now = new Date(options.now).toISOString();
  // The window's end as a UTC wall-clock timestamp, the type of the stored instants.
  const nowUtc = Prisma.sql`(${now}::timestamptz AT TIME ZONE 'UTC')`;
  const localMidnight = (days: Prisma.Sql) =>
    Prisma.sql`(((w.today - ${days})::timestamp AT TIME ZONE w."timeZone") AT TIME ZONE 'UTC')`;
  const filter = options.flags.length
    ? Prisma.sql`WHERE ${Prisma.join(
        options.flags.map((flag) => flagSql(flag, nowUtc)),
        " OR ",
      )}`
    : Prisma.empty;
  const valid = Prisma.sql`d."eventData" >= 1 AND d."dateTime" <= ${nowUtc}`;
  const inWindow = Prisma.sql`d."patientId" = w.id AND d."dateTime" >= ${localMidnight(Prisma.sql`${TRIAGE_DAYS - 1}::int`)} AND ${valid}`;
  // Readings at the same instant are one reading, their mean (app/metrics/readings.ts). Most
  // patients have none: their readings are counted once (`a`), and only a patient who has such
  // readings is counted again over the merged ones (`m`, empty for the others), which would
  // otherwise double the statement's cost.
  const merged = Prisma.join(
    COUNT_COLUMNS.map(
      (c) =>
        Prisma.sql`CASE WHEN a.instants < a.readings THEN m.${Prisma.raw(`"${c}"`)} ELSE a.${Prisma.raw(`"${c}"`)} END AS ${Prisma.raw(`"${c}"`)}`,
    ),
    ", ",
  );
  const rows = await db().$queryRaw<RawRow[]>`
    WITH w AS (
      SELECT p.id, p."userId", p."timeZone", (${now}::timestamptz AT TIME ZONE p."timeZone")::date AS today
        FROM "Patient" p
       WHERE ${visiblePatientSql(viewer, Prisma.sql`p`)} AND p."userId" <> ${viewer.id}
    ), f AS (
      SELECT w.id AS "patientId", w."userId", w."timeZone", ${merged}, dd.days AS "daysWithData", lu.at AS "lastUploadAt",
             (SELECT rp."nickName" FROM "ReadPower" rp WHERE rp."providerId" = w."userId" AND rp."readerId" = ${viewer.id}) AS "nickName"
        FROM w
        CROSS JOIN LATERAL (
          SELECT ${bandCounts(Prisma.sql`d."eventData"`)}, count(DISTINCT d."dateTime")::int AS instants
            FROM "CgmRecord" d WHERE ${inWindow}
        ) a
        CROSS JOIN LATERAL (
          SELECT ${bandCounts(Prisma.sql`g.mgdl`)}
            FROM (SELECT avg(d."eventData") AS mgdl FROM "CgmRecord" d
                   WHERE a.instants < a.readings AND ${inWindow} GROUP BY d."dateTime") g
        ) m
        CROSS JOIN LATERAL (
          SELECT count(*)::int AS days FROM generate_series(0, ${TRIAGE_DAYS - 1}::int) k
           WHERE EXISTS (SELECT 1 FROM "CgmRecord" d
                          WHERE d."patientId" = w.id AND d."dateTime" >= ${localMidnight(Prisma.sql`k`)}
                            AND d."dateTime" < ${localMidnight(Prisma.sql`(k - 1)`)} AND ${valid})
        ) dd
        CROSS JOIN LATERAL (
          SELECT max(ut."completedAt") AS at FROM "UploadTask" ut WHERE ut."patientId" = w.id AND ut.status = 'done'
        ) lu
    )
    SELECT f.*, u.email, u."firstName", u."lastName"
      FROM f JOIN "User" u ON u.id = f."userId"
     ${filter}
     ORDER BY ${orderSql(options.sort, options.dir, nowUtc)}, ${NAME_SQL} ASC, f."patientId" ASC`;
  return rows.map((r) => ({
    ...r,
    lastUploadAt: r.lastUploadAt ? r.lastUploadAt.getTime() : null,
    meanMgdl: r.readings > 0 ? r.meanMgdl : null,
  }));
}
