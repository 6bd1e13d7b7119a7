// The patient-scope check of the end-to-end suite (docs/decisions/026-citus-ready-schema.md):
//   tsx scripts/check-patient-scope.ts start <database url>  before Playwright: forget what
//     pg_stat_statements recorded on that database so far (migrations, seed) and on databases
//     that no longer exist (the database tests'); prints how many times the server has evicted
//     entries so far;
//   tsx scripts/check-patient-scope.ts check <database url> [evictions at start]  after it:
//     every statement the app sent to a record table must name the patient
//     (scripts/patient-scope.ts); lists each that does not and exits 1. Given the start's count,
//     a suite during which entries were evicted (statements may be missing) fails too.
// Exit 3: the server does not record statements (pg_stat_statements not in
// shared_preload_libraries; scripts/pg-local.sh sets it).
import pg from "pg";
import { z } from "zod";
import { classify, violations, type Recorded } from "./patient-scope";

const args = z
  .tuple([z.enum(["start", "check"]), z.string().url()])
  .rest(z.coerce.number().int().min(0))
  .safeParse(process.argv.slice(2));
if (!args.success) {
  console.error(
    "usage: tsx scripts/check-patient-scope.ts start|check <database url> [evictions at start]",
  );
  process.exit(2);
}
const [command, url, evictionsAtStart] = args.data;

async function evictions(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ dealloc: string }>(
    "SELECT dealloc::text FROM pg_stat_statements_info",
  );
  return Number(rows[0]?.dealloc ?? 0);
}

const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  try {
    await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    await client.query("SELECT 1 FROM pg_stat_statements LIMIT 1");
  } catch (error) {
    console.error(
      `patient-scope check: the server does not record statements (${error instanceof Error ? error.message : error})`,
    );
    process.exit(3);
  }
  if (command === "start") {
    await client.query(
      "SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)",
    );
    await client.query(`SELECT pg_stat_statements_reset(0, gone.dbid, 0)
      FROM (SELECT DISTINCT dbid FROM pg_stat_statements WHERE dbid NOT IN (SELECT oid FROM pg_database)) gone`);
    console.log(await evictions(client));
  } else {
    const { rows } = await client.query<{ query: string; calls: string }>(
      `SELECT query, calls::text FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    const recorded: Recorded[] = rows.map((r) => ({ query: r.query, calls: Number(r.calls) }));
    const touching = recorded.filter((r) => classify(r.query).touches);
    const bad = violations(recorded);
    console.log(
      `patient-scope check: ${recorded.length} statements recorded, ${touching.length} reach a record table, ${bad.length} without the patient`,
    );
    for (const v of bad)
      console.log(`  [${v.tables.join(", ")}] ${v.calls}x: ${v.query.replace(/\s+/g, " ").trim()}`);
    const lost = evictionsAtStart === undefined ? 0 : (await evictions(client)) - evictionsAtStart;
    if (lost > 0)
      console.log(
        `  the server evicted entries ${lost} times during the suite (statements may be missing): raise pg_stat_statements.max in scripts/pg-local.sh`,
      );
    process.exitCode = bad.length === 0 && lost <= 0 ? 0 : 1;
  }
} finally {
  await client.end();
}
