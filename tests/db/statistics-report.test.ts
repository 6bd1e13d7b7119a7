import { beforeAll, describe, expect, it } from "vitest";
import { Temporal } from "temporal-polyfill";
import type { DataKind } from "~/metrics/coverage";
import {
  buildStatisticsReport,
  type StatisticKey,
  type StatisticsReport,
} from "~/report/statistics-report";
import { loader as statisticsprint } from "~/routes/$id.statisticsprint";
import { loader as statisticsprintPdf } from "~/routes/$id.statisticsprint[.]pdf";
import { db } from "~/utils/db.server";
import { callPage, callPdf, seedCgmWave } from "./report-support";
import enViews from "../../locales/en/views.json";
import plReports from "../../locales/pl/reports.json";

const ZONE = "Europe/Warsaw";
/** The report's 14 days; the previous period is 2026-09-01..14, of which only the last 7 days have CGM data. */
const FROM = "2026-09-15";
const TO = "2026-09-28";
const at = (date: string, time: string) =>
  Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(ZONE);
const LIMITS = { low: 70, high: 180 };

let tag = 0;
async function people() {
  const t = `${++tag}-${Date.now()}`;
  const mk = (name: string) =>
    db().user.create({
      data: {
        email: `${name}-${t}@statistics.test`,
        identity: 1,
        firstName: "Stella",
        lastName: `Stats${name}`,
        birthDate: new Date("1970-01-15"),
        patient: { create: { timeZone: ZONE, lowLimit: LIMITS.low, highLimit: LIMITS.high } },
      },
      include: { patient: true },
    });
  const cgm = await mk("cgm");
  const meter = await mk("meter");
  const mgdlReader = await db().user.create({
    data: {
      email: `mg-${t}@statistics.test`,
      identity: 2,
      isPass: 1,
      setting: { create: { lang: "en", unit: 1 } },
    },
  });
  const mmolReader = await db().user.create({
    data: {
      email: `mmol-${t}@statistics.test`,
      identity: 2,
      isPass: 1,
      setting: { create: { lang: "en", unit: 0 } },
    },
  });
  const stranger = await db().user.create({
    data: {
      email: `s-${t}@statistics.test`,
      identity: 2,
      isPass: 1,
      setting: { create: { lang: "pl" } },
    },
  });
  for (const p of [cgm, meter])
    for (const reader of [mgdlReader, mmolReader])
      await db().readPower.create({
        data: { providerId: p.id, readerId: reader.id, sourceType: 1, state: 1 },
      });
  return { cgm: cgm.patient!.id, meter: meter.patient!.id, mgdlReader, mmolReader, stranger };
}

/** Four meter readings a day (07:00, 12:00, 18:00, 22:00) from `from` for `days` days, varying by day and hour. */
async function seedMeter(pid: number, from: string, days: number) {
  const rows = [];
  for (let d = 0; d < days; d++) {
    const date = Temporal.PlainDate.from(from).add({ days: d }).toString();
    for (const [i, time] of ["07:00", "12:00", "18:00", "22:00"].entries()) {
      const when = at(date, time);
      rows.push({
        patientId: pid,
        source: "meter" as const,
        deviceSn: `meter-${pid}`,
        recordKey: `${date}-${i}`,
        mgdl: 90 + 40 * i + 7 * (d % 5),
        deviceTime: when.toPlainDateTime().toString(),
        timeZone: ZONE,
        dateTime: new Date(when.epochMilliseconds),
      });
    }
  }
  await db().bgRecord.createMany({ data: rows });
}

const page = (userId: number, pid: number, search: string) =>
  callPage(statisticsprint, "statisticsprint", userId, pid, search);
const pdf = (userId: number, pid: number | string, search: string) =>
  callPdf(statisticsprintPdf, "statisticsprint", userId, pid, search);

/** buildStatisticsReport on every stored reading of one kind (the builder keeps each period's own). */
async function expected(
  pid: number,
  source: DataKind,
  from = FROM,
  to = TO,
): Promise<StatisticsReport> {
  const readings =
    source === "cgm"
      ? (
          await db().cgmRecord.findMany({ where: { patientId: pid }, orderBy: { dateTime: "asc" } })
        ).map((r) => ({ time: r.dateTime.getTime(), mgdl: r.mgdl }))
      : (
          await db().bgRecord.findMany({ where: { patientId: pid }, orderBy: { dateTime: "asc" } })
        ).map((r) => ({ time: r.dateTime.getTime(), mgdl: r.mgdl }));
  const result = buildStatisticsReport({
    from,
    to,
    timeZone: ZONE,
    now: Date.now(),
    limits: LIMITS,
    readings,
    previousReadings: readings,
    kind: source,
  });
  if (result.status !== "ok") throw new Error(result.problem);
  return result.report;
}

function rowOf(report: { rows: readonly { key: StatisticKey }[] } | null, key: StatisticKey) {
  const row = report?.rows.find((r) => r.key === key);
  if (!row) throw new Error(`no row ${key}`);
  return row as StatisticsReport["rows"][number];
}

describe("Statistics report page and PDF route", () => {
  let s: Awaited<ReturnType<typeof people>>;
  beforeAll(async () => {
    s = await people();
    await seedCgmWave(s.cgm, at("2026-09-08", "00:00"), at("2026-09-29", "00:00"));
    await seedMeter(s.cgm, "2026-09-20", 3);
    await seedMeter(s.meter, "2026-09-01", 26);
  });

  it("the page: both periods' rows equal buildStatisticsReport on the stored CGM readings, with flags where a period has too little data", async () => {
    const data = await page(s.mgdlReader.id, s.cgm, "?start=2026/09/15&end=2026/09/28");
    const reference = await expected(s.cgm, "cgm");
    expect(data.shell.problem).toBeNull();
    expect(data.report!.source).toBe("cgm");
    expect(data.report!.rows).toEqual(reference.rows);
    expect([data.report!.current, data.report!.previous]).toEqual([
      reference.current,
      reference.previous,
    ]);
    expect([data.report!.current.readings, data.report!.previous.readings]).toEqual([
      14 * 288,
      7 * 288,
    ]);
    // The current 14 days meet the consensus rule; the previous period has 7 days of data.
    expect(rowOf(data.report, "MBG")).toMatchObject({
      sufficient: true,
      previousSufficient: false,
    });
    expect(rowOf(data.report, "MBG").change).toBeCloseTo(
      rowOf(data.report, "MBG").value! - rowOf(data.report, "MBG").previous!,
      9,
    );
    expect(rowOf(data.report, "LBGI").level).toMatchObject({
      kind: "risk",
      currentSufficient: true,
      previousSufficient: false,
    });
    expect(data.shell).toMatchObject({
      name: "Stella Statscgm",
      unit: 1,
      form: { start: "2026/09/15", end: "2026/09/28" },
      pdf: {
        href: `/${s.cgm}/statisticsprint.pdf?start=${FROM}&end=${TO}`,
        fileName: `statistics-report-${s.cgm}-${FROM}-${TO}.pdf`,
      },
    });
    const logged = await db().auditLog.findFirst({
      where: { actorId: s.mgdlReader.id, patientId: s.cgm, action: "read:statisticsReport" },
      orderBy: { at: "desc" },
    });
    expect(logged?.detail).toMatchObject({ start: FROM, end: TO, print: false });
  });

  it("the page in mmol/L: glucose values, changes and glucose parameters divided by 18; LBGI, percentages and other parameters unchanged", async () => {
    const mg = await page(s.mgdlReader.id, s.cgm, "?start=2026/09/15&end=2026/09/28");
    const mmol = await page(s.mmolReader.id, s.cgm, "?start=2026/09/15&end=2026/09/28");
    expect(mmol.shell.unit).toBe(0);
    const [a, b] = [rowOf(mg.report, "MBG"), rowOf(mmol.report, "MBG")];
    expect([b.value, b.previous, b.change]).toEqual([
      a.value! / 18,
      a.previous! / 18,
      a.change! / 18,
    ]);
    expect(rowOf(mmol.report, "AUC100").value).toBe(rowOf(mg.report, "AUC100").value! / 18);
    const figures = ({
      value,
      previous,
      change,
      sufficient,
      level,
    }: StatisticsReport["rows"][number]) => ({ value, previous, change, sufficient, level });
    for (const key of ["LBGI", "HBGI", "GRI", "TIR", "CV"] as const)
      expect(figures(rowOf(mmol.report, key))).toEqual(figures(rowOf(mg.report, key)));
    expect(rowOf(mmol.report, "LBGI").method.params).toEqual({ splitMgdl: 112.5 / 18 });
    expect(rowOf(mmol.report, "LBGI").value).toBeGreaterThan(0);
    expect(rowOf(mmol.report, "AUC100").method.params).toMatchObject({
      thresholdMgdl: 100 / 18,
      gridStepMin: 5,
    });
    expect(rowOf(mmol.report, "MAGE").method.params).toEqual(
      rowOf(mg.report, "MAGE").method.params,
    );
  });

  it("the page: without CGM readings in the period the meter readings are used, for both periods", async () => {
    const data = await page(s.mgdlReader.id, s.meter, "?start=2026/09/15&end=2026/09/26");
    const reference = await expected(s.meter, "meter", "2026-09-15", "2026-09-26");
    expect(data.report!.source).toBe("meter");
    expect(data.report!.current.coverage.kind).toBe("meter");
    expect([data.report!.current.readings, data.report!.previous.readings]).toEqual([48, 48]);
    expect(data.report!.rows).toEqual(reference.rows);
    expect(rowOf(data.report, "MBG").value).not.toBeNull();
    expect(rowOf(data.report, "MAGE").value).toBeNull();
    // The CGM patient's few meter readings do not replace the CGM readings.
    expect(
      (await page(s.mgdlReader.id, s.cgm, "?start=2026/09/20&end=2026/09/22")).report!.source,
    ).toBe("cgm");
  });

  it("the page: without dates the 15 days ending today, with a link to the latest glucose data (CGM, else meter); quick ranges end today", async () => {
    const today = Temporal.Now.plainDateISO(ZONE);
    const cgm = await page(s.mgdlReader.id, s.cgm, "");
    expect([
      cgm.report?.current.from,
      cgm.report?.current.to,
      cgm.report?.current.readings,
    ]).toEqual([today.subtract({ days: 14 }).toString(), today.toString(), 0]);
    // The CGM readings end on 2026-09-28 (TO): the 15 days ending there.
    expect(cgm.shell.latest).toEqual({
      day: "Sep 28, 2026",
      start: "Sep 14, 2026",
      end: "Sep 28, 2026",
      href: `/${s.cgm}/statisticsprint?start=2026-09-14&end=2026-09-28`,
    });
    // The meter patient's readings end on 2026-09-26.
    const meter = await page(s.mgdlReader.id, s.meter, "");
    expect(meter.shell.latest?.day).toBe("Sep 26, 2026");
    // The last 90 days, today included, and the 90 days before them.
    const quick = await page(s.mgdlReader.id, s.cgm, "?start=2026/06/01&end=&days=90");
    expect([
      quick.shell.problem,
      quick.report?.current.from,
      quick.report?.current.to,
      quick.report?.previous.from,
      quick.shell.form.end,
    ]).toEqual([
      null,
      today.subtract({ days: 89 }).toString(),
      today.toString(),
      today.subtract({ days: 179 }).toString(),
      today.toString().replaceAll("-", "/"),
    ]);
    const noData = await page(s.mgdlReader.id, s.cgm, "?start=2026/06/01&end=2026/06/14");
    expect([noData.report?.current.readings, noData.shell.pdf?.href]).toEqual([
      0,
      `/${s.cgm}/statisticsprint.pdf?start=2026-06-01&end=2026-06-14`,
    ]);
  });

  it("the page: refused ranges give translated messages, keep the typed values and show no report", async () => {
    const cases: [string, string][] = [
      ["?start=2026/09/15&end=", "reports:common.selectDate"],
      ["?start=2026/02/30&end=2026/03/05", "reports:common.invalidDate"],
      ["?start=2026/09/28&end=2026/09/15", "views:problems.order"],
      ["?start=2026/05/01&end=2026/09/28", "views:problems.tooLong"],
      ["?start=2099/01/01&end=2099/01/05", "views:problems.future"],
    ];
    for (const [search, problem] of cases) {
      const data = await page(s.mgdlReader.id, s.cgm, search);
      expect([search, data.shell.problem, data.report, data.shell.pdf]).toEqual([
        search,
        problem,
        null,
        null,
      ]);
      const typed = new URLSearchParams(search);
      expect(data.shell.form).toEqual({ start: typed.get("start"), end: typed.get("end") });
    }
    // 90 days with both ends counted is allowed (2026-07-01 .. 2026-09-28: 31 + 31 + 28), 91 is not, and a 1-day report is.
    expect(
      (await page(s.mgdlReader.id, s.cgm, "?start=2026/07/01&end=2026/09/28")).shell.problem,
    ).toBeNull();
    expect(
      (await page(s.mgdlReader.id, s.cgm, "?start=2026/06/30&end=2026/09/28")).shell.problem,
    ).toBe("views:problems.tooLong");
    expect(
      (await page(s.mgdlReader.id, s.cgm, "?start=2026/09/28&end=2026/09/28")).report?.dayCount,
    ).toBe(1);
  });

  it("a stranger gets 404 for the page and 403 for the PDF; a bad range is a translated 400 before any rendering", async () => {
    await expect(page(s.stranger.id, s.cgm, "")).rejects.toMatchObject({ status: 404 });
    expect((await pdf(s.stranger.id, s.cgm, `?start=${FROM}&end=${TO}`)).status).toBe(403);
    const tooLong = await pdf(s.mgdlReader.id, s.cgm, "?start=2026-05-01&end=2026-09-28");
    expect([tooLong.status, await tooLong.text()]).toEqual([400, enViews.problems.tooLong]);
    await db().setting.update({ where: { userId: s.mgdlReader.id }, data: { lang: "pl" } });
    const noEnd = await pdf(s.mgdlReader.id, s.cgm, "?start=2026-09-15");
    await db().setting.update({ where: { userId: s.mgdlReader.id }, data: { lang: "en" } });
    expect([noEnd.status, await noEnd.text()]).toEqual([400, plReports.common.selectDate]);
  });
});
