import type { DeviceKind, UploadTask } from "@prisma/client";
import type { SqlTx as Tx } from "~/models/direct-sql.server";
import {
  CGM_MANUAL_ORIGIN,
  CgmProcessor,
  MeterProcessor,
  PumpProcessor,
  type Added,
  type CgmRow,
  type MeterRow,
  type PumpRow,
  type Refusal,
  type UploadCounters,
} from "~/ingest/process";
import {
  type BatchTarget,
  deviceOfAnotherPatient,
  flagBolusChecks,
  insertBgRows,
  insertCgmRows,
  insertPumpRows,
  touchDevice,
} from "~/models/device-records.server";
import {
  logUpload,
  markDone,
  markNewUploadForReaders,
  type TaskOutcome,
} from "~/models/upload-task.server";
import { yieldToForeground } from "~/utils/foreground.server";

/**
 * The ingestion module's writing half: a task's records go through the processing rules of
 * app/ingest and are written in batches in the caller's transaction, and the task is closed with
 * its summary. app/services/ingest.server.ts (the calls) and upload-early-write.server.ts (a
 * sliced upload written while its slices arrive) use it.
 */

/** Rows written per INSERT: large enough to amortise a statement, small enough to bound memory. */
export const WRITE_BATCH = 5000;

/** Processes one upload's records batch by batch and writes them; one per task and transaction. */
export interface Ingestor {
  readonly counters: UploadCounters;
  inserted: number;
  flaggedCount: number;
  /** Processes and writes (in batches) the next records; a refusal stops the upload. */
  add(tx: Tx, records: unknown[]): Promise<Refusal | null>;
  finish(tx: Tx): Promise<void>;
}

export type TaskTarget = {
  id: number;
  patientId: number;
  deviceKind: DeviceKind;
  deviceSn: string;
  pdaVersion: string | null;
  timeZone: string;
};

/**
 * The ingestor of a task's records; rows are written once `batchRows` of them wait (the early
 * writer of a sliced upload writes each slice's rows as the slice arrives).
 */
export function ingestorFor(task: TaskTarget, batchRows = WRITE_BATCH): Ingestor {
  const target = { patientId: task.patientId, deviceSn: task.deviceSn, uploadId: task.id };
  if (task.deviceKind === "equil") return pumpIngestor(task, target, batchRows);
  if (task.deviceKind === "aidex") return cgmIngestor(task, target, batchRows);
  return meterIngestor(task, target, batchRows);
}

function buffered<Row>(write: (tx: Tx, rows: Row[]) => Promise<number>, batchRows: number) {
  let buffer: Row[] = [];
  return {
    inserted: 0,
    async push(tx: Tx, rows: Row[]) {
      buffer.push(...rows);
      if (buffer.length >= batchRows) await this.flush(tx);
    },
    async flush(tx: Tx) {
      const rows = buffer;
      buffer = [];
      this.inserted += await write(tx, rows);
    },
  };
}

/** Where a processor's rows go: the ones `pick` chooses, written by `write` in batches. */
type Sink<Row> = { pick: (rows: Row[]) => Row[]; write: (tx: Tx, rows: Row[]) => Promise<number> };

/** An ingestor of a processor's rows into its sinks; `afterAll` runs last and answers the flagged count. */
function ingestorOf<Row>(
  processor: { counters: UploadCounters; add(records: never): Added<Row> },
  sinks: Sink<Row>[],
  batchRows: number,
  afterAll?: (tx: Tx) => Promise<number>,
): Ingestor {
  const outputs = sinks.map((sink) => ({ pick: sink.pick, rows: buffered(sink.write, batchRows) }));
  return {
    counters: processor.counters,
    get inserted() {
      return outputs.reduce((n, o) => n + o.rows.inserted, 0);
    },
    flaggedCount: 0,
    async add(tx, records) {
      const out = processor.add(records as never);
      if (!out.ok) return out.refusal;
      // Processing a batch and binding its rows are each some milliseconds of the server's one
      // thread: requests waiting meanwhile go between them.
      await yieldToForeground();
      for (const o of outputs) await o.rows.push(tx, o.pick(out.rows));
      return null;
    },
    async finish(tx) {
      for (const o of outputs) await o.rows.flush(tx);
      if (afterAll) this.flaggedCount = await afterAll(tx);
    },
  };
}

const every = <Row>(rows: Row[]) => rows;

/**
 * A batch writer that looks up the stored records of a batch only while the upload meets stored
 * records: after a batch that was all new, the next goes straight to its INSERT (which still
 * skips any duplicate), and a batch with a duplicate turns the look-up back on. A repeated
 * upload keeps looking up; a new one saves a statement per batch.
 */
function lookingUpWhileStored<Row>(
  insert: (tx: Tx, rows: Row[], lookUp: boolean) => Promise<number>,
): (tx: Tx, rows: Row[]) => Promise<number> {
  let lookUp = true;
  return async (tx, rows) => {
    const inserted = await insert(tx, rows, lookUp);
    lookUp = inserted < rows.length;
    return inserted;
  };
}

function pumpIngestor(task: TaskTarget, target: BatchTarget, batchRows: number): Ingestor {
  const processor = new PumpProcessor(
    { pid: task.patientId, pdaSn: task.deviceSn, version: task.pdaVersion },
    task.timeZone,
  );
  return ingestorOf(
    processor,
    [
      {
        pick: every,
        write: lookingUpWhileStored((tx, rows: PumpRow[], lookUp) =>
          insertPumpRows(tx, target, rows, { lookUp }),
        ),
      },
    ],
    batchRows,
    async (tx) => {
      const flagged = processor.flagged();
      await flagBolusChecks(tx, target, flagged);
      return flagged.length;
    },
  );
}

function cgmIngestor(task: TaskTarget, target: BatchTarget, batchRows: number): Ingestor {
  const where = { ...target, timeZone: task.timeZone };
  const manualRow = (r: CgmRow) => ({
    recordKey: String(r.eventIndex),
    mgdl: r.mgdl,
    deviceTime: r.deviceTime,
    dateTime: r.dateTime,
    dataOrigin: CGM_MANUAL_ORIGIN,
  });
  return ingestorOf(
    new CgmProcessor(task.deviceSn, task.timeZone),
    [
      {
        pick: (rows) => rows.filter((r) => !r.manual),
        write: lookingUpWhileStored((tx, rows: CgmRow[], lookUp) =>
          insertCgmRows(tx, where, rows, { lookUp }),
        ),
      },
      {
        pick: (rows) => rows.filter((r) => r.manual),
        write: (tx, rows: CgmRow[]) =>
          insertBgRows(tx, { ...where, source: "cgm_manual" }, rows.map(manualRow)),
      },
    ],
    batchRows,
  );
}

function meterIngestor(task: TaskTarget, target: BatchTarget, batchRows: number): Ingestor {
  const where = { ...target, timeZone: task.timeZone, source: "meter" as const };
  return ingestorOf(
    new MeterProcessor(task.deviceSn, task.timeZone),
    [
      {
        pick: every,
        write: (tx, rows: MeterRow[]) =>
          insertBgRows(
            tx,
            where,
            rows.map((r) => ({ ...r, dataOrigin: null })),
          ),
      },
    ],
    batchRows,
  );
}

export class RefusedUpload extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.key);
  }
}

/**
 * Writes one task's records (read by `nextRecords` in the app's names, batch after batch, until it
 * answers null) in the caller's transaction, and closes the task with its summary. Throws
 * {@link RefusedUpload} when a record breaks a rule, so that the transaction writes nothing.
 */
export async function writeTask(
  tx: Tx,
  task: UploadTask,
  nextRecords: (index: number) => Promise<unknown[] | null>,
  batchRows = WRITE_BATCH,
): Promise<UploadTask> {
  const ingestor = ingestorFor(task, batchRows);
  let total = 0;
  for (let index = 0; ; index++) {
    const records = await nextRecords(index);
    if (records === null) break;
    total += records.length;
    const refusal = await ingestor.add(tx, records);
    if (refusal) throw new RefusedUpload(refusal);
  }
  await ingestor.finish(tx);
  return closeTask(tx, task, {
    total,
    inserted: ingestor.inserted,
    flagged: ingestor.flaggedCount,
    counters: ingestor.counters,
  });
}

/** Ends a written task: its summary, the device, the readers' "new data" mark and the patient's log. */
export async function closeTask(
  tx: Tx,
  task: UploadTask,
  result: { total: number; inserted: number; flagged: number; counters: UploadCounters },
): Promise<UploadTask> {
  const { inserted, counters: c } = result;
  const outcome: TaskOutcome = {
    insertedCount: inserted,
    duplicateCount: result.total - c.skipped - inserted,
    flaggedCount: result.flagged,
    skippedCount: c.skipped,
    dstGapCount: c.dstGap,
    dstOverlapCount: c.dstOverlap,
    otherPatientDevice: await deviceOfAnotherPatient(
      tx,
      task.deviceKind,
      task.deviceSn,
      task.patientId,
    ),
    firstAt: c.first === null ? null : new Date(c.first),
    lastAt: c.last === null ? null : new Date(c.last),
  };
  await touchDevice(tx, {
    kind: task.deviceKind,
    serial: task.deviceSn,
    patientId: task.patientId,
    uploaderId: task.uploaderId,
    firmware: task.pdaVersion,
    timeZone: task.timeZone,
  });
  if (inserted > 0) await markNewUploadForReaders(tx, task.patientId);
  await logUpload(tx, {
    actorId: task.uploaderId,
    patientId: task.patientId,
    kind: task.deviceKind,
    taskId: task.id,
    inserted,
  });
  return markDone(tx, task.id, outcome);
}

/** Long uploads run in one transaction; PostgreSQL keeps it consistent, this only bounds a stuck one. */
export const TRANSACTION = { timeout: 10 * 60_000, maxWait: 30_000 } as const;
