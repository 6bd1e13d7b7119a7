import { beforeAll, describe, expect, it } from "vitest";
import { Temporal } from "temporal-polyfill";
import { createApiToken } from "~/models/api-token.server";
import { buildCgmReport, type CgmReport } from "~/report/cgm-report";
import { loader as cgmsprint } from "~/routes/$id.cgmsprint";
import { loader as cgmsprintPdf } from "~/routes/$id.cgmsprint[.]pdf";
import { action as sugarDevicePdf } from "~/routes/api.patient-data.sugarDevicePdf";
import { db } from "~/utils/db.server";
import { cgmReportToWire } from "~/wire/reports";
import { postApi, type Handler } from "./api-client";
import { callPage, callPdf, seedCgmWave } from "./report-support";
import enReports from "../../locales/en/reports.json";
import plReports from "../../locales/pl/reports.json";
import enViews from "../../locales/en/views.json";

const ZONE = "Europe/Warsaw";
/** Three local days around the autumn DST change (2026-10-25 has 25 hours). */
const DAYS = ["2026-10-24", "2026-10-25", "2026-10-26"] as const;
const at = (date: string, time: string) =>
  Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(ZONE, {
    disambiguation: "earlier",
  });

let tag = 0;
async function people() {
  const t = `${++tag}-${Date.now()}`;
  const patient = await db().user.create({
    data: {
      email: `p-${t}@report.test`,
      identity: 1,
      firstName: "Rita",
      lastName: "Report",
      birthDate: new Date("1980-02-29"),
      patient: { create: { timeZone: ZONE, lowLimit: 70, highLimit: 180 } },
    },
    include: { patient: true },
  });
  const clinic = await db().user.create({
    data: {
      email: `c-${t}@report.test`,
      identity: 2,
      isPass: 1,
      setting: { create: { lang: "en", unit: 0, nameStyle: 1, orientation: "landscape" } },
    },
  });
  const unaudited = await db().user.create({
    data: {
      email: `u-${t}@report.test`,
      identity: 2,
      isPass: 3,
      setting: { create: { lang: "en" } },
    },
  });
  const stranger = await db().user.create({
    data: {
      email: `s-${t}@report.test`,
      identity: 2,
      isPass: 1,
      setting: { create: { lang: "pl" } },
    },
  });
  for (const reader of [clinic, unaudited])
    await db().readPower.create({
      data: { providerId: patient.id, readerId: reader.id, sourceType: 1, state: 1 },
    });
  return { patient, pid: patient.patient!.id, clinic, unaudited, stranger };
}

const page = (userId: number, pid: number, search: string) =>
  callPage(cgmsprint, "cgmsprint", userId, pid, search);
const pdf = (userId: number, pid: number | string, search: string, lang?: string) =>
  callPdf(cgmsprintPdf, "cgmsprint", userId, pid, search, lang);

/** The report that buildCgmReport makes of the stored readings (the reference). */
async function expected(pid: number, from: string, to: string): Promise<CgmReport> {
  const rows = await db().cgmRecord.findMany({
    where: { patientId: pid },
    orderBy: { dateTime: "asc" },
  });
  const result = buildCgmReport({
    from,
    to,
    timeZone: ZONE,
    now: Date.now(),
    unit: 0,
    limits: { low: 70, high: 180 },
    readings: rows.map((r) => ({
      id: r.id.toString(),
      time: r.dateTime.getTime(),
      mgdl: r.mgdl,
    })),
  });
  if (result.status !== "ok") throw new Error(result.problem);
  return result.report;
}

const FIGURES = [
  "glucoseUnit",
  "limits",
  "highest",
  "lowest",
  "highestLocalTime",
  "lowestLocalTime",
  "readingCount",
  "mean",
  "abovePercent",
  "belowPercent",
  "withinPercent",
  "goalCounts",
] as const;
const pick = (report: Record<string, unknown>) =>
  Object.fromEntries(FIGURES.map((k) => [k, report[k]]));

describe("CGM report page, PDF route and API", () => {
  let s: Awaited<ReturnType<typeof people>>;
  let token: string;
  beforeAll(async () => {
    s = await people();
    await seedCgmWave(s.pid, at(DAYS[0], "00:00"), at("2026-10-27", "00:00"));
    token = await createApiToken(s.clinic.id);
  });

  it("the page: a 3-day range over the DST day has the figures of buildCgmReport, a chart per day and one row per hour", async () => {
    const data = await page(s.clinic.id, s.pid, "?start=2026/10/24&end=2026/10/26");
    const reference = await expected(s.pid, DAYS[0], DAYS[2]);
    expect(data.shell.problem).toBeNull();
    expect(reference.readingCount).toBe(288 + 300 + 288);
    expect(pick(data.report!)).toEqual(pick(reference as unknown as Record<string, unknown>));
    expect(data.charts.map((c) => [c.date, c.svg?.startsWith("<svg")])).toEqual(
      DAYS.map((d) => [d, true]),
    );
    // A row per day, a cell per clock hour: the first reading of the hour (the DST day's repeated 02:00 hour shows its first occurrence).
    expect(data.hourly.map((d) => [d.date, d.cells.filter(Boolean).length])).toEqual(
      DAYS.map((d) => [d, 24]),
    );
    expect(data.hourly[0]!.cells[0]).toMatchObject({ mgdl: reference.rows[0]!.mgdl });
    const firstAtTwo = reference.rows.find((r) => r.localTime.startsWith("2026/10/25 02:"))!;
    expect(data.hourly[1]!.cells[2]).toMatchObject({ mgdl: firstAtTwo.mgdl });
    expect(data.shell).toMatchObject({
      name: "Rita Report",
      birthDate: "Feb 29, 1980",
      unit: 0,
      settings: { nameStyle: "center", orientation: "landscape", splitLine: true, logoSrc: null },
      form: { start: "2026/10/24", end: "2026/10/26" },
      pdf: {
        href: `/${s.pid}/cgmsprint.pdf?start=2026-10-24&end=2026-10-26`,
        fileName: `cgm-report-${s.pid}-2026-10-24-2026-10-26.pdf`,
      },
    });
    const logged = await db().auditLog.findFirst({
      where: { actorId: s.clinic.id, patientId: s.pid, action: "read:cgmReport" },
      orderBy: { at: "desc" },
    });
    expect(logged?.detail).toMatchObject({ start: DAYS[0], end: DAYS[2], print: false });
  });

  it("the page: without dates, the 14 days ending today in the patient's zone; an empty range points to the latest data; a quick range ends today", async () => {
    const today = Temporal.Now.plainDateISO(ZONE);
    const data = await page(s.clinic.id, s.pid, "");
    expect([data.report?.from, data.report?.to, data.report?.readingCount]).toEqual([
      today.subtract({ days: 13 }).toString(),
      today.toString(),
      0,
    ]);
    // The date picker's last day is the same today, in the patient's zone.
    expect(data.shell.today).toBe(today.toString());
    // The readings end on 2026-10-26: the same 14 days ending there, on the report's own page.
    expect(data.shell.latest).toEqual({
      day: "Oct 26, 2026",
      start: "Oct 13, 2026",
      end: "Oct 26, 2026",
      href: `/${s.pid}/cgmsprint?start=2026-10-13&end=2026-10-26`,
    });
    const latest = await page(s.clinic.id, s.pid, "?start=2026-10-13&end=2026-10-26");
    expect([latest.report?.readingCount, latest.shell.latest]).toEqual([876, null]);
    // The typed start plays no part: the last 7 days, today included.
    const quick = await page(s.clinic.id, s.pid, "?start=2026/10/20&end=&days=7");
    expect([
      quick.shell.problem,
      quick.report?.from,
      quick.report?.to,
      quick.shell.form.end,
    ]).toEqual([
      null,
      today.subtract({ days: 6 }).toString(),
      today.toString(),
      today.toString().replaceAll("-", "/"),
    ]);
    const noStart = await page(s.clinic.id, s.pid, "?start=&end=&days=14");
    expect([noStart.shell.problem, noStart.report?.from, noStart.report?.to]).toEqual([
      null,
      today.subtract({ days: 13 }).toString(),
      today.toString(),
    ]);
  });

  it("the page: refused ranges give translated messages and keep the typed values", async () => {
    const cases: [string, string][] = [
      ["?start=2026/10/24&end=", "reports:common.selectDate"],
      ["?start=2026/02/30&end=2026/03/05", "reports:common.invalidDate"],
      ["?start=2026/10/26&end=2026/10/24", "views:problems.order"],
      ["?start=2026/10/01&end=2026/10/15", "views:problems.tooLong14"],
      ["?start=2026/10/25&end=2026/10/26", "views:problems.tooShort"],
      ["?start=2099/01/01&end=2099/01/05", "views:problems.future"],
    ];
    for (const [search, problem] of cases) {
      const data = await page(s.clinic.id, s.pid, search);
      expect([search, data.shell.problem, data.report, data.shell.pdf]).toEqual([
        search,
        problem,
        null,
        null,
      ]);
      const typed = new URLSearchParams(search);
      expect(data.shell.form).toEqual({ start: typed.get("start"), end: typed.get("end") });
    }
    expect(enViews.problems.tooLong14).toBe("The maximum time range is 14 days.");
  });

  it("a stranger and an unaudited clinic get 404 for the page and 403 for the PDF; a bad range is a translated 400 before any rendering", async () => {
    for (const who of [s.stranger, s.unaudited]) {
      await expect(page(who.id, s.pid, "")).rejects.toMatchObject({ status: 404 });
      const answer = await pdf(who.id, s.pid, "?start=2026-10-24&end=2026-10-26");
      expect(answer.status).toBe(403);
    }
    expect((await pdf(s.clinic.id, 2_000_000_000, "?start=2026-10-24&end=2026-10-26")).status).toBe(
      403,
    );
    expect((await pdf(s.clinic.id, "abc", "?start=2026-10-24&end=2026-10-26")).status).toBe(403);
    // The signed-in reader's language setting decides the message's language.
    await db().setting.update({ where: { userId: s.clinic.id }, data: { lang: "pl" } });
    const missing = await pdf(s.clinic.id, s.pid, "?start=2026-10-24");
    await db().setting.update({ where: { userId: s.clinic.id }, data: { lang: "en" } });
    expect([missing.status, await missing.text()]).toEqual([400, plReports.common.selectDate]);
    const tooLong = await pdf(s.clinic.id, s.pid, "?start=2026-10-01&end=2026-10-26");
    expect([tooLong.status, await tooLong.text()]).toEqual([400, enViews.problems.tooLong14]);
  });

  it("POST /api/patient-data/sugarDevicePdf: the CGM report response with every reading as a row", async () => {
    const answer = await postApi(
      sugarDevicePdf as Handler,
      "/api/patient-data/sugarDevicePdf",
      { pid: s.pid, start: "2026/10/24", end: "2026-10-26" },
      token,
    );
    const reference = await expected(s.pid, DAYS[0], DAYS[2]);
    expect([answer.status, answer.code]).toEqual([200, 200]);
    // The report of the same readings; its names on the wire are pinned in app/wire/reports.test.ts.
    expect(answer.data).toEqual(JSON.parse(JSON.stringify(cgmReportToWire(s.pid, reference))));
    expect(answer.data.days).toBeUndefined();
    expect(answer.data).toMatchObject({
      numberOfValue: 876,
      targetGlucoseRange: { low: 70, high: 180 },
    });
    expect(answer.data.rows).toHaveLength(876);
    expect(answer.data.rows[0]).toEqual({
      pdid: reference.rows[0]!.id,
      dateTimeStr: "2026/10/24 00:00",
      time: reference.rows[0]!.time,
      statusShort0: reference.rows[0]!.mgdl,
    });
    expect(answer.data.rows.every((r: { pdid: string | null }) => r.pdid !== null)).toBe(true);

    const tooLong = await postApi(
      sugarDevicePdf as Handler,
      "/api/patient-data/sugarDevicePdf",
      { pid: s.pid, start: "2026-10-01", end: "2026-10-26" },
      token,
    );
    expect([tooLong.code, tooLong.msg]).toEqual([400, enViews.problems.tooLong14]);
    const missing = await postApi(
      sugarDevicePdf as Handler,
      "/api/patient-data/sugarDevicePdf",
      { pid: s.pid, start: "2026-10-24" },
      token,
      { "Accept-Language": "pl" },
    );
    expect([missing.code, missing.msg]).toEqual([400, plReports.common.selectDate]);
    const badPid = await postApi(
      sugarDevicePdf as Handler,
      "/api/patient-data/sugarDevicePdf",
      { pid: "x", start: "2026-10-24", end: "2026-10-26" },
      token,
    );
    expect([badPid.code, badPid.msg]).toEqual([400, enReports.common.pid]);
    const stranger = await postApi(
      sugarDevicePdf as Handler,
      "/api/patient-data/sugarDevicePdf",
      { pid: s.pid, start: "2026-10-24", end: "2026-10-26" },
      await createApiToken(s.stranger.id),
    );
    expect(stranger.code).toBe(404);
    expect(
      (
        await postApi(sugarDevicePdf as Handler, "/api/patient-data/sugarDevicePdf", {
          pid: s.pid,
          start: "2026-10-24",
          end: "2026-10-26",
        })
      ).code,
    ).toBe(800);
  });
});
