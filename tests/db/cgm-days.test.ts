/**
 * The daily CGM figures the database keeps per patient ("CgmDay", read by the clinic's triage
 * list): counted per local day of the patient's zone from the readings themselves whoever writes
 * them (the ingestion module, or any other statement), readings at the same instant merged into
 * their mean, values below 1 mg/dL left out, 5-minute slots from local midnight, days of 23 and 25
 * hours, recounted when readings are deleted or the patient's zone changes, and right when two
 * writers of the same patient and day commit one after the other. Every expected figure is worked
 * out by hand in the comments.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { NsCgmRow } from "~/ingest/nightscout";
import { ingestNightscout } from "~/services/ingest.server";
import { db } from "~/utils/db.server";
import { withMigratedEmbedded } from "./embedded-support";

const made: number[] = [];
let seq = 0;

async function patient(timeZone: string) {
  const user = await db().user.create({
    data: {
      email: `days-${++seq}-${Date.now()}@cgm-days.test`,
      identity: 1,
      patient: { create: { timeZone } },
    },
    include: { patient: true },
  });
  made.push(user.id);
  return { userId: user.id, pid: user.patient!.id, timeZone };
}

afterAll(async () => {
  await db().user.deleteMany({ where: { id: { in: made } } });
});

/** The stored days of a patient, as plain figures by ISO date. */
async function daysOf(pid: number) {
  const rows = await db().cgmDay.findMany({ where: { patientId: pid }, orderBy: { day: "asc" } });
  return Object.fromEntries(
    rows.map(({ day, patientId: _, ...figures }) => [day.toISOString().slice(0, 10), figures]),
  );
}

const reading = (deviceSn: string, eventIndex: number, iso: string, mgdl: number): NsCgmRow => ({
  deviceSn,
  eventIndex,
  mgdl,
  dateTime: Date.parse(iso),
  deviceTime: iso.slice(0, 19),
  direction: null,
});

async function ingest(p: { userId: number; pid: number; timeZone: string }, cgm: NsCgmRow[]) {
  return ingestNightscout(
    { patientId: p.pid, uploaderId: p.userId, timeZone: p.timeZone },
    { cgm, bg: [], carbs: [], insulin: [] },
  );
}

/** Readings every 5 minutes from `from` (inclusive) to `to` (exclusive), all 120 mg/dL. */
async function everyFiveMinutes(pid: number, deviceSn: string, from: string, to: string) {
  const data = [];
  for (let t = Date.parse(from), i = 0; t < Date.parse(to); t += 5 * 60_000, i++)
    data.push({
      patientId: pid,
      deviceSn,
      eventIndex: i,
      eventType: 7,
      mgdl: 120,
      deviceTime: "",
      timeZone: "UTC",
      dateTime: new Date(t),
    });
  await db().cgmRecord.createMany({ data });
  return data.length;
}

describe("the daily CGM figures", () => {
  it("counts each local day's readings by band, their sum and the 5-minute slots worn, as readings arrive, merge, go and change zone", async () => {
    const p = await patient("Europe/Warsaw");
    // Warsaw is UTC+1 in March: local 10 March runs from 09T23:00Z to 10T23:00Z.
    await ingest(p, [
      reading("ns-a", 1, "2026-03-09T23:00:00Z", 50), // below 54 and 70
      reading("ns-a", 2, "2026-03-09T23:02:00Z", 60), // below 70; the 23:00 slot again
      reading("ns-a", 3, "2026-03-09T23:05:00Z", 70), // in range (70 counts)
      reading("ns-a", 4, "2026-03-09T23:10:00Z", 180), // in range (180 counts)
      reading("ns-a", 5, "2026-03-09T23:15:00Z", 181), // above 180
      reading("ns-a", 6, "2026-03-09T23:20:00Z", 251), // above 180 and 250
      reading("ns-a", 7, "2026-03-10T22:59:00Z", 100), // 23:59 local: still 10 March
      reading("ns-a", 8, "2026-03-10T23:00:00Z", 120), // 00:00 local: 11 March
    ]);
    // 10 March: 7 readings; sum 50+60+70+180+181+251+100 = 892; slots 23:00, 23:05, 23:10,
    // 23:15, 23:20 and 22:55 = 6.
    expect(await daysOf(p.pid)).toEqual({
      "2026-03-10": {
        readings: 7,
        below54: 1,
        below70: 2,
        inRange: 3,
        above180: 2,
        above250: 1,
        sumMgdl: 892,
        slots: 6,
      },
      "2026-03-11": {
        readings: 1,
        below54: 0,
        below70: 0,
        inRange: 1,
        above180: 0,
        above250: 0,
        sumMgdl: 120,
        slots: 1,
      },
    });

    // A second device at 23:05Z: one reading of the mean (70 + 90) / 2 = 80; sum 892 - 70 + 80.
    // A value below 1 mg/dL (written by any statement) is not a reading.
    await ingest(p, [reading("ns-b", 1, "2026-03-09T23:05:00Z", 90)]);
    await db().cgmRecord.create({
      data: {
        patientId: p.pid,
        deviceSn: "raw",
        eventIndex: 1,
        eventType: 7,
        mgdl: 0.5,
        deviceTime: "",
        timeZone: "UTC",
        dateTime: new Date("2026-03-09T23:25:00Z"),
      },
    });
    const merged = (await daysOf(p.pid))["2026-03-10"];
    expect(merged).toMatchObject({ readings: 7, inRange: 3, sumMgdl: 902, slots: 6 });

    // In UTC the readings of 09T23:00-23:25Z lie on 9 March: 50, 60, 80, 180, 181, 251 (sum
    // 802, slots 23:00, 23:05, 23:10, 23:15, 23:20 = 5); 10 March holds 22:59Z and 23:00Z.
    await db().patient.update({ where: { id: p.pid }, data: { timeZone: "UTC" } });
    expect(await daysOf(p.pid)).toEqual({
      "2026-03-09": {
        readings: 6,
        below54: 1,
        below70: 2,
        inRange: 2,
        above180: 2,
        above250: 1,
        sumMgdl: 802,
        slots: 5,
      },
      "2026-03-10": {
        readings: 2,
        below54: 0,
        below70: 0,
        inRange: 2,
        above180: 0,
        above250: 0,
        sumMgdl: 220,
        slots: 2,
      },
    });

    // Deleting 10 March's readings leaves no day for it; 9 March keeps its figures.
    await db().cgmRecord.deleteMany({
      where: { patientId: p.pid, dateTime: { gte: new Date("2026-03-10T00:00:00Z") } },
    });
    expect(Object.keys(await daysOf(p.pid))).toEqual(["2026-03-09"]);
  });

  it("gives a spring-forward day 23 hours of slots and a fall-back day 25 (Europe/Warsaw)", async () => {
    const p = await patient("Europe/Warsaw");
    // 29 March 2026: 28T23:00Z (UTC+1) to 29T22:00Z (UTC+2) = 23 h = 276 readings and slots.
    // 25 October 2026: 24T22:00Z (UTC+2) to 25T23:00Z (UTC+1) = 25 h = 300.
    await everyFiveMinutes(p.pid, "spring", "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z");
    await everyFiveMinutes(p.pid, "autumn", "2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z");
    const days = await daysOf(p.pid);
    expect(Object.keys(days)).toEqual(["2026-03-29", "2026-10-25"]);
    expect(days["2026-03-29"]).toMatchObject({ readings: 276, slots: 276, inRange: 276 });
    expect(days["2026-10-25"]).toMatchObject({ readings: 300, slots: 300, sumMgdl: 300 * 120 });
  });

  it("counts both of two writers of the same day that commit one after the other", async () => {
    const p = await patient("UTC");
    let inserted!: () => void;
    const firstWrote = new Promise<void>((resolve) => (inserted = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = db().$transaction(
      async (tx) => {
        await tx.$executeRaw`INSERT INTO "CgmRecord" ("patientId", "deviceSn", "eventIndex", "eventType", "eventData", "deviceTime", "timeZone", "dateTime")
          VALUES (${p.pid}, 'one', 1, 7, 100, '', 'UTC', '2026-05-01 08:00:00')`;
        inserted();
        await held;
      },
      { timeout: 20_000 },
    );
    await firstWrote;
    // The second writer's count waits for the first to commit, then sees both readings.
    const second = db().$transaction(
      (
        tx,
      ) => tx.$executeRaw`INSERT INTO "CgmRecord" ("patientId", "deviceSn", "eventIndex", "eventType", "eventData", "deviceTime", "timeZone", "dateTime")
          VALUES (${p.pid}, 'two', 1, 7, 200, '', 'UTC', '2026-05-01 09:00:00')`,
      { timeout: 20_000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await Promise.all([first, second]);
    expect((await daysOf(p.pid))["2026-05-01"]).toMatchObject({
      readings: 2,
      inRange: 1,
      above180: 1,
      sumMgdl: 300,
      slots: 2,
    });
  });

  it("goes with the patient's record", async () => {
    const p = await patient("UTC");
    await ingest(p, [reading("ns-a", 1, "2026-05-02T10:00:00Z", 150)]);
    expect(Object.keys(await daysOf(p.pid))).toEqual(["2026-05-02"]);
    await db().user.delete({ where: { id: p.userId } });
    expect(await db().cgmDay.count({ where: { patientId: p.pid } })).toBe(0);
  });

  it("are kept on the embedded database (PGlite) as well, which `npm start` runs without DATABASE_URL", async () => {
    await withMigratedEmbedded("days", async (client) => {
      await client.query(
        `INSERT INTO "User" (email, identity, "updatedAt") VALUES ('days@pglite.test', 1, now())`,
      );
      const { rows } = await client.query<{ id: number }>(
        `INSERT INTO "Patient" ("userId", "timeZone", "updatedAt") SELECT id, 'Europe/Warsaw', now() FROM "User" RETURNING id`,
      );
      // 601 readings every 5 minutes from 10 March 00:00Z: in Warsaw (UTC+1) 10 March holds
      // 01:00-24:00 local = 23 h = 276, 11 March 288, 12 March the other 37.
      await client.query(
        `INSERT INTO "CgmRecord" ("patientId", "deviceSn", "eventIndex", "eventType", "eventData", "deviceTime", "timeZone", "dateTime")
         SELECT $1, 'x', g, 7, 100, '', 'UTC', timestamp '2026-03-10 00:00' + make_interval(mins => 5 * g) FROM generate_series(0, 600) g`,
        [rows[0]!.id],
      );
      const days = async () =>
        (
          await client.query<{ day: string; readings: number }>(
            `SELECT day::text, readings FROM "CgmDay" ORDER BY day`,
          )
        ).rows;
      expect(await days()).toEqual([
        { day: "2026-03-10", readings: 276 },
        { day: "2026-03-11", readings: 288 },
        { day: "2026-03-12", readings: 37 },
      ]);
      // In UTC: 288, 288 and 25.
      await client.query(`UPDATE "Patient" SET "timeZone" = 'UTC'`);
      expect(await days()).toEqual([
        { day: "2026-03-10", readings: 288 },
        { day: "2026-03-11", readings: 288 },
        { day: "2026-03-12", readings: 25 },
      ]);
    });
  }, 180_000);
});
