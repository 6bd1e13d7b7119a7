/**
 * How an upload's stored slices are kept: compressed with lz4 on a PostgreSQL built with it (as
 * Debian's is), and out of line, uncompressed, on the embedded database, which has no lz4 (its
 * migrations must still apply). Either way a slice reads back as it was stored.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { decodeSlice } from "~/ingest/slice-codec";
import { slicePayloads } from "~/models/upload-task.server";
import { openSlicedUpload, saveSlice } from "~/services/ingest.server";
import { db } from "~/utils/db.server";
import { recordsFromWire } from "~/wire/upload";
import { startEmbeddedPostgres } from "../../server/embedded-db";
import { migrateDeploy } from "../../server/migrate";
import { cgmSlice, uploadingPatient } from "./upload-support";

const PAYLOAD_COLUMN = `
  SELECT attstorage::text AS storage, attcompression::text AS compression FROM pg_attribute
   WHERE attrelid = '"UploadSlice"'::regclass AND attname = 'payload'`;

describe("stored slices", () => {
  it("on PostgreSQL are compressed with lz4, to under a third of their text, and read back whole", async () => {
    const { viewer, pid } = await uploadingPatient("slice-storage");
    const opened = await openSlicedUpload(viewer, {
      pid,
      deviceKind: "aidex",
      deviceSn: "AX-STORAGE",
      total: 1000,
      timeZone: "UTC",
    });
    if (!opened.ok) throw new Error(opened.key);
    const sent = cgmSlice(0);
    expect(
      await saveSlice(viewer, { sliceId: opened.data, index: 0, dataList: sent }),
    ).toMatchObject({ ok: true });

    expect(await db().$queryRawUnsafe(PAYLOAD_COLUMN)).toEqual([
      { storage: "x", compression: "l" },
    ]);
    const [kept] = await db().$queryRaw<{ method: string; stored: number; text: number }[]>`
      SELECT pg_column_compression(payload) AS method, pg_column_size(payload) AS stored,
             octet_length(payload) AS text
        FROM "UploadSlice" WHERE "taskId" = ${opened.data}`;
    expect(kept!.method).toBe("lz4");
    expect(kept!.stored).toBeLessThan(kept!.text / 3);
    const [payload] = await slicePayloads(db(), opened.data, 0, 1);
    expect(decodeSlice("aidex", payload!)).toEqual(recordsFromWire("aidex", sent));
  });

  it("on the embedded database stay out of line, uncompressed", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "diacare-pglite-slices-"));
    const embedded = await startEmbeddedPostgres(dir);
    const client = new pg.Client({ connectionString: embedded.url });
    try {
      await migrateDeploy(embedded.url);
      await client.connect();
      expect((await client.query(PAYLOAD_COLUMN)).rows).toEqual([
        { storage: "e", compression: "" },
      ]);
    } finally {
      await client.end().catch(() => undefined);
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
