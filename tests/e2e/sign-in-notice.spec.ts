import { expect, test, type Page } from "@playwright/test";
import { createUser } from "./db";
import { tr, type Lng } from "./i18n";
import { signInWithLanguage } from "./support";

const notice = (page: Page, lng: Lng) =>
  page
    .getByRole("main")
    .getByRole("status")
    .filter({ hasText: tr(lng, "app.signedIn") });

/** Leaves the first page by the footer's link (a client-side navigation with JavaScript). */
async function goToAbout(page: Page) {
  await page
    .getByRole("contentinfo")
    .getByRole("link", { name: tr("en", "nav.about") })
    .click();
  await expect(page).toHaveURL(/\/about$/);
}

test.describe("the sign-in notice", () => {
  test("a person sees 'Signed in' on the first page only", async ({ page }) => {
    const user = await createUser({
      tag: "notice-en",
      identity: 1,
      firstName: "Nia",
      lastName: "En",
    });
    await signInWithLanguage(page, user, "en", 1);
    await expect(notice(page, "en")).toHaveCount(1);
    await expect(notice(page, "en")).toBeVisible();
    await goToAbout(page);
    await expect(notice(page, "en")).toHaveCount(0);
    await page.goBack();
    await expect(page).toHaveURL(/\/patientShow\//);
    await page.reload();
    await expect(notice(page, "en")).toHaveCount(0);
  });

  test("a clinic whose saved language is Polish sees it in Polish, once", async ({ page }) => {
    const user = await createUser({
      tag: "notice-pl",
      identity: 2,
      firstName: "Nadia",
      lastName: "Pl",
      lang: "pl",
      unit: 1,
    });
    await signInWithLanguage(page, user, "pl", 2);
    await expect(page.locator("html")).toHaveAttribute("lang", "pl");
    await expect(notice(page, "pl")).toHaveCount(1);
    await expect(notice(page, "pl")).toBeVisible();
    // The regional dialog makes the page behind it inert for signed-in Polish users: the next
    // page is opened by its address.
    await page.goto("/about");
    await expect(notice(page, "pl")).toHaveCount(0);
  });
});
