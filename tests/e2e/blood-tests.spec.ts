import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import type { UploadSummary } from "../../app/services/ingest.server";
import { displayDate, shiftDate, todayIn } from "../../app/report/day";
import { formatDate, formatDateRange } from "../../app/report/locale-format";
import { reportPageHref, reportPdfFileName, reportPdfHref } from "../../app/report/report-kinds";
import type { GlucoseUnit } from "../../app/domain/glucose-unit";
import { apiCall, apiToken } from "./api";
import { createAcceptedShare, createUser } from "./db";
import { tr, type Lng } from "./i18n";
import { createKnownPatient, type KnownPatient } from "./known-patient";
import { dateField } from "./date-fields";
import { downloadReportPdf, readPdf } from "./report-pdf";
import { signIn, signInWithLanguage } from "./support";

/**
 * The blood tests report (the meter logbook) over the known patient's week (known-patient.ts:
 * meter 90 mg/dL at 07:30 and 150 mg/dL at 19:30 on each of the 7 days ending yesterday, in
 * Asia/Kolkata) plus one manual blood value uploaded with the CGM, raw 35 = 63 mg/dL, at 03:00 on
 * the last day. With the default meal times: 07:30 is before breakfast (05:00-08:00), 19:30 after
 * supper (18:30-22:00), 03:00 night (22:00-05:00).
 *
 * By hand:
 * - before breakfast: 7 values of 90 mg/dL, average 90 mg/dL = 5.0 mmol/L, no lows;
 * - after supper: 7 values of 150 mg/dL, average 150 mg/dL = 8.33 -> 8.3 mmol/L;
 * - night: 1 value of 63 mg/dL = 3.5 mmol/L, below 70 mg/dL: 1 low;
 * - the period: (7 x 90 + 7 x 150 + 63) / 15 = 1743 / 15 = 116.2 -> 116 mg/dL; / 18 = 6.46 ->
 *   6.5 mmol/L; 15 values, 1 low.
 */
const MANUAL_RAW = 35;

/** Uploads the manual blood value (AiDEX dataOrigin 3) at 03:00 on the patient's last day. */
async function addManualValue(request: APIRequestContext, patient: KnownPatient) {
  const token = await apiToken(request, patient, 1);
  const answer = await apiCall<UploadSummary>(
    request,
    token,
    "POST",
    "/api/patient-data/saveCgmsData",
    {
      pid: patient.pid,
      deviceSn: `KAXM${patient.pid}`,
      timeZone: patient.timeZone,
      dataList: [
        {
          eventIndex: 1,
          eventType: 7,
          eventData: MANUAL_RAW,
          deviceTime: `${patient.last} 03:00:00`,
          dataOrigin: 3,
        },
      ],
    },
  );
  expect([answer.code, answer.data.inserted]).toEqual([200, 1]);
}

/** The <dd> after the <dt> with exactly this label in the report's figure list. */
function figure(page: Page, label: string) {
  return page
    .getByTestId("blood-tests-figures")
    .locator("dt", { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) })
    .locator("xpath=following-sibling::dd[1]");
}

const cell = (page: Page, date: string, period: string) =>
  page
    .getByTestId("blood-tests-logbook")
    .locator(`tr[data-date="${date}"] td[data-period="${period}"]`);
const footer = (page: Page, row: "average" | "count" | "lows", period: string) =>
  page.getByTestId(`column-${row}`).locator(`td[data-period="${period}"]`);

test.describe("Blood tests report", () => {
  // A known patient's uploads, sign-in, report renders and a server-side PDF on a 2-core machine.
  test.describe.configure({ timeout: 150_000 });

  test("a clinic opens the logbook from the patient page: every value in its day and meal period, marked and summed up by hand; an empty range links the latest data; the PDF downloads", async ({
    page,
    request,
  }, testInfo) => {
    const r = (key: string) => tr("en", key, "reports");
    const patient = await createKnownPatient(request, {
      tag: "logbook-patient",
      firstName: "Lena",
      lastName: "Logbook",
    });
    await addManualValue(request, patient);
    const clinic = await createUser({
      tag: "logbook-clinic",
      identity: 2,
      firstName: "Mia",
      lastName: "Meter",
      unit: 1,
    });
    await createAcceptedShare(patient.id, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);

    await page.goto(`/patientShow/${patient.pid}/${patient.id}/patientHome`);
    await page
      .getByRole("navigation", { name: tr("en", "reports.label", "views") })
      .first()
      .getByRole("link", { name: tr("en", "reports.bloodTests", "views") })
      .click();
    await expect(
      page.getByRole("heading", { level: 1, name: r("bloodTests.title") }),
    ).toBeVisible();
    await expect(page.getByTestId("report-patient")).toHaveText(patient.name);

    // Without dates: the 15 days ending today in the patient's zone, which hold the week.
    const today = todayIn(patient.timeZone, Date.now());
    const start = shiftDate(today, -14);
    await expect(page.getByTestId("report-range")).toHaveText(formatDateRange(start, today, "en"));
    const mgdl = tr("en", "units.1");
    await expect(figure(page, r("bloodTests.average"))).toHaveText(`116 ${mgdl}`);
    await expect(figure(page, r("bloodTests.count"))).toHaveText("15");
    await expect(figure(page, r("bloodTests.lows").replace("{{limit}}", `70 ${mgdl}`))).toHaveText(
      "1",
    );
    await expect(figure(page, r("bloodTests.daysWithData"))).toHaveText("7 of 15");

    // The columns by meal period, with the periods' clock times under their names.
    const logbook = page.getByTestId("blood-tests-logbook");
    await expect(logbook.locator('th[data-period="beforeBreakfast"]')).toHaveText(
      `${r("bloodTests.periods.beforeBreakfast")}05:00–08:00`,
    );
    await expect(logbook.locator('th[data-period="night"]')).toHaveText(
      `${r("bloodTests.periods.night")}22:00–05:00`,
    );
    // Every day of the week: 90 before breakfast at 07:30, 150 after supper at 19:30.
    for (let d = 0; d < 7; d++) {
      const date = shiftDate(patient.first, d);
      await expect(cell(page, date, "beforeBreakfast")).toHaveText("90 07:30");
      await expect(cell(page, date, "afterSupper")).toHaveText("150 19:30");
      await expect(cell(page, date, "beforeLunch")).toHaveText("");
    }
    // The manual value at night on the last day: low, marked so without colour too.
    const low = cell(page, patient.last, "night");
    await expect(low).toHaveText(`↓63 (${r("bloodTests.belowRange")}) 03:00`);
    await expect(low.locator('[data-class="veryLow"], [data-class="low"]')).toHaveCount(1);
    await expect(cell(page, shiftDate(patient.first, 0), "night")).toHaveText("");
    // Each column's average, count and lows.
    await expect(footer(page, "average", "beforeBreakfast")).toHaveText("90");
    await expect(footer(page, "average", "afterSupper")).toHaveText("150");
    await expect(footer(page, "average", "night")).toHaveText("63");
    await expect(footer(page, "average", "afterLunch")).toHaveText("—");
    await expect(footer(page, "count", "beforeBreakfast")).toHaveText("7");
    await expect(footer(page, "count", "night")).toHaveText("1");
    await expect(footer(page, "lows", "night")).toHaveText("1");
    await expect(footer(page, "lows", "beforeBreakfast")).toHaveText("0");
    await testInfo.attach(`blood-tests-screen-${testInfo.project.name}.png`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });

    const range = { start, end: today };
    const pdf = await downloadReportPdf(page, testInfo, {
      href: reportPdfHref("bloodTests", patient.pid, range),
      fileName: reportPdfFileName("bloodTests", patient.pid, range),
      label: "blood-tests",
    });
    expect(pdf.pages).toBeGreaterThanOrEqual(1);
    expect(pdf.text).toContain(patient.name);
    expect(pdf.text).toContain(r("bloodTests.title"));
    expect(pdf.text).toContain(`116 ${mgdl}`);
    expect(pdf.text).toMatch(/↓\s*63/);
    expect(pdf.title).toBe(
      r("common.documentTitle")
        .replace("{{patient}}", patient.name)
        .replace("{{report}}", r("bloodTests.title"))
        .replace("{{from}}", formatDate(start, "en"))
        .replace("{{to}}", formatDate(today, "en")),
    );

    // A range without values says so and links the 7 days ending on the last day with values.
    const before = shiftDate(patient.first, -30);
    const startField = dateField(page, "start", r("common.range.start"));
    const endField = dateField(page, "end", r("common.range.end"));
    await startField.fill(displayDate(shiftDate(before, -6)));
    await endField.fill(displayDate(before));
    await page.getByRole("button", { name: r("common.preview") }).click();
    await expect(
      page.getByText(
        r("bloodTests.noData")
          .replace("{{from}}", formatDate(shiftDate(before, -6), "en"))
          .replace("{{to}}", formatDate(before, "en")),
      ),
    ).toBeVisible();
    await page.getByTestId("latest-data").getByRole("link").click();
    await expect(page.getByTestId("report-range")).toHaveText(
      formatDateRange(shiftDate(patient.last, -6), patient.last, "en"),
    );
    await expect(figure(page, r("bloodTests.count"))).toHaveText("15");

    // More than 90 days is refused with the translated message; the typed dates stay.
    // (With JavaScript the range picker refuses it with the same message before sending.)
    await startField.fill("2025/01/01");
    await endField.fill(displayDate(patient.last));
    await page.getByRole("button", { name: r("common.preview") }).click();
    await expect(page.getByRole("alert")).toHaveText(tr("en", "problems.tooLong", "views"));
    await startField.expectValue("2025/01/01");
  });
});

/**
 * Every language, each in one of the two units, so that both units are seen in every part of
 * the report (the figures, the cells, the columns' averages) and on paper.
 */
const CASES: readonly {
  lng: Lng;
  unit: GlucoseUnit;
  average: string;
  afterSupper: string;
  night: string;
}[] = [
  { lng: "en", unit: 0, average: "6.5", afterSupper: "8.3", night: "3.5" },
  { lng: "pl", unit: 0, average: "6,5", afterSupper: "8,3", night: "3,5" },
  { lng: "ru", unit: 1, average: "116", afterSupper: "150", night: "63" },
  { lng: "it", unit: 1, average: "116", afterSupper: "150", night: "63" },
  { lng: "ro", unit: 0, average: "6,5", afterSupper: "8,3", night: "3,5" },
];

test.describe("Blood tests report in every language and both units", () => {
  test.describe.configure({ timeout: 150_000 });

  for (const { lng, unit, average, afterSupper, night } of CASES) {
    test(`${lng}, ${unit === 1 ? "mg/dL" : "mmol/L"}: the logbook and its PDF in the reader's language and unit`, async ({
      page,
      request,
    }, testInfo) => {
      const r = (key: string) => tr(lng, key, "reports");
      const unitText = tr(lng, `units.${unit}`);
      const patient = await createKnownPatient(request, {
        tag: `logbook-${lng}-patient`,
        firstName: "Tess",
        lastName: `Strip${lng}`,
      });
      await addManualValue(request, patient);
      const clinic = await createUser({
        tag: `logbook-${lng}`,
        identity: 2,
        firstName: "Lea",
        lastName: `Lang${lng}`,
        lang: lng,
        unit,
      });
      await createAcceptedShare(patient.id, clinic.id);
      await signInWithLanguage(page, clinic, lng);

      const range = { start: patient.first, end: patient.last };
      await page.goto(
        `${reportPageHref("bloodTests", patient.pid)}?start=${displayDate(range.start)}&end=${displayDate(range.end)}`,
      );
      const title = r("bloodTests.title");
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
      await expect(figure(page, r("bloodTests.average"))).toHaveText(`${average} ${unitText}`);
      await expect(figure(page, r("bloodTests.count"))).toHaveText("15");
      await expect(
        page.getByTestId("blood-tests-logbook").locator('th[data-period="afterSupper"]'),
      ).toContainText(r("bloodTests.periods.afterSupper"));
      await expect(cell(page, patient.first, "afterSupper")).toHaveText(`${afterSupper} 19:30`);
      await expect(cell(page, patient.last, "night")).toContainText(`↓${night}`);
      await expect(footer(page, "average", "afterSupper")).toHaveText(afterSupper);
      await expect(footer(page, "lows", "night")).toHaveText("1");

      // Signed-in Polish readers are held by the regional-site dialog, which covers the page: fetch their PDF with the same session.
      const href = reportPdfHref("bloodTests", patient.pid, range);
      const label = `blood-tests-${lng}`;
      const pdf =
        lng === "pl"
          ? await readPdf(await (await page.request.get(href)).body(), testInfo, label)
          : await downloadReportPdf(page, testInfo, {
              href,
              fileName: reportPdfFileName("bloodTests", patient.pid, range),
              label,
              lang: lng,
            });
      expect(pdf.text).toContain(title);
      expect(pdf.text).toContain(`${average} ${unitText}`);
      expect(pdf.text).toContain(r("bloodTests.logbook"));
      expect(pdf.text).toMatch(new RegExp(`↓\\s*${night.replace(".", "\\.")}`));
      expect(pdf.text).not.toContain(tr(lng, "regional.title"));
    });
  }
});
