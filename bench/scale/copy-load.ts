/**
 * Writes generated patients' device histories (./generate.ts) with COPY instead of the upload
 * calls. The records go through the ingestion module's processors (app/ingest/process.ts: the
 * same checks, device-clock rules, derived carbohydrate and alarms, bolus-calculation flags), and
 * their rows are written to the columns app/models/device-records.server.ts inserts, so the app
 * reads them exactly as ingested ones (tests/db/scale-copy.test.ts compares the two).
 *
 * node-postgres cannot send COPY data on its own, so the rows are streamed to `psql` as COPY ...
 * FROM STDIN blocks in text format. A batch of patients is one transaction with one COPY per
 * table: CgmRecord's statement-level triggers then count the CgmDay rows of every patient in the
 * batch. Upload tasks, devices and the upload entries of the patients' logs are written first,
 * as the ingestion module would leave them.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import pg from "pg";
import {
  CgmProcessor,
  MeterProcessor,
  PumpProcessor,
  type Added,
  type CgmRow,
  type MeterRow,
  type PumpRow,
} from "../../app/ingest/process";
import { patientHistory, SCALE_PUMP_FIRMWARE, type PatientHistory } from "./generate";

/** A generated patient already in the database: its number picks its history. */
export interface ScalePatient {
  number: number;
  patientId: number;
  userId: number;
}

export interface LoadOptions {
  seed: number;
  days: number;
  endMs: number;
  /** Patients per transaction (one COPY per table each). */
  batch?: number;
  onBatch?: (done: number, total: number) => void;
}

const CGM_COLUMNS = `"patientId", "deviceSn", "uploadId", "timeZone", "eventIndex", "historyId", "sensorIndex", "eventType", "eventData", "deviceTime", "dateTime", direction`;
const PUMP_COLUMNS = `"patientId", "pdaSn", "uploadId", "recordId", "eventIndex", "eventPort", "eventType", "eventUrgency", "eventValue", "statusByte0", "statusByte1", "statusShort0", "statusShort1", "deviceTime", "recordTimeZone", "pdaRecordTimeZone", "dateTime", "bolusCheckFailed"`;
const BG_COLUMNS = `"patientId", "deviceSn", "uploadId", "timeZone", source, "recordKey", mgdl, "deviceTime", "dataOrigin", "dateTime"`;
/** Carbohydrate and alarms of pump rows, joined to the stored pump records after their COPY. */
const DERIVED_TABLE = "scale_pump_derived";
const DERIVED_COLUMNS = `"patientId", "pdaSn", "recordId", grams, kind`;

type Cell = string | number | boolean | null;

/** A value in COPY's text format: `\N` for null, backslash escapes for the separators. */
function cell(value: Cell): string {
  if (value === null) return "\\N";
  if (typeof value === "boolean") return value ? "t" : "f";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    return String(value);
  }
  return value.replace(
    /[\\\t\n\r]/g,
    (c) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[c]!,
  );
}

const line = (values: readonly Cell[]) => `${values.map(cell).join("\t")}\n`;

/** Epoch ms as the UTC wall-clock text of a `timestamp(3)` column. */
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 23).replace("T", " ");

function rowsOf<Row>(added: Added<Row>, what: string): Row[] {
  if (!added.ok)
    throw new Error(
      `generated ${what} refused: ${added.refusal.key} ${JSON.stringify(added.refusal.values)}`,
    );
  return added.rows;
}

/** One patient's rows as the ingestion module makes them. */
export interface ProcessedHistory {
  history: PatientHistory;
  pump: PumpRow[];
  flagged: Set<number>;
  cgm: CgmRow[];
  meter: MeterRow[];
  counters: {
    cgm: CgmProcessor["counters"];
    pump: PumpProcessor["counters"];
    meter: MeterProcessor["counters"];
  };
}

export function processHistory(patientId: number, history: PatientHistory): ProcessedHistory {
  const pumpProcessor = new PumpProcessor(
    { pid: patientId, pdaSn: history.pumpSerial, version: SCALE_PUMP_FIRMWARE },
    history.timeZone,
  );
  const cgmProcessor = new CgmProcessor(history.cgmSerial, history.timeZone);
  const meterProcessor = new MeterProcessor(history.meterSerial, history.timeZone);
  const pump = rowsOf(pumpProcessor.add(history.pump), "pump records");
  return {
    history,
    pump,
    flagged: new Set(pumpProcessor.flagged()),
    cgm: rowsOf(cgmProcessor.add(history.cgm), "CGM records"),
    meter: rowsOf(meterProcessor.add(history.meter), "meter records"),
    counters: {
      cgm: cgmProcessor.counters,
      pump: pumpProcessor.counters,
      meter: meterProcessor.counters,
    },
  };
}

type Uploads = { cgm: number; pump: number; meter: number };

/** The upload tasks (done), devices and log entries of one patient's three devices; answers the task ids. */
async function recordUploads(
  client: pg.Client,
  p: ScalePatient,
  h: ProcessedHistory,
): Promise<Uploads> {
  const devices = [
    ["aidex", h.history.cgmSerial, "1.4.2", h.history.cgm.length, h.cgm.length, h.counters.cgm],
    [
      "equil",
      h.history.pumpSerial,
      SCALE_PUMP_FIRMWARE,
      h.history.pump.length,
      h.pump.length,
      h.counters.pump,
    ],
    [
      "gocheck",
      h.history.meterSerial,
      null,
      h.history.meter.length,
      h.meter.length,
      h.counters.meter,
    ],
  ] as const;
  const ids: number[] = [];
  for (const [kind, serial, firmware, total, inserted, c] of devices) {
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO "UploadTask" ("patientId", "uploaderId", channel, "deviceKind", "deviceSn", "pdaVersion", "timeZone", status,
         "expectedCount", "recordCount", "insertedCount", "flaggedCount", "skippedCount", "dstGapCount", "dstOverlapCount",
         "firstAt", "lastAt", "completedAt")
       VALUES ($1, $2, 'seed', $3::"DeviceKind", $4, $5, $6, 'done', $7, $7, $8, $9, $10, $11, $12,
         to_timestamp($13 / 1000.0) AT TIME ZONE 'UTC', to_timestamp($14 / 1000.0) AT TIME ZONE 'UTC', now())
       RETURNING id`,
      [
        p.patientId,
        p.userId,
        kind,
        serial,
        firmware,
        h.history.timeZone,
        total,
        inserted,
        kind === "equil" ? h.flagged.size : 0,
        c.skipped,
        c.dstGap,
        c.dstOverlap,
        c.first,
        c.last,
      ],
    );
    ids.push(rows[0]!.id);
    await client.query(
      `INSERT INTO "Device" (kind, serial, "patientId", "firstUploaderId", firmware, "timeZone", "lastUploadAt")
       VALUES ($1::"DeviceKind", $2, $3, $4, $5, $6, now())
       ON CONFLICT ("patientId", kind, serial) DO UPDATE SET "lastUploadAt" = now()`,
      [kind, serial, p.patientId, p.userId, firmware, h.history.timeZone],
    );
    await client.query(
      `INSERT INTO "AuditLog" ("actorId", "patientId", action, detail) VALUES ($1, $2, $3, $4::jsonb)`,
      [p.userId, p.patientId, `upload:${kind}`, JSON.stringify({ taskId: rows[0]!.id, inserted })],
    );
  }
  return { cgm: ids[0]!, pump: ids[1]!, meter: ids[2]! };
}

/** The COPY text of one batch: CGM readings, pump records with their derived rows, BG values. */
function* batchText(batch: readonly { p: ScalePatient; h: ProcessedHistory; uploads: Uploads }[]) {
  yield "BEGIN;\n";
  yield `COPY "CgmRecord" (${CGM_COLUMNS}) FROM STDIN;\n`;
  for (const { p, h, uploads } of batch) {
    const { cgmSerial, timeZone } = h.history;
    let chunk = "";
    for (const r of h.cgm) {
      if (r.manual) continue;
      chunk += line([
        p.patientId,
        cgmSerial,
        uploads.cgm,
        timeZone,
        r.eventIndex,
        r.historyId,
        r.sensorIndex,
        r.eventType,
        r.mgdl,
        r.deviceTime,
        utc(r.dateTime),
        null,
      ]);
      if (chunk.length > 1 << 20) {
        yield chunk;
        chunk = "";
      }
    }
    yield chunk;
  }
  yield "\\.\n";
  yield `COPY "PumpRecord" (${PUMP_COLUMNS}) FROM STDIN;\n`;
  for (const { p, h, uploads } of batch) {
    const serial = h.history.pumpSerial;
    yield h.pump
      .map((r) =>
        line([
          p.patientId,
          serial,
          uploads.pump,
          r.recordId,
          r.eventIndex,
          r.eventPort,
          r.eventType,
          r.eventUrgency,
          r.eventValue,
          r.battery,
          r.reservoir,
          r.basalRateRaw,
          r.bolusRateRaw,
          r.deviceTime,
          r.recordTimeZone,
          r.pdaRecordTimeZone,
          utc(r.dateTime),
          h.flagged.has(r.recordId),
        ]),
      )
      .join("");
  }
  yield "\\.\n";
  yield `COPY ${DERIVED_TABLE} (${DERIVED_COLUMNS}) FROM STDIN;\n`;
  for (const { p, h } of batch)
    for (const r of h.pump)
      if (r.derived.carbGrams !== null || r.derived.alarm !== null)
        yield line([
          p.patientId,
          h.history.pumpSerial,
          r.recordId,
          r.derived.carbGrams,
          r.derived.alarm,
        ]);
  yield "\\.\n";
  yield `INSERT INTO "CarbEntry" ("patientId", "pumpRecordId", "dateTime", grams)
    SELECT r."patientId", r.id, r."dateTime", d.grams FROM ${DERIVED_TABLE} d
      JOIN "PumpRecord" r ON r."patientId" = d."patientId" AND r."pdaSn" = d."pdaSn" AND r."recordId" = d."recordId"
     WHERE d.grams IS NOT NULL;
  INSERT INTO "AlarmEvent" ("patientId", "pumpRecordId", "dateTime", kind)
    SELECT r."patientId", r.id, r."dateTime", d.kind::"AlarmKind" FROM ${DERIVED_TABLE} d
      JOIN "PumpRecord" r ON r."patientId" = d."patientId" AND r."pdaSn" = d."pdaSn" AND r."recordId" = d."recordId"
     WHERE d.kind IS NOT NULL;
  TRUNCATE ${DERIVED_TABLE};\n`;
  yield `COPY "BgRecord" (${BG_COLUMNS}) FROM STDIN;\n`;
  for (const { p, h, uploads } of batch) {
    const { cgmSerial, meterSerial, timeZone } = h.history;
    for (const r of h.meter)
      yield line([
        p.patientId,
        meterSerial,
        uploads.meter,
        timeZone,
        "meter",
        r.recordKey,
        r.mgdl,
        r.deviceTime,
        null,
        utc(r.dateTime),
      ]);
    for (const r of h.cgm)
      if (r.manual)
        yield line([
          p.patientId,
          cgmSerial,
          uploads.cgm,
          timeZone,
          "cgm_manual",
          String(r.eventIndex),
          r.mgdl,
          r.deviceTime,
          3,
          utc(r.dateTime),
        ]);
  }
  yield "\\.\n";
  yield "COMMIT;\n";
}

/** psql of the PostgreSQL 15 client: on the PATH, else Debian's place for it. */
function psqlPath(): string {
  const debian = "/usr/lib/postgresql/15/bin/psql";
  return existsSync(debian) ? debian : "psql";
}

/** A psql session reading a script from its stdin; `done` settles when it exits. */
function psqlSession(databaseUrl: string): {
  child: ChildProcessWithoutNullStreams;
  done: Promise<void>;
} {
  const child = spawn(
    psqlPath(),
    ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", databaseUrl, "-f", "-"],
    {
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const done = new Promise<void>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`psql exited ${code}: ${output.slice(-2000)}`)),
    );
  });
  return { child, done };
}

async function write(child: ChildProcessWithoutNullStreams, text: string): Promise<void> {
  if (text.length === 0 || child.stdin.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const fail = () => reject(new Error("psql stopped reading"));
    child.stdin.once("drain", () => {
      child.off("close", fail);
      resolve();
    });
    child.once("close", fail);
  });
}

/**
 * Generates and writes the histories of `patients` (each already a Patient row in the zone
 * `scaleZone(number)` gives), a batch of patients per transaction.
 */
export async function loadPatients(
  databaseUrl: string,
  patients: readonly ScalePatient[],
  o: LoadOptions,
): Promise<void> {
  const size = o.batch ?? 20;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const psql = psqlSession(databaseUrl);
  try {
    await write(
      psql.child,
      `CREATE TEMP TABLE ${DERIVED_TABLE} ("patientId" int, "pdaSn" text, "recordId" int, grams float8, kind text);\n`,
    );
    for (let from = 0; from < patients.length; from += size) {
      const batch = [];
      for (const p of patients.slice(from, from + size)) {
        const h = processHistory(
          p.patientId,
          patientHistory({ seed: o.seed, patient: p.number, days: o.days, endMs: o.endMs }),
        );
        await client.query("BEGIN");
        const uploads = await recordUploads(client, p, h);
        await client.query("COMMIT");
        batch.push({ p, h, uploads });
      }
      for (const text of batchText(batch)) await write(psql.child, text);
      o.onBatch?.(Math.min(from + size, patients.length), patients.length);
    }
    psql.child.stdin.end();
    await psql.done;
  } catch (error) {
    psql.child.stdin.destroy();
    psql.child.kill();
    throw error;
  } finally {
    await client.end();
  }
}
