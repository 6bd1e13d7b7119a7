import { Prisma } from "@prisma/client";
import { db } from "~/utils/db.server";
import { visiblePatientSql, type Viewer } from "./access.server";
import type { Span } from "./patient-data.server";

/** A CGM device that sent readings in a span: its serial, and its kind and model when recorded. */
export interface CgmDeviceRow {
  readonly serial: string;
  readonly kind: string | null;
  readonly model: string | null;
}

/**
 * The CGM devices whose readings fall in `span` (epoch ms, end excluded), by serial, with the
 * device record of that serial when there is one (a CGM handheld, or an imported file's device).
 * Like every patient-data read, the access rule is part of its WHERE.
 */
export async function cgmDevicesIn(
  viewer: Viewer,
  pid: number,
  span: Span,
): Promise<CgmDeviceRow[]> {
  return db().$queryRaw<CgmDeviceRow[]>`
    SELECT s.serial, dv.kind::text AS kind, dv.model
      FROM (SELECT DISTINCT d."deviceSn" AS serial FROM "CgmRecord" d
             WHERE d."patientId" = ${pid}
               AND EXISTS (SELECT 1 FROM "Patient" p WHERE p.id = d."patientId" AND ${visiblePatientSql(viewer, Prisma.sql`p`)})
               AND d."dateTime" >= ${new Date(span.start)} AND d."dateTime" < ${new Date(span.end)}) s
      LEFT JOIN LATERAL (SELECT x.kind, x.model FROM "Device" x
                          WHERE x."patientId" = ${pid} AND x.serial = s.serial AND x.kind IN ('aidex', 'imported')
                          ORDER BY x.kind LIMIT 1) dv ON true
     ORDER BY s.serial`;
}

/** The patient account's recorded gender (the FHIR Patient's), or null; under the access rule. */
export async function patientGender(
  viewer: Viewer,
  pid: number,
): Promise<"male" | "female" | "other" | "unknown" | null> {
  const rows = await db().$queryRaw<{ gender: "male" | "female" | "other" | "unknown" | null }[]>`
    SELECT u.gender::text AS gender FROM "Patient" p JOIN "User" u ON u.id = p."userId"
     WHERE p.id = ${pid} AND ${visiblePatientSql(viewer, Prisma.sql`p`)}`;
  return rows[0]?.gender ?? null;
}
