import { expect, test } from "@playwright/test";
import { tr } from "./i18n";
import { testDatabaseUrl } from "./db";
import { jsEnabled, signIn, uniqueEmail } from "./support";

test.describe("Polish-locale notice", () => {
  test("visitors see the regional notice: after 3 s with JavaScript, at once without", async ({
    browser,
  }) => {
    const context = await browser.newContext({
      locale: "pl",
      javaScriptEnabled: test.info().project.use.javaScriptEnabled,
    });
    const page = await context.newPage();
    const loaded = Date.now();
    await page.goto("/");
    const notice = page.getByRole("complementary").filter({ hasText: tr("pl", "regional.title") });
    if (jsEnabled()) {
      await expect(notice).toBeHidden();
      // It appears when the user has had 3 s of the page, not before.
      await expect(notice).toBeVisible({ timeout: 6000 });
      expect(Date.now() - loaded).toBeGreaterThanOrEqual(3000);
    } else {
      await expect(notice).toBeVisible();
    }
    await expect(notice.getByRole("link", { name: tr("pl", "regional.go") })).toHaveAttribute(
      "href",
      "https://pl.diacare.example",
    );
    await context.close();
  });

  test("a signed-in Polish user gets a dialog that cannot be closed and holds the focus, with the regional site, the languages and sign-out inside", async ({
    page,
  }) => {
    const email = await polishUser("polish");
    await signIn(page, email, "polish pass 1", 2);
    const dialog = page.getByRole("alertdialog", { name: tr("pl", "regional.title") });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(tr("pl", "regional.moved"))).toBeVisible();
    await expect(dialog.getByRole("link")).toHaveCount(1);
    await expect(dialog.getByRole("link", { name: tr("pl", "regional.go") })).toHaveAttribute(
      "href",
      "https://pl.diacare.example",
    );
    await page.keyboard.press("Escape");
    await expect(dialog).toBeVisible();
    // Tab and Shift+Tab never leave the dialog: the page behind it is inert (with or without JavaScript).
    await dialog.getByRole("link", { name: tr("pl", "regional.go") }).focus();
    for (const key of [...Array(12).fill("Tab"), ...Array(12).fill("Shift+Tab")]) {
      await page.keyboard.press(key);
      expect(
        await page.evaluate(
          () =>
            document.activeElement === document.body ||
            Boolean(document.activeElement?.closest('[role="alertdialog"]')),
        ),
      ).toBe(true);
    }
    expect(await page.locator("main").evaluate((main) => Boolean(main.closest("[inert]")))).toBe(
      true,
    );
    // The language: English leaves the Polish notice behind.
    await dialog.getByRole("button", { name: tr("en", "languages.en") }).click();
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  });

  test("sign-out from inside the Polish dialog", async ({ page }) => {
    const email = await polishUser("polish-out");
    await signIn(page, email, "polish pass 1", 2);
    const dialog = page.getByRole("alertdialog", { name: tr("pl", "regional.title") });
    await dialog.getByRole("button", { name: tr("pl", "nav.logout") }).click();
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    await expect(
      page.getByRole("link", { name: tr("pl", "nav.signIn"), exact: true }),
    ).toBeVisible();
  });
});

/** A clinic account whose saved language is Polish. */
async function polishUser(tag: string): Promise<string> {
  const email = uniqueEmail(tag);
  const { hashPassword } = await import("../../app/utils/password.server");
  const pg = await import("pg");
  const client = new pg.default.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  const { rows } = await client.query(
    `INSERT INTO "User" (email, "passwordHash", identity, "updatedAt") VALUES ($1, $2, 2, now()) RETURNING id`,
    [email, await hashPassword("polish pass 1")],
  );
  await client.query(
    `INSERT INTO "Setting" ("userId", lang, "updatedAt") VALUES ($1, 'pl', now())`,
    [rows[0].id],
  );
  await client.end();
  return email;
}
