/**
 * `npm run bench:scale`: the app on a clinic-sized database against a small one.
 *
 * The big database: the demo accounts (prisma/seed.ts), 1,000 generated patients with 90 days of
 * 5-minute CGM (about 25 million readings), pump history and meter readings
 * (bench/scale/generate.ts), written with COPY through the ingestion module's processors
 * (bench/scale/copy-load.ts); the demo clinic has 500 approved shares of them, and every patient
 * an access log of reads. It is kept between runs, and reused when the generator version and the
 * sizes match (the database's comment records them once the load has finished); `--fresh` builds
 * it again. VACUUM ANALYZE follows the load.
 *
 * The small database, fresh every run: the demo data and the big database's first patient (the
 * same history, share and access log), so that a request reads the same records on both and only
 * the size of the database differs. Both run the production build at
 * once (bench/server.ts); each request is sent to both in turn, after warm-up, and the table shows
 * the median and p95 of each and the ratio. Targets: within 1.5 times the small database's
 * median; the clinic's patient list under 1 s.
 *
 * PostgreSQL: BENCH_SCALE_DATABASE_URL (a server URL; the databases are `scale_big` and
 * `scale_small`), else an instance of its own started with scripts/pg-local.sh on port
 * BENCH_SCALE_PG_PORT (54349) in BENCH_SCALE_PG_DIR (/var/tmp/diacare-scale-pg), left running.
 *
 * Options: --fresh, --patients N, --days N, --shared N, --runs N, --warmup N.
 */
import { loadavg } from "node:os";
import pg from "pg";
import { Temporal } from "temporal-polyfill";
import { z } from "zod";
import { DEMO_ACCOUNTS } from "../prisma/seed";
import { loadPatients, type ScalePatient } from "./scale/copy-load";
import { SCALE_GENERATOR_VERSION, SCALE_ZONES } from "./scale/generate";
import {
  apiToken,
  migrate,
  migrateAndSeed,
  run,
  signIn,
  withServerOn,
  type BenchServer,
  type SignInIdentity,
} from "./server";
import { median, percentile } from "./timing";

const BIG = "scale_big";
const SMALL = "scale_small";
const SEED = 20261129;
/** Reads per patient in the access log of the big database, over the 90 days. */
const ACCESS_LOG_ROWS = 400;

const Options = z.object({
  fresh: z.boolean(),
  patients: z.number().int().min(1).max(100_000),
  days: z.number().int().min(14).max(365),
  shared: z.number().int().min(1),
  runs: z.number().int().min(3).max(1000),
  warmup: z.number().int().min(0).max(100),
});
type Options = z.infer<typeof Options>;

function parseOptions(argv: readonly string[]): Options {
  const raw: Record<string, unknown> = {
    fresh: false,
    patients: 1000,
    days: 90,
    shared: 500,
    runs: 21,
    warmup: 5,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!.replace(/^--/, "");
    if (flag === "fresh") raw.fresh = true;
    else raw[flag] = Number(argv[++i]);
  }
  const options = Options.parse(raw);
  if (options.shared > options.patients) throw new Error("--shared cannot exceed --patients");
  return options;
}

/** What the big database holds, written as its comment once the load is complete. */
const Meta = z.object({
  version: z.number(),
  patients: z.number(),
  days: z.number(),
  shared: z.number(),
  seed: z.number(),
  /** The end of the generated data, an ISO date (UTC midnight). */
  end: z.string(),
});
type Meta = z.infer<typeof Meta>;

/** The PostgreSQL server's maintenance URL: the given one, else this benchmark's own instance. */
async function serverUrl(): Promise<string> {
  const given = process.env.BENCH_SCALE_DATABASE_URL;
  if (given) return given;
  const out = await run("bash", ["scripts/pg-local.sh", "start"], {
    PG_LOCAL_PORT: process.env.BENCH_SCALE_PG_PORT ?? "54349",
    PG_LOCAL_DIR: process.env.BENCH_SCALE_PG_DIR ?? "/var/tmp/diacare-scale-pg",
  });
  return `${out.trim().split("\n").at(-1)}/postgres`;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function storedMeta(adminUrl: string): Promise<Meta | null> {
  const { rows } = await withClient(adminUrl, (c) =>
    c.query<{ comment: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
      [BIG],
    ),
  );
  try {
    return Meta.parse(JSON.parse(rows[0]?.comment ?? "null"));
  } catch {
    return null;
  }
}

const log = (text: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${text}`);

/** The generated accounts (the demo patient's password), their records and the clinic's shares. */
async function createPatients(url: string, o: Options): Promise<ScalePatient[]> {
  return withClient(url, async (c) => {
    await c.query("BEGIN");
    await c.query(
      `INSERT INTO "User" (email, "passwordHash", identity, "firstName", "lastName", active, "updatedAt")
       SELECT format('scale-%s@bench.diacare.test', lpad(g::text, 5, '0')), u."passwordHash", 1,
              format('Patient %s', lpad(g::text, 5, '0')), 'Scale', true, now()
         FROM generate_series(1, $1::int) g, "User" u WHERE u.email = $2`,
      [o.patients, DEMO_ACCOUNTS.patient.email],
    );
    const { rows } = await c.query<ScalePatient>(
      `WITH made AS (
         INSERT INTO "Patient" ("userId", "timeZone", "updatedAt")
         SELECT u.id, ($1::text[])[1 + (substr(u.email, 7, 5)::int - 1) % cardinality($1::text[])], now()
           FROM "User" u WHERE u.email LIKE 'scale-%@bench.diacare.test'
         RETURNING id, "userId")
       SELECT substr(u.email, 7, 5)::int AS number, m.id AS "patientId", m."userId"
         FROM made m JOIN "User" u ON u.id = m."userId" ORDER BY 1`,
      [SCALE_ZONES],
    );
    await c.query(
      `INSERT INTO "Setting" ("userId", lang, unit, "updatedAt")
       SELECT id, 'en', 1, now() FROM "User" WHERE email LIKE 'scale-%@bench.diacare.test'`,
    );
    await c.query(
      `INSERT INTO "ReadPower" ("providerId", "readerId", "sourceType", state, "isNew", "uploadIsNew", "updatedAt", "processedAt")
       SELECT p."userId", clinic.id, 1, 1, 1, 1, now(), now()
         FROM unnest($1::int[]) AS p("userId"), "User" clinic WHERE clinic.email = $2`,
      [rows.slice(0, o.shared).map((p) => p.userId), DEMO_ACCOUNTS.clinic.email],
    );
    await c.query("COMMIT");
    return rows;
  });
}

/** Reads of each patient's data over the period, by the clinic for shared patients, else by the patient. */
async function writeAccessLog(url: string, o: Options, endMs: number) {
  await withClient(url, (c) =>
    c.query(
      `INSERT INTO "AuditLog" ("actorId", "patientId", action, channel, at)
       SELECT CASE WHEN rp.id IS NOT NULL AND k % 2 = 0 THEN rp."readerId" ELSE p."userId" END, p.id,
              (ARRAY['read:patientHome', 'read:cgmsprint', 'read:agpprint', 'read:statisticsprint'])[1 + k % 4],
              (ARRAY['page', 'page', 'api', 'pdf'])[1 + k % 4]::"AccessChannel",
              to_timestamp($1::float8 / 1000) AT TIME ZONE 'UTC' - make_interval(secs => (k * $2::float8 * 86400 / $3::int) + p.id % 3600)
         FROM "Patient" p JOIN "User" u ON u.id = p."userId"
         LEFT JOIN "ReadPower" rp ON rp."providerId" = p."userId" AND rp.state = 1
        CROSS JOIN generate_series(0, $3::int - 1) k
        WHERE u.email LIKE 'scale-%@bench.diacare.test'`,
      [endMs, o.days, ACCESS_LOG_ROWS],
    ),
  );
}

async function vacuumAnalyze(url: string) {
  await withClient(url, (c) => c.query("VACUUM ANALYZE"));
}

/** Builds the big database unless one of this generator version and size is there. */
async function ensureBig(adminUrl: string, o: Options): Promise<Meta> {
  const wanted = {
    version: SCALE_GENERATOR_VERSION,
    patients: o.patients,
    days: o.days,
    shared: o.shared,
    seed: SEED,
  };
  const stored = await storedMeta(adminUrl);
  if (
    !o.fresh &&
    stored &&
    Object.entries(wanted).every(([k, v]) => stored[k as keyof Meta] === v)
  ) {
    log(`Reusing ${BIG} (data up to ${stored.end}; --fresh builds it again)`);
    // Migrations added since the database was built (new indexes) apply to it as to any database.
    await migrate(withDatabase(adminUrl, BIG));
    return stored;
  }
  const url = withDatabase(adminUrl, BIG);
  const t0 = performance.now();
  await withClient(adminUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${BIG}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${BIG}"`);
  });
  log(`Building ${BIG}: migrations and demo data`);
  await migrateAndSeed(url);
  const end = Temporal.Now.plainDateISO("UTC");
  const endMs = Date.UTC(end.year, end.month - 1, end.day);
  const patients = await createPatients(url, o);
  log(
    `${patients.length} patients, ${o.shared} shared with the clinic; writing ${o.days} days each with COPY`,
  );
  let last = 0;
  await loadPatients(url, patients, {
    seed: SEED,
    days: o.days,
    endMs,
    onBatch: (done, total) => {
      if (done === total || performance.now() - last > 30_000) {
        last = performance.now();
        log(`  ${done}/${total} patients (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
      }
    },
  });
  await writeAccessLog(url, o, endMs);
  log("VACUUM ANALYZE");
  await vacuumAnalyze(url);
  const meta: Meta = { ...wanted, end: end.toString() };
  await withClient(adminUrl, (c) =>
    c.query(`COMMENT ON DATABASE "${BIG}" IS '${JSON.stringify(meta).replace(/'/g, "''")}'`),
  );
  const counts = await withClient(
    url,
    async (c) =>
      (
        await c.query<Record<string, string>>(
          `SELECT (SELECT count(*) FROM "CgmRecord") AS cgm, (SELECT count(*) FROM "PumpRecord") AS pump,
            (SELECT count(*) FROM "BgRecord") AS bg, (SELECT count(*) FROM "CgmDay") AS days,
            pg_size_pretty(pg_database_size(current_database())) AS size`,
        )
      ).rows[0]!,
  );
  log(`Built in ${((performance.now() - t0) / 60_000).toFixed(1)} min: ${JSON.stringify(counts)}`);
  return meta;
}

/**
 * The demo data and the big database's first patient (the same generated history, shared with the
 * clinic, with the same access log), so that each request reads the same records on both.
 */
async function freshSmall(adminUrl: string, o: Options, meta: Meta): Promise<string> {
  await withClient(adminUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${SMALL}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${SMALL}"`);
  });
  const url = withDatabase(adminUrl, SMALL);
  await migrateAndSeed(url);
  const end = Temporal.PlainDate.from(meta.end);
  const endMs = Date.UTC(end.year, end.month - 1, end.day);
  const one = { ...o, patients: 1, shared: 1 };
  await loadPatients(url, await createPatients(url, one), {
    seed: meta.seed,
    days: meta.days,
    endMs,
  });
  await writeAccessLog(url, one, endMs);
  await vacuumAnalyze(url);
  return url;
}

/** One signed-in reader of one patient on one server. */
interface Reader {
  origin: string;
  cookie: string;
  token: string;
  pid: number;
  userId: number;
  /** The last full day of the patient's data. */
  last: Temporal.PlainDate;
}

interface Case {
  name: string;
  /** The reader it runs as: the patient (own data) or the clinic. */
  as: "patient" | "clinic";
  /** The request, answered when the response was read and checked. */
  send: (r: Reader) => Promise<void>;
  targetMs?: number;
}

async function getPage(r: Reader, path: string, marker: string) {
  const res = await fetch(r.origin + path, { headers: { Cookie: r.cookie }, redirect: "manual" });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path}: HTTP ${res.status}`);
  if (!body.includes(marker)) throw new Error(`GET ${path}: no ${marker}`);
}

async function postApi(r: Reader, path: string, body: unknown) {
  const res = await fetch(r.origin + path, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", token: r.token, Origin: r.origin },
  });
  const text = await res.text();
  const code = (JSON.parse(text) as { code?: unknown }).code;
  if (res.status !== 200 || code !== 200)
    throw new Error(`POST ${path}: ${res.status} ${text.slice(0, 300)}`);
}

const home = (r: Reader) => `/patientShow/${r.pid}/${r.userId}/patientHome`;
const range = (r: Reader, days: number) => ({
  pid: r.pid,
  start: String(r.last.subtract({ days: days - 1 })),
  end: String(r.last),
});
const rangeQuery = (r: Reader, days: number) => {
  const { start, end } = range(r, days);
  return new URLSearchParams({ start, end }).toString();
};

function cases(): Case[] {
  const patientCases: Omit<Case, "as">[] = [
    {
      name: "DAILY page",
      send: (r) => getPage(r, `${home(r)}?tab=daily&date=${r.last}`, 'data-testid="daily-totals"'),
    },
    {
      name: "CGMS page",
      send: (r) => getPage(r, `${home(r)}?tab=cgms&date=${r.last}`, 'data-testid="cgm-latest"'),
    },
    {
      name: "CGM report JSON, 14 days",
      send: (r) => postApi(r, "/api/patient-data/sugarDevicePdf", range(r, 14)),
    },
    {
      name: "AGP JSON, 14 days",
      send: (r) => postApi(r, "/api/cgms/cgm-record/agp", range(r, 14)),
    },
    {
      name: "statistics page, 90 days",
      send: (r) =>
        getPage(
          r,
          `/${r.pid}/statisticsprint?${rangeQuery(r, 90)}`,
          'data-testid="statistics-periods"',
        ),
    },
    {
      name: "statistics page, 30 days",
      send: (r) =>
        getPage(
          r,
          `/${r.pid}/statisticsprint?${rangeQuery(r, 30)}`,
          'data-testid="statistics-periods"',
        ),
    },
  ];
  // The clinic reads first, so that the patient's access log lists its reads on both databases.
  return [
    ...patientCases.map((c) => ({ ...c, as: "clinic" as const })),
    {
      name: "clinic patient list",
      as: "clinic",
      targetMs: 1000,
      send: (r) => getPage(r, "/patientShow/patients", 'data-testid="triage-table"'),
    },
    ...patientCases.map((c) => ({ ...c, as: "patient" as const })),
    {
      name: "access-log page",
      as: "patient",
      send: (r) => getPage(r, "/patientShow/accessLog", 'data-testid="access-log-entry"'),
    },
  ];
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

interface Row {
  name: string;
  small: number[];
  big: number[];
  targetMs?: number;
}

/** Each case on both servers in turn (so that the machine's load falls on both alike). */
async function measure(
  readers: { small: Record<Case["as"], Reader>; big: Record<Case["as"], Reader> },
  o: Options,
) {
  const rows: Row[] = [];
  for (const c of cases()) {
    const small = readers.small[c.as];
    const big = readers.big[c.as];
    for (let i = 0; i < o.warmup; i++) {
      await c.send(small);
      await c.send(big);
    }
    const row: Row = {
      name: `${c.as === "patient" ? "patient" : "clinic"}: ${c.name}`,
      small: [],
      big: [],
      ...(c.targetMs ? { targetMs: c.targetMs } : {}),
    };
    for (let i = 0; i < o.runs; i++) {
      row.small.push(await timed(() => c.send(small)));
      row.big.push(await timed(() => c.send(big)));
    }
    rows.push(row);
    log(
      `  ${row.name}: small ${median(row.small).toFixed(0)} ms, big ${median(row.big).toFixed(0)} ms`,
    );
  }
  return rows;
}

const RATIO_TARGET = 1.5;

function verdict(row: Row): string {
  const ratio = median(row.big) / median(row.small);
  if (row.targetMs !== undefined)
    return median(row.big) < row.targetMs
      ? `PASS (< ${row.targetMs} ms)`
      : `MISS (< ${row.targetMs} ms)`;
  return ratio <= RATIO_TARGET ? "PASS" : "MISS";
}

function printTable(rows: readonly Row[], o: Options, meta: Meta) {
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const lines = [
    `| request | small: median / p95 | big: median / p95 | big / small | target |`,
    `|---|---|---|---|---|`,
    ...rows.map(
      (r) =>
        `| ${r.name} | ${ms(median(r.small))} / ${ms(percentile(r.small, 95))} | ${ms(median(r.big))} / ${ms(percentile(r.big, 95))} | ${(median(r.big) / median(r.small)).toFixed(2)}x | ${verdict(r)} |`,
    ),
  ];
  console.log(
    `\nbig: ${meta.patients} patients x ${meta.days} days (data to ${meta.end}), ${meta.shared} shared with the clinic; small: the demo data and patient 1 of the big database. ` +
      `${o.runs} runs each after ${o.warmup} warm-up, alternating; ratio of medians, target <= ${RATIO_TARGET}x (the list: < 1 s). ` +
      `1/5/15-min load average at the end: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" / ")}\n`,
  );
  console.log(lines.join("\n"));
}

async function readerOn(
  server: BenchServer,
  as: Case["as"],
  account: { email: string; password: string; identity: SignInIdentity },
  patientEmail: string,
  last: Temporal.PlainDate,
): Promise<Reader> {
  const { rows } = await withClient(server.databaseUrl, (c) =>
    c.query<{ pid: number; userId: number }>(
      `SELECT p.id AS pid, u.id AS "userId" FROM "User" u JOIN "Patient" p ON p."userId" = u.id WHERE u.email = $1`,
      [patientEmail],
    ),
  );
  const patient = rows[0];
  if (!patient) throw new Error(`no patient ${patientEmail}`);
  const cookie =
    as === "clinic"
      ? server.cookie
      : await signIn(server.origin, account.email, account.password, account.identity);
  const token = await apiToken(server.origin, account.email, account.password, account.identity);
  return { origin: server.origin, cookie, token, ...patient, last };
}

async function main() {
  const o = parseOptions(process.argv.slice(2));
  const loadAtStart = loadavg();
  const adminUrl = await serverUrl();
  const meta = await ensureBig(adminUrl, o);
  log(`Creating ${SMALL} (the demo data and patient 1 of ${BIG})`);
  const smallUrl = await freshSmall(adminUrl, o, meta);
  const bigUrl = withDatabase(adminUrl, BIG);
  const clinic = { ...DEMO_ACCOUNTS.clinic, identity: 2 as const };
  // The generated data ends at the UTC midnight it was made: the day before is its last full day.
  const last = Temporal.PlainDate.from(meta.end).subtract({ days: 1 });
  const bigPatient = "scale-00001@bench.diacare.test";
  const bigPatientAccount = {
    email: bigPatient,
    password: DEMO_ACCOUNTS.patient.password,
    identity: 1 as const,
  };
  // Sign-ins of the page and the API from one address: the per-address limit is not what is measured.
  const env = { RATE_LIMIT_SIGNIN_PER_IP: "1000000" };
  try {
    const rows = await withServerOn(
      smallUrl,
      (small) =>
        withServerOn(
          bigUrl,
          async (big) => {
            const readers = {
              small: {
                patient: await readerOn(small, "patient", bigPatientAccount, bigPatient, last),
                clinic: await readerOn(small, "clinic", clinic, bigPatient, last),
              },
              big: {
                patient: await readerOn(big, "patient", bigPatientAccount, bigPatient, last),
                clinic: await readerOn(big, "clinic", clinic, bigPatient, last),
              },
            };
            log(
              `Timing (load average ${loadAtStart.map((l) => l.toFixed(1)).join(" / ")} at the start)`,
            );
            return measure(readers, o);
          },
          env,
        ),
      env,
    );
    printTable(rows, o, meta);
  } finally {
    await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${SMALL}" WITH (FORCE)`));
  }
  console.log(
    `\nThe big database stays for the next run: ${bigUrl} (drop it with DROP DATABASE ${BIG}).`,
  );
}

await main();
