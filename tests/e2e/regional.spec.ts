import { expect, test } from "@playwright/test";
import { tr } from "./i18n";
import { jsEnabled, signIn, uniqueEmail } from "./support";

test.describe("Polish-locale notice", () => {
  test("visitors see the regional notice: after 3 s with JavaScript, at once without", async ({ browser }) => {
    const context = await browser.newContext({ locale: "pl", javaScriptEnabled: test.info().project.use.javaScriptEnabled });
    const page = await context.newPage();
    await page.goto("/");
    const notice = page.getByRole("complementary").filter({ hasText: tr("pl", "regional.title") });
    if (jsEnabled()) {
      await expect(notice).toBeHidden();
      await page.waitForTimeout(1500);
      await expect(notice).toBeHidden();
      await expect(notice).toBeVisible({ timeout: 4000 });
    } else {
      await expect(notice).toBeVisible();
    }
    await expect(notice.getByRole("link", { name: tr("pl", "regional.go") })).toHaveAttribute("href", "https://pl.diacare.example");
    await context.close();
  });

  test("a signed-in Polish user gets a dialog that cannot be closed, with one way out", async ({ page }) => {
    const email = uniqueEmail("polish");
    const { hashPassword } = await import("../../app/utils/password.server");
    const pg = await import("pg");
    const client = new pg.default.Client({ connectionString: process.env.E2E_DATABASE_URL });
    await client.connect();
    const { rows } = await client.query(`INSERT INTO "User" (email, "passwordHash", identity, "updatedAt") VALUES ($1, $2, 2, now()) RETURNING id`, [email, await hashPassword("polish pass 1")]);
    await client.query(`INSERT INTO "Setting" ("userId", lang, "updatedAt") VALUES ($1, 'pl', now())`, [rows[0].id]);
    await client.end();

    await signIn(page, email, "polish pass 1", 2);
    const dialog = page.getByRole("alertdialog", { name: tr("pl", "regional.title") });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(tr("pl", "regional.moved"))).toBeVisible();
    await expect(dialog.getByRole("link")).toHaveCount(1);
    await expect(dialog.getByRole("button")).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("link", { name: tr("pl", "regional.go") })).toHaveAttribute("href", "https://pl.diacare.example");
  });
});
