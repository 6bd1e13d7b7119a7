import { expect, test } from "@playwright/test";
import { shiftDate, todayIn } from "../../app/report/day";
import { createAcceptedShare, createUser } from "./db";
import { tr } from "./i18n";
import { jsEnabled, signIn } from "./support";

const u = (key: string) => tr("en", key, "upload");
const v = (key: string) => tr("en", key, "views");
const im = (key: string) => tr("en", key, "import");
const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce(
    (out, [k, value]) => out.replaceAll(`{{${k}}}`, String(value)),
    text,
  );

test.describe("upload centre", () => {
  test.describe.configure({ timeout: 120_000 });
  // The simulated devices keep the browser's clock: the days they hold are UTC days here.
  test.use({ timezoneId: "UTC" });

  test("a clinic opens a patient's upload centre: four steps, the zones with their offsets, meal times saved; the accepted files with samples", async ({
    page,
  }) => {
    // With JavaScript the page hydrates without a mismatch (the zones' times are the same on both sides).
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    const patient = await createUser({
      tag: "centre-patient",
      identity: 1,
      firstName: "Ula",
      lastName: "Upload",
      timeZone: "Europe/Warsaw",
    });
    const clinic = await createUser({
      tag: "centre-clinic",
      identity: 2,
      firstName: "Cleo",
      lastName: "Centre",
    });
    await createAcceptedShare(patient.id, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);
    await page.goto(`/patientShow/${patient.pid}/${patient.id}/patientHome`);
    await page
      .getByRole("navigation", { name: v("tabs.label") })
      .getByRole("link", { name: v("tabs.upload") })
      .click();
    await expect(page.getByRole("heading", { level: 2, name: u("centre.title") })).toBeVisible();
    for (const step of ["driver", "cable", "zone", "device"])
      await expect(
        page.getByRole("heading", { level: 3, name: u(`centre.steps.${step}`) }),
      ).toBeVisible();
    // 31 zones, each with its GMT offset, name and current time.
    const zone = page.getByLabel(u("centre.zone"));
    await expect(zone.locator("option")).toHaveCount(31);
    await expect(zone.locator("option", { hasText: "Warsaw" })).toHaveText(
      /^\(GMT\+0[12]:00\) Warsaw — \d{2}:\d{2}$/,
    );
    await expect(
      page.getByTestId("accepted-files").getByRole("link", { name: im("accepted.sample") }),
    ).toHaveCount(4);
    await page.waitForLoadState("networkidle");
    expect(pageErrors).toEqual([]);

    await zone.selectOption("America/New_York");
    await page.locator("#lunch-end").fill("14:30:00");
    await page.getByRole("button", { name: u("centre.save") }).click();
    await expect(page.getByRole("status")).toHaveText(u("centre.saved"));
    await page.reload();
    await expect(page.getByLabel(u("centre.zone"))).toHaveValue("America/New_York");
    await expect(page.locator("#lunch-end")).toHaveValue("14:30:00");

    // A lunch that ends before it starts is refused with the reason.
    await page.locator("#lunch-end").fill("10:00:00");
    await page.getByRole("button", { name: u("centre.save") }).click();
    await expect(page.getByRole("alert")).toHaveText(tr("en", "errors.mealTimeWrong", "settings"));
    // What was typed stays for the correction.
    await expect(page.locator("#lunch-end")).toHaveValue("10:00:00");
    await expect(page.getByLabel(u("centre.zone"))).toHaveValue("America/New_York");
  });

  test("the device step: without JavaScript it says what is needed and offers the import; with it a device must be chosen first", async ({
    page,
  }) => {
    const patient = await createUser({
      tag: "centre-device",
      identity: 1,
      firstName: "Dora",
      lastName: "Device",
    });
    await signIn(page, patient.email, patient.password, 1);
    await page.goto(`/patientShow/${patient.pid}/upload`);
    if (!jsEnabled()) {
      await expect(page.getByText(u("device.noScript"))).toBeVisible();
      await expect(
        page.getByRole("link", { name: u("device.importInstead") }).first(),
      ).toHaveAttribute("href", `/patientShow/${patient.pid}/import`);
      return;
    }
    await page.getByRole("button", { name: u("device.upload"), exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText(u("device.choseFail"));

    // The simulated handheld (offered outside production) runs the real upload steps and API.
    await page.getByRole("radio", { name: new RegExp(u("device.kinds.equil")) }).check();
    await page.getByRole("button", { name: u("device.simulated") }).click();
    const dialog = page.getByTestId("password-dialog");
    await expect(dialog).toBeVisible();
    // Five characters are refused: a password has exactly six.
    for (let i = 1; i <= 5; i++)
      await dialog.getByLabel(fill(u("device.password.box"), { n: i })).fill(String(i));
    await dialog.getByRole("button", { name: u("device.password.confirm") }).click();
    await expect(dialog.getByRole("alert")).toHaveText(u("device.password.passwordMsg"));
    await dialog.getByRole("button", { name: u("device.password.skip") }).click();
    const progress = page.getByTestId("upload-progress");
    await expect(progress).toHaveAttribute("data-status", "success", { timeout: 60_000 });
    await expect(progress.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
    await expect(progress).toContainText(u("device.status.success"));
    // The history lists the upload: the simulated handheld's serial (one per patient), channel "Browser upload".
    await progress.getByRole("link", { name: v("uploads.title") }).click();
    const row = page.getByTestId("upload-history").locator("tbody tr").first();
    await expect(row).toContainText(`EQSIM${String(patient.pid).padStart(6, "0")}`);
    await expect(row).not.toContainText(v("uploads.otherPatientDevice"));
    await expect(row).toContainText(v("uploads.channels.slices"));

    // The simulated meter: two weeks of four readings a day, 56 added.
    await page.goto(`/patientShow/${patient.pid}/upload`);
    await page.getByRole("radio", { name: new RegExp(u("device.kinds.gocheck")) }).check();
    await page.getByRole("button", { name: u("device.simulated") }).click();
    await expect(page.getByTestId("upload-progress")).toHaveAttribute("data-status", "success", {
      timeout: 60_000,
    });
    await expect(page.getByTestId("upload-progress")).toContainText(
      fill(u("device.summary"), { added: 56, duplicates: 0, flagged: 0 }),
    );
    // The BG view opens on the two weeks up to the last day with readings: all 56 of them.
    await page.goto(`/patientShow/${patient.pid}/${patient.id}/patientHome?tab=bg`);
    await expect(
      page
        .getByTestId("bg-summary")
        .locator("dt", { hasText: new RegExp(`^${v("bg.count")}$`) })
        .locator("xpath=following-sibling::dd[1]"),
    ).toHaveText("56");

    // The simulated AiDEX: the three days before today, a reading every 5 minutes and two
    // finger-pricks a day, numbered in one sequence: 3 x 288 + 6 = 870 added.
    await page.goto(`/patientShow/${patient.pid}/upload`);
    await page.getByRole("radio", { name: new RegExp(u("device.kinds.aidex")) }).check();
    await page.getByRole("button", { name: u("device.simulated") }).click();
    await expect(page.getByTestId("upload-progress")).toHaveAttribute("data-status", "success", {
      timeout: 60_000,
    });
    await expect(page.getByTestId("upload-progress")).toContainText(
      fill(u("device.summary"), { added: 870, duplicates: 0, flagged: 0 }),
    );
    // The middle day, on the device's clock read in the patient's zone: 288 sensor readings.
    const middle = shiftDate(todayIn("UTC", Date.now()), -2);
    await page.goto(
      `/patientShow/${patient.pid}/${patient.id}/patientHome?tab=cgms&date=${middle}`,
    );
    await expect(
      page
        .getByTestId("cgm-stats")
        .locator("dt", { hasText: new RegExp(`^${v("cgms.count")}$`) })
        .locator("xpath=following-sibling::dd[1]"),
    ).toHaveText("288");
    // Again: nothing newer on the handheld, so nothing is sent.
    await page.goto(`/patientShow/${patient.pid}/upload`);
    await page.getByRole("radio", { name: new RegExp(u("device.kinds.aidex")) }).check();
    await page.getByRole("button", { name: u("device.simulated") }).click();
    await expect(page.getByTestId("upload-progress")).toHaveAttribute(
      "data-status",
      "noNewRecords",
      { timeout: 60_000 },
    );
  });

  test("a browser without WebUSB and Web Serial (or without JavaScript) is told which browsers work", async ({
    page,
  }) => {
    await page.addInitScript(() => {
      delete (Navigator.prototype as unknown as Record<string, unknown>).usb;
      delete (Navigator.prototype as unknown as Record<string, unknown>).serial;
    });
    const patient = await createUser({
      tag: "centre-old-browser",
      identity: 1,
      firstName: "Olga",
      lastName: "Older",
    });
    await signIn(page, patient.email, patient.password, 1);
    await page.goto(`/patientShow/${patient.pid}/upload`);
    if (!jsEnabled()) {
      await expect(page.getByText(u("device.noScript"))).toBeVisible();
      return;
    }
    await page.getByRole("radio", { name: new RegExp(u("device.kinds.equil")) }).check();
    await expect(page.getByText(u("device.unsupported"))).toBeVisible();
    await expect(
      page.getByRole("button", { name: u("device.upload"), exact: true }),
    ).toBeDisabled();
  });
});
