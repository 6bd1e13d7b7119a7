import { beforeAll, describe, expect, it } from "vitest";
import { Temporal } from "temporal-polyfill";
import { loader as bloodtestsprint } from "~/routes/$id.bloodtestsprint";
import { loader as bloodtestsprintPdf } from "~/routes/$id.bloodtestsprint[.]pdf";
import { db } from "~/utils/db.server";
import { callPage, callPdf } from "./report-support";
import enViews from "../../locales/en/views.json";
import roReports from "../../locales/ro/reports.json";

const ZONE = "Europe/Warsaw";
const at = (date: string, time: string) =>
  new Date(Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(ZONE).epochMilliseconds);
const HOUR = 3600;

let tag = 0;
async function people() {
  const t = `${++tag}-${Date.now()}`;
  const patient = await db().user.create({
    data: {
      email: `patient-${t}@blood-tests.test`,
      identity: 1,
      firstName: "Bella",
      lastName: "Bloodwork",
      patient: {
        create: {
          timeZone: ZONE,
          lowLimit: 70,
          highLimit: 180,
          // Supper 19:00-20:00 (the other meals as the defaults): before supper runs from
          // 18:00 to 19:30, after supper from 19:30 to 22:00.
          supperStart: 19 * HOUR,
          supperEnd: 20 * HOUR,
        },
      },
    },
    include: { patient: true },
  });
  const reader = (name: string, unit: number, lang = "en") =>
    db().user.create({
      data: {
        email: `${name}-${t}@blood-tests.test`,
        identity: 2,
        isPass: 1,
        setting: { create: { lang, unit } },
      },
    });
  const mgdlReader = await reader("mg", 1);
  const mmolReader = await reader("mmol", 0);
  const stranger = await reader("stranger", 0);
  for (const r of [mgdlReader, mmolReader])
    await db().readPower.create({
      data: { providerId: patient.id, readerId: r.id, sourceType: 1, state: 1 },
    });
  return { pid: patient.patient!.id, mgdlReader, mmolReader, stranger };
}

/**
 * Blood values of four kinds over two days, and a CGM reading, which is no blood value:
 * - 2026-09-10 07:00 meter 100, 07:10 CGM finger prick 62 (low): before breakfast (05:00-08:00);
 *   09:30 strip value of an imported file 210 (high): after breakfast (08:00-10:00); 23:00 CGM
 *   manual value 55 (low): night (22:00-05:00);
 * - 2026-09-11 13:00 meter 150: after lunch (12:30-18:00); 18:45 meter 130: before supper
 *   (18:00-19:30, from the patient's supper time; with the default supper time it would be after).
 */
async function seed(pid: number) {
  const row = (
    source: "meter" | "cgm_fingerprick" | "cgm_manual" | "csv",
    date: string,
    time: string,
    mgdl: number,
  ) => ({
    patientId: pid,
    source,
    deviceSn: `dev-${source}-${pid}`,
    recordKey: `${date} ${time}`,
    mgdl,
    deviceTime: `${date} ${time}:00`,
    timeZone: ZONE,
    dateTime: at(date, time),
    dataOrigin: source === "cgm_manual" ? 3 : null,
  });
  await db().bgRecord.createMany({
    data: [
      row("meter", "2026-09-10", "07:00", 100),
      row("cgm_fingerprick", "2026-09-10", "07:10", 62),
      row("csv", "2026-09-10", "09:30", 210),
      row("cgm_manual", "2026-09-10", "23:00", 55),
      row("meter", "2026-09-11", "13:00", 150),
      row("meter", "2026-09-11", "18:45", 130),
    ],
  });
  await db().cgmRecord.create({
    data: {
      patientId: pid,
      deviceSn: `cgm-${pid}`,
      eventIndex: 1,
      eventType: 7,
      mgdl: 300,
      deviceTime: "2026-09-10 12:00:00",
      timeZone: ZONE,
      dateTime: at("2026-09-10", "12:00"),
    },
  });
}

const page = (userId: number, pid: number, search: string) =>
  callPage(bloodtestsprint, "bloodtestsprint", userId, pid, search);
const pdf = (userId: number, pid: number | string, search: string, lang?: string) =>
  callPdf(bloodtestsprintPdf, "bloodtestsprint", userId, pid, search, lang);

describe("Blood tests report page and PDF route", () => {
  let s: Awaited<ReturnType<typeof people>>;
  beforeAll(async () => {
    s = await people();
    await seed(s.pid);
  });

  it("the page: every stored blood value in its day and meal period (the patient's meal times), none of the CGM readings; column and period figures by hand; the read is logged", async () => {
    const data = await page(s.mgdlReader.id, s.pid, "?start=2026/09/10&end=2026/09/12");
    const report = data.report!;
    expect(data.shell.problem).toBeNull();
    const cells = report.days.map((d) => [
      d.date,
      d.cells.map((cell) => cell.map((v) => `${v.clock} ${v.mgdl} ${v.source}`)),
    ]);
    expect(cells).toEqual([
      [
        "2026-09-10",
        [
          ["07:00 100 meter", "07:10 62 cgm_fingerprick"],
          ["09:30 210 csv"],
          [],
          [],
          [],
          [],
          ["23:00 55 cgm_manual"],
        ],
      ],
      ["2026-09-11", [[], [], [], ["13:00 150 meter"], ["18:45 130 meter"], [], []]],
      ["2026-09-12", [[], [], [], [], [], [], []]],
    ]);
    expect(report.columns.slice(4, 6).map((c) => [c.key, c.start / HOUR, c.end / HOUR])).toEqual([
      ["beforeSupper", 18, 19.5],
      ["afterSupper", 19.5, 22],
    ]);
    // (100 + 62) / 2 = 81; lows: 62 before breakfast, 55 at night.
    expect(
      report.columns.map((c) => [c.key, c.summary.mean, c.summary.count, c.summary.low]),
    ).toEqual([
      ["beforeBreakfast", 81, 2, 1],
      ["afterBreakfast", 210, 1, 0],
      ["beforeLunch", null, 0, 0],
      ["afterLunch", 150, 1, 0],
      ["beforeSupper", 130, 1, 0],
      ["afterSupper", null, 0, 0],
      ["night", 55, 1, 1],
    ]);
    // 100 + 62 + 210 + 55 + 150 + 130 = 707 over 6 values = 117.83 mg/dL; below 70: 62 and 55;
    // above 180: 210.
    expect(report.total.count).toBe(6);
    expect(report.total.mean).toBeCloseTo(707 / 6, 10);
    expect([report.total.low, report.total.high, report.daysWithData]).toEqual([2, 1, 2]);
    expect(data.shell).toMatchObject({
      kind: "bloodTests",
      name: "Bella Bloodwork",
      unit: 1,
      form: { start: "2026/09/10", end: "2026/09/12" },
      latest: null,
      pdf: {
        href: `/${s.pid}/bloodtestsprint.pdf?start=2026-09-10&end=2026-09-12`,
        fileName: `blood-tests-report-${s.pid}-2026-09-10-2026-09-12.pdf`,
      },
    });
    const logged = await db().auditLog.findFirst({
      where: { actorId: s.mgdlReader.id, patientId: s.pid, action: "read:bloodTestsReport" },
      orderBy: { at: "desc" },
    });
    expect([logged?.channel, logged?.detail]).toEqual([
      "page",
      { start: "2026-09-10", end: "2026-09-12", print: false },
    ]);
  });

  it("the page in the reader's unit: the model stays mg/dL, the shell says mmol/L", async () => {
    const mmol = await page(s.mmolReader.id, s.pid, "?start=2026/09/10&end=2026/09/12");
    expect(mmol.shell.unit).toBe(0);
    expect(mmol.report!.total.mean).toBeCloseTo(707 / 6, 10);
  });

  it("the page: without dates the 15 days ending today, with a link to the 15 days ending on the last day with blood values; quick ranges end today", async () => {
    const today = Temporal.Now.plainDateISO(ZONE);
    const data = await page(s.mgdlReader.id, s.pid, "");
    expect([data.report?.from, data.report?.to, data.report?.hasData]).toEqual([
      today.subtract({ days: 14 }).toString(),
      today.toString(),
      false,
    ]);
    expect(data.shell.latest).toEqual({
      day: "Sep 11, 2026",
      start: "Aug 28, 2026",
      end: "Sep 11, 2026",
      href: `/${s.pid}/bloodtestsprint?start=2026-08-28&end=2026-09-11`,
    });
    const quick = await page(s.mgdlReader.id, s.pid, "?start=2026/01/01&end=&days=90");
    expect([quick.shell.problem, quick.report?.from, quick.report?.to]).toEqual([
      null,
      today.subtract({ days: 89 }).toString(),
      today.toString(),
    ]);
  });

  it("the page: refused ranges give translated messages, keep the typed values and show no report; 90 days with both ends counted is allowed", async () => {
    const cases: [string, string][] = [
      ["?start=2026/09/10&end=", "reports:common.selectDate"],
      ["?start=2026/02/30&end=2026/03/05", "reports:common.invalidDate"],
      ["?start=2026/09/12&end=2026/09/10", "views:problems.order"],
      ["?start=2026/06/13&end=2026/09/11", "views:problems.tooLong"],
      ["?start=2099/01/01&end=2099/01/05", "views:problems.future"],
    ];
    for (const [search, problem] of cases) {
      const data = await page(s.mgdlReader.id, s.pid, search);
      expect([search, data.shell.problem, data.report, data.shell.pdf]).toEqual([
        search,
        problem,
        null,
        null,
      ]);
      const typed = new URLSearchParams(search);
      expect(data.shell.form).toEqual({ start: typed.get("start"), end: typed.get("end") });
    }
    // 2026-06-14 .. 2026-09-11: 17 + 31 + 31 + 11 = 90 days.
    const ninety = await page(s.mgdlReader.id, s.pid, "?start=2026/06/14&end=2026/09/11");
    expect([ninety.shell.problem, ninety.report?.dayCount, ninety.report?.total.count]).toEqual([
      null,
      90,
      6,
    ]);
  });

  it("a stranger gets 404 for the page and 403 for the PDF, with nothing logged; a bad range is a translated 400 before any rendering", async () => {
    await expect(page(s.stranger.id, s.pid, "")).rejects.toMatchObject({ status: 404 });
    expect((await pdf(s.stranger.id, s.pid, "?start=2026-09-10&end=2026-09-12")).status).toBe(403);
    expect((await pdf(s.stranger.id, "abc", "?start=2026-09-10&end=2026-09-12")).status).toBe(403);
    expect(await db().auditLog.count({ where: { actorId: s.stranger.id } })).toBe(0);
    const tooLong = await pdf(s.mgdlReader.id, s.pid, "?start=2026-06-13&end=2026-09-11");
    expect([tooLong.status, await tooLong.text()]).toEqual([400, enViews.problems.tooLong]);
    await db().setting.update({ where: { userId: s.mgdlReader.id }, data: { lang: "ro" } });
    const noEnd = await pdf(s.mgdlReader.id, s.pid, "?start=2026-09-10");
    await db().setting.update({ where: { userId: s.mgdlReader.id }, data: { lang: "en" } });
    expect([noEnd.status, await noEnd.text()]).toEqual([400, roReports.common.selectDate]);
  });
});
