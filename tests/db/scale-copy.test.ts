/**
 * The clinic-sized benchmark writes its patients with COPY (bench/scale/copy-load.ts). Here one
 * generated history is stored twice, once through the ingestion module's upload call (as the
 * upload wizard would) and once with COPY, and every column the app reads must come out the
 * same: CGM readings, pump records with their flags, carbohydrate and alarm rows, meter values,
 * the daily CGM figures the triggers keep, the upload summaries and the devices. The history
 * spans New York's change from daylight-saving time, so the repeated hour is resolved both ways.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Identity } from "~/domain/codes";
import type { Viewer } from "~/models/access.server";
import { ingestNow } from "~/services/ingest.server";
import { db } from "~/utils/db.server";
import { cgmRecordToWire, meterRecordToWire, pumpRecordToWire } from "~/wire/upload";
import { loadPatients } from "../../bench/scale/copy-load";
import { patientHistory, SCALE_PUMP_FIRMWARE, scaleZone } from "../../bench/scale/generate";

const SEED = 20261129;
/** Patient 2 lives in New York; its 6 days end after the change of 1 November 2026. */
const NUMBER = 2;
const OPTIONS = { seed: SEED, days: 6, endMs: Date.UTC(2026, 10, 4) };

async function newPatient(tag: string) {
  const user = await db().user.create({
    data: {
      email: `scale-copy-${tag}-${Date.now()}@scale.test`,
      identity: Identity.Person,
      patient: { create: { timeZone: scaleZone(NUMBER) } },
    },
    include: { patient: true },
  });
  return { userId: user.id, patientId: user.patient!.id };
}

/** Every stored row of a patient the app reads, without the ids that differ between the two. */
async function storedRows(client: pg.Client, patientId: number) {
  const q = async (sql: string) => (await client.query(sql, [patientId])).rows;
  return {
    cgm: await q(`SELECT "deviceSn", "timeZone", "eventIndex", "historyId", "sensorIndex", "eventType", "eventData",
                         "deviceTime", "dateTime", direction
                    FROM "CgmRecord" WHERE "patientId" = $1 ORDER BY "deviceSn", "eventIndex"`),
    pump: await q(`SELECT "pdaSn", "recordId", "eventIndex", "eventPort", "eventType", "eventUrgency", "eventValue",
                          "statusByte0", "statusByte1", "statusShort0", "statusShort1", "deviceTime", "recordTimeZone",
                          "pdaRecordTimeZone", "dateTime", "bolusCheckFailed"
                     FROM "PumpRecord" WHERE "patientId" = $1 ORDER BY "recordId"`),
    carbs: await q(`SELECT p."recordId", c."dateTime", c.grams, c."deviceSn", c."recordKey"
                      FROM "CarbEntry" c JOIN "PumpRecord" p ON p.id = c."pumpRecordId"
                     WHERE c."patientId" = $1 ORDER BY p."recordId"`),
    alarms: await q(`SELECT p."recordId", a."dateTime", a.kind::text, a.remark
                       FROM "AlarmEvent" a JOIN "PumpRecord" p ON p.id = a."pumpRecordId"
                      WHERE a."patientId" = $1 ORDER BY p."recordId"`),
    bg: await q(`SELECT source::text, "deviceSn", "recordKey", mgdl, "deviceTime", "timeZone", "dateTime", "dataOrigin"
                   FROM "BgRecord" WHERE "patientId" = $1 ORDER BY source, "deviceSn", "recordKey"`),
    days: await q(`SELECT day::text, readings, below54, below70, "inRange", above180, above250, "sumMgdl", slots
                     FROM "CgmDay" WHERE "patientId" = $1 ORDER BY day`),
    uploads:
      await q(`SELECT "deviceKind"::text, "deviceSn", "pdaVersion", "timeZone", status::text, "insertedCount",
                             "flaggedCount", "skippedCount", "dstGapCount", "dstOverlapCount", "firstAt", "lastAt"
                        FROM "UploadTask" WHERE "patientId" = $1 ORDER BY "deviceKind"`),
    devices: await q(
      `SELECT kind::text, serial, firmware, "timeZone" FROM "Device" WHERE "patientId" = $1 ORDER BY kind`,
    ),
  };
}

describe("patients written with COPY read like uploaded ones", () => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  beforeAll(() => client.connect());
  afterAll(() => client.end());

  it("stores the same rows as the upload call, the daily figures included", async () => {
    const history = patientHistory({ ...OPTIONS, patient: NUMBER });
    const uploaded = await newPatient("uploaded");
    const viewer: Viewer = {
      id: uploaded.userId,
      identity: Identity.Person,
      isPass: 0,
      role: "guest",
    };
    const uploads = [
      {
        deviceKind: "aidex",
        deviceSn: history.cgmSerial,
        pdaVersion: "1.4.2",
        records: history.cgm.map(cgmRecordToWire),
      },
      {
        deviceKind: "equil",
        deviceSn: history.pumpSerial,
        pdaVersion: SCALE_PUMP_FIRMWARE,
        records: history.pump.map(pumpRecordToWire),
      },
      {
        deviceKind: "gocheck",
        deviceSn: history.meterSerial,
        records: history.meter.map(meterRecordToWire),
      },
    ] as const;
    for (const upload of uploads) {
      const result = await ingestNow(viewer, {
        pid: uploaded.patientId,
        timeZone: history.timeZone,
        maxRecords: 100_000,
        ...upload,
      });
      expect(result.ok, JSON.stringify(result)).toBe(true);
    }

    const copied = await newPatient("copied");
    await loadPatients(process.env.DATABASE_URL!, [{ number: NUMBER, ...copied }], OPTIONS);

    const expected = await storedRows(client, uploaded.patientId);
    const actual = await storedRows(client, copied.patientId);
    // The data is what a week of wear looks like: readings, a pump's day, finger pricks.
    expect(expected.cgm.length).toBeGreaterThan(1500);
    expect(expected.pump.length).toBeGreaterThan(50);
    expect(expected.carbs.length).toBeGreaterThan(10);
    expect(expected.bg.length).toBeGreaterThan(15);
    expect(expected.days.length).toBe(7);
    expect(expected.uploads.find((u) => u.deviceKind === "aidex")!.dstOverlapCount).toBeGreaterThan(
      0,
    );
    for (const table of Object.keys(expected) as (keyof typeof expected)[])
      expect([table, actual[table]]).toEqual([table, expected[table]]);
  });
});
