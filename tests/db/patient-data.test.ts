import { beforeAll, describe, expect, it } from "vitest";
import { Temporal } from "temporal-polyfill";
import { createApiToken } from "~/models/api-token.server";
import { loader as findLastRecord } from "~/routes/api.patient-data.findLastRecord";
import { loader as findPatientData } from "~/routes/api.patient-data.findPatientData";
import { loader as sugarData } from "~/routes/api.patient-data.sugarData";
import { loader as cgmFindList } from "~/routes/api.cgms.cgm-record.findList";
import { loader as patientHome } from "~/routes/patientShow.$id.$userid.patientHome";
import { db } from "~/utils/db.server";
import { sessionStorage } from "~/services/session.server";
import { getApi, type Handler } from "./api-client";
import plViews from "../../locales/pl/views.json";

const ZONE = "Europe/Warsaw";
/** The autumn DST change in Warsaw: a 25-hour local day. */
const DST_DAY = "2026-10-25";
const at = (date: string, time: string) =>
  Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(ZONE, {
    disambiguation: "earlier",
  });

let tag = 0;
async function people() {
  const t = `${++tag}-${Date.now()}`;
  const patient = await db().user.create({
    data: {
      email: `p-${t}@data.test`,
      identity: 1,
      patient: { create: { timeZone: ZONE, lowLimit: 70, highLimit: 180 } },
    },
    include: { patient: true },
  });
  const clinic = await db().user.create({
    data: {
      email: `c-${t}@data.test`,
      identity: 2,
      isPass: 1,
      setting: { create: { lang: "en", unit: 0 } },
    },
  });
  const unaudited = await db().user.create({
    data: { email: `u-${t}@data.test`, identity: 2, isPass: 3 },
  });
  const stranger = await db().user.create({
    data: { email: `s-${t}@data.test`, identity: 2, isPass: 1 },
  });
  for (const reader of [clinic, unaudited])
    await db().readPower.create({
      data: { providerId: patient.id, readerId: reader.id, sourceType: 1, state: 1 },
    });
  return { patient, pid: patient.patient!.id, clinic, unaudited, stranger };
}

/** Every 5 minutes over the DST day: 300 readings (25 h), 100 mg/dL by day and 200 after 20:00. */
async function seedDstDay(pid: number) {
  const start = at(DST_DAY, "00:00");
  const end = at("2026-10-26", "00:00");
  const rows = [];
  for (
    let i = 0, t = start;
    Temporal.ZonedDateTime.compare(t, end) < 0;
    i++, t = t.add({ minutes: 5 })
  ) {
    rows.push({
      patientId: pid,
      deviceSn: `cgm-${pid}`,
      eventIndex: i,
      eventType: 7,
      mgdl: t.hour >= 20 ? 200 : 100,
      deviceTime: t.toPlainDateTime().toString(),
      timeZone: ZONE,
      dateTime: new Date(t.epochMilliseconds),
    });
  }
  await db().cgmRecord.createMany({ data: rows });
  // Pump: 1.0 U/h basal (raw 160) from midnight, a 6 U normal bolus at 60 U/h for 6 min at 08:00.
  const pump = (recordId: number, time: string, basal: number, bolus: number) => ({
    patientId: pid,
    pdaSn: `pump-${pid}`,
    recordId,
    eventIndex: recordId,
    eventPort: 4,
    eventType: 0,
    eventUrgency: 0,
    eventValue: 0,
    battery: 80,
    reservoir: 150,
    basalRateRaw: basal,
    bolusRateRaw: bolus,
    deviceTime: time,
    recordTimeZone: ZONE,
    dateTime: new Date(at(DST_DAY, time).epochMilliseconds),
  });
  await db().pumpRecord.createMany({
    data: [
      pump(1, "00:00", 160, 0),
      pump(2, "08:00", 160, 9600),
      pump(3, "08:06", 160, 0),
      pump(4, "23:59", 160, 0),
    ],
  });
  await db().bgRecord.createMany({
    data: [
      {
        patientId: pid,
        source: "meter",
        deviceSn: `m-${pid}`,
        recordKey: "1",
        mgdl: 65,
        deviceTime: "2026-10-20 07:30",
        timeZone: ZONE,
        dateTime: new Date(at("2026-10-20", "07:30").epochMilliseconds),
      },
      {
        patientId: pid,
        source: "meter",
        deviceSn: `m-${pid}`,
        recordKey: "2",
        mgdl: 190,
        deviceTime: "2026-10-20 13:00",
        timeZone: ZONE,
        dateTime: new Date(at("2026-10-20", "13:00").epochMilliseconds),
      },
    ],
  });
}

async function cookieFor(userId: number) {
  const session = await sessionStorage().getSession();
  session.set("userId", userId);
  return (await sessionStorage().commitSession(session)).split(";")[0]!;
}

async function page(userId: number, pid: number, patientUserId: number, search: string) {
  const request = new Request(
    `http://localhost/patientShow/${pid}/${patientUserId}/patientHome${search}`,
    { headers: { Cookie: await cookieFor(userId) } },
  );
  return patientHome({
    request,
    params: { id: String(pid), userid: String(patientUserId) },
    context: {},
  });
}

describe("patient data API and views", () => {
  let s: Awaited<ReturnType<typeof people>>;
  let token: string;
  beforeAll(async () => {
    s = await people();
    await seedDstDay(s.pid);
    token = await createApiToken(s.clinic.id);
  });

  it("findPatientData: a 25-hour DST day with 300 CGM readings, 25 U of basal and a 6 U bolus", async () => {
    const answer = await getApi(
      findPatientData as Handler,
      `/api/patient-data/findPatientData?pid=${s.pid}&date=2026/10/25`,
      token,
    );
    expect(answer.code).toBe(200);
    expect(answer.data.date).toBe(DST_DAY);
    expect(answer.data.cgm.window.hours).toBe(25);
    expect(answer.data.cgm.summary.numberOfValue).toBe(300);
    // 21 h at 100 (00:00-20:00 is 21 h on this day), 4 h at 200: 252 and 48 readings.
    expect(answer.data.cgm.goal).toMatchObject({ above: 48, within: 252, below: 0 });
    expect(answer.data.pump.pumpTotalCount).toMatchObject({ basal: 25, bolus: 6, total: 31 });
    expect(answer.data.pump.boluses.map((b: { kind: string }) => b.kind)).toEqual(["normal"]);
    expect(answer.data.bg.hasData).toBe(false);
    expect(answer.data.nearestWithData).toEqual({ pump: DST_DAY, cgm: DST_DAY, bg: "2026-10-20" });
  });

  it("sugarData: meter readings with meal tags and sugarTotalCount; a reversed range is refused in the caller's language", async () => {
    const answer = await getApi(
      sugarData as Handler,
      `/api/patient-data/sugarData?pid=${s.pid}&start=2026-10-19&end=2026-10-21`,
      token,
    );
    expect(answer.code).toBe(200);
    expect(answer.data.sugarTotalCount).toMatchObject({
      size: 2,
      high: 1,
      low: 1,
      highPercent: 50,
      lowPercent: 50,
      sugarAvg: 127.5,
    });
    expect(answer.data.days[1].readings.map((r: { tag: { key: string } }) => r.tag.key)).toEqual([
      "breakfast",
      "lunch",
    ]);
    const reversed = await getApi(
      sugarData as Handler,
      `/api/patient-data/sugarData?pid=${s.pid}&start=2026-10-21&end=2026-10-19`,
      token,
      { "Accept-Language": "pl" },
    );
    expect([reversed.status, reversed.code, reversed.msg]).toEqual([
      400,
      400,
      plViews.problems.order,
    ]);
  });

  it("cgm findList: readings in both units and time in ranges; more than 14 days is refused", async () => {
    const answer = await getApi(
      cgmFindList as Handler,
      `/api/cgms/cgm-record/findList?pid=${s.pid}&start=${DST_DAY}&end=${DST_DAY}`,
      token,
    );
    expect(answer.data.count).toBe(300);
    expect(answer.data.readings[299]).toMatchObject({ mgdl: 200, mmol: 200 / 18 });
    expect(answer.data.timeInRanges.range70to180).toBeCloseTo(84, 10);
    const tooLong = await getApi(
      cgmFindList as Handler,
      `/api/cgms/cgm-record/findList?pid=${s.pid}&start=2026-10-01&end=2026-10-15`,
      token,
    );
    expect([tooLong.code, tooLong.msg]).toEqual([400, "The maximum time range is 14 days."]);
  });

  it("findLastRecord: the newest pump record (origin 0) or CGM record (origin 2)", async () => {
    const pump = await getApi(
      findLastRecord as Handler,
      `/api/patient-data/findLastRecord?pid=${s.pid}&origin=0`,
      token,
    );
    expect(pump.data).toMatchObject({ origin: 0, deviceSn: `pump-${s.pid}`, index: 4 });
    const cgm = await getApi(
      findLastRecord as Handler,
      `/api/patient-data/findLastRecord?pid=${s.pid}&origin=2`,
      token,
    );
    expect(cgm.data).toMatchObject({ origin: 2, deviceSn: `cgm-${s.pid}`, index: 299 });
  });

  it("answers only those who may see the patient: a stranger and an unaudited clinic get 404, no token 800, a bad pid 400", async () => {
    const path = `/api/patient-data/findPatientData?pid=${s.pid}&date=${DST_DAY}`;
    expect(
      (await getApi(findPatientData as Handler, path, await createApiToken(s.stranger.id))).code,
    ).toBe(404);
    expect(
      (await getApi(findPatientData as Handler, path, await createApiToken(s.unaudited.id))).code,
    ).toBe(404);
    expect(
      (
        await getApi(
          findLastRecord as Handler,
          `/api/patient-data/findLastRecord?pid=${s.pid}`,
          await createApiToken(s.stranger.id),
        )
      ).code,
    ).toBe(404);
    expect((await getApi(findPatientData as Handler, path)).code).toBe(800);
    const bad = await getApi(
      findPatientData as Handler,
      "/api/patient-data/findPatientData?pid=abc&date=2026-02-30",
      token,
      { "Accept-Language": "pl" },
    );
    expect([bad.code, bad.msg]).toEqual([400, plViews.errors.pid]);
  });

  it("the page: DAILY of the DST day, a refused date falls back to the last day with data, ru has no CGMS", async () => {
    const daily = (await page(
      s.clinic.id,
      s.pid,
      s.patient.id,
      `?tab=daily&date=${DST_DAY}`,
    )) as Awaited<ReturnType<typeof patientHome>>;
    expect(daily.view.tab).toBe("daily");
    // Two drawings of the chart: the wide one (screens and paper) and the narrow one (phones).
    expect([daily.chart?.wide, daily.chart?.narrow]).toEqual([
      expect.stringMatching(/^<svg/),
      expect.stringMatching(/^<svg/),
    ]);
    expect("pump" in daily.view && daily.view.pump.insulinTotals.total).toBe(31);

    const refused = await page(s.clinic.id, s.pid, s.patient.id, "?tab=cgms&date=2026/13/01");
    expect(refused.view.tab === "cgms" && refused.view.nav).toMatchObject({
      problem: "invalid",
      typed: "2026/13/01",
      date: DST_DAY,
      lastDay: DST_DAY,
    });
    expect(
      refused.view.tab === "cgms" && refused.view.view === "day" && "points" in refused.view.day,
    ).toBe(false);

    const empty = await page(s.clinic.id, s.pid, s.patient.id, "?tab=cgms&date=2026-10-01");
    expect(empty.view.tab === "cgms" && empty.view.nav).toMatchObject({
      date: "2026-10-01",
      nearest: DST_DAY,
      problem: null,
    });

    await db().setting.update({ where: { userId: s.clinic.id }, data: { lang: "ru" } });
    const ru = await page(s.clinic.id, s.pid, s.patient.id, "?tab=cgms");
    expect([ru.view.tab, ru.tabs]).toEqual(["daily", ["daily", "bg"]]);
    await db().setting.update({ where: { userId: s.clinic.id }, data: { lang: "en" } });
  });

  it("DAILY reads the upload's bolus-check mark: a flagged calculation is a table row, an unflagged one is not", async () => {
    const day = "2026-10-12";
    // 12:00 calculator run flagged at upload (3.00 U suggested, 6.50 U confirmed: 3.50 U apart); 18:00 the same figures, unflagged.
    const calc = (
      recordId: number,
      time: string,
      type: number,
      hundredths: number,
      flagged: boolean,
    ) => ({
      patientId: s.pid,
      pdaSn: `pump-${s.pid}`,
      recordId,
      eventIndex: recordId,
      eventPort: 0,
      eventType: type,
      eventUrgency: 0,
      eventValue: 0,
      battery: 80,
      reservoir: 150,
      basalRateRaw: 0,
      bolusRateRaw: hundredths,
      deviceTime: `${day} ${time}`,
      recordTimeZone: ZONE,
      dateTime: new Date(at(day, time).epochMilliseconds),
      bolusCheckFailed: flagged,
    });
    await db().pumpRecord.createMany({
      data: [
        calc(101, "12:00", 6, 300, true),
        calc(102, "12:00", 7, 650, true),
        calc(103, "18:00", 6, 300, false),
        calc(104, "18:00", 7, 650, false),
      ],
    });
    const daily = (await page(
      s.clinic.id,
      s.pid,
      s.patient.id,
      `?tab=daily&date=${day}`,
    )) as Awaited<ReturnType<typeof patientHome>>;
    const pump = daily.view.tab === "daily" ? daily.view.pump : null;
    expect(pump?.flaggedCalculations).toEqual([
      expect.objectContaining({ clock: "12:00", suggestedU: 3, confirmedU: 6.5, differenceU: 3.5 }),
    ]);
    expect(pump?.table.filter((r) => r.kind === "check").map((r) => r.clock)).toEqual(["12:00"]);
  });
});
