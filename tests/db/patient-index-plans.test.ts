/**
 * Every statement the app sends for one patient's data reads the record tables through an index
 * that starts with the patient. A mid-sized database (48 generated patients x 21 days written as
 * the scale benchmark writes them, about 290,000 CGM readings, so that the planner prefers an
 * index wherever a suitable one exists) is ANALYZEd; then every route that reads one patient's
 * data (./patient-data-routes.ts), the patient page's tabs, the clinic's patient list and its
 * printable summary, and the patient's access log run as the clinic and as the patient, while
 * every statement node-postgres sends is recorded with its values. Each recorded read of a
 * record table is planned again with EXPLAIN (FORMAT JSON) and the same values: a sequential
 * scan of a record table, or an index whose first column is not "patientId", fails the test
 * with the statement. The planner's settings are left as they are.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import pg from "pg";
import { Temporal } from "temporal-polyfill";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { loader as exportPage } from "~/routes/patientShow.$id.export[.]csv";
import { loader as accessLog } from "~/routes/patientShow.accessLog";
import { loader as patientHome } from "~/routes/patientShow.$id.$userid.patientHome";
import { loader as patientsPage } from "~/routes/patientShow.patients";
import { loader as triagePrint } from "~/routes/triageprint";
import { db } from "~/utils/db.server";
import { loadPatients, type ScalePatient } from "../../bench/scale/copy-load";
import { scaleZone } from "../../bench/scale/generate";
import { ROUTES, type Caller } from "./patient-data-routes";
import { nodesOf, statementRecorder, type PlanNode, type Statement } from "./statement-support";
import { cookieFor, statusOf } from "./report-support";

/** The tables of patients' records: each read of them must go through an index led by the patient. */
const RECORD_TABLES = [
  "CgmRecord",
  "CgmDay",
  "PumpRecord",
  "BgRecord",
  "CarbEntry",
  "InsulinEntry",
  "AlarmEvent",
] as const;
/** The views derive a pump's alarms from its records: no route reads "AlarmEvent" today. */
const READ_BY_ROUTES = RECORD_TABLES.filter((t) => t !== "AlarmEvent");
const PATIENTS = 48;
const SHARED = 8;
const DAYS = 21;
/**
 * Pages a record table fills at least, so that a sequential scan is not the cheap plan for one
 * patient's rows ("CgmDay", a row a patient and day, is the smallest).
 */
const MIN_PAGES = 8;

const recordTableIn = (text: string) => RECORD_TABLES.filter((t) => text.includes(`"${t}"`));
const isRead = (text: string) => /^\s*(select|with)\b/i.test(text);

describe("patient data is read through indexes that start with the patient", () => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  const recorder = statementRecorder();
  /** Each record table's indexes: name -> first column. */
  const firstColumn = new Map<string, { table: string; column: string }>();
  let clinic: Caller & { id: number };
  let patients: ScalePatient[];

  beforeAll(async () => {
    await client.connect();
    const clinicUser = await db().user.create({
      data: { email: `plans-clinic-${Date.now()}@plans.test`, identity: 2, isPass: 1 },
    });
    const { rows } = await client.query<ScalePatient>(
      `WITH users AS (
         INSERT INTO "User" (email, identity, "firstName", "lastName", "updatedAt")
         SELECT format('plans-%s@plans.test', g), 1, format('Patient %s', g), 'Plans', now()
           FROM generate_series(1, $1::int) g RETURNING id, email),
       made AS (
         INSERT INTO "Patient" ("userId", "timeZone", "updatedAt")
         SELECT id, ($2::text[])[1 + (split_part(split_part(email, '@', 1), '-', 2)::int - 1) % cardinality($2::text[])], now()
           FROM users RETURNING id, "userId")
       SELECT split_part(split_part(u.email, '@', 1), '-', 2)::int AS number, m.id AS "patientId", m."userId"
         FROM made m JOIN users u ON u.id = m."userId" ORDER BY 1`,
      [PATIENTS, Array.from({ length: 5 }, (_, i) => scaleZone(i + 1))],
    );
    patients = rows;
    await client.query(
      `INSERT INTO "ReadPower" ("providerId", "readerId", "sourceType", state, "updatedAt", "processedAt")
       SELECT u, $2, 1, 1, now(), now() FROM unnest($1::int[]) u`,
      [patients.slice(0, SHARED).map((p) => p.userId), clinicUser.id],
    );
    const today = Temporal.Now.plainDateISO("UTC");
    await loadPatients(process.env.DATABASE_URL!, patients, {
      seed: 20261130,
      days: DAYS,
      endMs: Date.UTC(today.year, today.month - 1, today.day),
    });
    // Pen doses and glucose alarms as imports and uploaders write them, so that those tables
    // hold as many rows a patient as the others.
    await client.query(
      `INSERT INTO "InsulinEntry" ("patientId", "deviceSn", "recordKey", kind, units, "dateTime")
       SELECT p.id, 'PEN' || p.id, k::text, (CASE WHEN k % 4 = 3 THEN 'long' ELSE 'rapid' END)::"InsulinKind",
              2 + k % 7, date_trunc('day', now() AT TIME ZONE 'UTC') - make_interval(hours => 6 * k + 1)
         FROM "Patient" p CROSS JOIN generate_series(0, $1::int * 4 - 1) k WHERE p.id = ANY($2::int[])`,
      [DAYS, patients.map((p) => p.patientId)],
    );
    await client.query(
      `INSERT INTO "AlarmEvent" ("patientId", "dateTime", kind)
       SELECT r."patientId", r."dateTime", (CASE WHEN r."eventData" > 250 THEN 'high_glucose' ELSE 'low_glucose' END)::"AlarmKind"
         FROM "CgmRecord" r WHERE r."eventData" > 250 OR r."eventData" < 70`,
    );
    await client.query("ANALYZE");
    const indexes = await client.query<{ index: string; table: string; column: string }>(
      `SELECT i.relname AS index, t.relname AS table, a.attname AS column
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0]
        WHERE t.relname = ANY($1::text[])`,
      [RECORD_TABLES],
    );
    for (const r of indexes.rows) firstColumn.set(r.index, { table: r.table, column: r.column });
    clinic = {
      id: clinicUser.id,
      cookie: await cookieFor(clinicUser.id),
      token: await createApiToken(clinicUser.id),
    };
  }, 300_000);

  afterAll(async () => {
    recorder.stop();
    await client.end();
  });

  it("the database is large enough for the planner to prefer an index for one patient", async () => {
    const { rows } = await client.query<{ table: string; pages: number }>(
      `SELECT relname AS table, relpages AS pages FROM pg_class WHERE relname = ANY($1::text[]) AND relkind = 'r'`,
      [RECORD_TABLES],
    );
    expect(rows).toHaveLength(RECORD_TABLES.length);
    for (const r of rows) expect([r.table, r.pages >= MIN_PAGES]).toEqual([r.table, true]);
  });

  it("no read of a record table scans it sequentially or uses an index not led by the patient", async () => {
    const patient = patients[0]!;
    const own: Caller = {
      cookie: await cookieFor(patient.userId),
      token: await createApiToken(patient.userId),
    };
    const end = Temporal.Now.plainDateISO(scaleZone(patient.number)).subtract({ days: 1 });
    const ranges = [
      { start: end.subtract({ days: 13 }).toString(), end: end.toString() },
      { start: end.subtract({ days: 89 }).toString(), end: end.toString() },
    ];
    const home = `http://localhost/patientShow/${patient.patientId}/${patient.userId}/patientHome`;
    const homeParams = { id: String(patient.patientId), userid: String(patient.userId) };
    const page = (
      loader: (args: LoaderFunctionArgs) => unknown,
      url: string,
      who: Caller,
      params = {},
    ) =>
      statusOf(() =>
        loader({
          request: new Request(url, { headers: { Cookie: who.cookie! } }),
          params,
          context: {},
        }),
      );
    const answers: [string, number][] = [];
    recorder.start();
    try {
      for (const who of [clinic, own]) {
        for (const route of ROUTES.filter((r) => r.kind !== "pdf")) {
          answers.push([
            route.file,
            await route.call(who, patient.patientId, patient.userId, ranges[0]),
          ]);
          // 90 days: the routes that allow it read more; the others refuse before reading.
          await route.call(who, patient.patientId, patient.userId, ranges[1]);
        }
        for (const query of [
          `tab=daily&date=${end}`,
          `tab=cgms&date=${end}`,
          `tab=cgms&view=overlay&date=${end}`,
          `tab=bg&from=${ranges[0]!.start}&to=${end}`,
        ])
          answers.push([
            `patientHome?${query}`,
            await page(patientHome, `${home}?${query}`, who, homeParams),
          ]);
      }
      // The CSV export streams its file: the statements run as the body is read.
      for (const who of [clinic, own]) {
        const response = await exportPage({
          request: new Request(
            `http://localhost/patientShow/${patient.patientId}/export.csv?${new URLSearchParams(ranges[0])}`,
            { headers: { Cookie: who.cookie! } },
          ),
          params: { id: String(patient.patientId) },
          context: {},
        });
        answers.push(["export.csv", response.status]);
        await response.text();
      }
      answers.push([
        "patientShow.patients",
        await page(patientsPage, "http://localhost/patientShow/patients", clinic),
      ]);
      answers.push([
        "triageprint",
        await page(triagePrint, "http://localhost/triageprint", clinic),
      ]);
      answers.push([
        "accessLog",
        await page(accessLog, "http://localhost/patientShow/accessLog", own),
      ]);
    } finally {
      recorder.stop();
    }
    // Every call was answered with the data (a page's 200, an /api/ call's code 200).
    expect(answers.filter(([, status]) => status !== 200)).toEqual([]);

    const reads = new Map<string, Statement>();
    for (const s of recorder.statements)
      if (isRead(s.text) && recordTableIn(s.text).length > 0)
        reads.set(`${s.text}\n${JSON.stringify(s.values)}`, s);
    // The routes read every record table that the app reads.
    expect(new Set([...reads.values()].flatMap((s) => recordTableIn(s.text)))).toEqual(
      new Set(READ_BY_ROUTES),
    );

    const problems: string[] = [];
    for (const s of reads.values()) {
      const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
        `EXPLAIN (FORMAT JSON) ${s.text}`,
        s.values,
      );
      for (const node of nodesOf(rows[0]!["QUERY PLAN"][0].Plan)) {
        const table = node["Relation Name"];
        if (
          node["Node Type"] === "Seq Scan" &&
          table &&
          (RECORD_TABLES as readonly string[]).includes(table)
        )
          problems.push(`Seq Scan on "${table}" in:\n${s.text}`);
        const index = node["Index Name"] ? firstColumn.get(node["Index Name"]) : undefined;
        if (index && index.column !== "patientId")
          problems.push(
            `${node["Node Type"]} of ${node["Index Name"]} (led by "${index.column}") on "${index.table}" in:\n${s.text}`,
          );
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
