import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { action as save } from "~/routes/api.patient-data.save";
import { action as saveCgmsData } from "~/routes/api.patient-data.saveCgmsData";
import { db } from "~/utils/db.server";
import { postApi, type Handler } from "./api-client";

// Properties of the ingestion module over random uploads: a valid upload stores each record once
// and a repeat stores nothing; one broken record anywhere refuses the upload at that record and
// writes nothing at all.

let token: string;
let pid: number;
let serial = 0;
const RUNS = Number(process.env.FUZZ_RUNS ?? 60) / 2;

beforeAll(async () => {
  const user = await db().user.create({
    data: {
      email: "property@ingest.test",
      identity: 1,
      patient: { create: { timeZone: "Europe/Warsaw" } },
    },
    include: { patient: true },
  });
  pid = user.patient!.id;
  token = await createApiToken(user.id);
});

const pad = (n: number) => String(n).padStart(2, "0");
/** Any wall-clock second of 2026, daylight-saving gaps and overlaps included. */
const deviceTime = fc
  .record({
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
  })
  .map(
    (t) => `2026-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`,
  );
/** Known event codes with values the rules accept: basal and alarm records, BG 10-600, carbohydrate up to 200 g. */
const event = fc.oneof(
  fc.record({
    eventPort: fc.constant(4),
    eventType: fc.constantFrom(0, 1, 2, 3, 5, 6, 7, 8),
    statusShort1: fc.integer({ min: 0, max: 65_535 }),
  }),
  fc.record({
    eventPort: fc.constant(5),
    eventType: fc.constant(0),
    statusShort1: fc.integer({ min: 0, max: 65_535 }),
  }),
  fc.record({
    eventPort: fc.constant(3),
    eventType: fc.constant(1),
    statusShort1: fc.integer({ min: 0, max: 200 }),
  }),
  fc.record({
    eventPort: fc.constant(0),
    eventType: fc.constantFrom(4, 6, 7),
    statusShort1: fc.integer({ min: 0, max: 65_535 }),
  }),
);
const pumpRecord = fc
  .record({
    recordId: fc.integer({ min: 0, max: 2_147_483_647 }),
    eventIndex: fc.integer({ min: 0, max: 65_535 }),
    eventUrgency: fc.integer({ min: 0, max: 255 }),
    eventValue: fc.integer({ min: 0, max: 255 }),
    statusByte0: fc.integer({ min: 0, max: 255 }),
    statusByte1: fc.integer({ min: 0, max: 255 }),
    statusShort0: fc.integer({ min: 10, max: 600 }),
    deviceTime,
    event,
  })
  .map(({ event: e, ...r }) => ({ ...r, ...e }));
const upload = fc.uniqueArray(pumpRecord, {
  minLength: 1,
  maxLength: 40,
  selector: (r) => r.recordId,
});

const HOSTILE: [string, unknown][] = [
  ["eventPort", 256],
  ["eventPort", -1],
  ["eventType", 1.5],
  ["statusShort1", 65_536],
  ["recordId", 2 ** 31],
  ["recordId", "12"],
  ["deviceTime", "2026-02-30 10:00:00"],
  ["deviceTime", "2026-01-01T10:00"],
  ["deviceTime", "\u0000"],
  ["eventIndex", null],
  ["statusByte0", true],
  ["extra", 1],
];

const post = (handler: unknown, body: unknown) =>
  postApi(handler as Handler, "/api/patient-data/save", body, token);
const stored = (pdaSn: string) => db().pumpRecord.count({ where: { patientId: pid, pdaSn } });

describe("ingestion properties", () => {
  it("a valid upload stores every record once; the same upload again stores nothing", async () => {
    await fc.assert(
      fc.asyncProperty(upload, async (records) => {
        const pdaSn = `PROP${++serial}`;
        const body = {
          pid,
          pdaSn,
          pdaVersion: "5.3.0",
          timeZone: "Europe/Warsaw",
          dataList: records,
        };
        const first = await post(save, body);
        expect(first).toMatchObject({
          code: 200,
          data: { status: "done", inserted: records.length, duplicates: 0 },
        });
        expect(await stored(pdaSn)).toBe(records.length);
        const again = await post(save, body);
        expect(again).toMatchObject({
          code: 200,
          data: { inserted: 0, duplicates: records.length },
        });
        expect(await stored(pdaSn)).toBe(records.length);
      }),
      { numRuns: RUNS },
    );
  });

  it("an upload that repeats some stored records stores only the others", async () => {
    await fc.assert(
      fc.asyncProperty(upload, fc.nat(), async (records, cut) => {
        const pdaSn = `PART${++serial}`;
        const body = { pid, pdaSn, pdaVersion: "5.3.0", timeZone: "Europe/Warsaw" };
        const kept = 1 + (cut % records.length);
        await post(save, { ...body, dataList: records.slice(0, kept) });
        // The stored ones come last, as a handheld's full log ends with what it sent before.
        const again = await post(save, {
          ...body,
          dataList: [...records.slice(kept), ...records.slice(0, kept)],
        });
        expect(again).toMatchObject({
          code: 200,
          data: { inserted: records.length - kept, duplicates: kept },
        });
        expect(await stored(pdaSn)).toBe(records.length);
      }),
      { numRuns: RUNS },
    );
  });

  it("one hostile field anywhere refuses the upload at that record, and nothing is written", async () => {
    await fc.assert(
      fc.asyncProperty(
        upload,
        fc.nat(),
        fc.constantFrom(...HOSTILE),
        async (records, at, [field, value]) => {
          const position = (at % records.length) + 1;
          const broken = records.map((r, i) => (i === position - 1 ? { ...r, [field]: value } : r));
          const pdaSn = `BAD${++serial}`;
          const tasks = await db().uploadTask.count();
          const answer = await post(save, { pid, pdaSn, pdaVersion: "5.3.0", dataList: broken });
          expect(answer.status).toBe(400);
          expect(answer.data).toMatchObject({ position });
          expect(await stored(pdaSn)).toBe(0);
          expect(await db().uploadTask.count()).toBe(tasks);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("CGM records: readings at 1.8 x raw for types 7 and 8 only, whatever else the history holds", async () => {
    const cgm = fc.uniqueArray(
      fc.record({
        eventIndex: fc.integer({ min: 0, max: 1_000_000 }),
        eventType: fc.integer({ min: 0, max: 255 }),
        eventData: fc.integer({ min: 6, max: 333 }),
        deviceTime,
      }),
      { minLength: 1, maxLength: 40, selector: (r) => r.eventIndex },
    );
    await fc.assert(
      fc.asyncProperty(cgm, async (records) => {
        const deviceSn = `CGMP${++serial}`;
        const readings = records.filter((r) => r.eventType === 7 || r.eventType === 8);
        const answer = await postApi(
          saveCgmsData as Handler,
          "/api/patient-data/saveCgmsData",
          { deviceSn, timeZone: "Europe/Warsaw", dataList: records },
          token,
        );
        expect(answer).toMatchObject({
          code: 200,
          data: { inserted: readings.length, skipped: records.length - readings.length },
        });
        const rows = await db().cgmRecord.findMany({
          where: { patientId: pid, deviceSn },
          orderBy: { eventIndex: "asc" },
        });
        const expected = [...readings]
          .sort((a, b) => a.eventIndex - b.eventIndex)
          .map((r) => Math.round(r.eventData * 18) / 10);
        expect(rows.map((r) => r.mgdl)).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
  });
});
