import { expect, test } from "@playwright/test";
import { addUploadErrorReport, createUser } from "./db";
import { tr } from "./i18n";
import { signIn } from "./support";

const admin = (key: string) => tr("en", key, "admin");
/** The user menu's label, whoever is signed in ("Account menu for {{name}}"). */
const userMenu = new RegExp(
  `^${tr("en", "nav.userMenu")
    .split("{{name}}")[0]!
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
);

test.describe("upload error reports", () => {
  test("an admin finds the page in the user menu and reads the newest reports first, their text as it was sent", async ({
    page,
  }) => {
    const operator = await createUser({
      tag: "uploader",
      identity: 1,
      firstName: "Ula",
      lastName: "Upload",
    });
    const patient = await createUser({
      tag: "uploaded",
      identity: 1,
      firstName: "Pia",
      lastName: "Patient",
    });
    const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const newer = `Reading the pump failed <b>${tag}</b>\n  at record 120 & "more"`;
    const older = `USB device disconnected ${tag}`;
    await addUploadErrorReport({
      operatorUserId: operator.id,
      patientUserId: null,
      content: older,
      createdAt: new Date(Date.now() - 60_000),
    });
    await addUploadErrorReport({
      operatorUserId: operator.id,
      patientUserId: patient.id,
      content: newer,
    });

    await signIn(page, "admin@demo.diacare.test", "demo-admin-1", 2);
    await page.getByLabel(userMenu).click();
    await page.getByRole("link", { name: tr("en", "nav.uploadErrors") }).click();
    await expect(page).toHaveURL(/\/admin\/upload-errors$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(admin("uploadErrors.title"));

    const rows = page.getByRole("row").filter({ hasText: tag });
    await expect(rows).toHaveCount(2);
    const first = rows.nth(0);
    await expect(first.getByRole("cell").nth(1)).toHaveText(operator.email);
    await expect(first.getByRole("cell").nth(2)).toHaveText(patient.email);
    // Shown as text, line breaks kept: the markup in it is not markup.
    expect(await first.locator("pre").textContent()).toBe(newer);
    await expect(first.locator("pre b")).toHaveCount(0);
    await expect(rows.nth(1).locator("pre")).toHaveText(older);
    await expect(rows.nth(1).getByRole("cell").nth(2)).toHaveText("");
  });

  test("someone who is not staff is refused", async ({ page }) => {
    const person = await createUser({
      tag: "not-staff",
      identity: 1,
      firstName: "Nel",
      lastName: "Nostaff",
    });
    await signIn(page, person.email, person.password);
    const response = await page.goto("/admin/upload-errors");
    expect(response?.status()).toBe(403);
    await expect(page.getByText(tr("en", "errors.403"))).toBeVisible();
    await expect(page.getByRole("link", { name: tr("en", "nav.uploadErrors") })).toHaveCount(0);
  });
});
