import { Prisma } from "@prisma/client";
import { ShareState } from "~/domain/codes";
import { db } from "~/utils/db.server";
import { visiblePatientSql, type Viewer } from "./access.server";
import type { Span } from "./patient-data.server";

/**
 * The Excel export's own reads: which patients a staff member may export, and how many records
 * of each kind a patient has in a window. Like patient-data.server.ts (whose `exportRecords`
 * reads the records themselves), every query carries the access rule in its WHERE.
 */

/** A patient an export may include: the record, its owner's name and the zone of its days. */
export interface ExportPatient {
  readonly pid: number;
  readonly userId: number;
  readonly email: string;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly timeZone: string;
  readonly lowLimit: number;
  readonly highLimit: number;
}

const PATIENT_COLUMNS = Prisma.sql`p.id AS pid, p."userId", u.email, u."firstName", u."lastName", p."timeZone", p."lowLimit", p."highLimit"`;

/**
 * The patients who share their data with `viewer` (an accepted share to the viewer's account),
 * under the access rule (a clinic whose organisation audit is not approved has none), by name.
 */
export async function sharingPatients(viewer: Viewer): Promise<ExportPatient[]> {
  return db().$queryRaw<ExportPatient[]>`
    SELECT ${PATIENT_COLUMNS} FROM "Patient" p JOIN "User" u ON u.id = p."userId"
     WHERE p."userId" <> ${viewer.id}
       AND EXISTS (SELECT 1 FROM "ReadPower" rp WHERE rp."providerId" = p."userId" AND rp."readerId" = ${viewer.id} AND rp.state = ${ShareState.Accepted})
       AND ${visiblePatientSql(viewer, Prisma.sql`p`)}
     ORDER BY lower(coalesce(u."lastName", '')), lower(coalesce(u."firstName", '')), u.email, p.id`;
}

/** Of the records `pids`, those `viewer` may see, in the order asked (one query). */
export async function visiblePatientsAmong(
  viewer: Viewer,
  pids: readonly number[],
): Promise<ExportPatient[]> {
  if (pids.length === 0) return [];
  const rows = await db().$queryRaw<ExportPatient[]>`
    SELECT ${PATIENT_COLUMNS} FROM "Patient" p JOIN "User" u ON u.id = p."userId"
     WHERE p.id IN (${Prisma.join(pids)}) AND ${visiblePatientSql(viewer, Prisma.sql`p`)}`;
  const byPid = new Map(rows.map((r) => [r.pid, r]));
  return pids.flatMap((pid) => byPid.get(pid) ?? []);
}

/** How many records of each kind the export of a patient's window holds (the sheets' kinds). */
export interface RecordCounts {
  readonly cgm: number;
  readonly bg: number;
  readonly pump: number;
  readonly carbs: number;
  readonly insulin: number;
}

/**
 * The records of each kind of a patient in a window, counted as the export writes them (carbohydrate
 * entries derived from pump records are the pump's own records, not counted again).
 */
export async function recordCounts(viewer: Viewer, pid: number, span: Span): Promise<RecordCounts> {
  const visible = Prisma.sql`EXISTS (SELECT 1 FROM "Patient" p WHERE p.id = ${pid} AND ${visiblePatientSql(viewer, Prisma.sql`p`)})`;
  const within = (table: string, extra: Prisma.Sql = Prisma.empty) =>
    Prisma.sql`(SELECT count(*)::int FROM ${Prisma.raw(`"${table}"`)} d WHERE d."patientId" = ${pid} AND d."dateTime" >= ${new Date(span.start)} AND d."dateTime" < ${new Date(span.end)} ${extra})`;
  const rows = await db().$queryRaw<RecordCounts[]>`
    SELECT ${within("CgmRecord")} AS cgm, ${within("BgRecord")} AS bg, ${within("PumpRecord")} AS pump,
           ${within("CarbEntry", Prisma.sql`AND d."pumpRecordId" IS NULL AND d."recordKey" IS NOT NULL`)} AS carbs,
           ${within("InsulinEntry")} AS insulin
     WHERE ${visible}`;
  return rows[0] ?? { cgm: 0, bg: 0, pump: 0, carbs: 0, insulin: 0 };
}

/** The kinds of data a local day has. */
export interface DayWithData {
  readonly date: string;
  readonly cgm: boolean;
  readonly bg: boolean;
  readonly pump: boolean;
}

/**
 * The local days (in `timeZone`, the patient's) of a window that have CGM readings, blood values
 * or pump records, oldest first, each with the kinds it has. Instants are stored as UTC wall
 * clocks (`timestamp` without zone), so they are read as UTC before they are moved to the zone.
 */
export async function daysWithData(
  viewer: Viewer,
  pid: number,
  span: Span,
  timeZone: string,
): Promise<DayWithData[]> {
  const days = (table: string) =>
    Prisma.sql`SELECT DISTINCT ((d."dateTime" AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone})::date AS day FROM ${Prisma.raw(`"${table}"`)} d
      WHERE d."patientId" = ${pid} AND d."dateTime" >= ${new Date(span.start)} AND d."dateTime" < ${new Date(span.end)}`;
  const rows = await db().$queryRaw<{ day: Date; cgm: boolean; bg: boolean; pump: boolean }[]>`
    WITH c AS (${days("CgmRecord")}), b AS (${days("BgRecord")}), u AS (${days("PumpRecord")})
    SELECT a.day, a.day IN (SELECT day FROM c) AS cgm, a.day IN (SELECT day FROM b) AS bg, a.day IN (SELECT day FROM u) AS pump
      FROM (SELECT day FROM c UNION SELECT day FROM b UNION SELECT day FROM u) a
     WHERE EXISTS (SELECT 1 FROM "Patient" p WHERE p.id = ${pid} AND ${visiblePatientSql(viewer, Prisma.sql`p`)})
     ORDER BY a.day`;
  return rows.map((r) => ({
    date: r.day.toISOString().slice(0, 10),
    cgm: r.cgm,
    bg: r.bg,
    pump: r.pump,
  }));
}
