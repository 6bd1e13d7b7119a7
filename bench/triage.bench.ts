/**
 * Benchmark of the clinic's triage view (`/patientShow/patients` for a clinic): 500 patients who
 * share with the seeded clinic, each with 28 days of 5-minute CGM ending now (the 14-day period
 * and the 14 days before it that its "time in range dropped" category compares with: 288 x 28 =
 * 8,064 readings, 4,032,000 in all), written with SQL generate_series in one statement per table.
 * It times the view's model in process (the one statement of app/models/triage.server.ts for 14
 * days with the previous period, and for 7 and 30 days; then the page's service with its
 * access-log rows) and, over HTTP, the page in the default order (the worst category first), the
 * page filtered by a category, and the printable summary of every patient. Target: the page
 * under 1 s on the local PostgreSQL.
 *
 * The data: five zones in turn (Warsaw, New York, Kolkata, Sydney, UTC); glucose a sine wave
 * whose level and swing differ by patient, so that time in range spreads from about 20 to 100 %
 * and some patients go low; every sixth patient runs 50 mg/dL higher in the last 14 days (a drop
 * of time in range); every seventh patient wears no sensor for the oldest 5 of the 28 days;
 * the newest upload 0 to 12 days ago (about 40 % flagged "no upload for 7 days"). Readings are
 * inserted patient by patient (one upload each), as uploads write them; the model is timed once
 * before VACUUM (the visibility map not yet set, as right after uploads) and then after it.
 *
 * The server and its database: bench/server.ts. Plain tsx script: `npx tsx bench/triage.bench.ts`
 * prints the results; `benchTriage()` returns them for bench/run.ts.
 */
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { DEMO_ACCOUNTS } from "../prisma/seed";
import { GlucoseUnit } from "../app/domain/glucose-unit";
import type { Viewer } from "../app/models/access.server";
import { triageRows } from "../app/models/triage.server";
import { clinicTriage } from "../app/services/triage.server";
import { createPrismaClient } from "../app/utils/db.server";
import { withBenchServer } from "./server";
import { median, type BenchResult } from "./timing";

const PATIENTS = 500;
/** Days of CGM written: the 14-day period and the 14 days before it. */
const DAYS = 28;
const PERIOD = 14;
const WARMUP = 3;
const RUNS = 10;

/** The patients, their shares with the clinic, an upload each, and their CGM (one statement per table). */
async function seed(databaseUrl: string): Promise<Viewer> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<Viewer>(
      `SELECT id, identity, "isPass", role::text AS role FROM "User" WHERE email = $1`,
      [DEMO_ACCOUNTS.clinic.email],
    );
    const clinic = rows[0]!;
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO "User" (email, identity, "firstName", "lastName", active, "updatedAt")
       SELECT format('triage-%s@bench.diacare.test', g), 1, format('Patient %s', lpad(g::text, 3, '0')), 'Bench', true, now()
         FROM generate_series(1, $1::int) g`,
      [PATIENTS],
    );
    await client.query(
      `INSERT INTO "Patient" ("userId", "timeZone", "updatedAt")
       SELECT u.id, (ARRAY['Europe/Warsaw', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney', 'UTC'])[1 + u.id % 5], now()
         FROM "User" u WHERE u.email LIKE 'triage-%@bench.diacare.test'`,
    );
    const patients = `FROM "Patient" p JOIN "User" u ON u.id = p."userId" WHERE u.email LIKE 'triage-%@bench.diacare.test'`;
    await client.query(
      `INSERT INTO "ReadPower" ("providerId", "readerId", "sourceType", state, "isNew", "uploadIsNew", "updatedAt", "processedAt")
       SELECT p."userId", $1, 1, 1, 1, 1, now(), now() ${patients}`,
      [clinic.id],
    );
    await client.query(
      `INSERT INTO "UploadTask" ("patientId", "uploaderId", "deviceKind", "deviceSn", "timeZone", status, "completedAt")
       SELECT p.id, p."userId", 'aidex', format('BENCH%s', p.id), p."timeZone", 'done', now() - make_interval(hours => (p.id * 37) % 288) ${patients}`,
    );
    // 5-minute readings over the 28 days ending now; every sixth patient 50 mg/dL higher in the
    // last 14 days; every seventh patient none in the oldest 5 days.
    await client.query(
      `INSERT INTO "CgmRecord" ("patientId", "deviceSn", "eventIndex", "eventType", "eventData", "deviceTime", "timeZone", "dateTime")
       SELECT p.id, format('BENCH%s', p.id), k, 7,
              round(greatest(40, 110 + (p.id % 9) * 12 + (60 + (p.id % 5) * 15) * sin(k / 36.0 + p.id)
                    + CASE WHEN p.id % 6 = 0 AND k < ${PERIOD} * 288 THEN 50 ELSE 0 END)::numeric, 1)::float8,
              '', p."timeZone", date_trunc('minute', now() AT TIME ZONE 'UTC') - make_interval(mins => 5 * k)
         FROM "Patient" p JOIN "User" u ON u.id = p."userId"
        CROSS JOIN generate_series(0, $1::int * 288 - 1) k
        WHERE u.email LIKE 'triage-%@bench.diacare.test' AND (p.id % 7 <> 0 OR k < ($1::int - 5) * 288)
        ORDER BY p.id, k`,
      [DAYS],
    );
    await client.query("COMMIT");
    return clinic;
  } finally {
    await client.end();
  }
}

async function vacuum(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`VACUUM ANALYZE "CgmRecord"`);
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "CgmRecord"`);
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

async function timed(
  name: string,
  what: string,
  fn: () => Promise<unknown>,
  warmup = WARMUP,
  runs = RUNS,
): Promise<BenchResult> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return {
    name,
    ms: Number(median(times).toFixed(1)),
    detail: `${what}; median of ${runs} after ${warmup} warm-up (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)} ms)`,
  };
}

/** One full round trip of a page, fully read; fails on a bad status or a page without `marker`. */
async function getPage(
  url: string,
  cookie: string,
  marker = 'data-testid="triage-table"',
): Promise<void> {
  const res = await fetch(url, { headers: { Cookie: cookie }, redirect: "manual" });
  const html = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status}`);
  if (!html.includes(marker)) throw new Error(`GET ${url}: no ${marker}`);
}

/** Runs the benchmark; returns the median milliseconds of each case. */
export function benchTriage(): Promise<BenchResult[]> {
  return withBenchServer("triage", async ({ origin, cookie, databaseUrl }) => {
    const viewer = await seed(databaseUrl);
    // The model runs in this process on the bench database, with a client of its own.
    const previous = globalThis.__diacarePrisma;
    globalThis.__diacarePrisma = createPrismaClient(databaseUrl, 2);
    const results: BenchResult[] = [];
    try {
      const all = {
        sort: "category",
        dir: "asc",
        flags: [],
        period: PERIOD,
        now: Date.now(),
      } as const;
      const rows = await triageRows(viewer, all);
      // The seeded demo patient shares with the clinic too.
      if (rows.length < PATIENTS)
        throw new Error(`expected ${PATIENTS} patients, listed ${rows.length}`);
      results.push(
        await timed(
          "triage model, before VACUUM",
          `${PATIENTS} patients x ${DAYS} days, freshly inserted; 14 days and the 14 before`,
          () => triageRows(viewer, { ...all, now: Date.now() }),
          0,
          3,
        ),
      );
      const readings = await vacuum(databaseUrl);
      const what = `${rows.length} patients, ${readings.toLocaleString("en")} readings`;
      const categories = new Map<string, number>();
      for (const r of rows) categories.set(r.category, (categories.get(r.category) ?? 0) + 1);
      results.push(
        await timed(
          "triage model, 14 days and the 14 before",
          `${what}; categories ${[...categories].map(([c, n]) => `${c} ${n}`).join(", ")}`,
          () => triageRows(viewer, { ...all, now: Date.now() }),
        ),
      );
      for (const period of [7, 30] as const)
        results.push(
          await timed(`triage model, ${period} days and the ${period} before`, what, () =>
            triageRows(viewer, { ...all, period, now: Date.now() }),
          ),
        );
      results.push(
        await timed(
          "triage page model (with access log)",
          `${what}; by TIR, "in range under 70 %" only, page 1`,
          () =>
            clinicTriage(
              viewer,
              {
                period: PERIOD,
                sort: "tir",
                dir: "asc",
                flags: ["lowTir"],
                category: null,
                tag: null,
                page: 1,
              },
              { unit: GlucoseUnit.Mmol, locale: "en" },
            ),
        ),
      );
      results.push(
        await timed("triage page over HTTP, default order", "target < 1 s", () =>
          getPage(`${origin}/patientShow/patients`, cookie),
        ),
      );
      results.push(
        await timed("triage page over HTTP, one category", "target < 1 s", () =>
          getPage(`${origin}/patientShow/patients?cat=tirDrop`, cookie),
        ),
      );
      results.push(
        await timed(
          "printable summary over HTTP, every patient",
          `${rows.length} rows, ${rows.length} access-log rows`,
          () => getPage(`${origin}/triageprint`, cookie, 'data-testid="triage-summary"'),
          1,
          5,
        ),
      );
    } finally {
      await globalThis.__diacarePrisma?.$disconnect();
      globalThis.__diacarePrisma = previous;
    }
    results.at(-1)!.detail += `; 1-minute load average ${loadavg()[0]!.toFixed(1)}`;
    return results;
  });
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  for (const r of await benchTriage()) {
    console.log(`${r.name}: ${r.ms} ms${r.detail ? `  (${r.detail})` : ""}`);
  }
}
