import type { DashboardPatient } from "~/report/dashboard";
import { readDb } from "~/utils/db.server";
import { sharedPatientIds, type Viewer } from "./access.server";
import { numberArray } from "./pg-array";

/**
 * What the institution dashboard counts, one row per patient who shares their data with the
 * viewer (an accepted share to the viewer's account), under the access rule, decided on the
 * primary: a clinic whose organisation audit is not approved sees none. The viewer's own record is not counted, nor any
 * patient who shares only with someone else.
 */
export async function sharingPatientFacts(viewer: Viewer): Promise<DashboardPatient[]> {
  const patientIds = await sharedPatientIds(viewer);
  if (patientIds.length === 0) return [];
  const rows = await readDb().$queryRaw<
    { gender: string | null; birthDate: Date | null; diabetesType: string | null }[]
  >`
    SELECT u.gender::text AS gender, u."birthDate", o.code AS "diabetesType"
      FROM "Patient" p
      JOIN "User" u ON u.id = p."userId"
      LEFT JOIN "Option" o ON o.id = p."diabetesTypeId"
     WHERE p.id = ANY(${numberArray(patientIds)}::int[])`;
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
