import type { UploadTask } from "@prisma/client";
import pLimit from "p-limit";
import { databaseConnections } from "~/models/transaction.server";
import { holdTransaction, type SqlTx } from "~/models/direct-sql.server";
import { lockTask, takeTaskTurn } from "~/models/upload-task.server";
import { SLICE_MAX_RECORDS } from "~/schemas/upload";
import { giveWay } from "~/utils/foreground.server";
import { logger } from "~/utils/logger.server";
import { closeTask, ingestorFor, type Ingestor, type TaskTarget } from "./ingest-write.server";

/**
 * Early writing of a sliced upload: while the operator's browser is still sending slices, this
 * server writes each stored slice's records in one database transaction kept open for the task,
 * so that PostgreSQL's work of inserting and indexing overlaps the upload instead of following it.
 * The transaction commits only when the task's job finishes it (every slice written, the task
 * closed with its summary): until then nobody sees any of its records, and a server that stops
 * takes the whole transaction with it.
 *
 * It only ever speeds an upload up. The stored slices stay the truth: whenever the early writer
 * cannot finish a task (a slice was stored by another server, a rule refused a record, the browser
 * went quiet, a statement failed, all writers were busy), its transaction is rolled back and the
 * job writes the task from its slices as before. The job takes the task's turn (an advisory lock
 * the early writer holds), so it never writes while an early writer elsewhere is still open.
 */

/** Slices written but not yet acknowledged to wait for: bounds memory and the writer's lag. */
const BACKLOG = 2;
/** A writer that receives no slice for this long gives up (the job writes the task later). */
export const EARLY_WRITER_IDLE_MS = 5_000;
/** How long an upload waits for a database connection for its writer before going without. */
const OPEN_WAIT_MS = 200;

/** Concurrent early writers on this server: a third of its database connections, none on one. */
const capacity = () => Math.floor(databaseConnections() / 3);
/**
 * The writers of several uploads take turns, one slice at a time: together they are no more work
 * for the server's thread and the database at any moment than one upload, so pages keep their pace
 * while several operators upload.
 */
const writeTurns = pLimit(1);

type Writer = {
  task: TaskTarget;
  /** The index of the next slice it writes. */
  next: number;
  /** Records handed to it. */
  total: number;
  ingestor: Ingestor;
  /** Its open transaction, once begun. */
  tx: Promise<SqlTx>;
  /** The writes handed to it, in order; the last BACKLOG of them. */
  pending: Promise<void>[];
  broken: boolean;
  idle: ReturnType<typeof setTimeout>;
  /** Ends the transaction: commits with the closed task, or rolls back. */
  settle: (closed: UploadTask | null) => void;
  /** The transaction's end: the committed task, or null when it rolled back. */
  ended: Promise<UploadTask | null>;
};

declare global {
  // Slices are stored by the app build's copy of this module and tasks finished by the job
  // (the server's own import): both must find the same writers.

  var __diacareEarlyWriters: Map<number, Writer> | undefined;
}

function writers(): Map<number, Writer> {
  globalThis.__diacareEarlyWriters ??= new Map();
  return globalThis.__diacareEarlyWriters;
}

/** A writer's unexpected failure (a refused record is expected: the job reports it). */
function logFailure(taskId: number, error: unknown): void {
  logger().warn(
    { taskId, err: error instanceof Error ? error.message : String(error) },
    "early upload writer failed; the job writes the task from its slices",
  );
}

function open(task: TaskTarget): Writer {
  const held = holdTransaction<UploadTask>(
    (tx) => takeTaskTurn(tx, task.id),
    OPEN_WAIT_MS,
    (error) => logFailure(task.id, error),
  );
  const writer: Writer = {
    task,
    next: 0,
    total: 0,
    ingestor: ingestorFor(task, SLICE_MAX_RECORDS),
    tx: held.tx,
    pending: [],
    broken: false,
    idle: setTimeout(() => drop(writer), EARLY_WRITER_IDLE_MS).unref(),
    settle: held.end,
    ended: held.ended,
  };
  return writer;
}

/**
 * Whether a writer is open here for this patient. A patient has one at a time: two would wait for
 * each other's uncommitted rows (the same device twice, the daily CGM figures' lock) while holding
 * the writers' turn, and stall until one gave up.
 */
function writingFor(patientId: number): boolean {
  for (const writer of writers().values()) if (writer.task.patientId === patientId) return true;
  return false;
}

/** Rolls a writer back and forgets it. */
function drop(writer: Writer): void {
  writer.broken = true;
  clearTimeout(writer.idle);
  if (writers().get(writer.task.id) === writer) writers().delete(writer.task.id);
  writer.settle(null);
}

/**
 * Hands slice `index` of a task, just stored, to the task's early writer on this server (opening
 * one with its first slice when a writer is free): its records as checked and stored, in the
 * app's names. Resolves once the writer's backlog allows the next slice: the caller answers after
 * that. An upload of one slice gets a writer too: its records are written while the browser
 * calls completeSliceTask, and the job only closes the task.
 */
export function writeEarly(task: TaskTarget, index: number, records: unknown[]): Promise<void> {
  let writer = writers().get(task.id);
  if (writer && writer.next !== index) {
    drop(writer);
    return Promise.resolve();
  }
  if (!writer) {
    if (index !== 0) return Promise.resolve();
    if (writers().size >= capacity() || writingFor(task.patientId)) return Promise.resolve();
    writer = open(task);
    writers().set(task.id, writer);
  }
  const w = writer;
  w.next++;
  w.idle.refresh();
  const step = (w.pending.at(-1) ?? Promise.resolve()).then(() =>
    writeTurns(async () => {
      if (w.broken) return;
      try {
        await giveWay();
        w.total += records.length;
        if (await w.ingestor.add(await w.tx, records)) drop(w);
      } catch (error) {
        if (!w.broken) logFailure(task.id, error);
        drop(w);
      }
    }),
  );
  w.pending.push(step);
  const waitFor = w.pending.length > BACKLOG ? w.pending.shift() : undefined;
  return waitFor ?? Promise.resolve();
}

/** Rolls back this server's early writer of a task, if any (the upload was abandoned). */
export function dropEarlyWriter(taskId: number): void {
  const writer = writers().get(taskId);
  if (writer) drop(writer);
}

/**
 * Finishes a task's early writer on this server, if there is one and it holds every slice of the
 * task: the last rows, the summary, commit. Answers the closed task, or null when there is no
 * usable writer here (it is then rolled back, and the caller writes the task from its slices).
 */
export async function finishEarly(taskId: number): Promise<UploadTask | null> {
  const writer = writers().get(taskId);
  if (!writer) return null;
  writers().delete(taskId);
  clearTimeout(writer.idle);
  await Promise.all(writer.pending);
  if (writer.broken) return writer.ended.then(() => null);
  try {
    const tx = await writer.tx;
    const task = await lockTask(tx, taskId);
    if (!task || task.status !== "processing" || task.sliceCount !== writer.next) {
      drop(writer);
      return writer.ended.then(() => null);
    }
    await writer.ingestor.finish(tx);
    const closed = await closeTask(tx, task, {
      total: writer.total,
      inserted: writer.ingestor.inserted,
      flagged: writer.ingestor.flaggedCount,
      counters: writer.ingestor.counters,
    });
    writer.settle(closed);
  } catch (error) {
    logFailure(taskId, error);
    drop(writer);
  }
  return writer.ended;
}
