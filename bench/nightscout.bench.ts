/**
 * The Nightscout API on the production server and the local PostgreSQL, as uploaders use it: a
 * day of readings (288, one every 5 minutes) posted one by one, each post waiting for the answer
 * before the next, as xDrip+ and the Share bridges do; then a backfill of 30,000 one-minute
 * readings in one post. Every post goes through the whole path: the link and secret check, the
 * throttles, the access log, the ingestion transaction and the answer with each stored object.
 *
 * Targets: p95 of the 288 single posts < 50 ms; the 30,000-reading post < 2 s.
 */
import { createHash, randomBytes } from "node:crypto";
import pg from "pg";
import { seededPatient, withBenchServer } from "./server";
import { median, percentile, type BenchResult } from "./timing";

const MIN = 60_000;
const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

export async function benchNightscout(): Promise<BenchResult[]> {
  return withBenchServer("nightscout", async (server) => {
    const { pid, userId } = await seededPatient(server.databaseUrl);
    const id = randomBytes(16).toString("base64url");
    const secret = randomBytes(24).toString("base64url");
    const hash = createHash("sha256").update(sha1(secret)).digest("hex");
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO "NightscoutLink" (id, "patientId", "createdById", name, kind, "secretHash") VALUES ($1, $2, $3, 'bench', 'upload', $4)`,
        [id, pid, userId, hash],
      );
    } finally {
      await client.end();
    }
    const url = `${server.origin}/ns/${id}/api/v1/entries.json`;
    const headers = { "api-secret": sha1(secret), "Content-Type": "application/json" };
    const post = async (body: unknown) => {
      const started = performance.now();
      const answer = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
      const stored = (await answer.json()) as unknown[];
      if (answer.status !== 200) throw new Error(`answer ${answer.status}`);
      return { ms: performance.now() - started, stored: stored.length };
    };
    const end = Math.floor(Date.now() / MIN) * MIN - MIN;
    const reading = (at: number, device: string, i: number) => ({
      type: "sgv",
      sgv: 90 + (i % 120),
      date: at,
      dateString: new Date(at).toISOString(),
      direction: "Flat",
      device,
      noise: 1,
      filtered: 120_000,
      unfiltered: 121_000,
      rssi: 100,
    });
    // A few posts first: the server's first requests compile and connect.
    for (let i = 0; i < 5; i++) await post([reading(end - (400 + i) * 5 * MIN, "warm-up", i)]);
    const singles: number[] = [];
    for (let i = 0; i < 288; i++) {
      const r = await post([reading(end - (287 - i) * 5 * MIN, "xDrip-DexcomG6", i)]);
      if (r.stored !== 1) throw new Error("a reading was not stored");
      singles.push(r.ms);
    }
    const batch = Array.from({ length: 30_000 }, (_, i) =>
      reading(end - (30_000 - i) * MIN, "backfill", i),
    );
    const bytes = Buffer.byteLength(JSON.stringify(batch));
    const big = await post(batch);
    if (big.stored !== 30_000) throw new Error(`the backfill stored ${big.stored}`);
    const retry = await post(batch);
    return [
      {
        name: "288 single posts: p95",
        ms: percentile(singles, 95),
        detail: `median ${median(singles).toFixed(1)} ms, max ${Math.max(...singles).toFixed(1)} ms; target p95 < 50 ms`,
      },
      {
        name: "30,000 readings in one post",
        ms: big.ms,
        detail: `${(bytes / 1024 / 1024).toFixed(1)} MB of JSON; target < 2000 ms`,
      },
      {
        name: "the same 30,000 again (all duplicates)",
        ms: retry.ms,
        detail: "an uploader's retry: nothing new",
      },
    ];
  });
}
