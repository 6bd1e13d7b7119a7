import { Prisma } from "@prisma/client";
import type { StoredPumpSettings } from "~/report/pump-report-model";
import { readDb } from "~/utils/db.server";
import { visiblePatientSql, type Viewer } from "./access.server";
import type { CgmReportReading } from "~/report/cgm-report";
import type { Span } from "./patient-data.server";

/** The print reports' own reads; like patient-data.server.ts, each carries the access rule in its WHERE. */

/**
 * CGM readings (mg/dL) with their record ids (a report row's `id`), oldest first. A sibling of
 * patient-data.server.ts `cgmReadings`, which does not select the id.
 */
export async function cgmReportReadings(
  viewer: Viewer,
  pid: number,
  span: Span,
): Promise<CgmReportReading[]> {
  const rows = await readDb().$queryRaw<{ id: bigint; dateTime: Date; mgdl: number }[]>`
    SELECT d.id, d."dateTime", d."eventData" AS mgdl FROM "CgmRecord" d
     WHERE d."patientId" = ${pid} AND EXISTS (SELECT 1 FROM "Patient" p WHERE p.id = d."patientId" AND ${visiblePatientSql(viewer, Prisma.sql`p`)})
       AND d."dateTime" >= ${new Date(span.start)} AND d."dateTime" < ${new Date(span.end)}
     ORDER BY d."dateTime", d.id`;
  return rows.map((r) => ({ id: r.id.toString(), time: r.dateTime.getTime(), mgdl: r.mgdl }));
}

/** The patient's newest pump settings upload (the report's `pumpSettings`), or null. */
export async function pumpSettingFor(
  viewer: Viewer,
  pid: number,
): Promise<StoredPumpSettings | null> {
  const rows = await readDb().$queryRaw<StoredPumpSettings[]>`
    SELECT d."pdaSn", d."pdaVersion", d."lowBg", d."highBg", d."defaultCho" AS "carbRatio", d."sensitiveSilver" AS sensitivity, d."originBasal", d."bolusRate", d."maxBolus", d."doubleBolus", d."effectiveTime", d."maxBasalRate", d."bolusIncrement", d."quickBolusIncrement", d."lowReserveThreshold", d."tempBasalRate"
      FROM "PumpSetting" d
     WHERE d."patientId" = ${pid} AND EXISTS (SELECT 1 FROM "Patient" p WHERE p.id = d."patientId" AND ${visiblePatientSql(viewer, Prisma.sql`p`)})
     ORDER BY d."uploadedAt" DESC, d.id DESC LIMIT 1`;
  return rows[0] ?? null;
}

/** The reader's stored print settings and a patient's birth date, in one query (null fields when the reader has no settings). */
export async function readerPrintSettings(readerId: number, patientUserId: number) {
  const rows = await readDb().$queryRaw<
    {
      birthDate: Date | null;
      unit: number | null;
      nameStyle: number | null;
      paperSize: string | null;
      orientation: string | null;
      splitLine: boolean | null;
      hasLogo: boolean | null;
      updatedAt: Date | null;
    }[]
  >`
    SELECT u."birthDate", s.unit, s."nameStyle", s."paperSize", s.orientation, s."splitLine", (s."reportLogo" IS NOT NULL AND s."reportLogoType" IS NOT NULL) AS "hasLogo", s."updatedAt"
      FROM "User" u LEFT JOIN "Setting" s ON s."userId" = ${readerId}
     WHERE u.id = ${patientUserId}`;
  return rows[0];
}
