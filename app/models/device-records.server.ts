import { Prisma, type DeviceKind } from "@prisma/client";
import type { CgmRow, PumpRow } from "~/ingest/process";
import type { SqlTx } from "./direct-sql.server";
import { numberArray, textArray } from "./pg-array";

/**
 * The writes of device records, for the ingestion module only (app/services/ingest.server.ts):
 * each batch is one INSERT ... SELECT FROM unnest(arrays) ON CONFLICT DO NOTHING, its columns
 * bound as array literals (./pg-array.ts), so a batch of thousands of rows is one statement, and a
 * record already stored for the patient (same device, same record number) is skipped and counted
 * as a duplicate.
 */

type Tx = Prisma.TransactionClient;
/** Epoch ms as the UTC `timestamp` Prisma's DateTime columns hold. */
const UTC = Prisma.sql`AT TIME ZONE 'UTC'`;

/** Where a batch goes; `uploadId` is null for records that arrive without an upload task (the Nightscout API). */
export type BatchTarget = { patientId: number; deviceSn: string; uploadId: number | null };

/**
 * Inserts pump history rows and, for the new ones, their carbohydrate entries and alarms (one
 * statement); answers how many rows were new. The handheld returns its whole log every time, so
 * most records of a pump upload are usually stored already: an index look-up drops them first,
 * which costs less than a conflict each.
 */
export async function insertPumpRows(
  tx: SqlTx,
  t: BatchTarget,
  all: readonly PumpRow[],
  { lookUp = true }: LookUp = {},
): Promise<number> {
  if (all.length === 0) return 0;
  const rows = !lookUp
    ? all
    : await unstored(
        tx,
        all,
        (r) => r.recordId,
        (keys) =>
          Prisma.sql`SELECT "recordId" AS key FROM "PumpRecord" WHERE "patientId" = ${t.patientId} AND "pdaSn" = ${t.deviceSn} AND ${keys(Prisma.sql`"recordId"`)}`,
      );
  if (rows.length === 0) return 0;
  const col = <K extends keyof PumpRow>(k: K) => rows.map((r) => r[k]);
  const carbs = rows.filter((r) => r.derived.carbGrams !== null);
  const alarms = rows.filter((r) => r.derived.alarm !== null);
  const result = await tx.$queryRaw<{ added: bigint }[]>`
    WITH added AS (
      INSERT INTO "PumpRecord" ("patientId", "pdaSn", "uploadId", "recordId", "eventIndex", "eventPort", "eventType", "eventUrgency", "eventValue",
        "statusByte0", "statusByte1", "statusShort0", "statusShort1", "deviceTime", "recordTimeZone", "pdaRecordTimeZone", "dateTime")
      SELECT ${t.patientId}, ${t.deviceSn}, ${t.uploadId}, u.rid, u.idx, u.port, u.type, u.urg, u.val, u.b0, u.b1, u.s0, u.s1, u.dt, u.tz, u.ptz, to_timestamp(u.at / 1000.0) ${UTC}
        FROM unnest(${numberArray(col("recordId"))}::int[], ${numberArray(col("eventIndex"))}::int[], ${numberArray(col("eventPort"))}::int[],
          ${numberArray(col("eventType"))}::int[], ${numberArray(col("eventUrgency"))}::int[], ${numberArray(col("eventValue"))}::int[],
          ${numberArray(col("battery"))}::int[], ${numberArray(col("reservoir"))}::int[], ${numberArray(col("basalRateRaw"))}::int[],
          ${numberArray(col("bolusRateRaw"))}::int[], ${textArray(col("deviceTime"))}::text[], ${textArray(col("recordTimeZone"))}::text[],
          ${textArray(col("pdaRecordTimeZone"))}::text[], ${numberArray(col("dateTime"))}::float8[])
          AS u(rid, idx, port, type, urg, val, b0, b1, s0, s1, dt, tz, ptz, at)
      ON CONFLICT ("patientId", "pdaSn", "recordId") DO NOTHING
      RETURNING id, "recordId", "dateTime"
    ), carbs AS (
      INSERT INTO "CarbEntry" ("patientId", "pumpRecordId", "dateTime", grams)
      SELECT ${t.patientId}, a.id, a."dateTime", c.grams
        FROM added a JOIN unnest(${numberArray(carbs.map((r) => r.recordId))}::int[],
          ${numberArray(carbs.map((r) => r.derived.carbGrams))}::float8[]) AS c(rid, grams) ON c.rid = a."recordId"
    ), alarms AS (
      INSERT INTO "AlarmEvent" ("patientId", "pumpRecordId", "dateTime", kind)
      SELECT ${t.patientId}, a.id, a."dateTime", k.kind::"AlarmKind"
        FROM added a JOIN unnest(${numberArray(alarms.map((r) => r.recordId))}::int[],
          ${textArray(alarms.map((r) => r.derived.alarm))}::text[]) AS k(rid, kind) ON k.rid = a."recordId"
    )
    SELECT count(*) AS added FROM added`;
  return Number(result[0]?.added ?? 0);
}

/**
 * Whether a batch first looks up which of its records are stored (`lookUp`, the default), or goes
 * straight to its INSERT, whose ON CONFLICT DO NOTHING still skips every duplicate: the look-up
 * spares the insert's work when most records are stored, and costs a statement when none are.
 */
export type LookUp = { lookUp?: boolean };

/**
 * The rows of a batch whose record number (`keyOf`) a look-up does not find stored. The look-up
 * (`query`, which selects the stored numbers as `key`) answers in one row how many of the numbers
 * are stored and, only when some but not all of them are, which: a repeat of stored records and
 * a batch of new ones, the usual cases, then bring back no list.
 * The condition on the key column is a range as well as the list: with the list alone PostgreSQL 15
 * may read every index entry of the device and test each against the list (30,000 entries for
 * 1,000 keys, 6 ms where the range reads 1,000 in 0.4 ms); a device's record numbers rise, so a
 * batch's range holds about its own records.
 */
async function unstored<T>(
  tx: SqlTx,
  all: readonly T[],
  keyOf: (row: T) => number,
  query: (keys: (column: Prisma.Sql) => Prisma.Sql) => Prisma.Sql,
): Promise<readonly T[]> {
  const wanted = all.map(keyOf);
  let low = Infinity;
  let high = -Infinity;
  for (const key of wanted) {
    if (key < low) low = key;
    if (key > high) high = key;
  }
  const keys = (column: Prisma.Sql) =>
    Prisma.sql`${column} BETWEEN ${low} AND ${high} AND ${column} = ANY(${numberArray(wanted)}::int[])`;
  const [found] = await tx.$queryRaw<{ stored: number; keys: number[] | null }[]>`
    SELECT count(*)::int AS stored, CASE WHEN count(*) BETWEEN 1 AND ${wanted.length - 1} THEN array_agg(key) END AS keys
      FROM (${query(keys)}) found`;
  if (!found || found.stored === 0) return all;
  // No list: all were found (a batch that names a number twice finds fewer, and gets its list).
  if (!found.keys) return [];
  const stored = new Set(found.keys);
  return all.filter((row) => !stored.has(keyOf(row)));
}

/** Marks the pump records of inconsistent bolus calculations (known only once the whole upload is read). */
export async function flagBolusChecks(
  tx: SqlTx,
  t: Omit<BatchTarget, "uploadId">,
  recordIds: readonly number[],
): Promise<void> {
  if (recordIds.length === 0) return;
  await tx.$executeRaw`
    UPDATE "PumpRecord" SET "bolusCheckFailed" = true
     WHERE "patientId" = ${t.patientId} AND "pdaSn" = ${t.deviceSn} AND "recordId" = ANY(${numberArray(recordIds)}::int[])`;
}

/**
 * Inserts CGM readings (manual blood values go to {@link insertBgRows}); answers how many were
 * new. A reading may carry the trend its uploader computed (`direction`).
 */
export async function insertCgmRows(
  tx: SqlTx,
  t: BatchTarget & { timeZone: string },
  all: readonly (CgmRow & { direction?: string | null })[],
  { lookUp = true }: LookUp = {},
): Promise<number> {
  if (all.length === 0) return 0;
  // A CGM's history is read from a stored index, but a repeat sends readings already stored.
  const rows = !lookUp
    ? all
    : await unstored(
        tx,
        all,
        (r) => r.eventIndex,
        (keys) =>
          Prisma.sql`SELECT "eventIndex" AS key FROM "CgmRecord" WHERE "patientId" = ${t.patientId} AND "deviceSn" = ${t.deviceSn} AND ${keys(Prisma.sql`"eventIndex"`)}`,
      );
  if (rows.length === 0) return 0;
  const col = <K extends keyof CgmRow>(k: K) => rows.map((r) => r[k]);
  return tx.$executeRaw`
    INSERT INTO "CgmRecord" ("patientId", "deviceSn", "uploadId", "timeZone", "eventIndex", "historyId", "sensorIndex", "eventType", "eventData", "deviceTime", "dateTime", direction)
    SELECT ${t.patientId}, ${t.deviceSn}, ${t.uploadId}, ${t.timeZone}, u.idx, u.hid, u.sensor, u.type, u.mgdl, u.dt, to_timestamp(u.at / 1000.0) ${UTC}, u.dir
      FROM unnest(${numberArray(col("eventIndex"))}::int[], ${numberArray(col("historyId"))}::int[], ${numberArray(col("sensorIndex"))}::int[],
        ${numberArray(col("eventType"))}::int[], ${numberArray(col("mgdl"))}::float8[], ${textArray(col("deviceTime"))}::text[],
        ${numberArray(col("dateTime"))}::float8[], ${textArray(rows.map((r) => r.direction ?? null))}::text[]) AS u(idx, hid, sensor, type, mgdl, dt, at, dir)
    ON CONFLICT ("patientId", "deviceSn", "eventIndex") DO NOTHING`;
}

export type BgRow = {
  recordKey: string;
  mgdl: number;
  deviceTime: string;
  dateTime: number;
  dataOrigin: number | null;
};
export type BgSourceName = "meter" | "cgm_fingerprick" | "cgm_manual" | "pump" | "csv";

/** Inserts blood-glucose readings of one source; answers how many were new. */
export async function insertBgRows(
  tx: SqlTx,
  t: BatchTarget & { timeZone: string; source: BgSourceName },
  rows: readonly BgRow[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const col = <K extends keyof BgRow>(k: K) => rows.map((r) => r[k]);
  return tx.$executeRaw`
    INSERT INTO "BgRecord" ("patientId", "deviceSn", "uploadId", "timeZone", source, "recordKey", mgdl, "deviceTime", "dataOrigin", "dateTime")
    SELECT ${t.patientId}, ${t.deviceSn}, ${t.uploadId}, ${t.timeZone}, ${t.source}::"BgSource", u.key, u.mgdl, u.dt, u.origin, to_timestamp(u.at / 1000.0) ${UTC}
      FROM unnest(${textArray(col("recordKey"))}::text[], ${numberArray(col("mgdl"))}::float8[], ${textArray(col("deviceTime"))}::text[],
        ${numberArray(col("dataOrigin"))}::int[], ${numberArray(col("dateTime"))}::float8[])
        AS u(key, mgdl, dt, origin, at)
    ON CONFLICT ("patientId", "deviceSn", source, "recordKey") DO NOTHING`;
}

export type KeyedCarbRow = { recordKey: string; grams: number; dateTime: number };

/** Inserts the carbohydrate entries of an imported file; answers how many were new. */
export async function insertCarbRows(
  tx: SqlTx,
  t: BatchTarget,
  rows: readonly KeyedCarbRow[],
): Promise<number> {
  if (rows.length === 0) return 0;
  return tx.$executeRaw`
    INSERT INTO "CarbEntry" ("patientId", "deviceSn", "uploadId", "recordKey", grams, "dateTime")
    SELECT ${t.patientId}, ${t.deviceSn}, ${t.uploadId}, u.key, u.grams, to_timestamp(u.at / 1000.0) ${UTC}
      FROM unnest(${textArray(rows.map((r) => r.recordKey))}::text[], ${numberArray(rows.map((r) => r.grams))}::float8[],
        ${numberArray(rows.map((r) => r.dateTime))}::float8[]) AS u(key, grams, at)
    ON CONFLICT ("patientId", "deviceSn", "recordKey") DO NOTHING`;
}

export type KeyedInsulinRow = {
  recordKey: string;
  units: number;
  kind: "rapid" | "long";
  dateTime: number;
};

/** Inserts the insulin doses of an imported file; answers how many were new. */
export async function insertInsulinRows(
  tx: SqlTx,
  t: BatchTarget,
  rows: readonly KeyedInsulinRow[],
): Promise<number> {
  if (rows.length === 0) return 0;
  return tx.$executeRaw`
    INSERT INTO "InsulinEntry" ("patientId", "deviceSn", "uploadId", "recordKey", kind, units, "dateTime")
    SELECT ${t.patientId}, ${t.deviceSn}, ${t.uploadId}, u.key, u.kind::"InsulinKind", u.units, to_timestamp(u.at / 1000.0) ${UTC}
      FROM unnest(${textArray(rows.map((r) => r.recordKey))}::text[], ${textArray(rows.map((r) => r.kind))}::text[],
        ${numberArray(rows.map((r) => r.units))}::float8[], ${numberArray(rows.map((r) => r.dateTime))}::float8[])
        AS u(key, kind, units, at)
    ON CONFLICT ("patientId", "deviceSn", "recordKey") DO NOTHING`;
}

/** The keys of one device's records that an import would add, by table. */
export type StoredKeyQuery = {
  cgm: number[];
  bg: { source: BgSourceName; recordKey: string }[];
  carbs: string[];
  insulin: string[];
  pump: number[];
};

/** How many of these records the patient already has for the device (an import's preview). */
export async function countStoredKeys(
  tx: SqlTx,
  t: { patientId: number; deviceSn: string },
  keys: StoredKeyQuery,
): Promise<number> {
  const rows = await tx.$queryRaw<{ n: bigint }[]>`
    SELECT (SELECT count(*) FROM "CgmRecord" WHERE "patientId" = ${t.patientId} AND "deviceSn" = ${t.deviceSn} AND "eventIndex" = ANY(${numberArray(keys.cgm)}::int[]))
         + (SELECT count(*) FROM "BgRecord" b JOIN unnest(${textArray(keys.bg.map((k) => k.source))}::text[], ${textArray(keys.bg.map((k) => k.recordKey))}::text[]) AS u(source, key)
              ON b.source::text = u.source AND b."recordKey" = u.key
             WHERE b."patientId" = ${t.patientId} AND b."deviceSn" = ${t.deviceSn})
         + (SELECT count(*) FROM "CarbEntry" WHERE "patientId" = ${t.patientId} AND "deviceSn" = ${t.deviceSn} AND "recordKey" = ANY(${textArray(keys.carbs)}::text[]))
         + (SELECT count(*) FROM "InsulinEntry" WHERE "patientId" = ${t.patientId} AND "deviceSn" = ${t.deviceSn} AND "recordKey" = ANY(${textArray(keys.insulin)}::text[]))
         + (SELECT count(*) FROM "PumpRecord" WHERE "patientId" = ${t.patientId} AND "pdaSn" = ${t.deviceSn} AND "recordId" = ANY(${numberArray(keys.pump)}::int[])) AS n`;
  return Number(rows[0]?.n ?? 0);
}

/** Whether the device was already uploaded for another patient. */
export async function deviceOfAnotherPatient(
  tx: SqlTx,
  kind: DeviceKind,
  serial: string,
  patientId: number,
): Promise<boolean> {
  const rows = await tx.$queryRaw<{ other: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM "Device" WHERE kind = ${kind}::"DeviceKind" AND serial = ${serial} AND "patientId" <> ${patientId}) AS other`;
  return rows[0]?.other ?? false;
}

/** Records the device for the patient (the first uploader kept), with its newest firmware and zone. */
export async function touchDevice(
  tx: SqlTx,
  d: {
    kind: DeviceKind;
    serial: string;
    patientId: number;
    uploaderId: number;
    firmware: string | null;
    timeZone: string;
  },
) {
  const now = new Date();
  await tx.$executeRaw`
    INSERT INTO "Device" (kind, serial, "patientId", "firstUploaderId", firmware, "timeZone", "firstSeenAt", "lastUploadAt")
    VALUES (${d.kind}::"DeviceKind", ${d.serial}, ${d.patientId}, ${d.uploaderId}, ${d.firmware}, ${d.timeZone}, ${now}, ${now})
    ON CONFLICT ("patientId", kind, serial) DO UPDATE SET "lastUploadAt" = EXCLUDED."lastUploadAt",
      "timeZone" = EXCLUDED."timeZone", firmware = COALESCE(EXCLUDED.firmware, "Device".firmware)`;
}

/** Replaces the handheld's basal presets of these indexes for the patient (U/h per half hour). */
export async function upsertBasalPresets(
  tx: Tx,
  d: {
    patientId: number;
    pdaSn: string;
    pdaVersion: string;
    pdaTimeZone: string | null;
    presets: readonly { settingIndex: number; name: string; valueArray: number[] }[];
  },
) {
  for (const p of d.presets) {
    const values = {
      name: p.name,
      valueArray: p.valueArray,
      pdaVersion: d.pdaVersion,
      pdaTimeZone: d.pdaTimeZone,
      uploadedAt: new Date(),
    };
    await tx.basalSetting.upsert({
      where: {
        patientId_pdaSn_settingIndex: {
          patientId: d.patientId,
          pdaSn: d.pdaSn,
          settingIndex: p.settingIndex,
        },
      },
      create: { patientId: d.patientId, pdaSn: d.pdaSn, settingIndex: p.settingIndex, ...values },
      update: values,
    });
  }
}

export type PumpSettingValues = Omit<
  Prisma.PumpSettingUncheckedCreateInput,
  "id" | "patientId" | "pdaSn" | "uploadedAt"
>;

/** Stores the handheld's settings for the patient (one row per handheld). */
export async function upsertPumpSetting(
  tx: Tx,
  d: { patientId: number; pdaSn: string; values: PumpSettingValues },
) {
  const values = { ...d.values, uploadedAt: new Date() };
  await tx.pumpSetting.upsert({
    where: { patientId_pdaSn: { patientId: d.patientId, pdaSn: d.pdaSn } },
    create: { patientId: d.patientId, pdaSn: d.pdaSn, ...values },
    update: values,
  });
}
