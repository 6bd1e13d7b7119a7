import { Prisma } from "@prisma/client";
import { db } from "~/utils/db.server";
import type { Tx } from "./transaction.server";

/**
 * Nightscout links and the reads of the Nightscout API (app/services/nightscout.server.ts): the
 * link rows, the look-up that authenticates a call, and the patient's records in Nightscout's
 * order (newest first). The callers have already passed the access gateway for the patient.
 */

export type LinkKind = "upload" | "read";

/** What authenticating a call needs of a link, its patient and the account that made it. */
export type LinkForAuth = {
  id: string;
  patientId: number;
  kind: LinkKind;
  secretHash: string;
  revoked: boolean;
  creatorId: number;
  creatorIdentity: number;
  creatorIsPass: number;
  creatorRole: string;
  creatorUsable: boolean;
  patientUsable: boolean;
  timeZone: string;
  lowLimit: number;
  highLimit: number;
  /** The patient's glucose unit setting: 0 mmol/L, 1 mg/dL. */
  unit: number;
};

/** A link by its public id, with its patient and maker, in one query; null when there is none. */
export async function linkForAuth(id: string): Promise<LinkForAuth | null> {
  const rows = await db().$queryRaw<LinkForAuth[]>`
    SELECT l.id, l."patientId", l.kind, l."secretHash", l."revokedAt" IS NOT NULL AS revoked,
           c.id AS "creatorId", c.identity AS "creatorIdentity", c."isPass" AS "creatorIsPass", c.role::text AS "creatorRole",
           (c.active AND NOT c.disabled AND c."deletedAt" IS NULL) AS "creatorUsable",
           (u.active AND NOT u.disabled AND u."deletedAt" IS NULL) AS "patientUsable",
           p."timeZone", p."lowLimit", p."highLimit", COALESCE(s.unit, 0) AS unit
      FROM "NightscoutLink" l
      JOIN "Patient" p ON p.id = l."patientId"
      JOIN "User" u ON u.id = p."userId"
      JOIN "User" c ON c.id = l."createdById"
      LEFT JOIN "Setting" s ON s."userId" = u.id
     WHERE l.id = ${id}`;
  return rows[0] ?? null;
}

/** Marks a link used now, at most once a minute (a row rewritten on every reading would churn). */
export async function touchLink(id: string): Promise<void> {
  await db().$executeRaw`
    UPDATE "NightscoutLink" SET "lastUsedAt" = now() AT TIME ZONE 'UTC'
     WHERE id = ${id} AND ("lastUsedAt" IS NULL OR "lastUsedAt" < (now() AT TIME ZONE 'UTC') - interval '1 minute')`;
}

export async function createLink(data: {
  id: string;
  patientId: number;
  createdById: number;
  name: string;
  kind: LinkKind;
  secretHash: string;
}) {
  return db().nightscoutLink.create({ data });
}

/** The patient's links, newest first (revoked ones too, marked), with their makers' names. */
export async function linksOfPatient(patientId: number) {
  return db().nightscoutLink.findMany({
    where: { patientId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    select: {
      id: true,
      name: true,
      kind: true,
      createdAt: true,
      lastUsedAt: true,
      revokedAt: true,
      createdBy: { select: { email: true, firstName: true, lastName: true } },
    },
  });
}

/** Revokes one of the patient's links; answers whether a link was revoked now. */
export async function revokeLink(patientId: number, id: string): Promise<boolean> {
  const { count } = await db().nightscoutLink.updateMany({
    where: { id, patientId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count === 1;
}

/** Epoch ms bounds of a read; null: open. */
export type ReadWindow = { from: number | null; to: number | null; count: number };

const UTC = Prisma.sql`AT TIME ZONE 'UTC'`;
const fromMs = (ms: number) => Prisma.sql`to_timestamp(${ms} / 1000.0) ${UTC}`;

function windowSql(column: Prisma.Sql, w: ReadWindow): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (w.from !== null) parts.push(Prisma.sql`${column} >= ${fromMs(w.from)}`);
  if (w.to !== null) parts.push(Prisma.sql`${column} <= ${fromMs(w.to)}`);
  return parts.length ? Prisma.sql`AND ${Prisma.join(parts, " AND ")}` : Prisma.empty;
}

const epochMs = (column: Prisma.Sql) =>
  Prisma.sql`(extract(epoch FROM ${column} AT TIME ZONE 'UTC') * 1000)::float8`;

export type StoredSgv = {
  deviceSn: string;
  eventIndex: number;
  mgdl: number;
  dateTime: number;
  deviceTime: string;
  direction: string | null;
};

/** The patient's CGM readings in the window, newest first, at most `count`. */
export async function sgvRows(patientId: number, w: ReadWindow): Promise<StoredSgv[]> {
  return db().$queryRaw<StoredSgv[]>`
    SELECT "deviceSn", "eventIndex", "eventData" AS mgdl, ${epochMs(Prisma.sql`"dateTime"`)} AS "dateTime", "deviceTime", direction
      FROM "CgmRecord" WHERE "patientId" = ${patientId} ${windowSql(Prisma.sql`"dateTime"`, w)}
     ORDER BY "dateTime" DESC, id DESC LIMIT ${w.count}`;
}

export type StoredBg = {
  deviceSn: string;
  recordKey: string;
  mgdl: number;
  dateTime: number;
  deviceTime: string;
};

/** The patient's blood values (meters, finger pricks, pump entries) in the window, newest first. */
export async function mbgRows(patientId: number, w: ReadWindow): Promise<StoredBg[]> {
  return db().$queryRaw<StoredBg[]>`
    SELECT "deviceSn", "recordKey", mgdl, ${epochMs(Prisma.sql`"dateTime"`)} AS "dateTime", "deviceTime"
      FROM "BgRecord" WHERE "patientId" = ${patientId} ${windowSql(Prisma.sql`"dateTime"`, w)}
     ORDER BY "dateTime" DESC, id DESC LIMIT ${w.count}`;
}

export type StoredTreatmentPart = {
  part: "insulin" | "carbs" | "bg";
  deviceSn: string;
  recordKey: string;
  value: number;
  dateTime: number;
};

/**
 * The parts of the treatments in the window, newest first: insulin doses and carbohydrate entries
 * that carry a device and key (Nightscout posts, imported files), and the blood values posted as
 * Nightscout BG checks. At most `count` of each kind; the caller joins the parts of one instant.
 */
export async function treatmentParts(
  patientId: number,
  w: ReadWindow,
): Promise<StoredTreatmentPart[]> {
  const at = epochMs(Prisma.sql`"dateTime"`);
  const win = windowSql(Prisma.sql`"dateTime"`, w);
  return db().$queryRaw<StoredTreatmentPart[]>`
    (SELECT 'insulin' AS part, "deviceSn", "recordKey", units AS value, ${at} AS "dateTime"
       FROM "InsulinEntry" WHERE "patientId" = ${patientId} ${win} ORDER BY "dateTime" DESC LIMIT ${w.count})
    UNION ALL
    (SELECT 'carbs', "deviceSn", "recordKey", grams, ${at}
       FROM "CarbEntry" WHERE "patientId" = ${patientId} AND "deviceSn" IS NOT NULL AND "recordKey" IS NOT NULL ${win}
      ORDER BY "dateTime" DESC LIMIT ${w.count})
    UNION ALL
    (SELECT 'bg', "deviceSn", "recordKey", mgdl, ${at}
       FROM "BgRecord" WHERE "patientId" = ${patientId} AND source = 'meter' AND "recordKey" LIKE 'nst:%' ${win}
      ORDER BY "dateTime" DESC LIMIT ${w.count})`;
}

/** The newest pump settings and first basal preset of the patient, for the profile. */
export async function profileSources(patientId: number) {
  const [setting, basal] = await Promise.all([
    db().pumpSetting.findFirst({ where: { patientId }, orderBy: { uploadedAt: "desc" } }),
    db().basalSetting.findFirst({
      where: { patientId },
      orderBy: [{ uploadedAt: "desc" }, { settingIndex: "asc" }],
    }),
  ]);
  return { setting, basal };
}

/** Device status documents kept per patient (the newest). */
export const DEVICE_STATUS_KEPT = 50;

/** Keeps a device status document and drops the patient's documents past the newest 50. */
export async function keepDeviceStatus(
  tx: Tx,
  d: { patientId: number; linkId: string; createdAt: number; document: string },
): Promise<bigint> {
  const rows = await tx.$queryRaw<{ id: bigint }[]>`
    INSERT INTO "NightscoutDeviceStatus" ("patientId", "linkId", "createdAt", document)
    VALUES (${d.patientId}, ${d.linkId}, ${fromMs(d.createdAt)}, ${d.document}::jsonb) RETURNING id`;
  await tx.$executeRaw`
    DELETE FROM "NightscoutDeviceStatus" WHERE "patientId" = ${d.patientId} AND id NOT IN (
      SELECT id FROM "NightscoutDeviceStatus" WHERE "patientId" = ${d.patientId}
       ORDER BY "createdAt" DESC, id DESC LIMIT ${DEVICE_STATUS_KEPT})`;
  return rows[0]!.id;
}

/** The patient's newest device status documents, at most `count`. */
export async function deviceStatuses(patientId: number, w: ReadWindow) {
  return db().$queryRaw<{ id: bigint; createdAt: number; document: Prisma.JsonValue }[]>`
    SELECT id, ${epochMs(Prisma.sql`"createdAt"`)} AS "createdAt", document
      FROM "NightscoutDeviceStatus" WHERE "patientId" = ${patientId} ${windowSql(Prisma.sql`"createdAt"`, w)}
     ORDER BY "createdAt" DESC, id DESC LIMIT ${w.count}`;
}
