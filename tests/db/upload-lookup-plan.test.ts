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
import {
  completeSlicedUpload,
  openSlicedUpload,
  processTask,
  saveSlice,
} from "~/services/ingest.server";
import { db } from "~/utils/db.server";

const SLICE = 1000;
const STORED_SLICES = 6;
const SERIAL = "AX-LOOKUP";

/** Slice `s` of five-minute CGM readings from 1 July 2026 00:00 UTC, keys s*1000+1 .. (s+1)*1000. */
const cgmSlice = (s: number) =>
  Array.from({ length: SLICE }, (_, i) => {
    const n = s * SLICE + i;
    return {
      eventIndex: n + 1,
      eventType: 7,
      eventData: 60 + (n % 50),
      deviceTime: new Date(Date.UTC(2026, 6, 1) + n * 300_000)
        .toISOString()
        .replace("T", " ")
        .slice(0, 19),
    };
  });

/** Uploads `slices` through the calls the browser makes and the job; answers the summary. */
async function upload(viewer: Viewer, pid: number, slices: unknown[][]) {
  const opened = await openSlicedUpload(viewer, {
    pid,
    deviceKind: "aidex",
    deviceSn: SERIAL,
    total: slices.reduce((n, s) => n + s.length, 0),
    timeZone: "UTC",
  });
  if (!opened.ok) throw new Error(`getSliceId refused: ${opened.key}`);
  for (const [index, dataList] of slices.entries()) {
    const saved = await saveSlice(viewer, { sliceId: opened.data, index, dataList });
    if (!saved.ok) throw new Error(`sliceSave ${index} refused: ${saved.key}`);
  }
  await completeSlicedUpload(viewer, { sliceId: opened.data, isSuccess: true }, () =>
    Promise.resolve(),
  );
  return processTask(opened.data);
}

type Statement = { text: string; values: unknown[] };
type PlanNode = {
  "Relation Name"?: string;
  "Index Cond"?: string;
  "Actual Rows"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
};

function* nodesOf(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* nodesOf(child);
}

const originalQuery = pg.Client.prototype.query;
const recorded: Statement[] = [];

/** Keeps what every node-postgres client sends while `fn` runs. */
async function recording<T>(fn: () => Promise<T>): Promise<T> {
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    if (typeof first === "string")
      recorded.push({ text: first, values: Array.isArray(second) ? second : [] });
    else if (first && typeof first === "object" && "text" in first) {
      const config = first as { text: string; values?: unknown[] };
      recorded.push({ text: config.text, values: config.values ?? [] });
    }
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
  try {
    return await fn();
  } finally {
    pg.Client.prototype.query = originalQuery;
  }
}

describe("a repeat upload's look-up of stored records", () => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  let viewer: Viewer;
  let pid: number;

  beforeAll(async () => {
    await client.connect();
    const user = await db().user.create({
      data: {
        email: "lookup@ingest.test",
        identity: 1,
        patient: { create: { timeZone: "UTC" } },
      },
      include: { patient: true },
    });
    viewer = { id: user.id, identity: 1, isPass: 0, role: user.role };
    pid = user.patient!.id;
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
    const again = await recording(() => upload(viewer, pid, [cgmSlice(last)]));
    expect(again).toMatchObject({ status: "done", insertedCount: 0, duplicateCount: SLICE });

    const lookUps = recorded.filter((s) => /AS key FROM "CgmRecord"/.test(s.text));
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
