import {
  Prisma,
  type DeviceKind,
  type UploadChannel,
  type UploadStatus,
  type UploadTask,
} from "@prisma/client";
import { ShareState } from "~/domain/codes";
import type { Cursor, PageRead } from "~/domain/keyset";
import { db } from "~/utils/db.server";
import { visiblePatientSql, type Viewer } from "./access.server";
import { direct, type SqlTx } from "./direct-sql.server";

/**
 * Upload tasks and their stored slices, for the ingestion module (app/services/ingest.server.ts).
 * A slice is stored before it is acknowledged, so nothing the browser was told "saved" is lost
 * when the server stops; a task is processed from its slices in one transaction.
 */

type Tx = Prisma.TransactionClient;

export async function createTask(
  data: {
    patientId: number;
    uploaderId: number;
    channel: UploadChannel;
    deviceKind: DeviceKind;
    deviceSn: string;
    pdaVersion: string | null;
    timeZone: string;
    expectedCount: number;
    status?: "open" | "processing";
  },
  tx: SqlTx = direct(),
): Promise<UploadTask> {
  // Every upload opens one: straight to the driver outside a transaction, one statement either way.
  const now = new Date();
  const status = data.status ?? "open";
  const rows = await tx.$queryRaw<UploadTask[]>`
    INSERT INTO "UploadTask" ("patientId", "uploaderId", channel, "deviceKind", "deviceSn", "pdaVersion", "timeZone", "expectedCount", status, "queuedAt", "createdAt")
    VALUES (${data.patientId}, ${data.uploaderId}, ${data.channel}::"UploadChannel", ${data.deviceKind}::"DeviceKind", ${data.deviceSn}, ${data.pdaVersion}, ${data.timeZone}, ${data.expectedCount}, ${status}::"UploadStatus", ${status === "processing" ? now : null}, ${now})
    RETURNING *`;
  return rows[0]!;
}

/** The task, locked for the rest of the transaction (slices of one task are taken one at a time). */
export async function lockTask(tx: SqlTx, id: number): Promise<UploadTask | null> {
  const rows = await tx.$queryRaw<
    UploadTask[]
  >`SELECT * FROM "UploadTask" WHERE id = ${id} FOR UPDATE`;
  return rows[0] ?? null;
}

/**
 * Waits for, then holds until the transaction ends, the one turn at writing this task's records:
 * the job and the early writer of a sliced upload (which may run on another server) take it
 * before writing, so the job never writes while an early writer's transaction is still open.
 */
export async function takeTaskTurn(tx: SqlTx, id: number): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('upload-task'), ${id}::int)`;
}

/** Whether a stored slice holds exactly this payload (a repeat of a slice whose answer was lost). */
export async function sameSlice(taskId: number, index: number, payload: string): Promise<boolean> {
  const rows = await direct().$queryRaw<{ same: boolean }[]>`
    SELECT payload = ${payload} AS same FROM "UploadSlice" WHERE "taskId" = ${taskId} AND "sliceIndex" = ${index}`;
  return rows[0]?.same ?? false;
}

/** A task as it stands (no lock: the slice store below re-checks what it relies on). */
export async function taskRow(id: number): Promise<UploadTask | null> {
  const rows = await direct().$queryRaw<UploadTask[]>`SELECT * FROM "UploadTask" WHERE id = ${id}`;
  const task = rows[0] ?? null;
  if (task) keepFacts(task);
  return task;
}

/** What is fixed when a task is opened: who uploads for whom, from which device, how much. */
export type TaskFacts = Pick<
  UploadTask,
  | "id"
  | "uploaderId"
  | "patientId"
  | "deviceKind"
  | "deviceSn"
  | "pdaVersion"
  | "timeZone"
  | "expectedCount"
>;

/** Tasks whose facts this server keeps (the oldest is forgotten first). */
const FACTS_KEPT = 1_000;
const knownFacts = new Map<number, TaskFacts>();

function keepFacts(task: UploadTask): void {
  if (knownFacts.has(task.id)) return;
  if (knownFacts.size >= FACTS_KEPT) knownFacts.delete(knownFacts.keys().next().value!);
  const { id, uploaderId, patientId, deviceKind, deviceSn, pdaVersion, timeZone, expectedCount } =
    task;
  knownFacts.set(id, {
    id,
    uploaderId,
    patientId,
    deviceKind,
    deviceSn,
    pdaVersion,
    timeZone,
    expectedCount,
  });
}

/**
 * A task's facts, read once per server: an upload's slices arrive one after another, and none of
 * these ever change, so each slice after the first costs a statement less. Whether the task is
 * still open is not a fact: the slice store checks it in the statement that stores.
 */
export async function taskFacts(id: number): Promise<TaskFacts | null> {
  return knownFacts.get(id) ?? (await taskRow(id));
}

/**
 * Stores slice `index` of an open task in one statement (its own transaction): only while the
 * task is open, `index` is the next slice and the records stay within the announced total, the
 * slice is inserted and the task's counts grow. Answers the task's record count after it, or
 * null when the task had changed (another request stored or closed it first): the caller reads
 * the task again and answers from what it finds.
 */
export async function storeNextSlice(
  taskId: number,
  index: number,
  slice: { payload: string; recordCount: number },
): Promise<number | null> {
  const rows = await direct().$queryRaw<{ recordCount: number }[]>`
    WITH task AS (
      UPDATE "UploadTask" SET "sliceCount" = "sliceCount" + 1, "recordCount" = "recordCount" + ${slice.recordCount}
       WHERE id = ${taskId} AND status = 'open' AND "sliceCount" = ${index}
         AND "recordCount" + ${slice.recordCount} <= "expectedCount"
      RETURNING id, "recordCount"
    ), slice AS (
      INSERT INTO "UploadSlice" ("taskId", "sliceIndex", "recordCount", payload)
      SELECT id, ${index}, ${slice.recordCount}, ${slice.payload} FROM task
    )
    SELECT "recordCount" FROM task`;
  return rows[0]?.recordCount ?? null;
}

/**
 * The payloads of slices `from` to `from + count - 1`, each at its place (null for one not
 * stored): a few at a time, as an upload is never held in memory whole, in one statement to save
 * round trips.
 */
export async function slicePayloads(
  tx: Tx,
  taskId: number,
  from: number,
  count: number,
): Promise<(string | null)[]> {
  const rows = await tx.$queryRaw<{ sliceIndex: number; payload: string }[]>`
    SELECT "sliceIndex", payload FROM "UploadSlice"
     WHERE "taskId" = ${taskId} AND "sliceIndex" >= ${from} AND "sliceIndex" < ${from + count}`;
  const payloads = Array.from({ length: count }, (): string | null => null);
  for (const row of rows) payloads[row.sliceIndex - from] = row.payload;
  return payloads;
}

/**
 * Hands an open task whose every announced record has arrived to processing, in one statement
 * (its own transaction), when `uploaderId` is its operator. Answers whether it did: when not, the
 * caller reads the task to answer why.
 */
export async function queueIfComplete(id: number, uploaderId: number): Promise<boolean> {
  const rows = await direct().$queryRaw<{ id: number }[]>`
    UPDATE "UploadTask" SET status = 'processing', "queuedAt" = ${new Date()}
     WHERE id = ${id} AND "uploaderId" = ${uploaderId} AND status = 'open' AND "recordCount" = "expectedCount"
    RETURNING id`;
  return rows.length > 0;
}

export async function markQueued(tx: Tx, id: number): Promise<void> {
  await tx.uploadTask.update({
    where: { id },
    data: { status: "processing", queuedAt: new Date() },
  });
}

/** Ends a task that wrote nothing: abandoned by the operator, or refused by a rule. Its slices go. */
export async function markFailed(
  tx: Tx,
  id: number,
  error: string,
  values: Record<string, string | number> = {},
): Promise<void> {
  await tx.uploadSlice.deleteMany({ where: { taskId: id } });
  await tx.uploadTask.update({
    where: { id },
    data: { status: "failed", error, errorValues: values, completedAt: new Date() },
  });
}

export type TaskOutcome = {
  insertedCount: number;
  duplicateCount: number;
  flaggedCount: number;
  skippedCount: number;
  dstGapCount: number;
  dstOverlapCount: number;
  otherPatientDevice: boolean;
  firstAt: Date | null;
  lastAt: Date | null;
};

/** Ends a processed task with its summary; its slices go (the records are stored). */
export async function markDone(tx: SqlTx, id: number, o: TaskOutcome): Promise<UploadTask> {
  await tx.$executeRaw`DELETE FROM "UploadSlice" WHERE "taskId" = ${id}`;
  const rows = await tx.$queryRaw<UploadTask[]>`
    UPDATE "UploadTask" SET status = 'done', "completedAt" = ${new Date()},
      "insertedCount" = ${o.insertedCount}, "duplicateCount" = ${o.duplicateCount},
      "flaggedCount" = ${o.flaggedCount}, "skippedCount" = ${o.skippedCount},
      "dstGapCount" = ${o.dstGapCount}, "dstOverlapCount" = ${o.dstOverlapCount},
      "otherPatientDevice" = ${o.otherPatientDevice}, "firstAt" = ${o.firstAt}, "lastAt" = ${o.lastAt}
     WHERE id = ${id} RETURNING *`;
  return rows[0]!;
}

/** A task of this operator, or null (another account's task is no concern of theirs). */
export async function taskOf(uploaderId: number, id: number): Promise<UploadTask | null> {
  const rows = await direct().$queryRaw<
    UploadTask[]
  >`SELECT * FROM "UploadTask" WHERE id = ${id} AND "uploaderId" = ${uploaderId}`;
  return rows[0] ?? null;
}

/** Tasks handed to the queue before `before` and still not processed (the server stopped, or the job was lost). */
export async function staleTasks(before: Date): Promise<number[]> {
  const rows = await db().uploadTask.findMany({
    where: { status: "processing", channel: "slices", queuedAt: { lt: before } },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  return rows.map((r) => r.id);
}

/** Tells the readers of a patient's data that there are new uploads (the dot on their patient list). */
export async function markNewUploadForReaders(tx: SqlTx, patientId: number): Promise<void> {
  await tx.$executeRaw`
    UPDATE "ReadPower" rp SET "uploadIsNew" = 0 FROM "Patient" p WHERE p.id = ${patientId} AND rp."providerId" = p."userId" AND rp.state = ${ShareState.Accepted}`;
}

/** The record of an upload in the patient's log of changes (who uploaded what). */
export async function logUpload(
  tx: SqlTx,
  entry: { actorId: number; patientId: number; kind: DeviceKind; taskId: number; inserted: number },
): Promise<void> {
  const detail = JSON.stringify({ taskId: entry.taskId, inserted: entry.inserted });
  await tx.$executeRaw`INSERT INTO "AuditLog" ("actorId", "patientId", action, detail) VALUES (${entry.actorId}, ${entry.patientId}, ${`upload:${entry.kind}`}, ${detail}::jsonb)`;
}

/** One upload of a patient's history, with its operator's names. */
export type UploadHistoryRow = Pick<
  UploadTask,
  | "id"
  | "createdAt"
  | "deviceKind"
  | "deviceSn"
  | "channel"
  | "status"
  | "insertedCount"
  | "duplicateCount"
  | "flaggedCount"
  | "skippedCount"
  | "dstGapCount"
  | "dstOverlapCount"
  | "otherPatientDevice"
  | "firstAt"
  | "lastAt"
  | "error"
  | "errorValues"
  | "uploaderId"
> & { uploader: { email: string; firstName: string | null; lastName: string | null } };

type RawHistoryRow = Omit<UploadHistoryRow, "uploader" | "channel" | "deviceKind" | "status"> & {
  channel: string;
  deviceKind: string;
  status: string;
  uploaderEmail: string;
  uploaderFirstName: string | null;
  uploaderLastName: string | null;
};

/**
 * One page of patient `pid`'s uploads, newest first (by creation, then id), and their count. The
 * page is read by offset or from a neighbouring page's edge task (`read`, app/domain/keyset.ts).
 * The access rule is in the WHERE (`visiblePatientSql`, as in patient-data.server.ts): a viewer who
 * may not see the patient reads no row, whoever called.
 */
export async function listPatientUploads(
  viewer: Viewer,
  pid: number,
  { read, pageSize }: { read: PageRead; pageSize: number },
): Promise<{ total: number; rows: UploadHistoryRow[] }> {
  const where = Prisma.sql`t."patientId" = ${pid} AND EXISTS (SELECT 1 FROM "Patient" p WHERE p.id = t."patientId" AND ${visiblePatientSql(viewer, Prisma.sql`p`)})`;
  const key = (cursor: Cursor) =>
    Prisma.sql`(${cursor.at.toISOString().slice(0, -1)}::timestamp(3), ${cursor.id.toString()}::bigint)`;
  const page =
    read.by === "offset"
      ? Prisma.sql`${where} ORDER BY t."createdAt" DESC, t.id DESC LIMIT ${pageSize} OFFSET ${read.skip}`
      : read.by === "after"
        ? Prisma.sql`${where} AND (t."createdAt", t.id) < ${key(read.cursor)} ORDER BY t."createdAt" DESC, t.id DESC LIMIT ${pageSize}`
        : Prisma.sql`${where} AND (t."createdAt", t.id) > ${key(read.cursor)} ORDER BY t."createdAt" ASC, t.id ASC LIMIT ${pageSize}`;
  const found = await db().$queryRaw<RawHistoryRow[]>`
    SELECT t.id, t."createdAt", t."deviceKind"::text AS "deviceKind", t."deviceSn", t.channel::text AS channel, t.status::text AS status,
           t."insertedCount", t."duplicateCount", t."flaggedCount", t."skippedCount", t."dstGapCount", t."dstOverlapCount",
           t."otherPatientDevice", t."firstAt", t."lastAt", t.error, t."errorValues", t."uploaderId",
           u.email AS "uploaderEmail", u."firstName" AS "uploaderFirstName", u."lastName" AS "uploaderLastName"
      FROM "UploadTask" t JOIN "User" u ON u.id = t."uploaderId"
     WHERE ${page}`;
  const rows = read.by === "before" ? found.reverse() : found;
  const total = Number(
    (
      await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "UploadTask" t WHERE ${where}`
    )[0]!.n,
  );
  return {
    total,
    rows: rows.map(
      ({
        uploaderEmail,
        uploaderFirstName,
        uploaderLastName,
        channel,
        deviceKind,
        status,
        ...row
      }) => ({
        ...row,
        channel: channel as UploadChannel,
        deviceKind: deviceKind as DeviceKind,
        status: status as UploadStatus,
        uploader: {
          email: uploaderEmail,
          firstName: uploaderFirstName,
          lastName: uploaderLastName,
        },
      }),
    ),
  };
}
