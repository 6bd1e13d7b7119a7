/**
 * Before inserting a batch that may repeat stored records, the ingestion module looks up which of
 * its keys are stored. That look-up must read the index entries of the batch's own key range,
 * not every entry of the device tested one by one against the batch's list: PostgreSQL 15 plans
 * `key = ANY(list)` alone that way on a freshly written table, and the cost grows with the
 * patient's whole history (1,000 keys against 30,000 stored readings: 6 ms a batch instead of
 * 0.4). The statement as the app sent it is planned again with EXPLAIN ANALYZE.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Viewer } from "~/models/access.server";
import { processTask } from "~/services/ingest.server";
import { nodesOf, statementRecorder, type PlanNode, type Statement } from "./statement-support";
import { cgmSlice, completeUpload, sendCgmSlices, uploadingPatient } from "./upload-support";

const SLICE = 1000;
const STORED_SLICES = 6;
const SERIAL = "AX-LOOKUP";

/** Uploads `slices` through the calls the browser makes and the job; answers the summary. */
async function upload(viewer: Viewer, pid: number, slices: unknown[][]) {
  const taskId = await sendCgmSlices(viewer, pid, SERIAL, slices);
  await completeUpload(viewer, taskId);
  return processTask(taskId);
}

describe("a repeat upload's look-up of stored records", () => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  let viewer: Viewer;
  let pid: number;

  beforeAll(async () => {
    await client.connect();
    ({ viewer, pid } = await uploadingPatient("lookup"));
    const first = await upload(
      viewer,
      pid,
      Array.from({ length: STORED_SLICES }, (_, s) => cgmSlice(s)),
    );
    expect(first).toMatchObject({ status: "done", insertedCount: STORED_SLICES * SLICE });
  }, 60_000);

  afterAll(() => client.end());

  it("reads only the batch's key range of the device's index", async () => {
    const last = STORED_SLICES - 1;
    const recorder = statementRecorder();
    recorder.start();
    const again = await upload(viewer, pid, [cgmSlice(last)]).finally(() => recorder.stop());
    expect(again).toMatchObject({ status: "done", insertedCount: 0, duplicateCount: SLICE });

    const lookUps = recorder.statements.filter((s) => /AS key FROM "CgmRecord"/.test(s.text));
    expect(lookUps).toHaveLength(1);
    const [{ text, values }] = lookUps as [Statement];
    const { rows } = await client.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${text}`,
      values,
    );
    const scans = [...nodesOf(rows[0]!["QUERY PLAN"][0]!.Plan)].filter(
      (n) => n["Relation Name"] === "CgmRecord",
    );
    expect(scans).toHaveLength(1);
    const [scan] = scans as [PlanNode];
    // Keys 5001..6000 of 6,000 stored: the range bounds the index scan, nothing read is dropped.
    expect(scan["Index Cond"]).toMatch(/"eventIndex" >= 5001\b.*"eventIndex" <= 6000\b/);
    expect(scan["Actual Rows"]).toBe(SLICE);
    expect(scan["Rows Removed by Filter"] ?? 0).toBe(0);
  });
});
