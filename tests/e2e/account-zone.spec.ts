import { expect, test, type Page } from "@playwright/test";
import { addUploadErrorReport, createUser } from "./db";
import { tr } from "./i18n";
import { signIn } from "./support";

const t = (key: string) => tr("en", key, "settings");

const MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ");

/**
 * An instant on a zone's clock as the English page writes it, "Nov 25, 2026, 16:04", put together
 * from the zone's numeric parts (not with the app's own code).
 */
function clock(zone: string, at: number) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${MONTHS[Number(parts.month) - 1]} ${parts.day}, ${parts.year}, ${parts.hour}:${parts.minute}`;
}

/** The report header preview's "Generated" value: made between `before` and now, on `zone`'s clock. */
async function expectPreviewMadeIn(page: Page, zone: string, before: number) {
  const text = await page
    .getByTestId("settings-preview")
    .locator("dd")
    .filter({ hasText: /time zone/ })
    .textContent();
  const made = (time: string) =>
    tr("en", "common.header.generatedAtValue", "reports")
      .replace("{{time}}", time)
      .replace("{{zone}}", zone);
  expect([made(clock(zone, before)), made(clock(zone, Date.now()))]).toContain(text);
}

const zoneSelect = (page: Page) => page.getByLabel(t("zone.label"), { exact: true });

async function chooseZone(page: Page, zone: string) {
  await zoneSelect(page).selectOption(zone);
  await page.getByRole("button", { name: t("zone.save") }).click();
  await expect(page.getByRole("status").filter({ hasText: t("notices.zoneSaved") })).toBeVisible();
  await expect(page.getByTestId("account-zone-now")).toHaveText(
    t("zone.current").replace("{{zone}}", zone),
  );
}

test.describe("the zone of an account's own times", () => {
  test("a clinic reads its times in UTC until it chooses a zone; the report header preview follows it; a zone outside the list is refused", async ({
    page,
  }) => {
    const clinic = await createUser({
      tag: "zone-clinic",
      identity: 2,
      firstName: "Zora",
      lastName: "Zone",
    });
    await signIn(page, clinic.email, clinic.password, 2);
    let before = Date.now();
    await page.goto("/newsetting");

    // None chosen: UTC, and the page says so.
    const zone = zoneSelect(page);
    await expect(zone).toHaveValue("");
    await expect(page.getByTestId("account-zone-now")).toHaveText(t("zone.currentNone"));
    await expect(zone.locator("option")).toHaveCount(32);
    await expect(zone.locator('option[value=""]')).toHaveText(t("zone.none"));
    // "(GMT+01:00) Warsaw — 14:05": offset, name and the time there now.
    await expect(zone.locator('option[value="Europe/Warsaw"]')).toHaveText(
      /^\(GMT\+0[12]:00\) Warsaw — \d{2}:\d{2}$/,
    );
    await expectPreviewMadeIn(page, "UTC", before);

    // Tokyo: UTC+9 all year, so the preview's clock is nine hours on from UTC's.
    before = Date.now();
    await chooseZone(page, "Asia/Tokyo");
    await expectPreviewMadeIn(page, "Asia/Tokyo", before);
    await page.goto("/newsetting");
    await expect(zoneSelect(page)).toHaveValue("Asia/Tokyo");

    // A real zone, but not one of the 31 (slipped into the list): refused with its message.
    await zoneSelect(page).evaluate((select) => {
      const option = document.createElement("option");
      option.value = "Asia/Kathmandu";
      option.textContent = "Kathmandu";
      select.appendChild(option);
    });
    await zoneSelect(page).selectOption("Asia/Kathmandu");
    await page.getByRole("button", { name: t("zone.save") }).click();
    await expect(
      page
        .locator("#zone")
        .getByRole("alert")
        .filter({ hasText: t("errors.accountZone") }),
    ).toBeVisible();
    await page.goto("/newsetting");
    await expect(zoneSelect(page)).toHaveValue("Asia/Tokyo");

    // None again: back to UTC.
    await zoneSelect(page).selectOption("");
    await page.getByRole("button", { name: t("zone.save") }).click();
    await expect(page.getByTestId("account-zone-now")).toHaveText(t("zone.currentNone"));
  });

  test("an administrator without a health record reads the upload error reports on the clock of the zone it chose", async ({
    page,
  }) => {
    const admin = await createUser({
      tag: "zone-admin",
      identity: 2,
      role: "admin",
      firstName: "Ada",
      lastName: "Zoned",
    });
    const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    // Dated after every other report, so that they are on the first page (newest first).
    await addUploadErrorReport({
      operatorUserId: admin.id,
      patientUserId: null,
      content: `winter ${tag}`,
      createdAt: new Date("2030-01-15T12:34:56Z"),
    });
    await addUploadErrorReport({
      operatorUserId: admin.id,
      patientUserId: null,
      content: `summer ${tag}`,
      createdAt: new Date("2030-07-15T12:34:56Z"),
    });
    const when = (zone: string) => tr("en", "uploadErrors.when", "admin").replace("{{zone}}", zone);
    const timeOf = (season: string) =>
      page
        .getByRole("row")
        .filter({ hasText: `${season} ${tag}` })
        .getByRole("cell")
        .first();

    await signIn(page, admin.email, admin.password, 2);
    await page.goto("/admin/upload-errors");
    await expect(page.getByRole("columnheader").first()).toHaveText(when("UTC"));
    await expect(timeOf("winter")).toHaveText("Jan 15, 2030, 12:34:56");
    await expect(timeOf("summer")).toHaveText("Jul 15, 2030, 12:34:56");

    await page.goto("/newsetting");
    await chooseZone(page, "America/New_York");
    await page.goto("/admin/upload-errors");
    await expect(page.getByRole("columnheader").first()).toHaveText(when("America/New_York"));
    // New York: UTC-5 in January, UTC-4 (daylight saving time) in July.
    await expect(timeOf("winter")).toHaveText("Jan 15, 2030, 07:34:56");
    await expect(timeOf("summer")).toHaveText("Jul 15, 2030, 08:34:56");
  });

  test("a person with a health record is offered no account zone: their times follow the record's zone", async ({
    page,
  }) => {
    const person = await createUser({
      tag: "zone-person",
      identity: 1,
      firstName: "Pera",
      lastName: "Record",
      timeZone: "Asia/Kolkata",
    });
    await signIn(page, person.email, person.password, 1);
    const before = Date.now();
    await page.goto("/newsetting");
    await expect(page.getByRole("heading", { level: 1, name: t("title") })).toBeVisible();
    await expect(zoneSelect(page)).toHaveCount(0);
    await expect(page.getByLabel(t("day.zone"), { exact: true })).toHaveValue("Asia/Kolkata");
    await expectPreviewMadeIn(page, "Asia/Kolkata", before);
  });
});
