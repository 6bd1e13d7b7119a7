import { Prisma } from "@prisma/client";
import {
  BELOW_RANGE_LIMIT_PERCENT,
  CATEGORY_LIMITS,
  NO_UPLOAD_DAYS,
  TIR_TARGET_PERCENT,
  TRIAGE_CATEGORIES,
  WEAR_SLOT_MINUTES,
  type TriageCategory,
  type TriageCounts,
  type TriagePeriod,
} from "~/report/triage";
import {
  TRIAGE_FLAGS,
  type SortDirection,
  type TriageFlag,
  type TriageSort,
} from "~/schemas/triage";
import { readDb } from "~/utils/db.server";
import { sharedPatientIds, type Viewer } from "./access.server";
import { numberArray } from "./pg-array";

/**
 * The counts behind the clinic's triage list (app/report/triage.ts), for every patient who shares
 * with the viewer, in one statement on the reading database: the access rule picks the patients
 * (not the viewer's own record) on the primary first (`sharedPatientIds`, never a lagging
 * standby's view of the shares), and per patient the period (7, 14 or 30 local days) and the
 * previous one of the same length, the band counts and the mean of its CGM readings, the 5-minute
 * slots with a reading in each period, the local days with data, the newest finished upload, the
 * category and the viewer's own tags. The flag and tag filters and the order are applied in the
 * same statement; the category filter is left to the caller, which counts every category first.
 * Whole days come from the daily figures the database keeps per patient (`CgmDay`, up to 60 rows
 * a patient), today up to now from its readings (`cgm_day_rows`, the function that counts those
 * days), so that 500 patients x 28 days of 5-minute CGM (4 million readings) take about a tenth of
 * a second (docs/decisions/019-population-triage.md).
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
  /** The category as the statement works it out (the same rule as `triageCategory`). */
  category: TriageCategory;
  /** The viewer's tags on this patient, by name. */
  tagIds: number[];
};

export type TriageListOptions = {
  sort: TriageSort;
  dir: SortDirection;
  /** Only patients with any of these flags; empty: every patient. */
  flags: readonly TriageFlag[];
  /** Only patients carrying this tag of the viewer's; null: every patient. */
  tag?: number | null;
  /** Local days of the period (today included). */
  period: TriagePeriod;
  /** Epoch ms the window ends at. */
  now: number;
};

type RawRow = Omit<TriageRow, "lastUploadAt" | "meanMgdl" | "category"> & {
  lastUploadAt: Date | null;
  meanMgdl: number | null;
  categoryRank: number;
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

/** More than `limit` percent of the readings are `count` (the comparison of app/report/triage.ts `over`). */
const overSql = (count: string, limit: number) =>
  Prisma.sql`(f.readings > 0 AND 100 * f.${Prisma.raw(`"${count}"`)} > ${limit} * f.readings)`;
/** Under 70% of the slots (`lowWear`). */
const lowWearSql = (slots: string, expected: string) =>
  Prisma.sql`(100 * f.${Prisma.raw(`"${slots}"`)} < ${CATEGORY_LIMITS.wear} * f.${Prisma.raw(`"${expected}"`)})`;

/**
 * The category's place in TRIAGE_CATEGORIES (0 = very low ... 7 = on target), the first that
 * applies, with the comparisons of app/report/triage.ts `triageCategory` on the same counts
 * (bigint where products of counts pass 2^31).
 */
const CATEGORY_RANK_SQL = Prisma.sql`CASE
      WHEN ${overSql("below54", CATEGORY_LIMITS.veryLow)} THEN 0
      WHEN ${overSql("below70", CATEGORY_LIMITS.low)} THEN 1
      WHEN f.readings > 0 AND f."prevReadings" > 0 AND NOT ${lowWearSql("slots", "expectedSlots")}
           AND NOT ${lowWearSql("prevSlots", "prevExpectedSlots")}
           AND 100 * (f."prevInRange"::bigint * f.readings - f."inRange"::bigint * f."prevReadings")
               >= ${CATEGORY_LIMITS.tirDrop}::bigint * f.readings * f."prevReadings" THEN 2
      WHEN ${overSql("above250", CATEGORY_LIMITS.veryHigh)} THEN 3
      WHEN ${overSql("above180", CATEGORY_LIMITS.high)} THEN 4
      WHEN f.readings > 0 AND ${lowWearSql("slots", "expectedSlots")} THEN 5
      WHEN f.readings = 0 THEN 6
      ELSE 7 END`;

/** The name the list shows: the viewer's nickname, else first and last name, else the email (as `displayName`). */
const NAME_SQL = Prisma.sql`lower(coalesce(nullif(btrim(f."nickName"), ''), CASE WHEN coalesce(btrim(u."firstName"), '') = '' THEN u.email ELSE btrim(btrim(u."firstName") || ' ' || coalesce(btrim(u."lastName"), '')) END))`;

const ratio = (count: string, of = "readings") =>
  Prisma.raw(`f."${count}"::float8 / nullif(f."${of}", 0)`);

/** A column's order; figures of a patient without readings come last either way, a missing upload counts as the oldest. */
function orderSql(sort: TriageSort, dir: SortDirection, nowUtc: Prisma.Sql): Prisma.Sql {
  const d = Prisma.raw(dir === "asc" ? "ASC" : "DESC");
  switch (sort) {
    case "name":
      return Prisma.sql`${NAME_SQL} ${d}`;
    case "category":
      // Within a category, the least time in range first.
      return Prisma.sql`f."categoryRank" ${d}, ${ratio("inRange")} ASC NULLS LAST`;
    case "lastUpload":
      return Prisma.sql`f."lastUploadAt" ${d} ${Prisma.raw(dir === "asc" ? "NULLS FIRST" : "NULLS LAST")}`;
    case "days":
      return Prisma.sql`f."daysWithData" ${d}`;
    case "wear":
      return Prisma.sql`${ratio("slots", "expectedSlots")} ${d}`;
    case "tir":
      return Prisma.sql`${ratio("inRange")} ${d} NULLS LAST`;
    case "change":
      return Prisma.sql`(${ratio("inRange")} - ${ratio("prevInRange", "prevReadings")}) ${d} NULLS LAST`;
    case "below70":
      return Prisma.sql`${ratio("below70")} ${d} NULLS LAST`;
    case "below54":
      return Prisma.sql`${ratio("below54")} ${d} NULLS LAST`;
    case "above180":
      return Prisma.sql`${ratio("above180")} ${d} NULLS LAST`;
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

/**
 * Every patient who shares with `viewer` and matches the filters, in the chosen order (then by
 * name), with the counts of the period of `period` local days ending at `now` and of the period
 * before it. A viewer who may not read shared data (a clinic not yet approved) gets none: the
 * access rule leaves only their own record, which the list never shows.
 */
export async function triageRows(viewer: Viewer, options: TriageListOptions): Promise<TriageRow[]> {
  const now = new Date(options.now).toISOString();
  const days = options.period;
  // The window's end as a UTC wall-clock timestamp, the type of the stored instants.
  const nowUtc = Prisma.sql`(${now}::timestamptz AT TIME ZONE 'UTC')`;
  const filter = options.flags.length
    ? Prisma.sql`WHERE ${Prisma.join(
        options.flags.map((flag) => flagSql(flag, nowUtc)),
        " OR ",
      )}`
    : Prisma.empty;
  const tagged =
    options.tag != null
      ? Prisma.sql`AND EXISTS (SELECT 1 FROM "PatientTag" pt JOIN "ClinicTag" ct ON ct.id = pt."tagId"
                    WHERE pt."patientId" = p.id AND pt."tagId" = ${options.tag} AND ct."clinicId" = ${viewer.id})`
      : Prisma.empty;
  // Whole days (before today) come from the patient's daily figures; a day of the current period
  // is one from its first day on.
  const current = Prisma.sql`c.day >= w.today - ${days - 1}::int`;
  const sumOf = (column: string, when: Prisma.Sql) =>
    Prisma.sql`coalesce(sum(c.${Prisma.raw(`"${column}"`)}) FILTER (WHERE ${when}), 0)`;
  const wholeDays = Prisma.join(
    (
      [
        "readings",
        "below54",
        "below70",
        "inRange",
        "above180",
        "above250",
        "sumMgdl",
        "slots",
      ] as const
    ).map((column) => Prisma.sql`${sumOf(column, current)} AS ${Prisma.raw(`"${column}"`)}`),
    ", ",
  );
  const total = (column: string) =>
    Prisma.raw(`(s."${column}" + coalesce(n."${column}", 0))::int AS "${column}"`);
  const patientIds = await sharedPatientIds(viewer);
  if (patientIds.length === 0) return [];
  const rows = await readDb().$queryRaw<RawRow[]>`
    WITH t AS (
      SELECT p.id, p."userId", p."timeZone", (${now}::timestamptz AT TIME ZONE p."timeZone")::date AS today
        FROM "Patient" p
       WHERE p.id = ANY(${numberArray(patientIds)}::int[]) ${tagged}
    ), w AS MATERIALIZED ( -- computed once per patient: inlined, the time-zone arithmetic would run per row
      SELECT w.*, cgm_local_midnight(w.today, w."timeZone") AS "todayStart",
             cgm_local_midnight(w.today - ${days - 1}::int, w."timeZone") AS "curStart",
             cgm_local_midnight(w.today - ${2 * days - 1}::int, w."timeZone") AS "prevStart"
        FROM t w
    ), f0 AS (
      SELECT w.id AS "patientId", w."userId", w."timeZone",
             ${total("readings")}, ${total("below54")}, ${total("below70")}, ${total("inRange")},
             ${total("above180")}, ${total("above250")},
             (s."sumMgdl" + coalesce(n."sumMgdl", 0)) / nullif(s.readings + coalesce(n.readings, 0), 0) AS "meanMgdl",
             s."prevReadings"::int AS "prevReadings", s."prevInRange"::int AS "prevInRange",
             ${total("slots")}, (floor(extract(epoch FROM ${nowUtc} - w."curStart") / ${WEAR_SLOT_MINUTES * 60}))::int + 1 AS "expectedSlots",
             s."prevSlots"::int AS "prevSlots", (extract(epoch FROM w."curStart" - w."prevStart") / ${WEAR_SLOT_MINUTES * 60})::int AS "prevExpectedSlots",
             (s."daysWithData" + (coalesce(n.readings, 0) > 0)::int)::int AS "daysWithData", lu.at AS "lastUploadAt",
             (SELECT rp."nickName" FROM "ReadPower" rp WHERE rp."providerId" = w."userId" AND rp."readerId" = ${viewer.id}) AS "nickName",
             (SELECT coalesce(array_agg(ct.id ORDER BY lower(ct.name), ct.id), '{}') FROM "PatientTag" pt JOIN "ClinicTag" ct ON ct.id = pt."tagId"
               WHERE pt."patientId" = w.id AND ct."clinicId" = ${viewer.id}) AS "tagIds"
        FROM w
        CROSS JOIN LATERAL (
          SELECT ${wholeDays},
                 ${sumOf("readings", Prisma.sql`NOT ${current}`)} AS "prevReadings",
                 ${sumOf("inRange", Prisma.sql`NOT ${current}`)} AS "prevInRange",
                 ${sumOf("slots", Prisma.sql`NOT ${current}`)} AS "prevSlots",
                 count(*) FILTER (WHERE ${current} AND c.readings > 0) AS "daysWithData"
            FROM "CgmDay" c
           WHERE c."patientId" = w.id AND c.day >= w.today - ${2 * days - 1}::int AND c.day < w.today
        ) s
        -- Today, up to now, from the readings themselves.
        LEFT JOIN LATERAL cgm_day_rows(w.id, w."timeZone", w."todayStart", ${nowUtc} + interval '1 millisecond') n
          ON n.day = w.today
        CROSS JOIN LATERAL (
          SELECT max(ut."completedAt") AS at FROM "UploadTask" ut WHERE ut."patientId" = w.id AND ut.status = 'done'
        ) lu
    ), f AS (
      SELECT f.*, ${CATEGORY_RANK_SQL} AS "categoryRank" FROM f0 f
    )
    SELECT f.*, u.email, u."firstName", u."lastName"
      FROM f JOIN "User" u ON u.id = f."userId"
     ${filter}
     ORDER BY ${orderSql(options.sort, options.dir, nowUtc)}, ${NAME_SQL} ASC, f."patientId" ASC`;
  return rows.map(({ categoryRank, ...r }) => ({
    ...r,
    category: TRIAGE_CATEGORIES[categoryRank]!,
    lastUploadAt: r.lastUploadAt ? r.lastUploadAt.getTime() : null,
    meanMgdl: r.readings > 0 ? r.meanMgdl : null,
  }));
}
