/**
 * The staff Excel export over HTTP (`GET /api/patient-data/exportReport`) of the production build
 * on the local PostgreSQL: 100 patients who share with a staff account, each with 90 days of data
 * (a CGM reading every 5 minutes, 25,920 each; 4 meter values a day; 24 pump records a day), all
 * exported at once. The download is read as fast as it comes; the server's resident memory is
 * sampled every 200 ms meanwhile.
 *
 * Target: the whole workbook in < 10 s, the server's memory flat (no whole workbook held).
 */
import { readFileSync } from "node:fs";
import pg from "pg";
import { DEMO_ACCOUNTS } from "../prisma/seed";
import { XlsxStream } from "../app/utils/xlsx-stream.server";
import { rssMegabytes, withBenchServer } from "./server";
import type { BenchResult } from "./timing";

/** `EXCEL_BENCH_PATIENTS` shrinks the run (a quick check of the benchmark itself). */
const PATIENTS = Number(process.env.EXCEL_BENCH_PATIENTS ?? 100);
const DAYS = 90;
const ZONE = "Europe/Warsaw";
const STAFF_EMAIL = "bench-staff@bench.diacare.test";

/** The last full day in the patients' zone (yesterday there) and the first of the 90. */
export function range(now: number): { start: string; end: string } {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(now);
  const end = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000);
  const start = new Date(end.getTime() - (DAYS - 1) * 86_400_000);
  return { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) };
}

/** A staff account (the clinic's password, role admin) and the patients sharing with it, with their data, in SQL. */
export async function seedExportBench(databaseUrl: string, dates: { start: string; end: string }) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // The record tables keep UTC wall clocks (timestamp without zone).
    await client.query("SET TIME ZONE 'UTC'");
    await client.query("BEGIN");
    const staff = await client.query<{ id: number }>(
      `INSERT INTO "User" (email, "passwordHash", identity, role, active, "isPass", "firstName", "lastName", "updatedAt")
       SELECT $1, "passwordHash", 2, 'admin', true, 1, 'Bench', 'Staff', now() FROM "User" WHERE email = $2 RETURNING id`,
      [STAFF_EMAIL, DEMO_ACCOUNTS.clinic.email],
    );
    const staffId = staff.rows[0]!.id;
    await client.query(
      `INSERT INTO "Setting" ("userId", lang, unit, "updatedAt") VALUES ($1, 'en', 0, now())`,
      [staffId],
    );
    await client.query(
      `WITH u AS (
         INSERT INTO "User" (email, identity, "firstName", "lastName", gender, "birthDate", "updatedAt")
         SELECT 'bench-patient-' || i || '@bench.diacare.test', 1, 'Patient', 'No ' || i,
                (ARRAY['female','male']::"Gender"[])[1 + i % 2], date '1950-01-01' + i * 200, now()
           FROM generate_series(1, $1::int) i RETURNING id)
       INSERT INTO "Patient" ("userId", "timeZone", "updatedAt") SELECT id, $2, now() FROM u`,
      [PATIENTS, ZONE],
    );
    await client.query(
      `INSERT INTO "ReadPower" ("providerId", "readerId", "sourceType", state, "updatedAt", "processedAt")
       SELECT p."userId", $1, 1, 1, now(), now() FROM "Patient" p JOIN "User" u ON u.id = p."userId"
        WHERE u.email LIKE 'bench-patient-%'`,
      [staffId],
    );
    const from = `${dates.start}T00:00:00`;
    // CGM: every 5 minutes, a wave between 60 and 260 mg/dL.
    await client.query(
      `INSERT INTO "CgmRecord" ("patientId", "deviceSn", "eventIndex", "eventType", "eventData", "deviceTime", "timeZone", "dateTime")
       SELECT p.id, 'AXB' || p.id, g.i, 7, round((160 + 100 * sin(g.i / 24.0 + p.id))::numeric, 1), '', $2,
              ($3::timestamp AT TIME ZONE $2) + g.i * interval '5 minutes'
         FROM "Patient" p JOIN "User" u ON u.id = p."userId", generate_series(0, $1::int * 288 - 1) g(i)
        WHERE u.email LIKE 'bench-patient-%'`,
      [DAYS, ZONE, from],
    );
    await client.query(
      `INSERT INTO "BgRecord" ("patientId", source, "deviceSn", "recordKey", mgdl, "deviceTime", "timeZone", "dateTime")
       SELECT p.id, 'meter', 'GCB' || p.id, g.i::text, 90 + (g.i * 37) % 120, '', $2,
              ($3::timestamp AT TIME ZONE $2) + interval '7 hours' + g.i * interval '6 hours'
         FROM "Patient" p JOIN "User" u ON u.id = p."userId", generate_series(0, $1::int * 4 - 1) g(i)
        WHERE u.email LIKE 'bench-patient-%'`,
      [DAYS, ZONE, from],
    );
    await client.query(
      `INSERT INTO "PumpRecord" ("patientId", "pdaSn", "recordId", "eventIndex", "eventPort", "eventType", "eventUrgency", "eventValue",
                                 "statusByte0", "statusByte1", "statusShort0", "statusShort1", "deviceTime", "recordTimeZone", "dateTime")
       SELECT p.id, 'EQB' || p.id, g.i, g.i, 4, 0, 0, 0, 80, 150, 120 + (g.i % 24) * 4, 0, '', $2,
              ($3::timestamp AT TIME ZONE $2) + g.i * interval '1 hour'
         FROM "Patient" p JOIN "User" u ON u.id = p."userId", generate_series(0, $1::int * 24 - 1) g(i)
        WHERE u.email LIKE 'bench-patient-%'`,
      [DAYS, ZONE, from],
    );
    await client.query("COMMIT");
    await client.query("ANALYZE");
    const bench = (table: string) =>
      `(SELECT count(*)::int FROM "${table}" d JOIN "Patient" p ON p.id = d."patientId" JOIN "User" u ON u.id = p."userId" WHERE u.email LIKE 'bench-patient-%')`;
    const counts = await client.query<{ cgm: number; bg: number; pump: number }>(
      `SELECT ${bench("CgmRecord")} AS cgm, ${bench("BgRecord")} AS bg, ${bench("PumpRecord")} AS pump`,
    );
    return counts.rows[0]!;
  } finally {
    await client.end();
  }
}

async function staffToken(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/user/login`, {
    method: "POST",
    body: JSON.stringify({
      userName: STAFF_EMAIL,
      password: DEMO_ACCOUNTS.clinic.password,
      identity: 2,
    }),
    headers: { Origin: origin, "Content-Type": "application/json" },
  });
  const token = res.headers.get("token");
  if (!token) throw new Error(`API sign-in failed: HTTP ${res.status}`);
  return token;
}

const megabytes = (text: string) => Number.parseInt(text, 10);

/** CPU seconds a process has used (user + system, /proc/PID/stat; its threads, the zip's included). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Rows written by {@link writerFloor}: enough for a steady per-row figure. */
const FLOOR_ROWS = 500_000;

/**
 * The workbook writer alone, in this process, with no database and no HTTP: {@link FLOOR_ROWS}
 * CGM-shaped rows (date-time, offset, value, device) through the app's exceljs stream, the zip
 * read as fast as it comes. Its CPU time per row is the least any export of that many rows costs
 * with exceljs, however fast the reading is.
 */
async function writerFloor(): Promise<{ cpuUsPerRow: number; wallMs: number }> {
  const xlsx = new XlsxStream();
  const reader = xlsx.body().getReader();
  const drained = (async () => {
    while (!(await reader.read()).done);
  })();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const sheet = xlsx.addSheet("CGM", [
    { header: "Time", width: 20, numFmt: "yyyy-mm-dd hh:mm:ss" },
    { header: "UTC offset", width: 8, numFmt: null },
    { header: "Glucose", width: 8, numFmt: "0.0" },
    { header: "Device", width: 12, numFmt: null },
  ]);
  const from = Date.UTC(2026, 0, 1);
  for (let i = 0; i < FLOOR_ROWS; i++) {
    sheet.write([new Date(from + i * 300_000), "+01:00", 60 + (i % 200), "AXB1"]);
    if (i % 5_000 === 4_999) await xlsx.ready();
  }
  sheet.commit();
  await xlsx.finish();
  await drained;
  const cpu = process.cpuUsage(cpu0);
  return { cpuUsPerRow: (cpu.user + cpu.system) / FLOOR_ROWS, wallMs: performance.now() - started };
}

export async function benchExcelExport(): Promise<BenchResult[]> {
  return withBenchServer("excel_export", async (server) => {
    const dates = range(Date.now());
    const t0 = performance.now();
    const stored = await seedExportBench(server.databaseUrl, dates);
    const seedMs = performance.now() - t0;
    const token = await staffToken(server.origin);
    const before = rssMegabytes(server.serverPid);

    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(megabytes(rssMegabytes(server.serverPid))), 200);
    const cpuBefore = cpuSeconds(server.serverPid);
    const started = performance.now();
    const res = await fetch(
      `${server.origin}/api/patient-data/exportReport?all=1&start=${dates.start}&end=${dates.end}&unit=0`,
      { headers: { token } },
    );
    if (res.status !== 200 || !res.body)
      throw new Error(`exportReport: HTTP ${res.status} ${await res.text()}`);
    let bytes = 0;
    let firstByte = 0;
    let head: Uint8Array | null = null;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (bytes === 0) {
        firstByte = performance.now() - started;
        head = chunk.slice(0, 2);
      }
      bytes += chunk.byteLength;
    }
    const total = performance.now() - started;
    const cpu = cpuSeconds(server.serverPid) - cpuBefore;
    clearInterval(sampler);
    if (!head || head[0] !== 0x50 || head[1] !== 0x4b) throw new Error("the answer is not a zip");
    const rows = stored.cgm + stored.bg + stored.pump;
    const floor = await writerFloor();
    return [
      {
        name: `Excel export: ${PATIENTS} patients x ${DAYS} days, whole file`,
        ms: total,
        detail: `target < 10000 ms; ${rows.toLocaleString("en")} records (CGM ${stored.cgm}, meter ${stored.bg}, pump ${stored.pump}); ${(bytes / 1024 / 1024).toFixed(1)} MiB; first byte after ${firstByte.toFixed(0)} ms; ${((rows / total) * 1000).toFixed(0)} records/s; server CPU ${cpu.toFixed(1)} s (${((cpu * 1e6) / rows).toFixed(1)} µs a record)`,
      },
      {
        name: "Excel export: server RSS",
        ms: Number.NaN,
        detail: `${before} before, ${Math.min(...samples)}-${Math.max(...samples)} MB during (${samples.length} samples), ${rssMegabytes(server.serverPid)} after`,
      },
      {
        name: `Excel export: the exceljs writer alone, ${FLOOR_ROWS.toLocaleString("en")} rows`,
        ms: floor.wallMs,
        detail: `${floor.cpuUsPerRow.toFixed(2)} µs CPU a row: ${((floor.cpuUsPerRow * rows) / 1e6).toFixed(1)} s of CPU for the ${rows.toLocaleString("en")} records above before any of them is read`,
      },
      {
        name: "Excel export: seeding the data (SQL)",
        ms: seedMs,
        detail: "not part of the export",
      },
    ];
  });
}
