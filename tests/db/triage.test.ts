/**
 * The clinic's triage list on the database: figures worked out by hand for a few patients (a
 * daylight-saving day in the patient's zone, readings at the same instant, values at the band
 * limits, a patient without data), the order of each column, the flag filter, who is listed, the
 * agreement of the statement with app/metrics, and one access-log row per patient shown.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GlucoseUnit } from "~/domain/glucose-unit";
import { timeInRangesOf, gmiOf } from "~/metrics";
import { normalizeReadings } from "~/metrics/readings";
import type { Viewer } from "~/models/access.server";
import { triageRows } from "~/models/triage.server";
import type { TriageFlag, TriageSort } from "~/schemas/triage";
import { loader as patientsPage } from "~/routes/patientShow.patients";
import { clinicTriage, TRIAGE_PAGE_SIZE } from "~/services/triage.server";
import { db } from "~/utils/db.server";
import { cookieFor } from "./report-support";

/**
 * Now: 2026-10-30 11:00 UTC. Europe/Warsaw left summer time on 2026-10-25 at 01:00 UTC (03:00
 * CEST became 02:00 CET), so that day has 25 hours. The 14 local days ending today in Warsaw are
 * 2026-10-17 to 2026-10-30, from 2026-10-17 00:00 CEST = 2026-10-16 22:00 UTC (a window start
 * taken with today's offset, +1, would be 23:00 UTC).
 */
const NOW = Date.parse("2026-10-30T11:00:00Z");
const DAY = 86_400_000;

type Reading = { at: string; mgdl: number; device?: string };

/**
 * Anna, Europe/Warsaw:
 *   2026-10-16 21:30Z = 23:30 CEST on the 16th: before the window, not counted
 *   2026-10-16 22:30Z = 00:30 CEST on the 17th:  50 (below 54 and below 70)        day 17
 *   2026-10-25 00:30Z = 02:30 CEST on the 25th: 200 (above range)                   day 25
 *   2026-10-25 22:30Z = 23:30 CET on the 25th:  100 (in range; with a fixed +2 offset it would
 *                                                fall on the 26th)                  day 25
 *   2026-10-28 10:00Z, two devices: 60 and 90, one reading of their mean 75 (in range)  day 28
 *   2026-10-29 10:00Z: 0, not a reading (below 1 mg/dL), so the 29th has no data
 *   2026-10-30 10:00Z: 150 (in range)                                               day 30
 *   2026-10-30 12:00Z: 300, after now, not counted
 * Readings 5: below 54: 1 (20 %), below 70: 1 (20 %), in range: 100, 75, 150 = 3 (60 %);
 * mean (50 + 200 + 100 + 75 + 150) / 5 = 115, GMI 3.31 + 0.02392 x 115 = 6.0608 (6.1);
 * days with data 17, 25, 28, 30 = 4. Last finished upload 2026-10-20 08:00Z (10:00 CEST, the
 * 20th), 10 days ago (a failed one on the 29th does not count): flags noUpload, belowRange (20 %
 * > 4 %), lowTir (60 % < 70 %).
 */
const ANNA: Reading[] = [
  { at: "2026-10-16T21:30:00Z", mgdl: 40 },
  { at: "2026-10-16T22:30:00Z", mgdl: 50 },
  { at: "2026-10-25T00:30:00Z", mgdl: 200 },
  { at: "2026-10-25T22:30:00Z", mgdl: 100 },
  { at: "2026-10-28T10:00:00Z", mgdl: 60 },
  { at: "2026-10-28T10:00:00Z", mgdl: 90, device: "SECOND" },
  { at: "2026-10-29T10:00:00Z", mgdl: 0 },
  { at: "2026-10-30T10:00:00Z", mgdl: 150 },
  { at: "2026-10-30T12:00:00Z", mgdl: 300 },
];

/**
 * Bartek, Asia/Kolkata (UTC+05:30 all year; the window starts 2026-10-17 00:00 IST =
 * 2026-10-16 18:30Z). Ten readings at the band limits: 54 (not below 54, below 70), 69 (below
 * 70), 70 and 180 (in range, both limits included), 181 (above), 100 five times.
 * Below 54: 0 (0 %), below 70: 2 (20 %), in range: 7 (70 % exactly: not under 70 %, no lowTir
 * flag). Mean (54 + 69 + 70 + 180 + 181 + 500) / 10 = 105.4, GMI 3.31 + 0.02392 x 105.4 =
 * 5.831168 (5.8). On two local days: 2026-10-20 (the first five, 12:00 IST = 06:30Z on) and
 * 2026-10-21. Last upload exactly 7 x 24 h before now: not "no upload for 7 days".
 * Flags: belowRange only.
 */
const BARTEK: Reading[] = [54, 69, 70, 180, 181, 100, 100, 100, 100, 100].map((mgdl, i) => ({
  at: new Date(
    Date.parse(i < 5 ? "2026-10-20T06:30:00Z" : "2026-10-21T06:30:00Z") + i * 300_000,
  ).toISOString(),
  mgdl,
}));

/**
 * Cecylia, UTC: 25 readings on 2026-10-29, one of 65 and 24 of 120. Below 70: 1 of 25 = 4 %
 * exactly (not over 4 %), below 54 0 %, in range 24 of 25 = 96 %; mean (65 + 24 x 120) / 25 =
 * 2945 / 25 = 117.8, GMI 3.31 + 0.02392 x 117.8 = 6.127776 (6.1); 1 day. Uploaded a day ago. No flags.
 */
const CECYLIA: Reading[] = Array.from({ length: 25 }, (_, i) => ({
  at: new Date(Date.parse("2026-10-29T08:00:00Z") + i * 300_000).toISOString(),
  mgdl: i === 0 ? 65 : 120,
}));

let tag = 0;
async function person(firstName: string, timeZone: string) {
  return db().user.create({
    data: {
      email: `${firstName.toLowerCase()}-${++tag}-${Date.now()}@triage.test`,
      identity: 1,
      firstName,
      lastName: "Test",
      patient: { create: { timeZone } },
    },
    include: { patient: true },
  });
}

async function clinic(name: string, isPass = 1) {
  return db().user.create({
    data: { email: `${name}-${++tag}-${Date.now()}@triage.test`, identity: 2, isPass },
  });
}

async function share(providerId: number, readerId: number, state = 1, nickName?: string) {
  await db().readPower.create({
    data: { providerId, readerId, sourceType: 1, state, nickName: nickName ?? null },
  });
}

async function readings(patientId: number, list: Reading[], timeZone: string) {
  await db().cgmRecord.createMany({
    data: list.map((r, i) => ({
      patientId,
      deviceSn: r.device ?? "CGM-1",
      eventIndex: i,
      eventType: 7,
      mgdl: r.mgdl,
      deviceTime: r.at,
      timeZone,
      dateTime: new Date(r.at),
    })),
  });
}

async function upload(patientId: number, uploaderId: number, completedAt: Date, status = "done") {
  await db().uploadTask.create({
    data: {
      patientId,
      uploaderId,
      deviceKind: "aidex",
      deviceSn: "CGM-1",
      timeZone: "UTC",
      status: status as "done",
      completedAt,
    },
  });
}

const viewerOf = (user: { id: number; identity: number; isPass: number }): Viewer => ({
  id: user.id,
  identity: user.identity,
  isPass: user.isPass,
  role: "guest",
});

async function scenario() {
  const theClinic = await clinic("clinic");
  const other = await clinic("other");
  const anna = await person("Anna", "Europe/Warsaw");
  const bartek = await person("Bartek", "Asia/Kolkata");
  const cecylia = await person("Cecylia", "UTC");
  const dora = await person("Dora", "Europe/Rome");
  const pending = await person("Pending", "UTC");
  const elsewhere = await person("Elsewhere", "UTC");
  for (const p of [anna, bartek, cecylia, dora]) await share(p.id, theClinic.id);
  await share(pending.id, theClinic.id, 0);
  await share(elsewhere.id, other.id);
  await readings(anna.patient!.id, ANNA, "Europe/Warsaw");
  await readings(bartek.patient!.id, BARTEK, "Asia/Kolkata");
  await readings(cecylia.patient!.id, CECYLIA, "UTC");
  await readings(pending.patient!.id, CECYLIA, "UTC");
  await readings(elsewhere.patient!.id, CECYLIA, "UTC");
  await upload(anna.patient!.id, anna.id, new Date("2026-10-20T08:00:00Z"));
  await upload(anna.patient!.id, anna.id, new Date("2026-10-29T08:00:00Z"), "failed");
  await upload(bartek.patient!.id, bartek.id, new Date(NOW - 7 * DAY));
  await upload(cecylia.patient!.id, theClinic.id, new Date(NOW - DAY));
  return { theClinic, other, anna, bartek, cecylia, dora, pending, elsewhere };
}

const query = (sort: TriageSort, dir: "asc" | "desc", flags: TriageFlag[] = [], page = 1) => ({
  period: 14 as const,
  category: null,
  tag: null,
  sort,
  dir,
  flags,
  page,
});

const list = (viewer: Viewer, q: ReturnType<typeof query>, unit: GlucoseUnit = GlucoseUnit.Mmol) =>
  clinicTriage(viewer, q, { unit, locale: "en", now: NOW });

describe("the clinic's triage list", () => {
  let s: Awaited<ReturnType<typeof scenario>>;
  let viewer: Viewer;
  beforeAll(async () => {
    s = await scenario();
    viewer = viewerOf(s.theClinic);
  });

  it("counts each patient's last 14 local days by hand: a DST day, same-instant readings, band limits, no data", async () => {
    const rows = await triageRows(viewer, {
      sort: "name",
      dir: "asc",
      flags: [],
      period: 14,
      now: NOW,
    });
    const byName = Object.fromEntries(rows.map((r) => [r.firstName, r]));
    expect(Object.keys(byName)).toEqual(["Anna", "Bartek", "Cecylia", "Dora"]);
    expect(byName.Anna).toMatchObject({
      readings: 5,
      below54: 1,
      below70: 1,
      inRange: 3,
      daysWithData: 4,
      lastUploadAt: Date.parse("2026-10-20T08:00:00Z"),
    });
    expect(byName.Anna!.meanMgdl).toBeCloseTo(115, 9);
    expect(byName.Bartek).toMatchObject({
      readings: 10,
      below54: 0,
      below70: 2,
      inRange: 7,
      daysWithData: 2,
      lastUploadAt: NOW - 7 * DAY,
    });
    expect(byName.Bartek!.meanMgdl).toBeCloseTo(105.4, 9);
    expect(byName.Cecylia).toMatchObject({
      readings: 25,
      below70: 1,
      inRange: 24,
      daysWithData: 1,
    });
    expect(byName.Cecylia!.meanMgdl).toBeCloseTo(117.8, 9);
    expect(byName.Dora).toMatchObject({
      readings: 0,
      below54: 0,
      below70: 0,
      inRange: 0,
      meanMgdl: null,
      daysWithData: 0,
      lastUploadAt: null,
    });
  });

  it("shows the figures in the reader's locale and unit, with the flags", async () => {
    const page = (await list(viewer, query("name", "asc")))!;
    expect(page.bands).toEqual({ veryLow: "3.0", low: "3.9", high: "10.0", veryHigh: "13.9" });
    expect(page.total).toBe(4);
    expect(
      page.items.map(({ href: _href, patientId: _id, ...item }) => ({
        name: item.name,
        fullName: item.fullName,
        lastUpload: item.lastUpload,
        daysWithData: item.daysWithData,
        tir: item.tir,
        below70: item.below70,
        below54: item.below54,
        gmi: item.gmi,
        flags: item.flags,
      })),
    ).toEqual([
      {
        name: "Anna Test",
        fullName: null,
        lastUpload: "Oct 20, 2026",
        daysWithData: 4,
        tir: "60.0",
        below70: "20.0",
        below54: "20.0",
        gmi: "6.1",
        flags: ["noUpload", "belowRange", "lowTir"],
      },
      {
        name: "Bartek Test",
        fullName: null,
        // 7 days before now, 2026-10-23 11:00Z, is 16:30 IST on the 23rd.
        lastUpload: "Oct 23, 2026",
        daysWithData: 2,
        tir: "70.0",
        below70: "20.0",
        below54: "0.0",
        gmi: "5.8",
        flags: ["belowRange"],
      },
      {
        name: "Cecylia Test",
        fullName: null,
        lastUpload: "Oct 29, 2026",
        daysWithData: 1,
        tir: "96.0",
        below70: "4.0",
        below54: "0.0",
        gmi: "6.1",
        flags: [],
      },
      {
        name: "Dora Test",
        fullName: null,
        lastUpload: null,
        daysWithData: 0,
        tir: null,
        below70: null,
        below54: null,
        gmi: null,
        flags: ["noUpload"],
      },
    ]);
    expect(page.items[0]!.href).toBe(`/patientShow/${s.anna.patient!.id}/${s.anna.id}/patientHome`);
    const mgdl = (await list(viewer, query("name", "asc"), GlucoseUnit.Mgdl))!;
    expect(mgdl.bands).toEqual({ veryLow: "54", low: "70", high: "180", veryHigh: "250" });
    const polish = (await clinicTriage(viewer, query("name", "asc"), {
      unit: GlucoseUnit.Mmol,
      locale: "pl",
      now: NOW,
    }))!;
    expect(polish.bands).toEqual({ veryLow: "3,0", low: "3,9", high: "10,0", veryHigh: "13,9" });
    expect(polish.items[0]).toMatchObject({ tir: "60,0", gmi: "6,1" });
  });

  it("agrees with app/metrics on each patient's readings of the window", async () => {
    const rows = await triageRows(viewer, {
      sort: "name",
      dir: "asc",
      flags: [],
      period: 14,
      now: NOW,
    });
    const windows: Record<string, [string, string]> = {
      Anna: ["2026-10-16T22:00:00Z", "2026-10-30T11:00:00Z"],
      Bartek: ["2026-10-16T18:30:00Z", "2026-10-30T11:00:00Z"],
      Cecylia: ["2026-10-17T00:00:00Z", "2026-10-30T11:00:00Z"],
    };
    const sources: Record<string, Reading[]> = { Anna: ANNA, Bartek: BARTEK, Cecylia: CECYLIA };
    for (const [name, [from, to]] of Object.entries(windows)) {
      const inWindow = sources[name]!.filter(
        (r) => Date.parse(r.at) >= Date.parse(from) && Date.parse(r.at) <= Date.parse(to),
      ).map((r) => ({ time: Date.parse(r.at), mgdl: r.mgdl }));
      const { series } = normalizeReadings(inWindow);
      const bands = timeInRangesOf(series.mgdl)!;
      const mean = series.mgdl.reduce((a, b) => a + b, 0) / series.length;
      const row = rows.find((r) => r.firstName === name)!;
      expect([name, row.readings]).toEqual([name, series.length]);
      expect((row.inRange / row.readings) * 100).toBeCloseTo(bands.range70to180, 9);
      expect((row.below70 / row.readings) * 100).toBeCloseTo(bands.below70, 9);
      expect((row.below54 / row.readings) * 100).toBeCloseTo(bands.below54, 9);
      expect(gmiOf(row.meanMgdl!)).toBeCloseTo(gmiOf(mean), 9);
    }
  });

  it("sorts by each column, worst first by default, a patient without figures last", async () => {
    const names = async (sort: TriageSort, dir: "asc" | "desc") =>
      (await list(viewer, query(sort, dir)))!.items.map((i) => i.name.split(" ")[0]);
    expect(await names("tir", "asc")).toEqual(["Anna", "Bartek", "Cecylia", "Dora"]);
    expect(await names("tir", "desc")).toEqual(["Cecylia", "Bartek", "Anna", "Dora"]);
    expect(await names("below70", "desc")).toEqual(["Anna", "Bartek", "Cecylia", "Dora"]);
    // Bartek and Cecylia both 0 %: by name.
    expect(await names("below54", "desc")).toEqual(["Anna", "Bartek", "Cecylia", "Dora"]);
    expect(await names("gmi", "desc")).toEqual(["Cecylia", "Anna", "Bartek", "Dora"]);
    expect(await names("gmi", "asc")).toEqual(["Bartek", "Anna", "Cecylia", "Dora"]);
    expect(await names("days", "asc")).toEqual(["Dora", "Cecylia", "Bartek", "Anna"]);
    // No upload at all counts as the oldest.
    expect(await names("lastUpload", "asc")).toEqual(["Dora", "Anna", "Bartek", "Cecylia"]);
    expect(await names("lastUpload", "desc")).toEqual(["Cecylia", "Bartek", "Anna", "Dora"]);
    expect(await names("name", "desc")).toEqual(["Dora", "Cecylia", "Bartek", "Anna"]);
    // Flags: Anna 3, then Bartek and Dora 1 each (the lower time in range first, no figures last), Cecylia 0.
    expect(await names("flags", "desc")).toEqual(["Anna", "Bartek", "Dora", "Cecylia"]);
  });

  it("filters by flags: a patient with any of the chosen ones", async () => {
    const names = async (flags: TriageFlag[]) =>
      (await list(viewer, query("name", "asc", flags)))!.items.map((i) => i.name.split(" ")[0]);
    expect(await names(["lowTir"])).toEqual(["Anna"]);
    expect(await names(["belowRange"])).toEqual(["Anna", "Bartek"]);
    expect(await names(["noUpload"])).toEqual(["Anna", "Dora"]);
    expect(await names(["lowTir", "noUpload"])).toEqual(["Anna", "Dora"]);
    expect(await names([...(["noUpload", "belowRange", "lowTir"] as const)])).toEqual([
      "Anna",
      "Bartek",
      "Dora",
    ]);
    expect((await list(viewer, query("name", "asc", ["lowTir"])))!.total).toBe(1);
  });

  it("lists only patients sharing with the clinic by an accepted share; nobody else gets a list", async () => {
    const otherList = (await list(viewerOf(s.other), query("name", "asc")))!;
    expect(otherList.items.map((i) => i.name)).toEqual(["Elsewhere Test"]);
    const unaudited = await clinic("unaudited", 3);
    await share(s.anna.id, unaudited.id);
    expect(await list(viewerOf(unaudited), query("name", "asc"))).toBeNull();
    expect(await list(viewerOf(s.anna), query("name", "asc"))).toBeNull();
  });

  it("shows the viewer's nickname for a patient, with the patient's name beside it", async () => {
    const theClinic = await clinic("nick");
    await share(s.cecylia.id, theClinic.id, 1, "Aunt C");
    const page = (await list(viewerOf(theClinic), query("name", "asc")))!;
    expect(page.items[0]).toMatchObject({ name: "Aunt C", fullName: "Cecylia Test", tir: "96.0" });
  });

  it("writes one access-log row per patient shown, with the 14 dates in the patient's zone, none for the others", async () => {
    const theClinic = await clinic("logged");
    for (const p of [s.anna, s.bartek, s.cecylia, s.dora]) await share(p.id, theClinic.id);
    const v = viewerOf(theClinic);
    const logged = () =>
      db().auditLog.findMany({ where: { actorId: theClinic.id }, orderBy: { id: "asc" } });
    await list(v, query("name", "asc", ["belowRange"]));
    const rows = await logged();
    expect(
      rows.map((r) => ({
        patientId: r.patientId,
        action: r.action,
        channel: r.channel,
        detail: r.detail,
      })),
    ).toEqual([
      {
        patientId: s.anna.patient!.id,
        action: "read:triage",
        channel: "page",
        detail: { start: "2026-10-17", end: "2026-10-30" },
      },
      {
        patientId: s.bartek.patient!.id,
        action: "read:triage",
        channel: "page",
        detail: { start: "2026-10-17", end: "2026-10-30" },
      },
    ]);
  });

  it("pages the list, 20 a page, logging only the page shown; a page past the end is the last", async () => {
    const theClinic = await clinic("many");
    const many = [];
    for (let i = 0; i < TRIAGE_PAGE_SIZE + 3; i++) {
      const p = await person(`Many${String(i).padStart(2, "0")}`, "UTC");
      await share(p.id, theClinic.id);
      many.push(p);
    }
    const v = viewerOf(theClinic);
    const first = (await list(v, query("name", "asc")))!;
    expect([first.total, first.page, first.pages, first.items.length]).toEqual([23, 1, 2, 20]);
    const before = await db().auditLog.count({ where: { actorId: theClinic.id } });
    expect(before).toBe(20);
    const last = (await list(v, query("name", "asc", [], 9)))!;
    expect([last.page, last.items.map((i) => i.name)]).toEqual([
      2,
      ["Many20 Test", "Many21 Test", "Many22 Test"],
    ]);
    expect(await db().auditLog.count({ where: { actorId: theClinic.id } })).toBe(23);
  });

  it("the patients page gives an approved clinic its list and a person none, whatever the query", async () => {
    const call = async (userId: number, search: string) =>
      patientsPage({
        request: new Request(`http://localhost/patientShow/patients${search}`, {
          headers: { Cookie: await cookieFor(userId) },
        }),
        params: {},
        context: {},
      });
    const clinicPage = await call(s.theClinic.id, "?sort=tir&dir=asc&flag=noUpload&tpage=x");
    expect(clinicPage.triage).toMatchObject({
      sort: "tir",
      dir: "asc",
      flags: ["noUpload"],
      page: 1,
    });
    expect(clinicPage.triage!.items.map((i) => i.name)).toContain("Dora Test");
    const personPage = await call(s.anna.id, "?sort=tir");
    expect(personPage.triage).toBeNull();
  });
});
