import { describe, expect, it } from "vitest";
import { classify, stripSql, violations } from "../../scripts/patient-scope";

const scoped = (sql: string) => {
  const verdict = classify(sql);
  return verdict.touches ? verdict.scoped : "no record table";
};

describe("the patient-scope check of recorded statements", () => {
  it("drops comments and empties string literals, keeping quoted names", () => {
    expect(
      stripSql(`SELECT 'a ''"CgmRecord"'' b' -- "BgRecord"\n FROM /* "Device" */ "User" u`),
    ).toBe(`SELECT '' FROM "User" u`);
  });

  it("passes statements that name the patient in the WHERE, a JOIN or an INSERT's columns", () => {
    for (const sql of [
      // Prisma, qualified by schema and table.
      `SELECT "public"."CgmRecord"."id", "public"."CgmRecord"."mgdl" FROM "public"."CgmRecord" WHERE ("public"."CgmRecord"."patientId" = $1 AND "public"."CgmRecord"."dateTime" >= $2) ORDER BY "public"."CgmRecord"."dateTime" ASC OFFSET $3`,
      `SELECT d."dateTime" FROM "BgRecord" d WHERE d."patientId" = $1 AND d."dateTime" < $2`,
      // A clinic's list: the patients it may read.
      `SELECT c.day FROM "CgmDay" c WHERE c."patientId" = ANY($1::int[])`,
      `DELETE FROM "public"."PumpSetting" WHERE "public"."PumpSetting"."patientId" IN ($1,$2)`,
      // A co-located join on the patient.
      `SELECT p.id, l.last FROM "Patient" p CROSS JOIN LATERAL (SELECT max(x."dateTime") AS last FROM "CgmRecord" x WHERE x."patientId" = p.id) l WHERE p.id = $1`,
      `SELECT 1 FROM "Patient" p JOIN "CgmDay" c ON p.id = c."patientId" WHERE p.id = $1`,
      `INSERT INTO "CgmRecord" ("patientId", "deviceSn", "eventIndex") SELECT $1, x.sn, x.i FROM unnest($2::text[], $3::int[]) AS x(sn, i) ON CONFLICT DO NOTHING`,
      `INSERT INTO "public"."PumpSetting" ("patientId","pdaSn") VALUES ($1,$2) ON CONFLICT ("patientId","pdaSn") DO UPDATE SET "pdaVersion" = $3 WHERE ("public"."PumpSetting"."patientId" = $4 AND "public"."PumpSetting"."pdaSn" = $5) RETURNING "public"."PumpSetting"."id"`,
      `UPDATE "PumpRecord" SET "bolusCheckFailed" = true WHERE "patientId" = $1 AND "pdaSn" = $2`,
    ])
      expect([sql, scoped(sql)]).toEqual([sql, true]);
  });

  it("fails statements that reach a record table without its patient", () => {
    for (const sql of [
      `SELECT "public"."CgmRecord"."id" FROM "public"."CgmRecord" WHERE "public"."CgmRecord"."id" = $1`,
      `UPDATE "PumpRecord" SET "bolusCheckFailed" = true WHERE "uploadId" = $1`,
      `DELETE FROM "BgRecord" WHERE "dateTime" < $1`,
      `SELECT count(*) FROM "CgmDay"`,
      // The patient compared by inequality or order is no key.
      `SELECT 1 FROM "Device" WHERE serial = $1 AND "patientId" <> $2`,
      `SELECT 1 FROM "CgmRecord" WHERE "patientId" >= $1`,
      // An INSERT without the patient column.
      `INSERT INTO "AlarmEvent" ("dateTime", kind) VALUES ($1, $2)`,
      // The other table of a join has its patient; this one does not.
      `SELECT 1 FROM "CgmRecord" c JOIN "BgRecord" b ON b."dateTime" = c."dateTime" WHERE c."patientId" = $1`,
      // The patient named only in a comment or a string.
      `SELECT 1 FROM "CarbEntry" WHERE note = '"patientId" = 1' -- "patientId" = $1`,
    ])
      expect([sql, scoped(sql)]).toEqual([sql, false]);
  });

  it("leaves statements without a record table alone, and lists the rest with their tables", () => {
    expect(classify(`SELECT * FROM "User" WHERE id = $1`)).toEqual({ touches: false });
    expect(classify(`SELECT 1 FROM "CgmRecordArchive"`)).toEqual({ touches: false });
    expect(
      violations([
        { query: `SELECT 1 FROM "CgmRecord" WHERE "patientId" = $1`, calls: 9 },
        { query: `DELETE FROM "BgRecord" b USING "CgmDay" d WHERE d."patientId" = $1`, calls: 2 },
      ]),
    ).toEqual([
      {
        query: `DELETE FROM "BgRecord" b USING "CgmDay" d WHERE d."patientId" = $1`,
        calls: 2,
        tables: ["BgRecord"],
      },
    ]);
  });

  it("allows the statements named in the allow-list, and only those", () => {
    const across = `SELECT EXISTS (SELECT $4 FROM "Device" WHERE kind = $1::"DeviceKind" AND serial = $2 AND "patientId" <> $3) AS other`;
    expect(classify(across)).toMatchObject({
      scoped: false,
      allowed: { name: "device of another patient" },
    });
    expect(violations([{ query: across, calls: 1 }])).toEqual([]);
    const near = `SELECT EXISTS (SELECT $4 FROM "Device" WHERE serial = $2 AND "patientId" <> $3) AS other`;
    expect(violations([{ query: near, calls: 1 }])).toHaveLength(1);
    const deletion = `UPDATE "public"."Device" SET "firstUploaderId" = $1 WHERE "public"."Device"."firstUploaderId" = $2`;
    expect(classify(deletion)).toMatchObject({
      scoped: false,
      allowed: { name: "deleted account's devices" },
    });
    // The same table and column, but a different write, is not allowed.
    const other = `UPDATE "public"."Device" SET "timeZone" = $1 WHERE "public"."Device"."firstUploaderId" = $2`;
    expect(violations([{ query: other, calls: 1 }])).toHaveLength(1);
  });
});
