import { expect, test, type Locator, type Page } from "@playwright/test";
import { createAcceptedShare, createUser, demoPatient } from "./db";
import { dateField, pickerSegments } from "./date-fields";
import { tr } from "./i18n";
import { jsEnabled } from "./support";
import { formatDateRange } from "../../app/report/locale-format";

/**
 * A keyboard-only walk, with JavaScript and without: sign in, open a patient from the list, step
 * to the previous day on DAILY, choose a report range and download the PDF. Nothing is clicked:
 * every control is reached with Tab and used with Enter or typing, and the focus is visible. With
 * JavaScript the range is typed into the date picker's segments (in English month, day, year).
 */

/** Presses Tab until `target` has the focus (at most `max` times); fails when it never does. */
async function tabTo(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) {
      // The focus shows: the focused control draws an outline.
      expect(await target.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe(
        "none",
      );
      return;
    }
  }
  throw new Error(`Tab never reached ${target}`);
}

test("a clinic works with the keyboard only: sign-in, patient list, DAILY navigation, report range and PDF download", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const patient = await demoPatient();
  const clinic = await createUser({
    tag: "keyboard-clinic",
    identity: 2,
    firstName: "Kira",
    lastName: "Keys",
  });
  await createAcceptedShare(patient.userId, clinic.id);

  await page.goto("/login");
  const main = page.getByRole("main");
  await tabTo(page, main.getByLabel(/^Email/));
  await page.keyboard.type(clinic.email);
  await tabTo(page, main.getByLabel(/^Password/), 3);
  await page.keyboard.type(clinic.password);
  const clinicChoice = page.getByLabel(tr("en", "login.identity2", "auth"));
  // Tab stops once in a radio group, on its checked button (or the first).
  const radios = page.locator('input[name="identity"]');
  const checked = await radios.evaluateAll((inputs) =>
    inputs.findIndex((input) => (input as HTMLInputElement).checked),
  );
  await tabTo(page, radios.nth(Math.max(0, checked)), 5);
  // Radio buttons of one group: the arrow keys move the choice.
  if (!(await clinicChoice.isChecked())) await page.keyboard.press("ArrowDown");
  await expect(clinicChoice).toBeChecked();
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/patientShow/);

  // The patient list: the patient's link, then Enter.
  await page.goto("/patientShow/patients");
  const link = page.getByRole("link", { name: /Anna Kowalczyk/ }).first();
  await tabTo(page, link);
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/patientHome/);
  const shown = dateField(page, "date", tr("en", "nav.date", "views"));
  const before = await shown.value();

  // DAILY: the previous day.
  await tabTo(
    page,
    page.getByRole("link", { name: new RegExp(tr("en", "nav.previous", "views")) }),
  );
  await page.keyboard.press("Enter");
  const [y, m, d] = before.split("/").map(Number) as [number, number, number];
  const previous = new Date(Date.UTC(y, m - 1, d - 1))
    .toISOString()
    .slice(0, 10)
    .replaceAll("-", "/");
  await shown.expectValue(previous);

  // The statistics report: type a range, Enter previews it, then the PDF link with Enter.
  await page.goto(`/${patient.pid}/statisticsprint`);
  const [py, pm, pd] = previous.split("/").map(Number) as [number, number, number];
  const earlier = new Date(Date.UTC(py, pm - 1, pd - 13))
    .toISOString()
    .slice(0, 10)
    .replaceAll("-", "/");
  if (jsEnabled()) {
    // The picker's segments: Tab reaches the first (the month in English), typed digits fill a
    // segment and move on to the next.
    const usOrder = (date: string) => {
      const [yyyy, mm, dd] = date.split("/") as [string, string, string];
      return `${mm}${dd}${yyyy}`;
    };
    // The picker replaces the text fields once the page's JavaScript runs.
    await expect(pickerSegments(page, "start").first()).toBeVisible();
    await tabTo(page, pickerSegments(page, "start").first());
    await page.keyboard.type(usOrder(earlier));
    // A filled year moves on to the end date's first segment, as every filled segment moves on.
    await expect(pickerSegments(page, "end").first()).toBeFocused();
    await page.keyboard.type(usOrder(previous));
  } else {
    const start = page.getByLabel(tr("en", "common.range.start", "reports"));
    await tabTo(page, start);
    await page.keyboard.press("Control+A");
    await page.keyboard.type(previous);
    const end = page.getByLabel(tr("en", "common.range.end", "reports"));
    await tabTo(page, end, 3);
    await page.keyboard.press("Control+A");
    await page.keyboard.type(previous);
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Control+A");
    await page.keyboard.type(earlier);
  }
  await page.keyboard.press("Enter");
  // The range as English reads it ("Nov 12 – 25, 2026"), from the dates typed.
  const iso = (date: string) => date.replaceAll("/", "-");
  await expect(page.getByTestId("report-range")).toHaveText(
    formatDateRange(iso(earlier), iso(previous), "en"),
  );

  const download = page.waitForEvent("download");
  await tabTo(page, page.getByRole("link", { name: tr("en", "common.download", "reports") }));
  await page.keyboard.press("Enter");
  const file = await download;
  expect(file.suggestedFilename()).toBe(
    `statistics-report-${patient.pid}-${earlier.replaceAll("/", "-")}-${previous.replaceAll("/", "-")}.pdf`,
  );
});
