import { beforeAll, describe, expect, it } from "vitest";
import { Temporal } from "temporal-polyfill";
import { createApiToken } from "~/models/api-token.server";
import { RANGE_MARK_CLASS } from "~/report/charts/pump-range.server";
import { buildPumpReport } from "~/report/pump-report";
import type { PumpReport } from "~/report/pump-report-model";
import { loader as print } from "~/routes/$id.print";
import { loader as printPdf } from "~/routes/$id.print[.]pdf";
import { action as pdfApi } from "~/routes/api.patient-data.pdf";
import { db } from "~/utils/db.server";
import { pumpReportToWire } from "~/wire/reports";
import { postApi, type Handler } from "./api-client";
import { callPage, callPdf } from "./report-support";
import enViews from "../../locales/en/views.json";
import plReports from "../../locales/pl/reports.json";

const ZONE = "Europe/Warsaw";
const DAYS = ["2026-10-10", "2026-10-11"] as const;
const at = (date: string, time: string) =>
  new Date(Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(ZONE).epochMilliseconds);

let tag = 0;
async function people() {
  const t = `${++tag}-${Date.now()}`;
  const patient = await db().user.create({
    data: {
      email: `p-${t}@pump-report.test`,
      identity: 1,
      firstName: "Paula",
      lastName: "Pump",
      birthDate: new Date("1975-06-01"),
      patient: { create: { timeZone: ZONE, lowLimit: 70, highLimit: 180 } },
    },
    include: { patient: true },
  });
  const clinic = await db().user.create({
    data: {
      email: `c-${t}@pump-report.test`,
      identity: 2,
      isPass: 1,
      setting: { create: { lang: "en", unit: 1, nameStyle: 2 } },
    },
  });
  const stranger = await db().user.create({
    data: {
      email: `s-${t}@pump-report.test`,
      identity: 2,
      isPass: 1,
      setting: { create: { lang: "pl" } },
    },
  });
  await db().readPower.create({
    data: { providerId: patient.id, readerId: clinic.id, sourceType: 1, state: 1 },
  });
  return { pid: patient.patient!.id, clinic, stranger };
}

/**
 * Two days on a basal of 1 U/h (raw 160 x 0.00625): a 6-minute bolus at 60 U/h (6 U) on each day,
 * carbohydrates 45 g and 60 g, two BG values entered on the pump and a meter reading.
 */
async function seedPump(pid: number) {
  let id = 0;
  const rec = (
    date: string,
    time: string,
    fields: { port?: number; type?: number; carbs?: number; basal?: number; bolus?: number },
  ) => ({
    patientId: pid,
    pdaSn: `pump-${pid}`,
    recordId: ++id,
    eventIndex: id,
    eventPort: fields.port ?? 4,
    eventType: fields.type ?? 0,
    eventUrgency: 0,
    eventValue: 0,
    battery: 80,
    reservoir: 150,
    basalRateRaw: fields.basal ?? 160,
    bolusRateRaw: fields.carbs ?? fields.bolus ?? 0,
    deviceTime: `${date} ${time}`,
    recordTimeZone: ZONE,
    dateTime: at(date, time),
  });
  await db().pumpRecord.createMany({
    data: [
      rec("2026-10-09", "22:00", {}),
      rec(DAYS[0], "07:55", { port: 3, type: 0, basal: 120 }),
      rec(DAYS[0], "08:00", { bolus: 9600 }),
      rec(DAYS[0], "08:01", { port: 3, type: 1, carbs: 45 }),
      rec(DAYS[0], "08:06", {}),
      rec(DAYS[1], "12:00", { bolus: 9600 }),
      rec(DAYS[1], "12:01", { port: 3, type: 1, carbs: 60 }),
      rec(DAYS[1], "12:06", {}),
      rec(DAYS[1], "18:00", { port: 3, type: 0, basal: 240 }),
      rec("2026-10-12", "06:00", {}),
    ],
  });
  await db().bgRecord.create({
    data: {
      patientId: pid,
      source: "meter",
      deviceSn: `m-${pid}`,
      recordKey: "1",
      mgdl: 100,
      deviceTime: `${DAYS[1]} 09:00:00`,
      timeZone: ZONE,
      dateTime: at(DAYS[1], "09:00"),
    },
  });
  await db().pumpSetting.create({
    data: {
      patientId: pid,
      pdaSn: `pump-${pid}`,
      lowBg: [80, 90],
      highBg: [140, 160],
      carbRatio: [10, 12],
      sensitivity: [40, 50],
      originBasal: 1,
      bolusRate: 1.5,
      maxBolus: 10,
      doubleBolus: true,
      effectiveTime: 240,
      maxBasalRate: 3,
      bolusIncrement: 0.05,
      quickBolusIncrement: 0.5,
      lowReserveThreshold: 20,
      tempBasalRate: 150,
    },
  });
}

const page = (userId: number, pid: number, search: string) =>
  callPage(print, "print", userId, pid, search);
const pdf = (userId: number, pid: number | string, search: string) =>
  callPdf(printPdf, "print", userId, pid, search);

/** buildPumpReport over every stored record of the patient (the reference). */
async function expected(
  pid: number,
  from: string,
  to: string,
  unit: 0 | 1,
  nameStyle: 0 | 1 | 2,
): Promise<PumpReport> {
  const records = await db().pumpRecord.findMany({ where: { patientId: pid } });
  const meter = await db().bgRecord.findMany({ where: { patientId: pid } });
  const setting = await db().pumpSetting.findFirst({ where: { patientId: pid } });
  const result = buildPumpReport({
    from,
    to,
    timeZone: ZONE,
    now: Date.now(),
    limits: { low: 70, high: 180 },
    setting: { unit, nameStyle },
    records: records.map(
      ({
        id,
        dateTime,
        eventIndex,
        eventPort,
        eventType,
        eventUrgency,
        eventValue,
        basalRateRaw,
        bolusRateRaw,
        battery,
        reservoir,
      }) => ({
        id: id.toString(),
        dateTime: dateTime.getTime(),
        eventIndex,
        eventPort,
        eventType,
        eventUrgency,
        eventValue,
        basalRateRaw,
        bolusRateRaw,
        battery,
        reservoir,
      }),
    ),
    meterReadings: meter.map((r) => ({
      id: r.id.toString(),
      time: r.dateTime.getTime(),
      mgdl: r.mgdl,
      source: r.source,
    })),
    pdaVersion: null,
    pumpSettings: setting,
  });
  if (result.status !== "ok") throw new Error(result.problem);
  return result.report;
}

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value));

describe("pump/BG report page, PDF route and API", () => {
  let s: Awaited<ReturnType<typeof people>>;
  let token: string;
  beforeAll(async () => {
    s = await people();
    await seedPump(s.pid);
    token = await createApiToken(s.clinic.id);
  });

  it("the page: a 2-day range has the figures of buildPumpReport, a chart per day and the PDF link", async () => {
    const data = await page(s.clinic.id, s.pid, "?start=2026/10/10&end=2026/10/11");
    const reference = await expected(s.pid, DAYS[0], DAYS[1], 1, 2);
    expect(data.shell.problem).toBeNull();
    const { days: _days, ...figures } = reference;
    expect(json(data.report)).toEqual(json(figures));
    // Known figures: two 6 U boluses, 45 + 60 g of carbohydrates, 3 glucose values.
    expect(data.report!.insulinTotals.bolus).toBe(12);
    expect(data.report!.insulinTotals.basal).toBeGreaterThan(40);
    expect(data.report!.insulinTotals.total).toBeCloseTo(data.report!.insulinTotals.basal + 12, 2);
    expect([
      data.report!.carbs.total,
      data.report!.carbsPerEntry,
      data.report!.carbs.perDay,
    ]).toEqual([105, 52.5, 52.5]);
    expect(data.report!.glucoseSummary).toMatchObject({ count: 3, high: 1, low: 0 });
    expect(data.report!.pumpSettings).toMatchObject({
      pdaSn: `pump-${s.pid}`,
      pdaVersion: null,
      lowBg: [80, 90],
      doubleBolus: true,
      effectiveTime: 240,
      maxBasalRate: 3,
      bolusIncrement: 0.05,
      quickBolusIncrement: 0.5,
      lowReserveThreshold: 20,
      tempBasalRate: 150,
    });
    expect(data.report!.bigBoluses).toMatchObject({ count: 2, shown: true });
    expect(data.charts).toHaveLength(1);
    // One continuous chart over the group's two days: a date under each day, the bolus markers drawn.
    const chart = data.charts[0]!;
    expect([chart.from, chart.to, chart.svg.startsWith("<svg")]).toEqual([
      "Oct 10, 2026",
      "Oct 11, 2026",
      true,
    ]);
    expect(
      chart.svg.match(new RegExp(`class="${RANGE_MARK_CLASS.dayLabel}`, "g"))?.length ?? 0,
    ).toBeGreaterThan(0);
    for (const day of ["Oct 10, 2026", "Oct 11, 2026"]) expect(chart.svg).toContain(day);
    expect(data.shell).toMatchObject({
      name: "Paula Pump",
      birthDate: "Jun 1, 1975",
      unit: 1,
      settings: { nameStyle: "right" },
      form: { start: "2026/10/10", end: "2026/10/11" },
      pdf: {
        href: `/${s.pid}/print.pdf?start=2026-10-10&end=2026-10-11`,
        fileName: `pump-report-${s.pid}-2026-10-10-2026-10-11.pdf`,
      },
      documentTitle: "Paula Pump: Pump and blood glucose report, Oct 10, 2026 to Oct 11, 2026",
    });
    const logged = await db().auditLog.findFirst({
      where: { actorId: s.clinic.id, patientId: s.pid, action: "read:pumpReport" },
      orderBy: { at: "desc" },
    });
    expect(logged?.detail).toMatchObject({ start: DAYS[0], end: DAYS[1], print: false });
  });

  it("the page: default 15 days to today, a start alone is start + 1 day, quick ranges end today, refusals keep the typed values", async () => {
    const data = await page(s.clinic.id, s.pid, "");
    expect(data.report?.dates).toHaveLength(15);
    expect(data.shell.problem).toBeNull();
    const alone = await page(s.clinic.id, s.pid, "?start=2026/10/10&end=");
    expect([
      alone.shell.problem,
      alone.report?.from,
      alone.report?.to,
      alone.shell.form.end,
    ]).toEqual([null, "2026-10-10", "2026-10-11", "2026/10/11"]);
    // Quick ranges: the last 30 and 90 days, today included, whatever start was typed.
    const today = Temporal.Now.plainDateISO(ZONE);
    const quick = await page(s.clinic.id, s.pid, "?start=2026/10/01&end=&days=30");
    expect([quick.shell.problem, quick.report?.from, quick.report?.to]).toEqual([
      null,
      today.subtract({ days: 29 }).toString(),
      today.toString(),
    ]);
    const ninety = await page(s.clinic.id, s.pid, "?start=&end=&days=90");
    expect([
      ninety.shell.problem,
      ninety.report?.from,
      ninety.report?.to,
      ninety.shell.form,
    ]).toEqual([
      null,
      today.subtract({ days: 89 }).toString(),
      today.toString(),
      {
        start: today.subtract({ days: 89 }).toString().replaceAll("-", "/"),
        end: today.toString().replaceAll("-", "/"),
      },
    ]);
    // Pump records on the 9th (22:00) to the 12th (06:00) only: one chart, and one line for each run of days without.
    const october = await page(s.clinic.id, s.pid, "?start=2026/10/01&end=2026/10/30");
    expect([october.shell.problem, october.charts.length]).toEqual([null, 1]);
    expect(october.sections.map((c) => [c.kind, c.from, c.to])).toEqual([
      ["noData", "Oct 1, 2026", "Oct 8, 2026"],
      ["chart", "Oct 9, 2026", "Oct 12, 2026"],
      ["noData", "Oct 13, 2026", "Oct 30, 2026"],
    ]);
    const cases: [string, string][] = [
      ["?start=&end=2026/10/11", "reports:common.selectDate"],
      ["?start=2026/10/11&end=2026/10/10", "views:problems.order"],
      ["?start=2026/01/01&end=2026/10/11", "views:problems.tooLong"],
      ["?start=2099/01/01&end=2099/01/05", "views:problems.future"],
    ];
    for (const [search, problem] of cases) {
      const refused = await page(s.clinic.id, s.pid, search);
      expect([search, refused.shell.problem, refused.report, refused.shell.pdf]).toEqual([
        search,
        problem,
        null,
        null,
      ]);
      // No report shown: the title names patient and report only.
      expect(refused.shell.documentTitle).toBe("Pump and blood glucose report of Paula Pump");
    }
  });

  it("a stranger gets 404 for the page and 403 for the PDF; a bad range is a translated 400", async () => {
    await expect(page(s.stranger.id, s.pid, "")).rejects.toMatchObject({ status: 404 });
    expect((await pdf(s.stranger.id, s.pid, "?start=2026-10-10&end=2026-10-11")).status).toBe(403);
    expect((await pdf(s.clinic.id, "abc", "?start=2026-10-10&end=2026-10-11")).status).toBe(403);
    const tooLong = await pdf(s.clinic.id, s.pid, "?start=2026-01-01&end=2026-10-11");
    expect([tooLong.status, await tooLong.text()]).toEqual([400, enViews.problems.tooLong]);
  });

  it("POST /api/patient-data/pdf: the Patient report response of buildPumpReport without the day models", async () => {
    const answer = await postApi(
      pdfApi as Handler,
      "/api/patient-data/pdf",
      { pid: s.pid, start: "2026/10/10", end: "2026-10-11" },
      token,
    );
    const reference = await expected(s.pid, DAYS[0], DAYS[1], 1, 2);
    expect([answer.status, answer.code]).toEqual([200, 200]);
    // The report of the same records; its names on the wire are pinned in app/wire/reports.test.ts.
    expect(answer.data).toEqual(json(pumpReportToWire(s.pid, reference)));
    expect(answer.data.days).toBeUndefined();
    expect(answer.data.PumpTotalCount).toMatchObject({ bolus: 12, points: 8 });
    expect(answer.data.sugarTotalCount).toMatchObject({ size: 3, high: 1, low: 0 });
    const tooLong = await postApi(
      pdfApi as Handler,
      "/api/patient-data/pdf",
      { pid: s.pid, start: "2026-01-01", end: "2026-10-11" },
      token,
    );
    expect([tooLong.code, tooLong.msg]).toEqual([400, enViews.problems.tooLong]);
    const missing = await postApi(
      pdfApi as Handler,
      "/api/patient-data/pdf",
      { pid: s.pid, start: "2026-10-10" },
      token,
      { "Accept-Language": "pl" },
    );
    expect([missing.code, missing.msg]).toEqual([400, plReports.common.selectDate]);
    const stranger = await postApi(
      pdfApi as Handler,
      "/api/patient-data/pdf",
      { pid: s.pid, start: "2026-10-10", end: "2026-10-11" },
      await createApiToken(s.stranger.id),
    );
    expect(stranger.code).toBe(404);
  });
});
