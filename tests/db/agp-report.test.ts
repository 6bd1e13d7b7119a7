import { beforeAll, describe, expect, it } from "vitest";
import { Temporal } from "temporal-polyfill";
import { createApiToken } from "~/models/api-token.server";
import { buildAgpReport, type AgpReport } from "~/report/agp-report";
import { loader as agpprint } from "~/routes/$id.agpprint";
import { loader as agpprintPdf } from "~/routes/$id.agpprint[.]pdf";
import { action as agpApi } from "~/routes/api.cgms.cgm-record.agp";
import { db } from "~/utils/db.server";
import { postApi, type Handler } from "./api-client";
import { callPage, callPdf, seedCgmWave, cgmPeople } from "./report-support";
import enReports from "../../locales/en/reports.json";
import enViews from "../../locales/en/views.json";

const ZONE = "Europe/Warsaw";
const FROM = "2026-09-01";
const TO = "2026-09-07";
const at = (date: string, time: string) =>
  Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(ZONE);

const page = (userId: number, pid: number, search: string) =>
  callPage(agpprint, "agpprint", userId, pid, search);
const pdf = (userId: number, pid: number | string, search: string) =>
  callPdf(agpprintPdf, "agpprint", userId, pid, search);

async function expected(pid: number): Promise<AgpReport> {
  const rows = await db().cgmRecord.findMany({
    where: { patientId: pid },
    orderBy: { dateTime: "asc" },
  });
  const result = buildAgpReport({
    from: FROM,
    to: TO,
    timeZone: ZONE,
    now: Date.now(),
    limits: { low: 70, high: 180 },
    readings: rows.map((r) => ({ time: r.dateTime.getTime(), mgdl: r.mgdl })),
  });
  if (result.status !== "ok") throw new Error(result.status);
  return result.report;
}

const fill = (text: string, values: Record<string, unknown>) =>
  text.replace(/{{(\w+)}}/g, (_, k: string) => String(values[k]));

describe("AGP report page, PDF route and API", () => {
  let s: Awaited<ReturnType<typeof cgmPeople>>;
  let token: string;
  beforeAll(async () => {
    s = await cgmPeople("agp.test", ZONE);
    await seedCgmWave(s.full, at(FROM, "00:00"), at(FROM, "00:00").add({ days: 6 }));
    await seedCgmWave(s.short, at(FROM, "00:00"), at(FROM, "00:00").add({ days: 4 }));
    token = await createApiToken(s.clinic.id);
  });

  it("the page: 6 full days have the figures of buildAgpReport, the AGP chart and a profile per day", async () => {
    const data = await page(s.clinic.id, s.full, "?start=2026/09/01&end=2026/09/07");
    const reference = await expected(s.full);
    expect([data.shell.problem, data.insufficient]).toEqual([null, null]);
    expect(reference.fullDays).toBe(6);
    expect(data.report!.statistics.mean).toEqual(reference.statistics.mean);
    expect(data.report!.statistics.gmi).toEqual(reference.statistics.gmi);
    expect(data.report!.statistics.cv).toEqual(reference.statistics.cv);
    expect(data.report!.timeInRanges.value.range70to180).toBe(
      reference.timeInRanges.value.range70to180,
    );
    expect(data.report!.timeInRanges.goals.map((g) => g.key)).toEqual([
      "above250",
      "above180",
      "inRange",
      "below70",
      "below54",
    ]);
    expect(data.agpSvg).toMatch(/^<svg/);
    expect(data.daily.map((d) => [d.date, d.full, Boolean(d.svg)])).toEqual([
      ...["01", "02", "03", "04", "05", "06"].map((d) => [`2026-09-${d}`, true, true]),
      ["2026-09-07", false, false],
    ]);
    expect(data.shell.pdf).toEqual({
      href: `/${s.full}/agpprint.pdf?start=${FROM}&end=${TO}`,
      fileName: `glucose-profile-${s.full}-${FROM}-${TO}.pdf`,
    });
    const logged = await db().auditLog.findFirst({
      where: { actorId: s.clinic.id, patientId: s.full, action: "read:agpReport" },
      orderBy: { at: "desc" },
    });
    expect(logged?.detail).toMatchObject({ start: FROM, end: TO, print: false });
  });

  it("the page: 4 full days give the insufficient message with the counts and no charts; a bad range the range message", async () => {
    const data = await page(s.clinic.id, s.short, "?start=2026/09/01&end=2026/09/07");
    expect(data.insufficient).toEqual({
      fullDays: 4,
      requiredFullDays: 5,
      dayCount: 7,
      count: 7,
      percent: 70,
      from: "Sep 1, 2026",
      to: "Sep 7, 2026",
      range: "September 1 – 7, 2026",
    });
    expect([data.report, data.agpSvg, data.daily, data.shell.pdf]).toEqual([null, null, [], null]);
    const tooLong = await page(s.clinic.id, s.full, "?start=2026/09/01&end=2026/09/20");
    expect([tooLong.shell.problem, tooLong.report]).toEqual(["views:problems.tooLong14", null]);
  });

  it("POST /api/cgms/cgm-record/agp: the report's figures, 400 with the translated message, 404 for a stranger", async () => {
    const answer = await postApi(
      agpApi as Handler,
      "/api/cgms/cgm-record/agp",
      { pid: s.full, start: "2026/09/01", end: TO },
      token,
    );
    const reference = await expected(s.full);
    expect([answer.status, answer.code]).toEqual([200, 200]);
    expect(answer.data.pid).toBe(s.full);
    expect(answer.data.statistics.mean).toEqual(reference.statistics.mean);
    expect(answer.data.statistics.gmi).toEqual(reference.statistics.gmi);
    expect(answer.data.timeInRanges.value.range70to180).toBe(
      reference.timeInRanges.value.range70to180,
    );
    expect(answer.data.agp.p50).toEqual(JSON.parse(JSON.stringify(reference.agp.p50)));
    expect(answer.data.dailyProfiles).toHaveLength(7);
    expect(answer.data.dailyProfiles[0].points).toBeUndefined();

    const short = await postApi(
      agpApi as Handler,
      "/api/cgms/cgm-record/agp",
      { pid: s.short, start: FROM, end: TO },
      token,
    );
    expect([short.code, short.msg]).toEqual([
      400,
      fill(enReports.agp.insufficient_other, {
        from: "2026/09/01",
        to: "2026/09/07",
        fullDays: 4,
        requiredFullDays: 5,
        count: 7,
        percent: 70,
      }),
    ]);
    const tooLong = await postApi(
      agpApi as Handler,
      "/api/cgms/cgm-record/agp",
      { pid: s.full, start: FROM, end: "2026-09-20" },
      token,
    );
    expect([tooLong.code, tooLong.msg]).toEqual([400, enViews.problems.tooLong14]);
    const stranger = await postApi(
      agpApi as Handler,
      "/api/cgms/cgm-record/agp",
      { pid: s.full, start: FROM, end: TO },
      await createApiToken(s.stranger.id),
    );
    expect(stranger.code).toBe(404);
  });

  it("the patient's CGM goal set decides the goals, the bar's bands and the target band (API and page)", async () => {
    const token = await createApiToken(s.clinic.id);
    const ask = async () =>
      (
        await postApi(
          agpApi as Handler,
          "/api/cgms/cgm-record/agp",
          { pid: s.full, start: FROM, end: TO },
          token,
        )
      ).data;
    const standard = await ask();
    expect(standard.timeInRanges.goalSet).toBe("standard");
    expect(standard.targetBand).toEqual({ low: 70, high: 180 });
    expect(standard.timeInRanges.goals.map((g: { key: string }) => g.key)).toEqual([
      "above250",
      "above180",
      "inRange",
      "below70",
      "below54",
    ]);
    await db().patient.update({ where: { id: s.full }, data: { cgmGoalSet: "pregnancy" } });
    try {
      const pregnancy = await ask();
      expect(pregnancy.timeInRanges.goalSet).toBe("pregnancy");
      expect(pregnancy.targetBand).toEqual({ low: 63, high: 140 });
      expect(pregnancy.timeInRanges.targets).toBeNull();
      expect(pregnancy.timeInRanges.goals.map((g: { key: string }) => g.key)).toEqual([
        "above140",
        "inRange63to140",
        "below63",
        "below54",
      ]);
      expect(
        pregnancy.timeInRanges.bands.map(
          (b: { fromMgdl: number | null; toMgdl: number | null }) => [b.fromMgdl, b.toMgdl],
        ),
      ).toEqual([
        [250, null],
        [141, 250],
        [63, 140],
        [54, 62],
        [null, 54],
      ]);
      const shown = await page(s.clinic.id, s.full, `?start=${FROM}&end=${TO}`);
      expect(shown.report?.timeInRanges.goalSet).toBe("pregnancy");
    } finally {
      await db().patient.update({ where: { id: s.full }, data: { cgmGoalSet: "standard" } });
    }
  });

  it("a stranger gets 404 for the page and 403 for the PDF", async () => {
    await expect(page(s.stranger.id, s.full, "")).rejects.toMatchObject({ status: 404 });
    expect((await pdf(s.stranger.id, s.full, `?start=${FROM}&end=${TO}`)).status).toBe(403);
  });
});
