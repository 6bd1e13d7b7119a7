import pg from "pg";
import { hashPassword } from "../../app/utils/password.server";
import { uniqueEmail } from "./support";

/**
 * The e2e database as the tests themselves reach it. When scripts/test.sh records the statements
 * the app sends (E2E_RECORD_STATEMENTS=1, docs/decisions/026-citus-ready-schema.md), the tests'
 * own set-up and checks are left out of the record.
 */
export function testDatabaseUrl(): string {
  const url = new URL(process.env.E2E_DATABASE_URL ?? "");
  if (process.env.E2E_RECORD_STATEMENTS === "1")
    url.searchParams.set("options", "-c pg_stat_statements.track=none");
  return url.toString();
}

/** Direct database set-up for e2e tests (users they need, created fresh for each test). */
async function withDb<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export type TestUser = {
  id: number;
  email: string;
  password: string;
  name: string;
  pid: number | null;
};

export async function createUser(options: {
  tag: string;
  identity: 1 | 2;
  firstName: string;
  lastName: string;
  isPass?: number;
  lang?: string;
  unit?: 0 | 1;
  active?: boolean;
  timeZone?: string;
  role?: "admin" | "editor" | "guest";
}): Promise<TestUser> {
  const email = uniqueEmail(options.tag);
  const password = `${options.tag} password 1`;
  const passwordHash = await hashPassword(password);
  return withDb(async (client) => {
    const { rows } = await client.query(
      `INSERT INTO "User" (email, "passwordHash", identity, "isPass", "firstName", "lastName", active, role, "updatedAt") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now()) RETURNING id`,
      [
        email,
        passwordHash,
        options.identity,
        options.isPass ?? (options.identity === 2 ? 1 : 0),
        options.firstName,
        options.lastName,
        options.active ?? true,
        options.role ?? "guest",
      ],
    );
    const id = rows[0].id as number;
    await client.query(
      `INSERT INTO "Setting" ("userId", lang, unit, "updatedAt") VALUES ($1, $2, $3, now())`,
      [id, options.lang ?? "en", options.unit ?? 0],
    );
    let pid: number | null = null;
    if (options.identity === 1) {
      const patient = await client.query(
        `INSERT INTO "Patient" ("userId", "timeZone", "updatedAt") VALUES ($1, $2, now()) RETURNING id`,
        [id, options.timeZone ?? "UTC"],
      );
      pid = patient.rows[0].id;
    }
    return { id, email, password, name: `${options.firstName} ${options.lastName}`, pid };
  });
}

/** An accepted share from `provider` to `reader` (as if the reader had accepted). */
export async function createAcceptedShare(providerId: number, readerId: number, uploadIsNew = 1) {
  await withDb((client) =>
    client.query(
      `INSERT INTO "ReadPower" ("providerId", "readerId", "sourceType", state, "isNew", "uploadIsNew", "updatedAt") VALUES ($1, $2, 1, 1, 1, $3, now())`,
      [providerId, readerId, uploadIsNew],
    ),
  );
}

/** A share that `provider` made with `reader` (sourceType 0) in `state` (0 pending, 1 accepted, 2 refused), made at `createdAt`. */
export async function createShareRequest(
  providerId: number,
  readerId: number,
  state: 0 | 1 | 2,
  createdAt: Date,
) {
  await withDb((client) =>
    client.query(
      `INSERT INTO "ReadPower" ("providerId", "readerId", "sourceType", state, "isNew", "uploadIsNew", "createdAt", "updatedAt") VALUES ($1, $2, 0, $3, 1, 1, $4, now())`,
      [providerId, readerId, state, createdAt],
    ),
  );
}

/**
 * Moves the last sending of the share request or invitation between `provider` and `reader`
 * `days` days into the past (a request still waiting 14 days after it was sent has expired).
 */
export async function ageRequest(providerId: number, readerId: number, days: number) {
  await withDb((client) =>
    client.query(
      `UPDATE "ReadPower" SET "sentAt" = now() - make_interval(days => $3) WHERE "providerId" = $1 AND "readerId" = $2`,
      [providerId, readerId, days],
    ),
  );
}

/** The seeded demo patient (prisma/seed.ts): pid, user id and time zone. */
export async function demoPatient(): Promise<{ pid: number; userId: number; timeZone: string }> {
  return withDb(async (client) => {
    const { rows } = await client.query(
      `SELECT p.id AS pid, p."userId", p."timeZone" FROM "Patient" p JOIN "User" u ON u.id = p."userId" WHERE u.email = 'patient@demo.diacare.test'`,
    );
    return { pid: rows[0].pid, userId: rows[0].userId, timeZone: rows[0].timeZone };
  });
}

/** A patient's pump records around a day window, as the DAILY model reads them. */
export async function pumpRecordsAround(pid: number, start: number, end: number) {
  return withDb(async (client) => {
    const { rows } = await client.query(
      `SELECT id, "dateTime", "eventIndex", "eventPort", "eventType", "eventUrgency", "eventValue", "statusShort0" AS "basalRateRaw", "statusShort1" AS "bolusRateRaw", "statusByte0" AS battery, "statusByte1" AS reservoir
         FROM "PumpRecord" WHERE "patientId" = $1 AND "dateTime" >= $2 AND "dateTime" < $3 ORDER BY "dateTime", "eventIndex"`,
      [pid, new Date(start - 86_400_000), new Date(end + 86_400_000)],
    );
    return rows.map((r) => ({ ...r, id: String(r.id), dateTime: (r.dateTime as Date).getTime() }));
  });
}

/** The access-log rows of reads of a patient's data by one reader, oldest first. */
export async function readsLogged(
  patientId: number,
  actorId: number,
): Promise<{ action: string; channel: string | null }[]> {
  return withDb(async (client) => {
    const { rows } = await client.query(
      `SELECT action, channel FROM "AuditLog" WHERE "patientId" = $1 AND "actorId" = $2 AND action LIKE 'read:%' ORDER BY id`,
      [patientId, actorId],
    );
    return rows.map((r) => ({
      action: r.action as string,
      channel: (r.channel as string | null) ?? null,
    }));
  });
}

/** Writes access-log rows for a patient as if `actorId` had read or changed their data at `at`. */
export async function writeAccessLog(
  patientId: number,
  rows: {
    actorId: number;
    action: string;
    channel: "page" | "api" | "pdf" | null;
    at: Date;
    detail?: Record<string, unknown>;
  }[],
) {
  await withDb(async (client) => {
    for (const row of rows) {
      await client.query(
        `INSERT INTO "AuditLog" ("actorId", "patientId", action, channel, detail, at) VALUES ($1, $2, $3, $4::"AccessChannel", $5::jsonb, $6)`,
        [
          row.actorId,
          patientId,
          row.action,
          row.channel,
          row.detail === undefined ? null : JSON.stringify(row.detail),
          row.at,
        ],
      );
    }
  });
}

/** Whether the account has submitted organisation info. */
export async function hasOrganisation(userId: number): Promise<boolean> {
  return withDb(
    async (client) =>
      (await client.query(`SELECT 1 FROM "Organisation" WHERE "userId" = $1`, [userId]))
        .rowCount === 1,
  );
}

/** Stores an upload error report as the upload wizard's call would (UploadErrorLog). */
export async function addUploadErrorReport(report: {
  operatorUserId: number;
  patientUserId: number | null;
  content: string;
  createdAt?: Date;
}) {
  await withDb((client) =>
    client.query(
      `INSERT INTO "UploadErrorLog" ("operatorUserId", "patientUserId", content, "createdAt") VALUES ($1, $2, $3, $4)`,
      [report.operatorUserId, report.patientUserId, report.content, report.createdAt ?? new Date()],
    ),
  );
}

/** The patient's newest CGM reading as a local date (YYYY-MM-DD) in `timeZone`, or null. */
export async function newestCgmDay(pid: number, timeZone: string): Promise<string | null> {
  return withDb(async (client) => {
    const { rows } = await client.query(
      `SELECT max("dateTime") AS last FROM "CgmRecord" WHERE "patientId" = $1`,
      [pid],
    );
    const last = rows[0]?.last as Date | null;
    return last
      ? new Intl.DateTimeFormat("en-CA", {
          timeZone,
          year: "numeric",
          month: "2-digit",
          day: "2-digit",
        }).format(last)
      : null;
  });
}

/** Sets what the dashboard counts of a person: gender, birth date, and the record's type of diabetes (an option code). */
export async function setPersonFacts(
  userId: number,
  facts: {
    gender: "male" | "female" | "other" | "unknown";
    birthDate: string;
    diabetesType: string;
  },
) {
  await withDb(async (client) => {
    await client.query(
      `UPDATE "User" SET gender = $2::"Gender", "birthDate" = $3::date WHERE id = $1`,
      [userId, facts.gender, facts.birthDate],
    );
    await client.query(
      `UPDATE "Patient" SET "diabetesTypeId" = (SELECT id FROM "Option" WHERE code = $2) WHERE "userId" = $1`,
      [userId, facts.diabetesType],
    );
  });
}

/** Fills the required fields of a person's health record (gender, type 1 diabetes), as remote caring asks. */
export async function completeHealthRecord(userId: number) {
  await withDb(async (client) => {
    await client.query(`UPDATE "User" SET gender = 'female' WHERE id = $1`, [userId]);
    await client.query(
      `UPDATE "Patient" SET "diabetesTypeId" = (SELECT id FROM "Option" WHERE code = 'type1') WHERE "userId" = $1`,
      [userId],
    );
  });
}

/** An invitation from `reader` to `provider` (sourceType 1) in `state` (0 waiting, 1 accepted, 2 refused). */
export async function createInvitation(providerId: number, readerId: number, state: 0 | 1 | 2) {
  await withDb((client) =>
    client.query(
      `INSERT INTO "ReadPower" ("providerId", "readerId", "sourceType", state, "isNew", "uploadIsNew", "updatedAt") VALUES ($1, $2, 1, $3, 0, 1, now())`,
      [providerId, readerId, state],
    ),
  );
}

/** CGM readings of a patient, each `minutesAgo` before now, in mg/dL. */
export async function addCgmReadings(pid: number, readings: [minutesAgo: number, mgdl: number][]) {
  await withDb(async (client) => {
    for (const [i, [ago, mgdl]] of readings.entries()) {
      await client.query(
        `INSERT INTO "CgmRecord" ("patientId", "deviceSn", "eventIndex", "eventType", "eventData", "deviceTime", "timeZone", "dateTime") VALUES ($1, 'E2E-AIDEX', $2, 7, $3, '', 'UTC', now() - make_interval(mins => $4))`,
        [pid, 100_000 - ago * 10 + i, mgdl, ago],
      );
    }
  });
}

/** A finished upload of the patient's CGM that ended at `completedAt`. */
export async function addFinishedUpload(pid: number, uploaderId: number, completedAt: Date) {
  await withDb((client) =>
    client.query(
      `INSERT INTO "UploadTask" ("patientId", "uploaderId", "deviceKind", "deviceSn", "timeZone", status, "completedAt")
       VALUES ($1, $2, 'aidex', 'E2E-CGM', 'UTC', 'done', $3::timestamp)`,
      [pid, uploaderId, completedAt.toISOString().replace("T", " ").replace("Z", "")],
    ),
  );
}

/** Sets the language a signed-in user's pages are written in. */
export async function setLanguage(userId: number, lng: string) {
  await withDb((client) =>
    client.query(`UPDATE "Setting" SET lang = $2 WHERE "userId" = $1`, [userId, lng]),
  );
}

/** Sets a user's report page orientation (print settings). */
export async function setPrintOrientation(userId: number, orientation: "portrait" | "landscape") {
  await withDb((client) =>
    client.query(`UPDATE "Setting" SET orientation = $2 WHERE "userId" = $1`, [
      userId,
      orientation,
    ]),
  );
}

/** Sets the paper a user's reports are printed on (print settings). */
export async function setPaperSize(userId: number, paperSize: "a4" | "letter") {
  await withDb((client) =>
    client.query(`UPDATE "Setting" SET "paperSize" = $2 WHERE "userId" = $1`, [userId, paperSize]),
  );
}

/** Sets a user's report logo (print settings) to a PNG's bytes. */
export async function setReportLogo(userId: number, png: Buffer) {
  await withDb((client) =>
    client.query(
      `UPDATE "Setting" SET "reportLogo" = $2, "reportLogoType" = 'image/png' WHERE "userId" = $1`,
      [userId, png],
    ),
  );
}

/**
 * 5-minute CGM readings of a patient ending now (the newest `count` slots back, one statement):
 * reading k (0 = now) has `valueOf(k)` mg/dL.
 */
export async function addCgmSeries(pid: number, count: number, values: (k: number) => number) {
  const list = Array.from({ length: count }, (_, k) => values(k));
  await withDb((client) =>
    client.query(
      `INSERT INTO "CgmRecord" ("patientId", "deviceSn", "eventIndex", "eventType", "eventData", "deviceTime", "timeZone", "dateTime")
       SELECT $1, 'E2E-SERIES', k, 7, ($2::float8[])[k + 1], '', 'UTC', date_trunc('minute', now() AT TIME ZONE 'UTC') - make_interval(mins => 5 * k)
         FROM generate_series(0, $3::int - 1) k`,
      [pid, list, count],
    ),
  );
}
