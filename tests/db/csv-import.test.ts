import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { viewerById, type Viewer } from "~/models/access.server";
import { action as importCsvRoute } from "~/routes/api.patient-data.importCsv";
import { loader as exportCsvRoute } from "~/routes/api.patient-data.exportCsv";
import { action as pumpReportRoute } from "~/routes/api.patient-data.pdf";
import { action as cgmReportRoute } from "~/routes/api.patient-data.sugarDevicePdf";
import { exportCsv } from "~/services/csv-export.server";
import {
  cancelImport,
  confirmImport,
  importCsv,
  previewImport,
} from "~/services/csv-import.server";
import { ingestNow } from "~/services/ingest.server";
import { db } from "~/utils/db.server";
import { call, postApi, type Handler } from "./api-client";

// The CSV import and export against PostgreSQL: vendor files read in the chosen zone and stored
// under keys that make a second import add nothing, who may import, refusals that write nothing,
// the preview's draft, and our own export read back into the same report values.

const FIXTURES = path.resolve("tests/fixtures/csv");
const fixture = (name: string) => new Uint8Array(readFileSync(path.join(FIXTURES, name)));
/** Seconds since 2000-01-01 UTC: the record number of an imported CGM reading. */
const readingNumber = (utcMs: number) => (utcMs - Date.UTC(2000, 0, 1)) / 1000;

type Account = { id: number; pid: number | null; token: string; viewer: Viewer };
let anna: Account; // a patient
let clinic: Account; // Anna shares with the clinic
let stranger: Account;
let bob: Account; // a patient for the round trip

async function account(tag: string, identity: number, patient: boolean): Promise<Account> {
  const u = await db().user.create({
    data: {
      email: `${tag}@csv.test`,
      identity,
      isPass: identity === 2 ? 1 : 0,
      ...(patient ? { patient: { create: { timeZone: "Europe/Warsaw" } } } : {}),
    },
    include: { patient: true },
  });
  return {
    id: u.id,
    pid: u.patient?.id ?? null,
    token: await createApiToken(u.id),
    viewer: await viewerById(u.id),
  };
}

beforeAll(async () => {
  anna = await account("anna", 1, true);
  clinic = await account("clinic", 2, false);
  stranger = await account("stranger", 1, true);
  bob = await account("bob", 1, true);
  await db().readPower.create({ data: { providerId: anna.id, readerId: clinic.id, state: 1 } });
});

/** Every stored record of a patient, as plain comparable rows (ids and upload numbers left out). */
async function storedRows(pid: number) {
  const [pump, cgm, bg, carbs, insulin, alarms] = await Promise.all([
    db().pumpRecord.findMany({
      where: { patientId: pid },
      orderBy: [{ pdaSn: "asc" }, { recordId: "asc" }],
      omit: { id: true, uploadId: true, receivedAt: true, patientId: true },
    }),
    db().cgmRecord.findMany({
      where: { patientId: pid },
      orderBy: [{ deviceSn: "asc" }, { eventIndex: "asc" }],
      omit: { id: true, uploadId: true, patientId: true },
    }),
    db().bgRecord.findMany({
      where: { patientId: pid },
      orderBy: [{ deviceSn: "asc" }, { source: "asc" }, { recordKey: "asc" }],
      omit: { id: true, uploadId: true, patientId: true },
    }),
    db().carbEntry.findMany({
      where: { patientId: pid },
      orderBy: [{ dateTime: "asc" }, { grams: "asc" }],
      select: { dateTime: true, grams: true, deviceSn: true, recordKey: true },
    }),
    db().insulinEntry.findMany({
      where: { patientId: pid },
      orderBy: [{ dateTime: "asc" }],
      omit: { id: true, uploadId: true, patientId: true },
    }),
    db().alarmEvent.findMany({
      where: { patientId: pid },
      orderBy: [{ dateTime: "asc" }],
      select: { dateTime: true, kind: true },
    }),
  ]);
  return { pump, cgm, bg, carbs, insulin, alarms };
}

async function importApi(
  who: Account,
  fields: Record<string, string>,
  file: Uint8Array,
  name = "readings.csv",
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("file", new File([Buffer.from(file)], name, { type: "text/csv" }));
  return call(
    importCsvRoute as Handler,
    new Request("http://localhost/api/patient-data/importCsv", {
      method: "POST",
      body: form,
      headers: { token: who.token },
    }),
  );
}

describe("a Dexcom Clarity export", () => {
  it("previews without writing, imports in the chosen zone, and a second import adds nothing", async () => {
    const pid = anna.pid!;
    const preview = await importCsv(anna.viewer, {
      pid,
      bytes: fixture("clarity-g7-mgdl.csv"),
      timeZone: "Europe/Warsaw",
      dryRun: true,
    });
    expect(preview.ok).toBe(true);
    if (!preview.ok) return;
    // 17 EGV readings (two of them Low and High), one calibration, two insulin doses, one carbohydrate entry.
    expect(preview.data).toMatchObject({
      format: "clarity",
      unit: "mg/dL",
      counts: { cgm: 17, bg: 1, insulin: 2, carbs: 1, pump: 0 },
      inserted: 21,
      duplicates: 0,
      flagged: 2,
      uploads: [],
    });
    // 07:00:12 and 18:05:12 in Warsaw in January (UTC+1).
    expect(preview.data.firstDate).toBe("2026-01-05T06:00:12.000Z");
    expect(preview.data.lastDate).toBe("2026-01-06T17:05:12.000Z");
    expect(await db().cgmRecord.count({ where: { patientId: pid } })).toBe(0);

    const imported = await importCsv(anna.viewer, {
      pid,
      bytes: fixture("clarity-g7-mgdl.csv"),
      timeZone: "Europe/Warsaw",
      dryRun: false,
    });
    expect(imported.ok && imported.data).toMatchObject({ inserted: 21, duplicates: 0, flagged: 2 });
    const cgm = await db().cgmRecord.findMany({
      where: { patientId: pid },
      orderBy: { dateTime: "asc" },
    });
    expect(cgm).toHaveLength(17);
    expect(cgm[0]).toMatchObject({
      deviceSn: "123456789012",
      mgdl: 112,
      deviceTime: "2026-01-05 07:00:12",
      timeZone: "Europe/Warsaw",
      eventIndex: readingNumber(Date.UTC(2026, 0, 5, 6, 0, 12)),
    });
    expect(cgm[0]!.dateTime.toISOString()).toBe("2026-01-05T06:00:12.000Z");
    // Low and High are the sensor's limits, 40 and 400 mg/dL.
    expect(cgm.map((r) => r.mgdl)).toEqual([
      112, 115, 119, 124, 131, 139, 148, 156, 163, 168, 171, 170, 40, 41, 400, 398, 388,
    ]);
    expect(
      await db().bgRecord.findMany({
        where: { patientId: pid },
        select: { source: true, mgdl: true, recordKey: true },
      }),
    ).toEqual([{ source: "csv", mgdl: 152, recordKey: "2026-01-05 07:31:40" }]);
    expect(
      await db().insulinEntry.findMany({
        where: { patientId: pid },
        orderBy: { dateTime: "asc" },
        select: { kind: true, units: true, dateTime: true },
      }),
    ).toEqual([
      { kind: "rapid", units: 4.5, dateTime: new Date("2026-01-05T06:16:00Z") },
      { kind: "long", units: 18, dateTime: new Date("2026-01-05T21:00:00Z") },
    ]);
    expect(
      await db().carbEntry.findMany({
        where: { patientId: pid },
        select: { grams: true, dateTime: true },
      }),
    ).toEqual([{ grams: 45, dateTime: new Date("2026-01-05T06:17:00Z") }]);
    const task = await db().uploadTask.findFirstOrThrow({
      where: { patientId: pid, channel: "csv" },
    });
    expect(task).toMatchObject({
      deviceKind: "imported",
      deviceSn: "123456789012",
      uploaderId: anna.id,
      status: "done",
      insertedCount: 21,
      flaggedCount: 2,
      timeZone: "Europe/Warsaw",
    });

    const again = await importCsv(anna.viewer, {
      pid,
      bytes: fixture("clarity-g7-mgdl.csv"),
      timeZone: "Europe/Warsaw",
      dryRun: true,
    });
    expect(again.ok && again.data).toMatchObject({ inserted: 0, duplicates: 21 });
    const repeat = await importCsv(anna.viewer, {
      pid,
      bytes: fixture("clarity-g7-mgdl.csv"),
      timeZone: "Europe/Warsaw",
      dryRun: false,
    });
    expect(repeat.ok && repeat.data).toMatchObject({ inserted: 0, duplicates: 21 });
    expect(await db().cgmRecord.count({ where: { patientId: pid } })).toBe(17);
  });
});

describe("a LibreView export", () => {
  it("reads month-first 12-hour dates and mmol/L (x 18) through the API, for a clinic the patient shares with", async () => {
    const answer = await importApi(
      clinic,
      { pid: String(anna.pid), timeZone: "America/New_York", dryRun: "0" },
      fixture("libreview-mdy-12h-mmol.csv"),
    );
    expect(answer).toMatchObject({ status: 200, code: 200 });
    // Ten historic readings and one scan (CGM), one strip test, two insulin doses, one food entry; record type 6 is skipped.
    expect(answer.data).toMatchObject({
      format: "libreview",
      unit: "mmol/L",
      dateOrder: "MDY",
      clock: "12h",
      counts: { cgm: 11, bg: 1, insulin: 2, carbs: 1 },
      inserted: 15,
    });
    const serial = "0a1b2c3d-0000-4000-8000-000000000001";
    const readings = await db().cgmRecord.findMany({
      where: { patientId: anna.pid!, deviceSn: serial },
      orderBy: { dateTime: "asc" },
    });
    // 12:05 AM on 15 January in New York (UTC-5) is 05:05 UTC; 5.4 mmol/L x 18 = 97.2 mg/dL.
    expect(readings[0]).toMatchObject({ mgdl: 97.2, deviceTime: "2026-01-15 00:05:00" });
    expect(readings[0]!.dateTime.toISOString()).toBe("2026-01-15T05:05:00.000Z");
    // 12:30 PM: 12.5 x 18 = 225; 11:59 PM: 6.7 x 18 = 120.6.
    expect(readings.find((r) => r.deviceTime === "2026-01-15 12:30:00")?.mgdl).toBe(225);
    expect(readings.find((r) => r.deviceTime === "2026-01-15 23:59:00")?.mgdl).toBeCloseTo(
      120.6,
      9,
    );
    expect(
      await db().bgRecord.findFirst({
        where: { patientId: anna.pid!, deviceSn: serial },
        select: { mgdl: true },
      }),
    ).toEqual({ mgdl: 117 });
    const task = await db().uploadTask.findFirstOrThrow({
      where: { patientId: anna.pid!, deviceSn: serial },
    });
    expect(task).toMatchObject({ uploaderId: clinic.id, channel: "csv" });
  });

  it("answers a translated refusal for a stranger and writes nothing", async () => {
    const before = await db().cgmRecord.count();
    const answer = await importApi(
      stranger,
      { pid: String(anna.pid), dryRun: "0" },
      fixture("libreview-mdy-12h-mmol.csv"),
    );
    expect(answer).toMatchObject({ status: 404, code: 404 });
    expect(await db().cgmRecord.count()).toBe(before);
  });
});

describe("bad files", () => {
  it("lists bad lines with their numbers and keeps the good ones", async () => {
    const answer = await importCsv(stranger.viewer, {
      pid: stranger.pid!,
      bytes: fixture("generic-bad-lines.csv"),
      timeZone: "UTC",
      dryRun: false,
    });
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.data.inserted).toBe(3);
    expect(answer.data.errors.map((e) => [e.line, e.key])).toEqual([
      [3, "errors.date"],
      [4, "errors.glucose"],
      [5, "errors.glucose"],
      [6, "errors.columns"],
      [7, "errors.date"],
      [8, "errors.glucose"],
      [9, "errors.date"],
      [11, "errors.date"],
    ]);
    expect(
      (
        await db().cgmRecord.findMany({
          where: { patientId: stranger.pid! },
          orderBy: { dateTime: "asc" },
        })
      ).map((r) => r.mgdl),
    ).toEqual([120, 116, 114.5]);
  });

  it("refuses a file that is not text, an empty file and one over 2 MB, with the reason, writing nothing", async () => {
    const tasks = await db().uploadTask.count();
    const binary = await importApi(
      stranger,
      { pid: String(stranger.pid) },
      new Uint8Array([0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x41]),
    );
    expect(binary).toMatchObject({ status: 400, code: 400 });
    expect(binary.msg).not.toMatch(/errors\./);
    const empty = await importApi(
      stranger,
      { pid: String(stranger.pid) },
      new TextEncoder().encode("\n\n"),
    );
    expect(empty).toMatchObject({ status: 400, code: 400 });
    const large = await importCsv(stranger.viewer, {
      pid: stranger.pid!,
      bytes: new Uint8Array(2 * 1024 * 1024 + 1).fill(0x31),
      dryRun: false,
    });
    expect(large).toMatchObject({ ok: false, code: 413, key: "csv:errors.tooLarge" });
    const noFile = await importApi(stranger, { pid: String(stranger.pid) }, new Uint8Array(0));
    expect(noFile).toMatchObject({ status: 400, code: 400 });
    expect(await db().uploadTask.count()).toBe(tasks);
  });

  it("answers the refusal in the caller's language", async () => {
    const form = new FormData();
    form.set("pid", String(stranger.pid));
    form.set("file", new File([new Uint8Array([0, 0, 0])], "x.csv"));
    const answer = await call(
      importCsvRoute as Handler,
      new Request("http://localhost/api/patient-data/importCsv", {
        method: "POST",
        body: form,
        headers: { token: stranger.token, "Accept-Language": "pl" },
      }),
    );
    const pl = JSON.parse(readFileSync("locales/pl/csv.json", "utf8")) as {
      errors: Record<string, string>;
    };
    expect(Object.values(pl.errors)).toContain(answer.msg);
  });
});

describe("a plain file with more columns", () => {
  it("reads the chosen time and glucose columns, refuses a half choice, and gives each bad line a translated message", async () => {
    const file = new TextEncoder().encode(
      "id;taken;mmol;note\n1;2026-06-01 07:00;6,2;before breakfast\n2;2026-06-01 09:00;abc;after\n3;2026-06-01 12:00;7,4;lunch\n",
    );
    const half = await importApi(
      stranger,
      { pid: String(stranger.pid), timeColumn: "2", dryRun: "1" },
      file,
    );
    expect(half).toMatchObject({ status: 400, code: 400 });
    const answer = await importApi(
      stranger,
      {
        pid: String(stranger.pid),
        timeColumn: "2",
        glucoseColumn: "3",
        timeZone: "UTC",
        dryRun: "0",
      },
      file,
    );
    expect(answer).toMatchObject({
      status: 200,
      code: 200,
      data: { format: "generic", unit: "mmol/L", inserted: 2 },
    });
    // Line 3 holds "abc" where the glucose is: listed with its message.
    expect(answer.data.errors).toHaveLength(1);
    expect(answer.data.errors[0]).toMatchObject({ line: 3, key: "errors.glucose" });
    expect(answer.data.errors[0].message).toContain("abc");
    expect(answer.data.errors[0].message).not.toContain("{{");
    // 6.2 and 7.4 mmol/L x 18.
    const readings = await db().cgmRecord.findMany({
      where: { patientId: stranger.pid!, deviceTime: { startsWith: "2026-06-01" } },
      orderBy: { dateTime: "asc" },
    });
    expect(readings.map((r) => [r.deviceTime, r.mgdl])).toEqual([
      ["2026-06-01 07:00:00", 111.6],
      ["2026-06-01 12:00:00", 133.2],
    ]);
  });
});

describe("the page's preview draft", () => {
  it("imports exactly the previewed file on confirm, nothing on cancel, and a used or foreign draft is gone", async () => {
    const pid = stranger.pid!;
    const file = new TextEncoder().encode(
      "time,glucose\n2026-04-01 08:00,5.5\n2026-04-01 08:05,5.8\n",
    );
    const cancelled = await previewImport(stranger.viewer, {
      pid,
      fileName: "a.csv",
      bytes: file,
      options: { timeZone: "UTC" },
    });
    expect(cancelled.ok && cancelled.data.preview).toMatchObject({ unit: "mmol/L", inserted: 2 });
    if (!cancelled.ok) return;
    await cancelImport(stranger.viewer, cancelled.data.token);
    expect(
      await confirmImport(stranger.viewer, { pid, token: cancelled.data.token }),
    ).toMatchObject({ ok: false, key: "import:errors.draftGone" });

    // The draft keeps the options the preview was read with: here the columns of a four-column file, which is not recognised without them.
    const wide = new TextEncoder().encode(
      "n,value,when,comment\n1,5.5,2026-04-01 08:00,a\n2,5.8,2026-04-01 08:05,b\n",
    );
    expect(await importCsv(stranger.viewer, { pid, bytes: wide, dryRun: true })).toMatchObject({
      ok: false,
      key: "csv:errors.format",
    });
    const previewed = await previewImport(stranger.viewer, {
      pid,
      fileName: "a.csv",
      bytes: wide,
      options: { timeZone: "UTC", columns: { time: 2, glucose: 1 } },
    });
    if (!previewed.ok) throw new Error("preview refused");
    expect(await confirmImport(anna.viewer, { pid, token: previewed.data.token })).toMatchObject({
      ok: false,
    });
    const done = await confirmImport(stranger.viewer, { pid, token: previewed.data.token });
    expect(done.ok && done.data).toMatchObject({ inserted: 2, fileName: "a.csv" });
    // 5.5 and 5.8 mmol/L x 18.
    expect(
      (
        await db().cgmRecord.findMany({
          where: { patientId: pid, deviceTime: { startsWith: "2026-04-01" } },
          orderBy: { dateTime: "asc" },
        })
      ).map((r) => r.mgdl),
    ).toEqual([99, 104.4]);
    expect(
      await confirmImport(stranger.viewer, { pid, token: previewed.data.token }),
    ).toMatchObject({ ok: false, key: "import:errors.draftGone" });
  });
});

/** A day of pump records (basal 1 U/h, a 4 U bolus, 50 g of carbohydrate, a low-insulin alarm), CGM and meter readings. */
function bobDevices() {
  const day = "2026-03-10";
  const pump = [
    {
      recordId: 1,
      eventIndex: 1,
      eventPort: 4,
      eventType: 0,
      eventUrgency: 0,
      eventValue: 0,
      statusByte0: 80,
      statusByte1: 120,
      statusShort0: 160,
      statusShort1: 0,
      deviceTime: `${day} 00:00:00`,
    },
    {
      recordId: 2,
      eventIndex: 2,
      eventPort: 3,
      eventType: 1,
      eventUrgency: 0,
      eventValue: 0,
      statusByte0: 80,
      statusByte1: 120,
      statusShort0: 0,
      statusShort1: 50,
      deviceTime: `${day} 07:55:00`,
    },
    {
      recordId: 3,
      eventIndex: 3,
      eventPort: 4,
      eventType: 0,
      eventUrgency: 0,
      eventValue: 0,
      statusByte0: 80,
      statusByte1: 118,
      statusShort0: 160,
      statusShort1: 9600,
      deviceTime: `${day} 08:00:00`,
    },
    {
      recordId: 4,
      eventIndex: 4,
      eventPort: 4,
      eventType: 0,
      eventUrgency: 0,
      eventValue: 0,
      statusByte0: 80,
      statusByte1: 117,
      statusShort0: 160,
      statusShort1: 0,
      deviceTime: `${day} 08:15:00`,
    },
    {
      recordId: 5,
      eventIndex: 5,
      eventPort: 4,
      eventType: 1,
      eventUrgency: 1,
      eventValue: 0,
      statusByte0: 79,
      statusByte1: 10,
      statusShort0: 160,
      statusShort1: 0,
      deviceTime: `${day} 20:00:00`,
    },
  ];
  const cgm = Array.from({ length: 288 }, (_, i) => ({
    eventIndex: 100 + i,
    eventType: 7,
    eventData: 60 + (i % 40),
    deviceTime: `${day} ${String(Math.floor(i / 12)).padStart(2, "0")}:${String((i % 12) * 5).padStart(2, "0")}:00`,
  }));
  const meter = [
    { dateTime: `${day} 07:50:00`, statusShort0: 132, statusByte0: 0 },
    { dateTime: `${day} 12:10:00`, statusShort0: 188, statusByte0: 0 },
  ];
  return { pump, cgm, meter };
}

/** A report without the database row ids it names (new rows get new ids). */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== "id" && k !== "pdid")
      .map(([k, v]) => [k, withoutIds(v)]),
  );
}

async function reportValues(who: Account, pid: number) {
  const range = { pid, start: "2026-03-05", end: "2026-03-14" };
  const pump = await postApi(pumpReportRoute as Handler, "/api/patient-data/pdf", range, who.token);
  const cgm = await postApi(
    cgmReportRoute as Handler,
    "/api/patient-data/sugarDevicePdf",
    range,
    who.token,
  );
  expect(pump.code).toBe(200);
  expect(cgm.code).toBe(200);
  return withoutIds({ pump: pump.data, cgm: cgm.data });
}

describe("our own export", () => {
  it("reads back into the same records and the same report values after the data is deleted", async () => {
    const pid = bob.pid!;
    const devices = bobDevices();
    for (const [deviceKind, deviceSn, records, pdaVersion] of [
      ["equil", "EQ7001", devices.pump, "5.3.0"],
      ["aidex", "AX7001", devices.cgm, undefined],
      ["gocheck", "GC7001", devices.meter, undefined],
    ] as const) {
      const stored = await ingestNow(bob.viewer, {
        pid,
        deviceKind,
        deviceSn,
        pdaVersion,
        timeZone: "Europe/Warsaw",
        records,
      });
      expect(stored.ok).toBe(true);
    }
    const clarity = await importCsv(bob.viewer, {
      pid,
      bytes: fixture("clarity-g7-mgdl.csv"),
      timeZone: "Europe/Warsaw",
      dryRun: false,
    });
    expect(clarity.ok).toBe(true);
    const before = await storedRows(pid);
    // The hand-made day: 5 pump records, 50 g and the low-insulin alarm derived, 288 + 17 CGM readings.
    expect(before.pump).toHaveLength(5);
    expect(before.cgm).toHaveLength(288 + 17);
    expect(before.carbs.map((c) => c.grams).sort((a, b) => a - b)).toEqual([45, 50]);
    expect(before.alarms).toHaveLength(1);
    const reportsBefore = await reportValues(bob, pid);

    const exported = await exportCsv(bob.viewer, {
      pid,
      start: "2026-01-01",
      end: "2026-03-31",
      channel: "page",
    });
    if (!exported.ok) throw new Error("export refused");
    const text = await new Response(exported.body).text();
    expect(text.split("\r\n").filter(Boolean)).toHaveLength(1 + 5 + 305 + 3 + 1 + 2);
    expect(exported.fileName).toBe(`diacare-${pid}-2026-01-01-2026-03-31.csv`);

    await db().$transaction([
      db().alarmEvent.deleteMany({ where: { patientId: pid } }),
      db().carbEntry.deleteMany({ where: { patientId: pid } }),
      db().insulinEntry.deleteMany({ where: { patientId: pid } }),
      db().pumpRecord.deleteMany({ where: { patientId: pid } }),
      db().cgmRecord.deleteMany({ where: { patientId: pid } }),
      db().bgRecord.deleteMany({ where: { patientId: pid } }),
    ]);
    const back = await importCsv(bob.viewer, {
      pid,
      bytes: new TextEncoder().encode(text),
      dryRun: false,
    });
    expect(back.ok && back.data).toMatchObject({
      format: "diacare",
      inserted: 5 + 305 + 3 + 1 + 2,
      duplicates: 0,
      errors: [],
    });
    expect(await storedRows(pid)).toEqual(before);
    expect(await reportValues(bob, pid)).toEqual(reportsBefore);
  });

  it("goes through the access gateway: a stranger gets 404, a range over a year 400, and each export is in the access log", async () => {
    const refused = await call(
      exportCsvRoute as Handler,
      new Request(`http://localhost/api/patient-data/exportCsv?pid=${bob.pid}`, {
        headers: { token: stranger.token },
      }),
    );
    expect(refused).toMatchObject({ status: 404, code: 404 });
    const tooLong = await call(
      exportCsvRoute as Handler,
      new Request(
        `http://localhost/api/patient-data/exportCsv?pid=${bob.pid}&start=2025-01-01&end=2026-01-05`,
        { headers: { token: bob.token } },
      ),
    );
    expect(tooLong).toMatchObject({ status: 400, code: 400 });
    const logged = await db().auditLog.count({
      where: { patientId: bob.pid!, action: "read:export" },
    });
    const ok = await exportCsvRoute({
      request: new Request(
        `http://localhost/api/patient-data/exportCsv?pid=${bob.pid}&start=2026-03-10&end=2026-03-10`,
        { headers: { token: bob.token } },
      ),
      params: {},
      context: {},
    });
    expect(ok.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(await ok.text()).toContain("2026-03-10 08:00:00");
    expect(
      await db().auditLog.count({ where: { patientId: bob.pid!, action: "read:export" } }),
    ).toBe(logged + 1);
  });
});
