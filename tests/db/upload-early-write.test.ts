import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Viewer } from "~/models/access.server";
import { openSlicedUpload, processTask, saveSlice } from "~/services/ingest.server";
import { dropEarlyWriter, EARLY_WRITER_IDLE_MS } from "~/services/upload-early-write.server";
import { db } from "~/utils/db.server";
import { cgmSlice, completeUpload, sendCgmSlices, uploadingPatient } from "./upload-support";

// A sliced upload's early writer (its records written while the slices arrive, in a transaction
// its job commits) against PostgreSQL: nobody sees the records before the job, the job's answer
// and rows are those of an upload written from its stored slices, and whenever the writer cannot
// finish, the job writes the task from its slices.

const SLICE = 1000;
const SLICES = 3;

/** `SLICES` slices of five-minute CGM readings from 1 July 2026 00:00 (raw 60-109: 108-196.2 mg/dL). */
const cgmSlices = () => Array.from({ length: SLICES }, (_, s) => cgmSlice(s));

const SERIAL = "AX-EARLY";

const readings = async (pid: number) =>
  (
    await db().cgmRecord.findMany({
      where: { patientId: pid },
      select: { eventIndex: true, mgdl: true, dateTime: true },
      orderBy: { eventIndex: "asc" },
    })
  ).map((r) => `${r.eventIndex} ${r.mgdl} ${r.dateTime.toISOString()}`);

/** Whether a session other than the app's holds the task's turn (the early writer's transaction). */
async function turnHeld(taskId: number): Promise<boolean> {
  const rows = await db().$queryRaw<{ held: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
      AND classid = hashtext('upload-task')::oid AND objid = ${taskId}::oid AND objsubid = 2) AS held`;
  return rows[0]!.held;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let anna: { viewer: Viewer; pid: number };
beforeAll(async () => {
  anna = await uploadingPatient("early");
});

afterEach(async () => {
  // No test leaves a writer behind for the next one.
  for (const id of globalThis.__diacareEarlyWriters?.keys() ?? []) dropEarlyWriter(id);
});

describe("early writing of a sliced upload", () => {
  it("writes the slices as they arrive, shows nothing until the job, and the job only commits", async () => {
    const taskId = await sendCgmSlices(anna.viewer, anna.pid, SERIAL, cgmSlices());
    expect(await turnHeld(taskId)).toBe(true);
    expect(await db().cgmRecord.count({ where: { patientId: anna.pid } })).toBe(0);
    await completeUpload(anna.viewer, taskId);
    // The stored slices are gone: a job that wrote the task from them would find no records.
    await db().uploadSlice.deleteMany({ where: { taskId } });
    const task = await processTask(taskId);
    expect(task).toMatchObject({ status: "done", insertedCount: 3000, duplicateCount: 0 });
    expect(await db().cgmRecord.count({ where: { patientId: anna.pid } })).toBe(3000);
    expect(await turnHeld(taskId)).toBe(false);
    const days = await db().cgmDay.count({ where: { patientId: anna.pid } });
    expect(days).toBe(11); // 3,000 readings x 5 minutes = 10.4 days from 1 July 00:00 UTC
  });

  it("gives the same rows and summary as the job writing the task from its slices", async () => {
    const early = await uploadingPatient("early");
    const late = await uploadingPatient("early");
    const earlyTask = await sendCgmSlices(early.viewer, early.pid, SERIAL, cgmSlices());
    const lateTask = await sendCgmSlices(late.viewer, late.pid, SERIAL, cgmSlices());
    dropEarlyWriter(lateTask); // as when the browser went quiet: the job writes it from its slices
    await completeUpload(early.viewer, earlyTask);
    await completeUpload(late.viewer, lateTask);
    const byWriter = await processTask(earlyTask);
    const byJob = await processTask(lateTask);
    const summary = (t: typeof byWriter) => ({
      status: t?.status,
      inserted: t?.insertedCount,
      duplicates: t?.duplicateCount,
      first: t?.firstAt?.toISOString(),
      last: t?.lastAt?.toISOString(),
    });
    expect(summary(byWriter)).toEqual(summary(byJob));
    expect(summary(byWriter)).toEqual({
      status: "done",
      inserted: 3000,
      duplicates: 0,
      first: "2026-07-01T00:00:00.000Z",
      last: "2026-07-11T09:55:00.000Z", // reading 3,000: 2,999 x 5 minutes later
    });
    expect(await readings(early.pid)).toEqual(await readings(late.pid));
    expect((await readings(early.pid))[0]).toBe("1 108 2026-07-01T00:00:00.000Z");
  });

  it("counts a repeated upload as duplicates", async () => {
    const repeat = await uploadingPatient("early");
    await completeUpload(
      repeat.viewer,
      await sendCgmSlices(repeat.viewer, repeat.pid, SERIAL, cgmSlices()),
    );
    const first = await db().uploadTask.findFirstOrThrow({ where: { patientId: repeat.pid } });
    await processTask(first.id);
    const again = await sendCgmSlices(repeat.viewer, repeat.pid, SERIAL, cgmSlices());
    await completeUpload(repeat.viewer, again);
    await db().uploadSlice.deleteMany({ where: { taskId: again } });
    expect(await processTask(again)).toMatchObject({
      status: "done",
      insertedCount: 0,
      duplicateCount: 3000,
    });
    expect(await db().cgmRecord.count({ where: { patientId: repeat.pid } })).toBe(3000);
  });

  it("rolls back when a slice breaks a rule: the job fails the task and nothing is stored", async () => {
    const refused = await uploadingPatient("early");
    const slices = cgmSlices();
    // Valid records, but the last one names another device than the upload's.
    (slices[2]![999] as Record<string, unknown>).deviceSn = "AX-OTHER";
    const taskId = await sendCgmSlices(refused.viewer, refused.pid, SERIAL, slices);
    await completeUpload(refused.viewer, taskId);
    const task = await processTask(taskId);
    expect(task).toMatchObject({ status: "failed", insertedCount: 0 });
    expect(task?.error).toMatch(/^errors\./);
    expect(await db().cgmRecord.count({ where: { patientId: refused.pid } })).toBe(0);
    expect(await turnHeld(taskId)).toBe(false);
  });

  it("opens one writer per patient: a second upload of the same patient goes to its job", async () => {
    const both = await uploadingPatient("early");
    const slices = cgmSlices();
    const open = async (serial: string) => {
      const opened = await openSlicedUpload(both.viewer, {
        pid: both.pid,
        deviceKind: "aidex",
        deviceSn: serial,
        total: SLICES * SLICE,
        timeZone: "UTC",
      });
      if (!opened.ok) throw new Error(opened.key);
      return opened.data;
    };
    const first = await open("AX-ONE");
    const second = await open("AX-TWO");
    for (let index = 0; index < SLICES; index++)
      for (const sliceId of [first, second])
        expect(
          await saveSlice(both.viewer, { sliceId, index, dataList: slices[index]! }),
        ).toMatchObject({
          ok: true,
        });
    expect([await turnHeld(first), await turnHeld(second)]).toEqual([true, false]);
    await completeUpload(both.viewer, first);
    await completeUpload(both.viewer, second);
    expect(await processTask(first)).toMatchObject({ status: "done", insertedCount: 3000 });
    expect(await processTask(second)).toMatchObject({ status: "done", insertedCount: 3000 });
    expect(await db().cgmRecord.count({ where: { patientId: both.pid } })).toBe(6000);
  });

  it(
    "lets the job wait, without holding the task, while another server's writer is open",
    async () => {
      const other = await uploadingPatient("early");
      const taskId = await sendCgmSlices(other.viewer, other.pid, SERIAL, cgmSlices());
      // Another server's writer: open and holding the task's turn, but not this server's to finish.
      const elsewhere = globalThis.__diacareEarlyWriters!.get(taskId)!;
      globalThis.__diacareEarlyWriters!.delete(taskId);
      await completeUpload(other.viewer, taskId);
      let finished = false;
      const job = processTask(taskId).then((task) => {
        finished = true;
        return task;
      });
      await settle(1000);
      expect(finished).toBe(false);
      // The job waits for its turn before it locks the task: the task's row is free meanwhile.
      const free = await db().$transaction(async (tx) => {
        const rows = await tx.$queryRaw<{ id: number }[]>`
          SELECT id FROM "UploadTask" WHERE id = ${taskId} FOR UPDATE SKIP LOCKED`;
        return rows.length === 1;
      });
      expect(free).toBe(true);
      // That writer hears no more slices and rolls back; the job then writes the task.
      await elsewhere.ended;
      expect(await job).toMatchObject({ status: "done", insertedCount: 3000 });
      expect(await db().cgmRecord.count({ where: { patientId: other.pid } })).toBe(3000);
    },
    EARLY_WRITER_IDLE_MS + 15_000,
  );
});
