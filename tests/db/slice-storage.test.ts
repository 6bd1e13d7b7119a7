/**
 * How an upload's stored slices are kept: compressed with lz4 on a PostgreSQL built with it (as
 * Debian's is), and out of line, uncompressed, on the embedded database, which has no lz4 (its
 * migrations must still apply). Either way a slice reads back as it was stored.
 */
import { describe, expect, it } from "vitest";
import { decodeSlice } from "~/ingest/slice-codec";
import { slicePayloads } from "~/models/upload-task.server";
import { db } from "~/utils/db.server";
import { recordsFromWire } from "~/wire/upload";
import { withMigratedEmbedded } from "./embedded-support";
import { cgmSlice, sendCgmSlices, uploadingPatient } from "./upload-support";

const PAYLOAD_COLUMN = `
  SELECT attstorage::text AS storage, attcompression::text AS compression FROM pg_attribute
   WHERE attrelid = '"UploadSlice"'::regclass AND attname = 'payload'`;

describe("stored slices", () => {
  it("on PostgreSQL are compressed with lz4, to under a third of their text, and read back whole", async () => {
    const { viewer, pid } = await uploadingPatient("slice-storage");
    const sent = cgmSlice(0);
    const taskId = await sendCgmSlices(viewer, pid, "AX-STORAGE", [sent]);

    expect(await db().$queryRawUnsafe(PAYLOAD_COLUMN)).toEqual([
      { storage: "x", compression: "l" },
    ]);
    const [kept] = await db().$queryRaw<{ method: string; stored: number; text: number }[]>`
      SELECT pg_column_compression(payload) AS method, pg_column_size(payload) AS stored,
             octet_length(payload) AS text
        FROM "UploadSlice" WHERE "taskId" = ${taskId}`;
    expect(kept!.method).toBe("lz4");
    expect(kept!.stored).toBeLessThan(kept!.text / 3);
    const [payload] = await slicePayloads(db(), taskId, 0, 1);
    expect(decodeSlice("aidex", payload!)).toEqual(recordsFromWire("aidex", sent));
  });

  it("on the embedded database stay out of line, uncompressed", async () => {
    await withMigratedEmbedded("slices", async (client) => {
      expect((await client.query(PAYLOAD_COLUMN)).rows).toEqual([
        { storage: "e", compression: "" },
      ]);
    });
  }, 240_000);
});
