import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { shiftDate, todayIn } from "../../app/report/day";
import { createAcceptedShare, createUser } from "./db";
import { tr } from "./i18n";
import { jsEnabled, signIn } from "./support";

const im = (key: string) => tr("en", key, "import");
const v = (key: string) => tr("en", key, "views");
const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce(
    (out, [k, value]) => out.replaceAll(`{{${k}}}`, String(value)),
    text,
  );
const ZONE = "Europe/Warsaw";
const FIXTURES = path.resolve("tests/fixtures/csv");

/** The value beside a label of a definition list. */
const termValue = (page: Page, testId: string, label: string) =>
  page
    .getByTestId(testId)
    .locator("dt", { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) })
    .locator("xpath=following-sibling::dd[1]");

/** Chooses the file (by the field, or with JavaScript by dropping it on the field) and asks for the preview. */
async function previewFile(page: Page, file: { name: string; buffer: Buffer }) {
  if (jsEnabled()) {
    // Drop the file on the drop zone, as a person dragging it from their desktop would.
    const transfer = await page.evaluateHandle(
      ({ name, content }) => {
        const dt = new DataTransfer();
        dt.items.add(new File([content], name, { type: "text/csv" }));
        return dt;
      },
      { name: file.name, content: file.buffer.toString("utf8") },
    );
    await page.getByTestId("drop-zone").dispatchEvent("drop", { dataTransfer: transfer });
  } else {
    await page
      .getByLabel(im("fields.file"), { exact: true })
      .setInputFiles({ name: file.name, mimeType: "text/csv", buffer: file.buffer });
  }
  await page.getByRole("button", { name: im("previewButton") }).click();
  await expect(page.getByTestId("import-preview")).toBeVisible();
}

/**
 * A Dexcom Clarity export of `days` days ending yesterday (Warsaw): a reading every 5 minutes
 * cycling 60, 100, 140, 200 mg/dL. By hand: mean (60 + 100 + 140 + 200) / 4 = 125 mg/dL; a
 * quarter below 70, half in 70-180, a quarter above 180 (none above 250).
 */
function clarityDays(days: number): {
  buffer: Buffer;
  first: string;
  last: string;
  readings: number;
} {
  const last = shiftDate(todayIn(ZONE, Date.now()), -1);
  const first = shiftDate(last, -(days - 1));
  const header =
    '"Index","Timestamp (YYYY-MM-DDThh:mm:ss)","Event Type","Event Subtype","Patient Info","Device Info","Source Device ID","Glucose Value (mg/dL)","Insulin Value (u)","Carb Value (grams)","Duration (hh:mm:ss)","Glucose Rate of Change (mg/dL/min)","Transmitter Time (Long Integer)","Transmitter ID"';
  const lines = [
    header,
    '"1","","Device","","","Dexcom G6 Mobile App","Android G6","","","","","","",""',
  ];
  let index = 2;
  for (let d = 0; d < days; d++) {
    const date = shiftDate(first, d);
    for (let i = 0; i < 288; i++) {
      const clock = `${String(Math.floor(i / 12)).padStart(2, "0")}:${String((i % 12) * 5).padStart(2, "0")}:00`;
      lines.push(
        `"${index++}","${date}T${clock}","EGV","","","","Android G6","${[60, 100, 140, 200][i % 4]}","","","","","","8GTEST"`,
      );
    }
  }
  return { buffer: Buffer.from(lines.join("\r\n")), first, last, readings: days * 288 };
}

test.describe("CSV import and export", () => {
  test.describe.configure({ timeout: 120_000 });

  test("a patient previews a Clarity export, imports it, sees the day's readings, and a second import adds nothing", async ({
    page,
  }, testInfo) => {
    // With JavaScript the page must hydrate cleanly: a mismatch re-renders the form and drops the chosen file.
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    const patient = await createUser({
      tag: "csv-patient",
      identity: 1,
      firstName: "Cora",
      lastName: "Sievers",
      unit: 1,
      timeZone: ZONE,
    });
    await signIn(page, patient.email, patient.password, 1);
    await page.goto(`/patientShow/${patient.pid}/${patient.id}/patientHome`);
    await page
      .getByRole("navigation", { name: v("tabs.label") })
      .getByRole("link", { name: v("tabs.import") })
      .click();
    await expect(page.getByRole("heading", { level: 2, name: im("title") })).toBeVisible();
    for (const format of ["clarity", "libreview", "diacare", "generic"])
      await expect(page.getByText(im(`accepted.${format}`))).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(pageErrors).toEqual([]);

    const clarity = {
      name: "clarity-g7-mgdl.csv",
      buffer: readFileSync(path.join(FIXTURES, "clarity-g7-mgdl.csv")),
    };
    await previewFile(page, clarity);
    // The fixture by hand: 17 EGV readings (one Low, one High), a calibration, two insulin doses, a carbohydrate entry.
    await expect(termValue(page, "import-summary", im("summary.format"))).toHaveText(
      im("formats.clarity"),
    );
    await expect(termValue(page, "import-summary", im("kinds.cgm"))).toHaveText("17");
    await expect(termValue(page, "import-summary", im("kinds.bg"))).toHaveText("1");
    await expect(termValue(page, "import-summary", im("kinds.insulin"))).toHaveText("2");
    await expect(termValue(page, "import-summary", im("summary.toAdd"))).toHaveText("21");
    await expect(termValue(page, "import-summary", im("summary.flagged"))).toHaveText("2");
    await testInfo.attach(`csv-preview-${testInfo.project.name}.png`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });

    await page.getByRole("button", { name: fill(im("confirmButton"), { count: 21 }) }).click();
    await expect(page.getByTestId("import-done")).toContainText(
      fill(im("done.added"), { count: 21, file: clarity.name }),
    );
    await page.getByRole("link", { name: im("done.seeHistory") }).click();
    const row = page.getByTestId("upload-history").locator("tbody tr").first();
    await expect(row).toContainText(v("uploads.kinds.imported"));
    await expect(row).toContainText(v("uploads.channels.csv"));

    // 5 January in Warsaw: 12 readings from 07:00 to 07:55; (112 + 115 + 119 + 124 + 131 + 139 + 148 + 156 + 163 + 168 + 171 + 170) / 12 = 143.
    await page.goto(
      `/patientShow/${patient.pid}/${patient.id}/patientHome?tab=cgms&date=2026-01-05`,
    );
    await expect(termValue(page, "cgm-stats", v("cgms.average"))).toHaveText("143 mg/dL");

    // The same file again: everything is already stored.
    await page.goto(`/patientShow/${patient.pid}/import`);
    await previewFile(page, clarity);
    await expect(termValue(page, "import-summary", im("summary.toAdd"))).toHaveText("0");
    await expect(termValue(page, "import-summary", im("summary.duplicates"))).toHaveText("21");
    await expect(page.getByText(im("preview.nothingNew"))).toBeVisible();
    await page.getByRole("button", { name: im("cancelButton") }).click();
    await expect(page.getByText(im("cancelled"))).toBeVisible();
  });

  test("a clinic imports two weeks of CGM for a patient; the AGP and statistics reports show the hand-computed figures; bad lines are listed", async ({
    page,
  }, testInfo) => {
    const patient = await createUser({
      tag: "csv-agp-patient",
      identity: 1,
      firstName: "Agata",
      lastName: "Plik",
      unit: 1,
      timeZone: ZONE,
    });
    const clinic = await createUser({
      tag: "csv-agp-clinic",
      identity: 2,
      firstName: "Iris",
      lastName: "Import",
      unit: 1,
    });
    await createAcceptedShare(patient.id, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);
    await page.goto(`/patientShow/${patient.pid}/import`);
    const file = clarityDays(14);
    expect(file.readings).toBe(4032);
    await previewFile(page, { name: "two-weeks.csv", buffer: file.buffer });
    // The count as English writes it: 14 x 288 = 4032 readings is "4,032".
    await expect(termValue(page, "import-summary", im("summary.toAdd"))).toHaveText("4,032");
    await page.getByRole("button", { name: fill(im("confirmButton"), { count: "4,032" }) }).click();
    await expect(page.getByTestId("import-done")).toBeVisible();

    await page.goto(`/${patient.pid}/agpprint?start=${file.first}&end=${file.last}`);
    await expect(page.getByTestId("agp-tir-inRange")).toHaveText("50.0 %");
    await expect(page.getByTestId("agp-tir-low")).toHaveText("25.0 %");
    await expect(page.getByTestId("agp-tir-high")).toHaveText("25.0 %");
    await expect(page.getByTestId("agp-tir-veryLow")).toHaveText("0.0 %");
    await testInfo.attach(`csv-agp-${testInfo.project.name}.png`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });
    await page.goto(`/${patient.pid}/statisticsprint?start=${file.first}&end=${file.last}`);
    await expect(
      page.getByTestId("statistic-MBG").getByTestId("current").getByTestId("value"),
    ).toHaveText("125");
    await expect(
      page.getByTestId("statistic-TIR").getByTestId("current").getByTestId("value"),
    ).toHaveText("50.0");

    // A LibreView export with month-first dates, a 12-hour clock and mmol/L, read in Warsaw time.
    await page.goto(`/patientShow/${patient.pid}/import`);
    await previewFile(page, {
      name: "libreview-mdy-12h-mmol.csv",
      buffer: readFileSync(path.join(FIXTURES, "libreview-mdy-12h-mmol.csv")),
    });
    await expect(termValue(page, "import-summary", im("summary.format"))).toHaveText(
      im("formats.libreview"),
    );
    await expect(termValue(page, "import-summary", im("summary.dateOrder"))).toHaveText(
      `${im("dateOrders.MDY")}, ${im("clocks.12h")}`,
    );
    await expect(termValue(page, "import-summary", im("kinds.cgm"))).toHaveText("11");
    await page.getByRole("button", { name: fill(im("confirmButton"), { count: 15 }) }).click();
    await expect(page.getByTestId("import-done")).toBeVisible();
    // 15 January: ten historic readings in mmol/L (5.4, 5.6, 6.1, 3.9, 2.2, 7.8, 10.0, 12.5, 9.4, 6.7), x 18 and
    // averaged by hand: 1252.8 / 10 = 125.28 mg/dL, shown as 125.
    await page.goto(
      `/patientShow/${patient.pid}/${patient.id}/patientHome?tab=cgms&date=2026-01-15`,
    );
    await expect(termValue(page, "cgm-stats", v("cgms.average"))).toHaveText("125 mg/dL");

    // A file with bad lines: each is listed with its number; the good lines are kept.
    await page.goto(`/patientShow/${patient.pid}/import`);
    await previewFile(page, {
      name: "generic-bad-lines.csv",
      buffer: readFileSync(path.join(FIXTURES, "generic-bad-lines.csv")),
    });
    const errors = page.getByTestId("import-errors").locator("tbody tr");
    await expect(errors).toHaveCount(8);
    await expect(errors.first()).toContainText("3");
    await expect(termValue(page, "import-summary", im("summary.toAdd"))).toHaveText("3");
  });

  test("a file that is not text is refused with the reason; a stranger gets a 404; the export downloads our own CSV", async ({
    page,
    browser,
  }) => {
    const patient = await createUser({
      tag: "csv-refuse-patient",
      identity: 1,
      firstName: "Rita",
      lastName: "Refused",
      unit: 1,
      timeZone: ZONE,
    });
    await signIn(page, patient.email, patient.password, 1);
    await page.goto(`/patientShow/${patient.pid}/import`);
    await page.getByLabel(im("fields.format"), { exact: true }).selectOption("generic");
    await page.getByLabel(im("fields.file"), { exact: true }).setInputFiles({
      name: "photo.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("time\u0000,glucose\n"),
    });
    await page.getByRole("button", { name: im("previewButton") }).click();
    await expect(page.getByRole("alert")).toHaveText(tr("en", "errors.binary", "csv"));
    // The options chosen stay after the refusal.
    await expect(page.getByLabel(im("fields.format"), { exact: true })).toHaveValue("generic");

    // A day of readings in a four-column file whose columns are chosen on the form, then the export of that day.
    await page.getByLabel(im("fields.timeColumn")).fill("3");
    await page.getByLabel(im("fields.glucoseColumn")).fill("2");
    await previewFile(page, {
      name: "day.csv",
      buffer: Buffer.from(
        "n;mmol;taken;note\n1;5,5;2026-02-10 08:00;fasting\n2;6,1;2026-02-10 08:05;\n",
      ),
    });
    await page.getByRole("button", { name: fill(im("confirmButton"), { count: 2 }) }).click();
    await expect(page.getByTestId("import-done")).toBeVisible();
    await page.goto(`/patientShow/${patient.pid}/import`);
    await page.getByLabel(im("export.start"), { exact: true }).fill("2026-02-10");
    await page.getByLabel(im("export.end"), { exact: true }).fill("2026-02-10");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: im("export.button") }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`diacare-${patient.pid}-2026-02-10-2026-02-10.csv`);
    const text = readFileSync((await download.path())!, "utf8");
    // 5.5 and 6.1 mmol/L x 18 = 99 and 109.8 mg/dL, at 08:00 and 08:05 Warsaw time (07:00 and 07:05 UTC).
    expect(text).toContain(
      "cgm,2026-02-10T07:00:00.000Z,2026-02-10 08:00:00,Europe/Warsaw,imported,generic",
    );
    expect(text).toMatch(
      /2026-02-10T07:05:00\.000Z,2026-02-10 08:05:00,Europe\/Warsaw,imported,generic,,\d+,,109\.8,/,
    );

    const stranger = await createUser({
      tag: "csv-stranger",
      identity: 1,
      firstName: "Sam",
      lastName: "Stranger",
    });
    const other = await browser.newPage();
    await signIn(other, stranger.email, stranger.password, 1);
    const response = await other.goto(`/patientShow/${patient.pid}/import`);
    expect(response?.status()).toBe(404);
    await other.close();
  });
});
