import ExcelJS from "exceljs";
import { expect, test } from "@playwright/test";
import {
  createAcceptedShare,
  createShareRequest,
  createUser,
  readsLogged,
  setPersonFacts,
} from "./db";
import { tr, type Lng } from "./i18n";
import { createKnownPatient } from "./known-patient";
import { signIn, signInWithLanguage } from "./support";

const d = (key: string, lng: Lng = "en") => tr(lng, key, "dashboard");
const x = (key: string) => tr("en", key, "excel");
/** The user menu's label, whoever is signed in ("User menu for {{name}}"). */
const userMenu = new RegExp(
  `^${tr("en", "nav.userMenu")
    .split("{{name}}")[0]!
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
);

test.describe("the institution dashboard", () => {
  test("an audited clinic finds it in the header and reads its patients' counts in tables", async ({
    page,
  }) => {
    const clinic = await createUser({
      tag: "dash-clinic",
      identity: 2,
      firstName: "Dora",
      lastName: "Dash",
    });
    const other = await createUser({
      tag: "dash-other",
      identity: 2,
      firstName: "Otto",
      lastName: "Other",
    });
    const anna = await createUser({
      tag: "dash-anna",
      identity: 1,
      firstName: "Anna",
      lastName: "A",
    });
    const bea = await createUser({ tag: "dash-bea", identity: 1, firstName: "Bea", lastName: "B" });
    const carl = await createUser({
      tag: "dash-carl",
      identity: 1,
      firstName: "Carl",
      lastName: "C",
    });
    const dina = await createUser({
      tag: "dash-dina",
      identity: 1,
      firstName: "Dina",
      lastName: "D",
    });
    // Anna (38 or so, type 1) and Bea (born 2012, under 18, type 1) and Carl (nothing given) share
    // with the clinic; Dina only asked to (pending), and shares with another clinic.
    await setPersonFacts(anna.id, {
      gender: "female",
      birthDate: "1988-04-12",
      diabetesType: "type1",
    });
    await setPersonFacts(bea.id, {
      gender: "female",
      birthDate: "2012-06-01",
      diabetesType: "type1",
    });
    await setPersonFacts(dina.id, {
      gender: "male",
      birthDate: "1950-01-01",
      diabetesType: "type2",
    });
    await createAcceptedShare(anna.id, clinic.id);
    await createAcceptedShare(bea.id, clinic.id);
    await createAcceptedShare(carl.id, clinic.id);
    await createShareRequest(dina.id, clinic.id, 0, new Date());
    await createAcceptedShare(dina.id, other.id);

    await signIn(page, clinic.email, clinic.password, 2);
    await page.getByRole("link", { name: tr("en", "nav.dashboard") }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(d("title"));
    await expect(page.getByTestId("dashboard-total")).toHaveText(
      d("total").replace("{{count}}", "3"),
    );

    const count = (figure: string, key: string) =>
      page.getByTestId(`dashboard-table-${figure}`).locator(`tr[data-key="${key}"] td`);
    // 3 patients: 2 female (67 %), 1 not given (33 %), no male (Dina is not counted).
    await expect(count("sex", "female")).toHaveText(["2", "67 %"]);
    await expect(count("sex", "male")).toHaveText(["0", "0 %"]);
    await expect(count("sex", "unknown")).toHaveText(["1", "33 %"]);
    await expect(count("age", "0-17")).toHaveText(["1", "33 %"]);
    await expect(count("age", "30-44")).toHaveText(["1", "33 %"]);
    await expect(count("age", "unknown")).toHaveText(["1", "33 %"]);
    await expect(count("ill", "type1")).toHaveText(["2", "67 %"]);
    await expect(count("ill", "type2")).toHaveText(["0", "0 %"]);
    await expect(count("ill", "none")).toHaveText(["1", "33 %"]);
    // Each figure is also a server-drawn chart with a bar per category.
    await expect(page.getByTestId("chart").first().locator("svg")).toHaveAttribute(
      "aria-label",
      d("sex.chartTitle"),
    );
    await expect(page.getByTestId("chart").first().locator(".diacare-count-bar rect")).toHaveCount(
      4,
    );
  });

  test("in the clinic's language, and a person gets the 403 page without a header link", async ({
    page,
  }) => {
    const clinic = await createUser({
      tag: "dash-ro",
      identity: 2,
      firstName: "Radu",
      lastName: "Ro",
      lang: "ro",
    });
    await signInWithLanguage(page, clinic, "ro");
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(d("title", "ro"));
    await expect(page.getByRole("heading", { level: 2, name: d("ill.title", "ro") })).toBeVisible();

    const person = await createUser({
      tag: "dash-person",
      identity: 1,
      firstName: "Pia",
      lastName: "P",
    });
    await page.context().clearCookies();
    await signIn(page, person.email, person.password);
    await expect(page.getByRole("link", { name: tr("en", "nav.dashboard") })).toHaveCount(0);
    const response = await page.goto("/dashboard");
    expect(response?.status()).toBe(403);
    await expect(page.getByText(tr("en", "errors.403"))).toBeVisible();
  });
});

test.describe("the staff Excel export", () => {
  test("an admin previews the counts and downloads a workbook whose cells are the hand-computed ones", async ({
    page,
    request,
  }) => {
    const patient = await createKnownPatient(request, {
      tag: "xlsx-patient",
      firstName: "Xena",
      lastName: "Excel",
    });
    const admin = await createUser({
      tag: "xlsx-admin",
      identity: 2,
      firstName: "Ada",
      lastName: "Admin",
      role: "admin",
    });
    await createAcceptedShare(patient.id, admin.id);

    await signIn(page, admin.email, admin.password, 2);
    await page.getByLabel(userMenu).click();
    await page.getByRole("link", { name: tr("en", "nav.excelExport") }).click();
    await expect(page).toHaveURL(/\/excel\/export$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(x("page.title"));

    await page.getByRole("checkbox", { name: /Xena Excel/ }).check();
    await page.getByLabel(x("page.start"), { exact: true }).fill(patient.first);
    await page.getByLabel(x("page.end"), { exact: true }).fill(patient.last);
    await page.getByRole("radio", { name: "mmol/L" }).check();
    await page.getByRole("button", { name: x("page.preview") }).click();
    // The week: 7 x 288 = 2016 CGM readings, 7 x 2 = 14 meter values, 7 x 6 = 42 pump records;
    // the carbohydrate of the pump records is in the pump's own records, not a sheet of its own.
    const row = page.getByTestId("export-preview").getByRole("row", { name: /Xena Excel/ });
    await expect(row.getByRole("cell")).toHaveText([
      `${patient.first} – ${patient.last} (Asia/Kolkata)`,
      "2016",
      "14",
      "42",
      "0",
      "0",
    ]);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: x("page.download") }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(
      `diacare-export-${patient.first}-${patient.last}.xlsx`,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path())!);
    expect(workbook.worksheets.map((w) => w.name)).toEqual([
      x("sheets.cgm"),
      x("sheets.bg"),
      x("sheets.pump"),
      x("sheets.carbs"),
      x("sheets.insulin"),
      x("sheets.summary"),
    ]);

    const cgm = workbook.getWorksheet(x("sheets.cgm"))!;
    expect(cgm.rowCount).toBe(1 + 2016);
    // The first reading: 00:00 local of the first day (UTC+05:30), raw 35 x 1.8 = 63 mg/dL = 3.5 mmol/L.
    const first = cgm.getRow(2);
    expect(first.getCell(1).value).toBe(patient.pid);
    expect((first.getCell(2).value as Date).toISOString()).toBe(`${patient.first}T00:00:00.000Z`);
    expect(first.getCell(3).value).toBe("+05:30");
    expect(first.getCell(4).value).toBeCloseTo(3.5, 9);
    // 12:00 of the first day (row 2 + 144): the spike, raw 220 = 396 mg/dL = 22 mmol/L.
    expect((cgm.getRow(146).getCell(2).value as Date).toISOString()).toBe(
      `${patient.first}T12:00:00.000Z`,
    );
    expect(cgm.getRow(146).getCell(4).value).toBeCloseTo(22, 9);

    const bg = workbook.getWorksheet(x("sheets.bg"))!;
    // 90 mg/dL at 07:30 = 5 mmol/L; 150 mg/dL at 19:30 = 8.333 mmol/L.
    expect(bg.rowCount).toBe(1 + 14);
    expect((bg.getRow(2).getCell(2).value as Date).toISOString()).toBe(
      `${patient.first}T07:30:00.000Z`,
    );
    expect(bg.getRow(2).getCell(4).value).toBeCloseTo(5, 9);
    expect(bg.getRow(3).getCell(4).value).toBeCloseTo(150 / 18, 9);

    const pump = workbook.getWorksheet(x("sheets.pump"))!;
    // 08:00: the bolus, basal 160 x 0.00625 = 1 U/h, bolus 9600 x 0.00625 = 60 U/h; 22:00: basal 80 = 0.5 U/h.
    const pumpAt = (clock: string) =>
      pump
        .getRows(2, 6)!
        .find(
          (r) => (r.getCell(2).value as Date).toISOString() === `${patient.first}T${clock}:00.000Z`,
        )!;
    expect([pumpAt("08:00").getCell(5).value, pumpAt("08:00").getCell(6).value]).toEqual([1, 60]);
    expect(pumpAt("22:00").getCell(5).value).toBe(0.5);
    expect(pumpAt("07:55").getCell(8).value).toBe(45);

    const summary = workbook.getWorksheet(x("sheets.summary"))!;
    const header = summary.getRow(1).values as unknown[];
    const cell = (name: string) => summary.getRow(2).getCell(header.indexOf(name)).value;
    expect(cell(x("columns.pid"))).toBe(patient.pid);
    expect(cell(x("counts.cgm"))).toBe(2016);
    expect(cell(x("columns.metricsSource"))).toBe(x("sources.cgm"));
    expect(cell(x("columns.readings"))).toBe(2016);
    // Mean: 7 days x 72 x (63 + 99 + 153 + 225) mg/dL plus the spike's 333 more, over 2016 readings:
    // 272,493 / 2016 = 135.165 mg/dL = 7.509 mmol/L.
    expect(cell("MBG (mmol/L)")).toBeCloseTo(272_493 / 2016 / 18, 6);

    // The admin's patient list (where its sign-in may land) logs triage reads of its own.
    const logged = (await readsLogged(patient.pid, admin.id)).filter(
      (r) => r.action !== "read:triage",
    );
    expect(logged).toEqual([
      { action: "read:exportPreview", channel: "page" },
      { action: "read:excelExport", channel: "page" },
    ]);
  });

  test("someone who is not staff gets the 403 page and no menu link, also for the file", async ({
    page,
  }) => {
    const clinic = await createUser({
      tag: "xlsx-guest",
      identity: 2,
      firstName: "Gil",
      lastName: "Guest",
    });
    await signIn(page, clinic.email, clinic.password, 2);
    await page.getByLabel(userMenu).click();
    await expect(page.getByRole("link", { name: tr("en", "nav.excelExport") })).toHaveCount(0);
    const response = await page.goto("/excel/export");
    expect(response?.status()).toBe(403);
    await expect(page.getByText(tr("en", "errors.403"))).toBeVisible();
    const file = await page.goto("/excel/export.xlsx?all=1&days=7");
    expect(file?.status()).toBe(403);
    await expect(page.getByText(tr("en", "errors.403"))).toBeVisible();
  });

  test("a patient who does not share with the editor is refused with the reason", async ({
    page,
  }) => {
    const editor = await createUser({
      tag: "xlsx-editor",
      identity: 2,
      firstName: "Eda",
      lastName: "Editor",
      role: "editor",
    });
    const stranger = await createUser({
      tag: "xlsx-stranger",
      identity: 1,
      firstName: "Sam",
      lastName: "S",
    });
    await signIn(page, editor.email, editor.password, 2);
    await page.goto(`/excel/export?pids=${stranger.pid}&start=2026-11-01&end=2026-11-02`);
    await expect(page.getByTestId("export-problem")).toHaveText(x("errors.notVisible"));
    await expect(page.getByTestId("export-preview")).toHaveCount(0);
    const file = await page.goto(
      `/excel/export.xlsx?pids=${stranger.pid}&start=2026-11-01&end=2026-11-02`,
    );
    expect(file?.url()).toMatch(/\/excel\/export\?/);
    await expect(page.getByTestId("export-problem")).toHaveText(x("errors.notVisible"));
    expect(await readsLogged(stranger.pid!, editor.id)).toEqual([]);
  });
});
