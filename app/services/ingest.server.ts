import type { UploadTask } from "@prisma/client";
import { inTransaction, noTransaction, type Tx } from "~/models/transaction.server";
import { CGM_MANUAL_ORIGIN, PumpProcessor } from "~/ingest/process";
import { checkPumpVersion } from "~/ingest/pump-rules";
import { findVisiblePatient, type Viewer } from "~/models/access.server";
import { ownPatientId } from "~/models/patient.server";
import {
  type BatchTarget,
  countStoredKeys,
  insertBgRows,
  insertCarbRows,
  insertCgmRows,
  insertInsulinRows,
  type StoredKeyQuery,
  touchDevice,
  upsertBasalPresets,
  upsertPumpSetting,
} from "~/models/device-records.server";
import {
  createTask,
  lockTask,
  markFailed,
  markNewUploadForReaders,
  markQueued,
  queueIfComplete,
  sameSlice,
  slicePayloads,
  storeNextSlice,
  taskOf,
  taskFacts,
  taskRow,
  takeTaskTurn,
} from "~/models/upload-task.server";
import {
  BASAL_SETTING_STEP_UH,
  RECORD_SCHEMAS,
  SLICE_MAX_RECORDS,
  type BasalSaveInput,
  type DeviceKindName,
} from "~/schemas/upload";
import type { PumpSettingsInput } from "~/ingest/records";
import { pumpRecordToWire, recordsFromWire } from "~/wire/upload";
import { decodeSlice, encodeSlice } from "~/ingest/slice-codec";
import { pumpTimeZone } from "~/ingest/device-zone";
import { announceSettled, RECHECK_MS, settledOrAfter } from "./upload-settled.server";
import {
  closeTask,
  RefusedUpload,
  TRANSACTION,
  WRITE_BATCH,
  writeTask,
} from "./ingest-write.server";
import { dropEarlyWriter, finishEarly, writeEarly } from "./upload-early-write.server";
import { groupFileEntries, type FileDeviceKind, type FileGroup } from "~/ingest/file-entries";
import type { CsvDevice, CsvEntry, CsvFormat, CsvLineError } from "~/csv";
import { byDevice, type NsRows } from "~/ingest/nightscout";
import { yieldToForeground } from "~/utils/foreground.server";

/**
 * The ingestion module: the one way device records enter the database (browser uploads, CSV
 * imports and the demo seed alike). It checks who uploads for whom, validates every record,
 * applies the processing rules of app/ingest and writes a task's records in one transaction:
 * either all of an upload is stored (new records inserted, records already stored for the patient
 * counted as duplicates) or none of it, with the reason kept on the task.
 *
 * Sliced uploads: getSliceId opens a task, each sliceSave stores one slice (before answering),
 * completeSliceTask hands the task to the job queue, and the job ({@link processTask}) writes it.
 */

/** A refusal the routes answer: an API code and a translation key of the `upload` namespace. */
export type IngestRefusal = {
  ok: false;
  code: 400 | 404 | 409 | 413;
  key: string;
  /** The answer's `data` and the message's values; a counted message takes its plural form from `count`. */
  values?: Record<string, string | number>;
};
export type IngestResult<T> = { ok: true; data: T } | IngestRefusal;

const refuse = (
  code: IngestRefusal["code"],
  key: string,
  values?: Record<string, string | number>,
): IngestRefusal => ({ ok: false, code, key, ...(values ? { values } : {}) });

/** Stored slices the job reads per statement (a round trip saved, at most 5,000 records held). */
const SLICES_PER_READ = WRITE_BATCH / SLICE_MAX_RECORDS;

/** What checkSave answers once a task is processed. */
export type UploadSummary = {
  status: "done" | "failed";
  inserted: number;
  duplicates: number;
  flagged: number;
  skipped: number;
  dstAdjusted: number;
  otherPatientDevice: boolean;
  firstDate: string | null;
  lastDate: string | null;
  error: string | null;
  errorValues: Record<string, string | number> | null;
};

export function summaryOf(task: UploadTask): UploadSummary | null {
  if (task.status !== "done" && task.status !== "failed") return null;
  return {
    status: task.status,
    inserted: task.insertedCount,
    duplicates: task.duplicateCount,
    flagged: task.flaggedCount,
    skipped: task.skippedCount,
    dstAdjusted: task.dstGapCount + task.dstOverlapCount,
    otherPatientDevice: task.otherPatientDevice,
    firstDate: task.firstAt?.toISOString() ?? null,
    lastDate: task.lastAt?.toISOString() ?? null,
    error: task.error,
    errorValues: (task.errorValues as Record<string, string | number> | null) ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Who may upload, and record checks

/** The patient the viewer may upload for: their own record, or one shared with them. */
async function uploadTarget(viewer: Viewer, pid: number) {
  return findVisiblePatient(viewer, pid);
}

/** Checks a batch of records against the device kind's schema; the first failure names its place. */
export function validateRecords(
  kind: DeviceKindName,
  records: readonly unknown[],
  firstPosition = 1,
): IngestResult<unknown[]> {
  const schema = RECORD_SCHEMAS[kind];
  const out: unknown[] = new Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const parsed = schema.safeParse(records[i]);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join(".") || issue?.message || "record";
      return refuse(
        400,
        issue?.message === "errors.recordId" ? "errors.recordId" : "errors.recordField",
        { position: firstPosition + i, field },
      );
    }
    out[i] = parsed.data;
  }
  return { ok: true, data: out };
}

/**
 * The job: processes a task whose slices are all stored. Safe to run twice or after a crash: a
 * task already done or failed is left alone, and a transaction cut short writes nothing.
 */
export async function processTask(taskId: number): Promise<UploadTask | null> {
  const task = (await finishEarly(taskId)) ?? (await writeQueuedTask(taskId));
  if (task?.status === "done" || task?.status === "failed") announceSettled(taskId);
  return task;
}

async function writeQueuedTask(taskId: number): Promise<UploadTask | null> {
  try {
    return await inTransaction(async (tx) => {
      await takeTaskTurn(tx, taskId);
      const task = await lockTask(tx, taskId);
      if (!task || task.status !== "processing") return task;
      // Only the upload calls' tasks have slices: their kind is a device's.
      const kind = task.deviceKind as DeviceKindName;
      let read: { from: number; payloads: (string | null)[] } = { from: 0, payloads: [] };
      return writeTask(
        tx,
        task,
        async (index) => {
          if (index >= task.sliceCount) return null;
          if (index >= read.from + read.payloads.length)
            read = {
              from: index,
              payloads: await slicePayloads(tx, task.id, index, SLICES_PER_READ),
            };
          return decodeSlice(kind, read.payloads[index - read.from] ?? "[]");
        },
        // Written slice by slice rather than 5,000 rows at a time: the job's work on the server's
        // thread comes in shorter turns, so pages wait less behind uploads being processed.
        SLICE_MAX_RECORDS,
      );
    }, TRANSACTION);
  } catch (error) {
    if (!(error instanceof RefusedUpload)) throw error;
    return inTransaction(async (tx) => {
      await markFailed(tx, taskId, error.refusal.key, error.refusal.values);
      return lockTask(tx, taskId);
    });
  }
}

// ---------------------------------------------------------------------------------------------
// The calls

export type SliceStart = {
  pid: number;
  deviceKind: DeviceKindName;
  deviceSn: string;
  pdaVersion?: string | undefined;
  total: number;
  timeZone?: string | undefined;
};

/** Checks the firmware of a pump upload; other devices' versions are kept as sent. */
function firmwareOf(
  kind: DeviceKindName,
  pdaVersion: string | undefined,
): IngestResult<string | null> {
  if (kind !== "equil") return { ok: true, data: pdaVersion?.trim() || null };
  const check = checkPumpVersion(pdaVersion);
  return check.ok ? { ok: true, data: check.version } : refuse(400, check.key);
}

/** getSliceId: opens a sliced upload; answers the task id. */
export async function openSlicedUpload(
  viewer: Viewer,
  input: SliceStart,
): Promise<IngestResult<number>> {
  const patient = await uploadTarget(viewer, input.pid);
  if (!patient) return refuse(404, "errors.patient");
  const firmware = firmwareOf(input.deviceKind, input.pdaVersion);
  if (!firmware.ok) return firmware;
  const task = await createTask({
    patientId: patient.id,
    uploaderId: viewer.id,
    channel: "slices",
    deviceKind: input.deviceKind,
    deviceSn: input.deviceSn,
    pdaVersion: firmware.data,
    timeZone: input.timeZone ?? patient.timeZone,
    expectedCount: input.total,
  });
  return { ok: true, data: task.id };
}

type SliceSaved = IngestResult<{ index: number; received: number; expected: number }>;

/**
 * sliceSave: stores slice `index` of the operator's open task, after checking every record, and
 * hands it to the task's early writer; answers once that writer's backlog allows another slice.
 */
export async function saveSlice(
  viewer: Viewer,
  input: { sliceId: number; index: number; dataList: unknown[] },
): Promise<SliceSaved> {
  const { result, written } = await checkAndStoreSlice(viewer, input);
  await written;
  return result;
}

async function checkAndStoreSlice(
  viewer: Viewer,
  input: { sliceId: number; index: number; dataList: unknown[] },
): Promise<{ result: SliceSaved; written?: Promise<void> }> {
  const refused = (
    code: IngestRefusal["code"],
    key: string,
    values?: Record<string, string | number>,
  ) => ({ result: refuse(code, key, values) });
  if (input.dataList.length > SLICE_MAX_RECORDS)
    return refused(413, "errors.sliceTooLarge", {
      limit: SLICE_MAX_RECORDS,
      count: SLICE_MAX_RECORDS,
    });
  const facts = await taskFacts(input.sliceId);
  if (!facts || facts.uploaderId !== viewer.id || facts.deviceKind === "imported")
    return refused(404, "errors.task");
  const kind = facts.deviceKind;
  const valid = validateRecords(kind, input.dataList);
  if (!valid.ok) return refused(400, valid.key, { ...valid.values, slice: input.index });
  // Checking and encoding a slice take a millisecond or two of the server's one thread each: a
  // page request that arrived meanwhile goes between them.
  await yieldToForeground();
  const records = recordsFromWire(kind, valid.data);
  const slice = { payload: encodeSlice(kind, records), recordCount: records.length };
  const answer = (received: number) => ({
    ok: true as const,
    data: { index: input.index, received, expected: facts.expectedCount },
  });
  const stored = (received: number) => ({
    result: answer(received),
    written: writeEarly(facts, input.index, records),
  });
  // The usual case, the next slice of an open task, in one statement.
  const received = await storeNextSlice(facts.id, input.index, slice);
  if (received !== null) return stored(received);
  // Otherwise the task as it stands says why; when another request changed it meanwhile (a
  // parallel repeat stored this slice first), as it stands after that.
  for (let task = await taskRow(facts.id); task; task = await taskRow(task.id)) {
    if (task.status !== "open") return refused(409, "errors.taskClosed");
    if (input.index < task.sliceCount) {
      return (await sameSlice(task.id, input.index, slice.payload))
        ? { result: answer(task.recordCount) }
        : refused(409, "errors.sliceConflict", { slice: input.index });
    }
    if (input.index > task.sliceCount)
      return refused(409, "errors.sliceOrder", { slice: input.index, expected: task.sliceCount });
    if (task.recordCount + slice.recordCount > task.expectedCount)
      return refused(400, "errors.tooManyRecords", { expected: task.expectedCount });
    const again = await storeNextSlice(task.id, input.index, slice);
    if (again !== null) return stored(again);
  }
  return refused(404, "errors.task");
}

/**
 * completeSliceTask: with isSuccess, checks that every announced record arrived and hands the
 * task to the job queue (`enqueue`, after the commit); without it, abandons the task (nothing
 * written). A repeat of a call already done answers the same.
 */
export async function completeSlicedUpload(
  viewer: Viewer,
  input: { sliceId: number; isSuccess: boolean },
  enqueue: (taskId: number) => Promise<void>,
): Promise<IngestResult<{ status: string }>> {
  // The usual case, every record of an open task arrived, in one statement; any other in the
  // transaction below, which says why.
  if (input.isSuccess && (await queueIfComplete(input.sliceId, viewer.id))) {
    await enqueue(input.sliceId);
    return { ok: true, data: { status: "processing" } };
  }
  const result = await inTransaction(
    async (tx): Promise<IngestResult<{ status: string; queue: boolean }>> => {
      const task = await lockTask(tx, input.sliceId);
      if (!task || task.uploaderId !== viewer.id) return refuse(404, "errors.task");
      if (task.status !== "open") {
        const repeat = input.isSuccess
          ? task.status !== "failed" || task.error !== "errors.cancelled"
          : task.status === "failed";
        return repeat
          ? { ok: true, data: { status: task.status, queue: false } }
          : refuse(409, "errors.taskClosed");
      }
      if (!input.isSuccess) {
        dropEarlyWriter(task.id);
        await markFailed(tx, task.id, "errors.cancelled");
        return { ok: true, data: { status: "failed", queue: false } };
      }
      if (task.recordCount !== task.expectedCount)
        return refuse(400, "errors.missingRecords", {
          received: task.recordCount,
          expected: task.expectedCount,
          count: task.expectedCount,
        });
      await markQueued(tx, task.id);
      return { ok: true, data: { status: "processing", queue: true } };
    },
  );
  if (!result.ok) return result;
  if (result.data.queue) await enqueue(input.sliceId);
  return { ok: true, data: { status: result.data.status } };
}

/**
 * checkSave: null while the task is open or processing, then its summary. While the task is
 * being processed the answer waits up to `waitMs` for the processing to end, so that the operator
 * learns the outcome as soon as it is known without polling fast.
 */
export async function uploadSummary(
  viewer: Viewer,
  taskId: number,
  waitMs = 0,
): Promise<IngestResult<UploadSummary | null>> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const task = await taskOf(viewer.id, taskId);
    if (!task) return refuse(404, "errors.task");
    const summary = summaryOf(task);
    const left = deadline - Date.now();
    if (summary || task.status !== "processing" || left <= 0) return { ok: true, data: summary };
    await settledOrAfter(taskId, Math.min(left, RECHECK_MS));
  }
}

/**
 * A whole upload in one call (save, saveCgmsData, saveSugar, a CSV import, the demo seed): the
 * same checks and rules as a sliced upload, processed at once in one transaction with its task;
 * answers the summary. A refused upload writes nothing, not even its task: the caller is told why.
 */
export async function ingestNow(
  viewer: Viewer,
  input: {
    pid: number;
    deviceKind: DeviceKindName;
    deviceSn: string;
    pdaVersion?: string | undefined;
    timeZone?: string | undefined;
    records: readonly unknown[];
    channel?: "direct" | "csv" | "seed";
    maxRecords?: number;
  },
): Promise<IngestResult<UploadSummary>> {
  if (input.records.length > (input.maxRecords ?? SLICE_MAX_RECORDS))
    return refuse(413, "errors.sliceTooLarge", {
      limit: input.maxRecords ?? SLICE_MAX_RECORDS,
      count: input.maxRecords ?? SLICE_MAX_RECORDS,
    });
  const patient = await uploadTarget(viewer, input.pid);
  if (!patient) return refuse(404, "errors.patient");
  const firmware = firmwareOf(input.deviceKind, input.pdaVersion);
  if (!firmware.ok) return firmware;
  const valid = validateRecords(input.deviceKind, input.records);
  if (!valid.ok) return valid;
  const records = recordsFromWire(input.deviceKind, valid.data);
  const batches = Math.ceil(records.length / SLICE_MAX_RECORDS);
  try {
    const done = await inTransaction(async (tx) => {
      const task = await createTask(
        {
          patientId: patient.id,
          uploaderId: viewer.id,
          channel: input.channel ?? "direct",
          deviceKind: input.deviceKind,
          deviceSn: input.deviceSn,
          pdaVersion: firmware.data,
          timeZone: input.timeZone ?? patient.timeZone,
          expectedCount: records.length,
          status: "processing",
        },
        tx,
      );
      return writeTask(tx, task, async (index) =>
        index < batches
          ? records.slice(index * SLICE_MAX_RECORDS, (index + 1) * SLICE_MAX_RECORDS)
          : null,
      );
    }, TRANSACTION);
    return { ok: true, data: summaryOf(done)! };
  } catch (error) {
    if (!(error instanceof RefusedUpload)) throw error;
    return refuse(400, error.refusal.key, error.refusal.values);
  }
}

/**
 * saveCgmsData and saveSugar: the records of one CGM or meter in one call. Without `pid` the
 * upload is for the caller's own record; without `deviceSn` the records must name their device.
 */
export async function ingestDeviceCall(
  viewer: Viewer,
  kind: "aidex" | "gocheck",
  input: {
    pid?: number | undefined;
    deviceSn?: string | undefined;
    timeZone: string;
    dataList: unknown[];
  },
): Promise<IngestResult<UploadSummary>> {
  const pid = input.pid ?? (await ownPatientId(viewer.id));
  if (pid === null) return refuse(404, "errors.patient");
  const first = input.dataList[0];
  const named =
    first && typeof first === "object" && "deviceSn" in first && typeof first.deviceSn === "string"
      ? first.deviceSn
      : undefined;
  const deviceSn = input.deviceSn ?? named;
  if (!deviceSn) return refuse(400, "errors.deviceSn");
  return ingestNow(viewer, {
    pid,
    deviceKind: kind,
    deviceSn,
    timeZone: input.timeZone,
    records: input.dataList,
  });
}

/** The patient a settings upload is for: `pid`, or the caller's own record. */
async function settingsTarget(viewer: Viewer, pid: number | undefined) {
  const id = pid ?? (await ownPatientId(viewer.id));
  return id === null ? null : uploadTarget(viewer, id);
}

/** Rounds away the binary noise of a scaled device value (0.0125 x 7 = 0.08750000000000001). */
const scaled = (raw: number, step: number) => Number((raw * step).toFixed(6));

/** basal-rate-base-setting/save: the handheld's basal presets, 48 half-hour rates of raw x 0.0125 U/h each. */
export async function saveBasalPresets(
  viewer: Viewer,
  input: BasalSaveInput,
): Promise<IngestResult<{ saved: number }>> {
  const patient = await settingsTarget(viewer, input.pid);
  if (!patient) return refuse(404, "errors.patient");
  const firmware = firmwareOf("equil", input.pdaVersion);
  if (!firmware.ok) return firmware;
  if (input.pdaTimeZone && !pumpTimeZone(input.pdaTimeZone)) return refuse(400, "errors.timeZone");
  await inTransaction((tx) =>
    upsertBasalPresets(tx, {
      patientId: patient.id,
      pdaSn: input.pdaSn,
      pdaVersion: firmware.data!,
      pdaTimeZone: input.pdaTimeZone ?? null,
      presets: input.list.map((p) => ({
        settingIndex: p.settingIndex,
        name: p.name ?? "",
        valueArray: p.valueArray.map((v) => scaled(v, BASAL_SETTING_STEP_UH)),
      })),
    }),
  );
  return { ok: true, data: { saved: input.list.length } };
}

/** Tenths of mg/dL (targets and sensitivity) to mg/dL. */
const TENTHS = 0.1;

/** pda-setting/saveOrUpdate: the handheld's settings, in the units the product shows. */
export async function savePumpSettings(
  viewer: Viewer,
  input: PumpSettingsInput,
): Promise<IngestResult<{ saved: true }>> {
  const patient = await settingsTarget(viewer, input.pid);
  if (!patient) return refuse(404, "errors.patient");
  const firmware = firmwareOf("equil", input.pdaVersion);
  if (!firmware.ok) return firmware;
  const values = {
    pdaVersion: firmware.data,
    lowBg: input.lowBg.map((v) => scaled(v, TENTHS)),
    highBg: input.highBg.map((v) => scaled(v, TENTHS)),
    carbRatio: input.carbRatio,
    sensitivity: input.sensitivity.map((v) => scaled(v, TENTHS)),
    originBasal: input.originBasal ?? null,
    bolusRate: input.bolusRate ?? null,
    maxBolus: input.maxBolus ?? null,
    doubleBolus: input.doubleBolus ?? null,
    effectiveTime: input.effectiveTime ?? null,
    maxBasalRate: input.maxBasalRate ?? null,
    bolusIncrement: input.bolusIncrement ?? null,
    quickBolusIncrement: input.quickBolusIncrement ?? null,
    lowReserveThreshold: input.lowReserveThreshold ?? null,
    tempBasalRate: input.tempBasalRate ?? null,
  };
  await inTransaction((tx) =>
    upsertPumpSetting(tx, { patientId: patient.id, pdaSn: input.pdaSn, values }),
  );
  return { ok: true, data: { saved: true } };
}

// ---------------------------------------------------------------------------------------------
// Imported files (CSV): the same checks, keys and summaries as device uploads

/** What an imported file would add (a preview) or added: one device's part of the file. */
export type FileDeviceSummary = {
  deviceKind: FileDeviceKind;
  deviceSn: string;
  entries: number;
  inserted: number;
  duplicates: number;
};

/** The answer of a file import or its preview, over every device of the file. */
export type FileIngestSummary = {
  /** The zone the file's wall-clock times were read in. */
  timeZone: string;
  /** Entries the file holds (after the ones that could not be read). */
  entries: number;
  /** Preview: entries that would be added; import: entries added. */
  inserted: number;
  /** Entries already stored for the patient, or repeated in the file. */
  duplicates: number;
  /** Readings at a sensor's limit (Dexcom's Low and High) or bolus calculations that disagree. */
  flagged: number;
  dstAdjusted: number;
  firstDate: string | null;
  lastDate: string | null;
  devices: FileDeviceSummary[];
  /** Upload history entries written (one per device); none in a preview. */
  uploads: number[];
};

export type FileIngestInput = {
  pid: number;
  /** The zone of the file's wall-clock times; the patient's own zone when not given. */
  timeZone?: string | undefined;
  file: { format: CsvFormat; device: CsvDevice; entries: readonly CsvEntry[] };
  /** Firmware of the pump records of our own export (for the carbohydrate rules), by serial. */
  firmware?: ReadonlyMap<string, string>;
  dryRun: boolean;
};

/** The keys of a group's rows, to count the ones already stored. */
function keysOf(group: FileGroup): StoredKeyQuery {
  return {
    cgm: group.cgm.map((r) => r.eventIndex),
    bg: group.bg.map((r) => ({ source: r.source, recordKey: r.recordKey })),
    carbs: group.carbs.map((r) => r.recordKey),
    insulin: group.insulin.map((r) => r.recordKey),
    pump: group.pump.map((r) => r.recordId),
  };
}

/** Writes one group's prepared rows (not pump records: those go through the pump rules); answers how many were new. */
async function insertGroupRows(tx: Tx, target: BatchTarget, group: FileGroup): Promise<number> {
  const where = { ...target, timeZone: group.timeZone };
  let inserted = await insertCgmRows(tx, where, group.cgm);
  for (const source of new Set(group.bg.map((r) => r.source))) {
    const rows = group.bg
      .filter((r) => r.source === source)
      .map((r) => ({ ...r, dataOrigin: source === "cgm_manual" ? CGM_MANUAL_ORIGIN : null }));
    inserted += await insertBgRows(tx, { ...where, source }, rows);
  }
  inserted += await insertCarbRows(tx, target, group.carbs);
  inserted += await insertInsulinRows(tx, target, group.insulin);
  return inserted;
}

/** A pump group's records checked and run through the pump rules without writing (a preview); null when they pass. */
function pumpRefusal(group: FileGroup, pid: number, firmware: string | null): IngestRefusal | null {
  // Checked by the upload calls' record schema, as a device upload's records are.
  const valid = validateRecords("equil", group.pump.map(pumpRecordToWire));
  if (!valid.ok) return valid;
  const out = new PumpProcessor(
    { pid, pdaSn: group.deviceSn, version: firmware },
    group.timeZone,
  ).add(group.pump);
  return out.ok ? null : refuse(400, out.refusal.key, out.refusal.values);
}

/**
 * Imports the entries of a read file for a patient, or (dryRun) says what the import would do.
 * The entries are grouped by device (file-entries.ts); the import writes every group in one
 * transaction, each as an upload of channel `csv` in the patient's upload history, with the same
 * keys as device uploads, so that importing a file again adds nothing. A refused import writes
 * nothing.
 */
export async function ingestFile(
  viewer: Viewer,
  input: FileIngestInput,
): Promise<IngestResult<FileIngestSummary> & { lineErrors?: CsvLineError[] }> {
  const patient = await uploadTarget(viewer, input.pid);
  if (!patient) return refuse(404, "errors.patient");
  const zone = input.timeZone ?? patient.timeZone;
  const { groups, errors } = groupFileEntries(input.file, zone);
  const firmwareOf = (g: FileGroup) =>
    g.deviceKind === "equil" ? (input.firmware?.get(g.deviceSn) ?? null) : null;
  for (const g of groups) {
    const refusal = g.pump.length ? pumpRefusal(g, patient.id, firmwareOf(g)) : null;
    if (refusal) return refusal;
  }
  const summary: FileIngestSummary = {
    timeZone: zone,
    entries: 0,
    inserted: 0,
    duplicates: 0,
    flagged: 0,
    dstAdjusted: 0,
    firstDate: null,
    lastDate: null,
    devices: [],
    uploads: [],
  };
  const span = { first: null as number | null, last: null as number | null };
  const count = (g: FileGroup, inserted: number, flagged: number) => {
    const c = g.counters;
    summary.entries += g.total;
    summary.inserted += inserted;
    summary.duplicates += g.total - inserted;
    summary.flagged += flagged;
    summary.dstAdjusted += c.dstGap + c.dstOverlap;
    if (c.first !== null && (span.first === null || c.first < span.first)) span.first = c.first;
    if (c.last !== null && (span.last === null || c.last > span.last)) span.last = c.last;
    summary.devices.push({
      deviceKind: g.deviceKind,
      deviceSn: g.deviceSn,
      entries: g.total,
      inserted,
      duplicates: g.total - inserted,
    });
  };
  const finish = () => {
    summary.firstDate = span.first === null ? null : new Date(span.first).toISOString();
    summary.lastDate = span.last === null ? null : new Date(span.last).toISOString();
    return { ok: true as const, data: summary, lineErrors: errors };
  };

  if (input.dryRun) {
    for (const g of groups) {
      const stored = await countStoredKeys(
        noTransaction(),
        { patientId: patient.id, deviceSn: g.deviceSn },
        keysOf(g),
      );
      count(g, g.total - g.counters.repeated - stored, g.counters.flagged);
    }
    return finish();
  }
  if (groups.length === 0) return refuse(400, "errors.nothingToImport");
  try {
    await inTransaction(async (tx) => {
      for (const g of groups) {
        const task = await createTask(
          {
            patientId: patient.id,
            uploaderId: viewer.id,
            channel: "csv",
            deviceKind: g.deviceKind,
            deviceSn: g.deviceSn,
            pdaVersion: firmwareOf(g),
            timeZone: g.timeZone,
            expectedCount: g.total,
            status: "processing",
          },
          tx,
        );
        let done: UploadTask;
        if (g.pump.length) {
          done = await writeTask(tx, task, async (index) => (index === 0 ? g.pump : null));
        } else {
          const inserted = await insertGroupRows(
            tx,
            { patientId: patient.id, deviceSn: g.deviceSn, uploadId: task.id },
            g,
          );
          done = await closeTask(tx, task, {
            total: g.total,
            inserted,
            flagged: g.counters.flagged,
            counters: g.counters,
          });
        }
        summary.uploads.push(done.id);
        count(g, done.insertedCount, done.flaggedCount);
      }
    }, TRANSACTION);
  } catch (error) {
    if (!(error instanceof RefusedUpload)) throw error;
    return refuse(400, error.refusal.key, error.refusal.values);
  }
  return finish();
}

// ---------------------------------------------------------------------------------------------
// The Nightscout API: records judged one by one, stored with the same keys and statements

/** What a Nightscout post stored: rows new to the patient, and the ones already stored. */
export type NightscoutWrite = { inserted: number; duplicates: number };

/**
 * Writes the rows a Nightscout post's records became (app/ingest/nightscout.ts) for the patient,
 * in one transaction, under the keys of device uploads (`ON CONFLICT DO NOTHING`), so that an
 * uploader's retry adds nothing. Each device the post names is recorded as an imported device of
 * the patient; when anything was new, the accounts the patient shares with see the new-data mark.
 * The caller has checked the link and logged the call through the access gateway. No upload task
 * is written: an uploader posts every few minutes, and the upload history lists uploads people
 * start, not each of those posts.
 */
export async function ingestNightscout(
  target: { patientId: number; uploaderId: number; timeZone: string },
  rows: NsRows,
): Promise<NightscoutWrite> {
  const total = rows.cgm.length + rows.bg.length + rows.carbs.length + rows.insulin.length;
  if (total === 0) return { inserted: 0, duplicates: 0 };
  const inserted = await inTransaction(async (tx) => {
    let added = 0;
    const devices = new Set<string>();
    const at = (deviceSn: string) => {
      devices.add(deviceSn);
      return { patientId: target.patientId, deviceSn, uploadId: null, timeZone: target.timeZone };
    };
    for (const [deviceSn, group] of byDevice(rows.cgm)) {
      for (let i = 0; i < group.length; i += WRITE_BATCH) {
        const batch = group.slice(i, i + WRITE_BATCH).map((r) => ({
          eventIndex: r.eventIndex,
          historyId: null,
          sensorIndex: null,
          eventType: NS_CGM_EVENT_TYPE,
          mgdl: r.mgdl,
          deviceTime: r.deviceTime,
          dateTime: r.dateTime,
          manual: false,
          direction: r.direction,
        }));
        added += await insertCgmRows(tx, at(deviceSn), batch);
      }
    }
    for (const [deviceSn, group] of byDevice(rows.bg))
      added += await insertBgRows(
        tx,
        { ...at(deviceSn), source: "meter" },
        group.map((r) => ({ ...r, dataOrigin: null })),
      );
    for (const [deviceSn, group] of byDevice(rows.carbs))
      added += await insertCarbRows(tx, at(deviceSn), group);
    for (const [deviceSn, group] of byDevice(rows.insulin))
      added += await insertInsulinRows(
        tx,
        at(deviceSn),
        group.map((r) => ({ ...r, kind: "rapid" as const })),
      );
    if (added > 0) {
      for (const serial of devices)
        await touchDevice(tx, {
          kind: "imported",
          serial,
          patientId: target.patientId,
          uploaderId: target.uploaderId,
          firmware: null,
          timeZone: target.timeZone,
        });
      await markNewUploadForReaders(tx, target.patientId);
    }
    return added;
  }, TRANSACTION);
  return { inserted, duplicates: total - inserted };
}

/** The event type of a CGM reading (an AiDEX reading's is 7; the views read 7 and 8 alike). */
const NS_CGM_EVENT_TYPE = 7;
