import { expect, test, type Page } from "@playwright/test";
import { Temporal } from "temporal-polyfill";
import { createAcceptedShare, createUser, demoPatient } from "./db";
import { dateField } from "./date-fields";
import { formatDate, formatDateRange } from "../../app/report/locale-format";
import { tr } from "./i18n";
import { signIn } from "./support";

const quick = (days: number) => tr("en", `quickRanges.d${days}`);
const slash = (date: Temporal.PlainDate) => date.toString().replaceAll("-", "/");

/**
 * The last `days` days ending today in `timeZone`, both ends counted: as the date fields hold
 * them (YYYY/MM/DD), as ISO dates, and as the English page writes them (each date and the range).
 */
function lastDays(days: number, timeZone: string) {
  const today = Temporal.Now.plainDateISO(timeZone);
  const iso = { from: today.subtract({ days: days - 1 }).toString(), to: today.toString() };
  return {
    from: slash(today.subtract({ days: days - 1 })),
    to: slash(today),
    iso,
    text: { from: formatDate(iso.from, "en"), to: formatDate(iso.to, "en") },
    range: formatDateRange(iso.from, iso.to, "en"),
  };
}

/** No refusal of any kind on the page (a report's alert, a view's problem notice). */
async function expectNoRangeError(page: Page) {
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(page.getByText(tr("en", "problems.future", "views"))).toHaveCount(0);
}

test.describe("quick ranges are the last N days ending today, on every range control", () => {
  // Report pages of up to 90 days and several sign-ins on a 2-core machine.
  test.describe.configure({ timeout: 180_000 });

  let patient: Awaited<ReturnType<typeof demoPatient>>;

  test.beforeEach(async ({ page }) => {
    patient = await demoPatient();
    const clinic = await createUser({
      tag: "quick-clinic",
      identity: 2,
      firstName: "Quinn",
      lastName: "Quick",
    });
    await createAcceptedShare(patient.userId, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);
  });

  test("report pages: 30 and 90 days on the pump report, 90 and 30 on statistics, 14 on CGM, whatever start was typed", async ({
    page,
  }) => {
    // A start of today made '30 days from the start' end in the future; now it plays no part.
    const today = lastDays(1, patient.timeZone).to;
    const start = dateField(page, "start", tr("en", "common.range.start", "reports"));
    const end = dateField(page, "end", tr("en", "common.range.end", "reports"));
    await page.goto(`/${patient.pid}/print`);
    await start.fill(today);
    await page.getByRole("button", { name: quick(30), exact: true }).click();
    const thirty = lastDays(30, patient.timeZone);
    await expect(page.getByTestId("report-range")).toHaveText(thirty.range);
    await expect(page).toHaveURL(/[?&]days=30(&|$)/);
    await expectNoRangeError(page);
    await start.expectValue(thirty.from);
    await end.expectValue(thirty.to);

    await page.getByRole("button", { name: quick(90), exact: true }).click();
    const ninety = lastDays(90, patient.timeZone);
    await expect(page.getByTestId("report-range")).toHaveText(ninety.range);
    await expectNoRangeError(page);
    // The PDF is offered for exactly the range shown.
    await expect(
      page.getByRole("link", { name: tr("en", "common.download", "reports") }),
    ).toHaveAttribute(
      "href",
      `/${patient.pid}/print.pdf?start=${ninety.iso.from}&end=${ninety.iso.to}`,
    );

    await page.goto(`/${patient.pid}/statisticsprint`);
    await page.getByRole("button", { name: quick(90), exact: true }).click();
    await expect(page.getByTestId("report-range")).toHaveText(ninety.range);
    await expectNoRangeError(page);
    await page.getByRole("button", { name: quick(30), exact: true }).click();
    await expect(page.getByTestId("report-range")).toHaveText(thirty.range);
    await expectNoRangeError(page);

    // CGM and AGP reports cover 3 to 14 days: 7 and 14, no 30.
    await page.goto(`/${patient.pid}/cgmsprint`);
    await expect(page.getByRole("button", { name: quick(30), exact: true })).toHaveCount(0);
    await start.fill("2099/01/01");
    await page.getByRole("button", { name: quick(14), exact: true }).click();
    const fourteen = lastDays(14, patient.timeZone);
    await expect(page.getByTestId("report-range")).toHaveText(fourteen.range);
    await expectNoRangeError(page);
  });

  test("the BG view, the CGM overlay and the CSV export", async ({ page }) => {
    const base = `/patientShow/${patient.pid}/${patient.userId}/patientHome`;
    const v = (key: string) => tr("en", key, "views");
    const showing = ({ text }: { text: { from: string; to: string } }) =>
      v("range.showing").replace("{{from}}", text.from).replace("{{to}}", text.to);

    const from = dateField(page, "from", v("range.from"));
    const to = dateField(page, "to", v("range.to"));
    await page.goto(`${base}?tab=bg`);
    await from.fill("2099/01/01");
    await page.getByRole("button", { name: quick(30), exact: true }).click();
    const thirty = lastDays(30, patient.timeZone);
    await expect(page.getByText(showing(thirty), { exact: true })).toBeVisible();
    await to.expectValue(thirty.to);
    await expectNoRangeError(page);
    await page.getByRole("button", { name: quick(90), exact: true }).click();
    const ninety = lastDays(90, patient.timeZone);
    await expect(page.getByText(showing(ninety), { exact: true })).toBeVisible();
    await from.expectValue(ninety.from);
    await expectNoRangeError(page);

    // The overlay always covers 14 days; its quick range ends them today.
    await page.goto(
      `${base}?tab=cgms&view=overlay&date=${lastDays(20, patient.timeZone).iso.from}`,
    );
    await page.getByRole("button", { name: quick(14), exact: true }).click();
    await dateField(page, "date", v("nav.date")).expectValue(lastDays(1, patient.timeZone).to);
    await expectNoRangeError(page);

    // The export downloads the last 30 days straight away, whatever dates are in the fields.
    await page.goto(`/patientShow/${patient.pid}/import`);
    await page.getByLabel(tr("en", "export.start", "import")).fill("2000-01-01");
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: quick(30), exact: true }).click();
    expect((await download).suggestedFilename()).toBe(
      `diacare-${patient.pid}-${thirty.iso.from}-${thirty.iso.to}.csv`,
    );
  });
});
