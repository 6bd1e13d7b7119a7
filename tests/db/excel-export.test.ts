import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { loader as ageRoute } from "~/routes/api.dashboard.age";
import { loader as illRoute } from "~/routes/api.dashboard.ill";
import { loader as sexRoute } from "~/routes/api.dashboard.sex";
import { loader as dashboardPage } from "~/routes/dashboard";
import { loader as exportPage } from "~/routes/excel.export";
import { loader as exportFile } from "~/routes/excel.export[.]xlsx";
import { loader as exportRoute } from "~/routes/api.patient-data.exportReport";
import { loader as latestRoute } from "~/routes/api.patient-data.getLatestDateFromReportAndAidex";
import { action as daysRoute } from "~/routes/api.patient-data.listExistInDateFromReport";
import { loader as preExportRoute } from "~/routes/api.patient-data.preExport";
import { viewerById } from "~/models/access.server";
import { exportWorkbook, planExport } from "~/services/excel-export.server";
import { getFixedT } from "~/utils/i18n.server";
import { db } from "~/utils/db.server";
import { getApi, postApi, type Handler } from "./api-client";
import { cookieFor, statusOf } from "./report-support";

// The institution dashboard and the staff Excel export against PostgreSQL: who may see which
// counts, who may export which patients, what is logged, and the workbook read back.

type Account = { id: number; pid: number | null; token: string };
let serial = 0;

async function account(options: {
  identity: 1 | 2;
  isPass?: number;
  role?: "admin" | "editor" | "guest";
  gender?: "male" | "female" | "other" | "unknown";
  birthDate?: string;
  diabetesType?: string;
  timeZone?: string;
  lang?: string;
}): Promise<Account> {
  serial += 1;
  const type = options.diabetesType
    ? await db().option.findUniqueOrThrow({ where: { code: options.diabetesType } })
    : null;
  const user = await db().user.create({
    data: {
      email: `excel-${serial}@excel.test`,
      identity: options.identity,
      isPass: options.isPass ?? (options.identity === 2 ? 1 : 0),
      role: options.role ?? "guest",
      firstName: `Name${serial}`,
      lastName: `Surname${serial}`,
      gender: options.gender ?? null,
      birthDate: options.birthDate ? new Date(options.birthDate) : null,
      setting: { create: { lang: options.lang ?? "en", unit: 0 } },
      ...(options.identity === 1
        ? {
            patient: {
              create: {
                timeZone: options.timeZone ?? "UTC",
                ...(type ? { diabetesTypeId: type.id } : {}),
              },
            },
          }
        : {}),
    },
    include: { patient: true },
  });
  return { id: user.id, pid: user.patient?.id ?? null, token: await createApiToken(user.id) };
}

const share = (provider: Account, reader: Account, state = 1) =>
  db().readPower.create({
    data: { providerId: provider.id, readerId: reader.id, sourceType: 1, state },
  });

let clinic: Account; // audited clinic: anna and bruno share with it; cleo's share is pending, dan refused
let otherClinic: Account; // eva shares with it only
let unaudited: Account; // in review: anna shares with it
let editor: Account; // staff (identity 2): anna shares with it
let guestStaffless: Account; // a guest clinic with anna's share: no export
let anna: Account;
let bruno: Account;
let eva: Account;

// Anna (Asia/Kolkata, UTC+05:30 all year) on 2026-11-20: CGM 153 mg/dL (8.5 mmol/L) at 08:00
// local = 02:30 UTC and 99 mg/dL (5.5 mmol/L) at 08:05; a meter value of 90 mg/dL (5.0 mmol/L)
// at 07:30 local = 02:00 UTC; a pump record at 22:00 local = 16:30 UTC setting the basal rate to
// 80 x 0.00625 = 0.5 U/h. A CGM reading of 2026-11-19 23:55 local (18:25 UTC, outside the day).
const DAY = "2026-11-20";
const at = (hhmm: string) => new Date(`${DAY}T${hhmm}:00+05:30`);

beforeAll(async () => {
  clinic = await account({ identity: 2 });
  otherClinic = await account({ identity: 2 });
  unaudited = await account({ identity: 2, isPass: 3 });
  editor = await account({ identity: 2, role: "editor" });
  guestStaffless = await account({ identity: 2 });
  anna = await account({
    identity: 1,
    gender: "female",
    birthDate: "1988-04-12",
    diabetesType: "type1",
    timeZone: "Asia/Kolkata",
  });
  bruno = await account({
    identity: 1,
    gender: "male",
    birthDate: "1961-09-30",
    diabetesType: "type2",
  });
  const cleo = await account({ identity: 1, gender: "female", diabetesType: "lada" });
  const dan = await account({ identity: 1, gender: "male", diabetesType: "type1" });
  eva = await account({ identity: 1, gender: "other", birthDate: "2015-01-01" });
  await share(anna, clinic);
  await share(bruno, clinic);
  await share(cleo, clinic, 0);
  await share(dan, clinic, 2);
  await share(eva, otherClinic);
  await share(anna, unaudited);
  await share(anna, editor);
  await share(anna, guestStaffless);

  const pid = anna.pid!;
  await db().cgmRecord.createMany({
    data: [
      { at: at("08:00"), mgdl: 153, index: 1 },
      { at: at("08:05"), mgdl: 99, index: 2 },
      { at: new Date("2026-11-19T23:55:00+05:30"), mgdl: 200, index: 3 },
    ].map((r) => ({
      patientId: pid,
      deviceSn: "AXEXCEL",
      eventIndex: r.index,
      eventType: 7,
      mgdl: r.mgdl,
      deviceTime: "",
      timeZone: "Asia/Kolkata",
      dateTime: r.at,
    })),
  });
  await db().bgRecord.create({
    data: {
      patientId: pid,
      source: "meter",
      deviceSn: "GCEXCEL",
      recordKey: "1",
      mgdl: 90,
      deviceTime: "",
      timeZone: "Asia/Kolkata",
      dateTime: at("07:30"),
    },
  });
  await db().pumpRecord.create({
    data: {
      patientId: pid,
      pdaSn: "EQEXCEL",
      recordId: 5,
      eventIndex: 5,
      eventPort: 4,
      eventType: 0,
      eventUrgency: 0,
      eventValue: 0,
      battery: 80,
      reservoir: 150,
      basalRateRaw: 80,
      bolusRateRaw: 0,
      deviceTime: "",
      recordTimeZone: "Asia/Kolkata",
      dateTime: at("22:00"),
    },
  });
});

const reads = (actorId: number, action: string) =>
  db().auditLog.findMany({
    where: { actorId, action },
    select: { patientId: true, channel: true, detail: true },
    orderBy: { id: "asc" },
  });

describe("the dashboard", () => {
  it("counts only the patients whose share the clinic accepted", async () => {
    const sex = await getApi(sexRoute as Handler, "/api/dashboard/sex", clinic.token);
    expect(sex.code).toBe(200);
    expect(sex.data.total).toBe(2);
    expect(sex.data.counts.map((c: { key: string; count: number }) => [c.key, c.count])).toEqual([
      ["female", 1],
      ["male", 1],
      ["other", 0],
      ["unknown", 0],
    ]);
    const ill = await getApi(illRoute as Handler, "/api/dashboard/ill", clinic.token);
    const byKey = Object.fromEntries(
      ill.data.counts.map((c: { key: string; count: number }) => [c.key, c.count]),
    );
    expect([byKey.type1, byKey.type2, byKey.lada, byKey.none]).toEqual([1, 1, 0, 0]);
    expect(ill.data.counts[0].name).toBe("Type 1 diabetes");
  });

  // Anna (born 1988-04-12) is 30-44 until 2033-04-11, Bruno (1961-09-30) 60-74 until 2036-09-29.
  it("ages in full years: Anna in 30-44, Bruno in 60-74", async () => {
    const age = await getApi(ageRoute as Handler, "/api/dashboard/age", clinic.token);
    const byKey = Object.fromEntries(
      age.data.counts.map((c: { key: string; count: number }) => [c.key, c.count]),
    );
    expect(byKey["30-44"]).toBe(1);
    expect(byKey["60-74"]).toBe(1);
    expect(byKey.unknown).toBe(0);
  });

  it("another clinic sees only its own patient", async () => {
    const sex = await getApi(sexRoute as Handler, "/api/dashboard/sex", otherClinic.token);
    expect(sex.data.total).toBe(1);
    expect(sex.data.counts.find((c: { key: string }) => c.key === "other").count).toBe(1);
  });

  it("a clinic in review and a person get 403, on the API and the page", async () => {
    for (const who of [unaudited, anna]) {
      const answer = await getApi(sexRoute as Handler, "/api/dashboard/sex", who.token);
      expect([answer.status, answer.code]).toEqual([403, 403]);
      const request = new Request("http://localhost/dashboard", {
        headers: { Cookie: await cookieFor(who.id) },
      });
      expect(await statusOf(() => dashboardPage({ request, params: {}, context: {} }))).toBe(403);
    }
  });

  it("the page has a chart and a table per figure", async () => {
    const request = new Request("http://localhost/dashboard", {
      headers: { Cookie: await cookieFor(clinic.id) },
    });
    const page = await dashboardPage({ request, params: {}, context: {} });
    expect(page.total).toBe(2);
    expect(page.figures.map((f) => f.figure)).toEqual(["sex", "age", "ill"]);
    for (const figure of page.figures) {
      expect(figure.chart.wide).toMatch(/^<svg/);
      expect(figure.chart.wide.match(/diacare-count-bar/g)?.length).toBeGreaterThan(0);
    }
  });
});

const exportPath = (query: string) => `/api/patient-data/exportReport?${query}`;

async function workbookOf(response: Response): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(await response.arrayBuffer());
  return workbook;
}

async function fileAnswer(token: string, query: string): Promise<Response> {
  try {
    return await (exportRoute as Handler)({
      request: new Request(`http://localhost${exportPath(query)}`, { headers: { token } }),
      params: {},
      context: {},
    });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("the Excel export", () => {
  it("is for admins and editors: a guest clinic with a share gets 403 and nothing is logged", async () => {
    const answer = await getApi(
      exportRoute as Handler,
      exportPath(`pids=${anna.pid}&start=${DAY}&end=${DAY}`),
      guestStaffless.token,
    );
    expect([answer.status, answer.code]).toEqual([403, 403]);
    const preview = await getApi(
      preExportRoute as Handler,
      `/api/patient-data/preExport?pids=${anna.pid}&start=${DAY}&end=${DAY}`,
      guestStaffless.token,
    );
    expect(preview.code).toBe(403);
    expect(await reads(guestStaffless.id, "read:excelExport")).toEqual([]);
  });

  it("refuses a patient who does not share with the editor, whole, before reading or logging", async () => {
    const before = await db().auditLog.count({ where: { actorId: editor.id } });
    const answer = await getApi(
      exportRoute as Handler,
      exportPath(`pids=${anna.pid},${bruno.pid}&start=${DAY}&end=${DAY}`),
      editor.token,
    );
    expect([answer.status, answer.code]).toEqual([404, 404]);
    const unknown = await getApi(
      exportRoute as Handler,
      exportPath(`pids=2147483647&start=${DAY}&end=${DAY}`),
      editor.token,
    );
    expect(unknown.code).toBe(404);
    expect(await db().auditLog.count({ where: { actorId: editor.id } })).toBe(before);
  });

  it("checks its input: no patient, a future end, more than 90 days", async () => {
    const none = await getApi(
      exportRoute as Handler,
      exportPath(`start=${DAY}&end=${DAY}`),
      editor.token,
    );
    expect([none.code, none.msg]).toEqual([400, "Choose at least one patient, or all of them."]);
    const long = await getApi(
      exportRoute as Handler,
      exportPath(`pids=${anna.pid}&start=2026-01-01&end=${DAY}`),
      editor.token,
    );
    expect(long.code).toBe(400);
    const future = await getApi(
      exportRoute as Handler,
      exportPath(`pids=${anna.pid}&start=${DAY}&end=2999-01-01`),
      editor.token,
    );
    expect(future.code).toBe(400);
  });

  it("previews the counts of each sheet", async () => {
    const preview = await getApi(
      preExportRoute as Handler,
      `/api/patient-data/preExport?all=1&start=${DAY}&end=${DAY}&unit=1`,
      editor.token,
    );
    expect(preview.code).toBe(200);
    expect(preview.data.unit).toBe(1);
    expect(preview.data.patients).toEqual([
      {
        pid: anna.pid,
        name: expect.stringMatching(/^Name\d+ Surname\d+$/),
        timeZone: "Asia/Kolkata",
        start: DAY,
        end: DAY,
        counts: { cgm: 2, bg: 1, pump: 1, carbs: 0, insulin: 0 },
      },
    ]);
    expect((await reads(editor.id, "read:exportPreview")).map((r) => r.patientId)).toEqual([
      anna.pid,
    ]);
  });

  it("writes the workbook: the patient's local times, the unit chosen, one access-log read per patient", async () => {
    const response = await fileAnswer(editor.token, `all=1&start=${DAY}&end=${DAY}&unit=0`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="diacare-export-${DAY}-${DAY}.xlsx"`,
    );
    const workbook = await workbookOf(response);
    expect(workbook.worksheets.map((w) => w.name)).toEqual([
      "CGM",
      "Blood glucose",
      "Pump",
      "Carbohydrates",
      "Insulin",
      "Summary",
    ]);
    // It opens on the summary.
    expect(workbook.views[0]?.activeTab).toBe(5);
    const cgm = workbook.getWorksheet("CGM")!;
    expect(cgm.getRow(1).values).toEqual([
      undefined,
      "Patient ID",
      "Local time",
      "UTC offset",
      "Glucose (mmol/L)",
      "Device serial",
    ]);
    expect(cgm.rowCount).toBe(3);
    const first = cgm.getRow(2);
    expect(first.getCell(1).value).toBe(anna.pid);
    expect((first.getCell(2).value as Date).toISOString()).toBe(`${DAY}T08:00:00.000Z`);
    expect(first.getCell(3).value).toBe("+05:30");
    expect(first.getCell(4).value).toBe(8.5);
    expect(first.getCell(4).numFmt).toBe("0.0");
    expect(cgm.getRow(3).getCell(4).value).toBe(5.5);
    const bg = workbook.getWorksheet("Blood glucose")!;
    expect(bg.getRow(2).getCell(4).value).toBe(5);
    expect(bg.getRow(2).getCell(5).value).toBe("Meter");
    const pump = workbook.getWorksheet("Pump")!;
    expect((pump.getRow(2).getCell(2).value as Date).toISOString()).toBe(`${DAY}T22:00:00.000Z`);
    expect(pump.getRow(2).getCell(5).value).toBe(0.5);
    const summary = workbook.getWorksheet("Summary")!;
    const header = summary.getRow(1).values as unknown[];
    const cell = (name: string) => summary.getRow(2).getCell(header.indexOf(name)).value;
    expect(cell("Patient ID")).toBe(anna.pid);
    expect(cell("CGM readings")).toBe(2);
    expect(cell("Metrics from")).toBe("CGM");
    // MBG of 153 and 99 mg/dL: 126 mg/dL = 7 mmol/L.
    expect(cell("MBG (mmol/L)")).toBeCloseTo(7, 9);
    const logged = await reads(editor.id, "read:excelExport");
    expect(logged.map((r) => [r.patientId, r.channel])).toEqual([[anna.pid, "api"]]);
    expect(logged[0]!.detail).toMatchObject({ start: DAY, end: DAY });
  });

  it("a kind with more records than a sheet holds continues on a numbered sheet", async () => {
    const viewer = await viewerById(editor.id);
    const planned = await planExport(
      viewer,
      { selection: { pids: [anna.pid!] }, dates: { kind: "dates", start: DAY, end: DAY }, unit: 1 },
      0,
    );
    if (!planned.ok) throw new Error("refused");
    const file = await exportWorkbook(
      viewer,
      planned.plan,
      "api",
      await getFixedT("en", "excel"),
      1,
    );
    if (!file.ok) throw new Error("refused");
    const workbook = await workbookOf(new Response(file.body));
    expect(workbook.worksheets.map((w) => w.name)).toEqual([
      "CGM",
      "CGM (2)",
      "Blood glucose",
      "Pump",
      "Carbohydrates",
      "Insulin",
      "Summary",
    ]);
    // Both of the day's CGM readings, one a sheet, in time order: 153 then 99 mg/dL.
    expect(workbook.getWorksheet("CGM")!.getRow(2).getCell(4).value).toBe(153);
    expect(workbook.getWorksheet("CGM (2)")!.getRow(2).getCell(4).value).toBe(99);
    expect(workbook.getWorksheet("CGM (2)")!.rowCount).toBe(2);
    expect(workbook.views[0]?.activeTab).toBe(6);
  });

  it("the page form: a guest gets 403, the file route answers the 403 page, the editor downloads", async () => {
    const query = `pids=${anna.pid}&start=${DAY}&end=${DAY}&unit=1`;
    const asGuest = async (loader: Handler, path: string) =>
      statusOf(async () =>
        loader({
          request: new Request(`http://localhost${path}`, {
            headers: { Cookie: await cookieFor(guestStaffless.id) },
          }),
          params: {},
          context: {},
        }),
      );
    expect(await asGuest(exportPage as unknown as Handler, `/excel/export?${query}`)).toBe(403);
    expect(await asGuest(exportFile as Handler, `/excel/export.xlsx?${query}`)).toBe(403);
    const request = new Request(`http://localhost/excel/export.xlsx?${query}`, {
      headers: { Cookie: await cookieFor(editor.id) },
    });
    const response = (await exportFile({ request, params: {}, context: {} })) as Response;
    const workbook = await workbookOf(response);
    // mg/dL: 153 as it is.
    expect(workbook.getWorksheet("CGM")!.getRow(2).getCell(4).value).toBe(153);
    const logged = await reads(editor.id, "read:excelExport");
    expect(logged.at(-1)!.channel).toBe("page");
  });

  it("a refused page query goes back to the form", async () => {
    const request = new Request(
      `http://localhost/excel/export.xlsx?pids=${bruno.pid}&start=${DAY}&end=${DAY}`,
      { headers: { Cookie: await cookieFor(editor.id) } },
    );
    const response = (await exportFile({ request, params: {}, context: {} })) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(
      `/excel/export?pids=${bruno.pid}&start=${DAY}&end=${DAY}`,
    );
  });
});

describe("the export's date calls", () => {
  it("the newest day with report data and with CGM data, in the patient's zone", async () => {
    const answer = await getApi(
      latestRoute as Handler,
      `/api/patient-data/getLatestDateFromReportAndAidex?pid=${anna.pid}`,
      clinic.token,
    );
    expect(answer.data).toEqual({
      pid: anna.pid,
      timeZone: "Asia/Kolkata",
      report: DAY,
      aidex: DAY,
      latest: DAY,
    });
    const stranger = await getApi(
      latestRoute as Handler,
      `/api/patient-data/getLatestDateFromReportAndAidex?pid=${anna.pid}`,
      otherClinic.token,
    );
    expect(stranger.code).toBe(404);
  });

  it("the days with data of a range and the kinds each has", async () => {
    const answer = await postApi(
      daysRoute as Handler,
      "/api/patient-data/listExistInDateFromReport",
      { pid: anna.pid, start: "2026-11-18", end: DAY },
      clinic.token,
    );
    expect(answer.data.days).toEqual([
      { date: "2026-11-19", cgm: true, bg: false, pump: false },
      { date: DAY, cgm: true, bg: true, pump: true },
    ]);
  });
});
