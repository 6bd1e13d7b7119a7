import { Prisma } from "@prisma/client";
import { ShareState } from "~/domain/codes";
import type { DashboardPatient } from "~/report/dashboard";
import { readDb } from "~/utils/db.server";
import { visiblePatientSql, type Viewer } from "./access.server";

/**
 * What the institution dashboard counts, one row per patient who shares their data with the
 * viewer (an accepted share to the viewer's account), under the access rule: a clinic whose
 * organisation audit is not approved sees none. The viewer's own record is not counted, nor any
 * patient who shares only with someone else.
 */
export async function sharingPatientFacts(viewer: Viewer): Promise<DashboardPatient[]> {
  const rows = await readDb().$queryRaw<
    { gender: string | null; birthDate: Date | null; diabetesType: string | null }[]
  >`
    SELECT u.gender::text AS gender, u."birthDate", o.code AS "diabetesType"
      FROM "Patient" p
      JOIN "User" u ON u.id = p."userId"
      LEFT JOIN "Option" o ON o.id = p."diabetesTypeId"
     WHERE p."userId" <> ${viewer.id}
       AND EXISTS (SELECT 1 FROM "ReadPower" rp WHERE rp."providerId" = p."userId" AND rp."readerId" = ${viewer.id} AND rp.state = ${ShareState.Accepted})
       AND ${visiblePatientSql(viewer, Prisma.sql`p`)}`;
  return rows.map((r) => ({
    gender: r.gender,
    birthDate: r.birthDate ? r.birthDate.toISOString().slice(0, 10) : null,
    diabetesType: r.diabetesType,
  }));
}

/** The codes of the types of diabetes (options of type 0), in their order. */
export async function diabetesTypeCodes(): Promise<string[]> {
  const rows = await readDb().option.findMany({
    where: { type: 0 },
    orderBy: { sort: "asc" },
    select: { code: true },
  });
  return rows.map((r) => r.code);
}
