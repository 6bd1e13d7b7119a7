/**
 * What a sliced upload's calls ask of the database for the task itself: every slice after the
 * first is stored in one statement (the task's operator, device and announced total are read once
 * per server, as they never change), and an upload whose records have all arrived is handed to
 * processing in one statement, without reading or locking the task first.
 */
import { describe, expect, it } from "vitest";
import {
  completeSlicedUpload,
  openSlicedUpload,
  processTask,
  saveSlice,
} from "~/services/ingest.server";
import { statementRecorder, type Statement } from "./statement-support";
import { cgmSlice, uploadingPatient } from "./upload-support";

const onTheTask = (statements: Statement[]) =>
  statements.filter((s) => /"Upload(Task|Slice)"/.test(s.text));

/** Runs `call` and answers its result with the statements about the task it sent. */
async function recorded<T>(call: () => Promise<T>): Promise<{ result: T; sent: Statement[] }> {
  const recorder = statementRecorder();
  recorder.start();
  try {
    const result = await call();
    return { result, sent: onTheTask(recorder.statements) };
  } finally {
    recorder.stop();
  }
}

describe("a sliced upload's statements about its task", () => {
  it("stores each slice after the first in one statement, and queues the full task in one", async () => {
    const { viewer, pid } = await uploadingPatient("statements");
    const opened = await openSlicedUpload(viewer, {
      pid,
      deviceKind: "aidex",
      deviceSn: "AX-STATEMENTS",
      total: 3000,
      timeZone: "UTC",
    });
    if (!opened.ok) throw new Error(opened.key);
    const sliceId = opened.data;
    expect(await saveSlice(viewer, { sliceId, index: 0, dataList: cgmSlice(0) })).toMatchObject({
      ok: true,
    });

    for (const index of [1, 2]) {
      const { result, sent } = await recorded(() =>
        saveSlice(viewer, { sliceId, index, dataList: cgmSlice(index) }),
      );
      expect(result).toEqual({
        ok: true,
        data: { index, received: (index + 1) * 1000, expected: 3000 },
      });
      expect(sent).toHaveLength(1);
      expect(sent[0]!.text).toMatch(/UPDATE "UploadTask"[\s\S]*INSERT INTO "UploadSlice"/);
    }

    const { result, sent } = await recorded(() =>
      completeSlicedUpload(viewer, { sliceId, isSuccess: true }, () => Promise.resolve()),
    );
    expect(result).toEqual({ ok: true, data: { status: "processing" } });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toMatch(/UPDATE "UploadTask" SET status = 'processing'/);

    expect(await processTask(sliceId)).toMatchObject({ status: "done", insertedCount: 3000 });
  });
});
