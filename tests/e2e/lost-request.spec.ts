import { expect, test, type Page } from "@playwright/test";
import { createUser } from "./db";
import { tr } from "./i18n";
import { jsEnabled, signIn } from "./support";

// A form sent with JavaScript whose request is lost on the network keeps the page and what was
// typed, and says so; without JavaScript the browser posts the form itself.

const lostNotice = (page: Page) =>
  page.getByRole("alert").filter({ hasText: tr("en", "lostRequest.requestFailed") });

/** Makes the network drop the form's request to `path` (the data request a script sends). */
const dropPostsTo = (page: Page, path: string) =>
  page.route(
    (url) => url.pathname === `${path}.data`,
    (route) => (route.request().method() === "POST" ? route.abort("failed") : route.continue()),
  );

test.describe("a form whose request is lost", () => {
  test("the sign-in form keeps the address typed and can be sent again", async ({ page }) => {
    const user = await createUser({
      tag: "lost-login",
      identity: 1,
      firstName: "L",
      lastName: "R",
    });
    await page.goto("/login");
    const email = page.getByRole("main").getByLabel(/^Email/);
    const password = page.getByRole("main").getByLabel(/^Password/);
    const submit = page.getByRole("button", { name: tr("en", "login.submit", "auth") });
    await email.fill(user.email);
    await page.getByLabel(tr("en", "login.identity1", "auth")).check();
    if (!jsEnabled()) {
      // The browser posts the form: a wrong password comes back as the server's message, the
      // address still filled in.
      await password.fill("not the password");
      await submit.click();
      await expect(page.getByRole("main").getByRole("alert")).toBeVisible();
      await expect(email).toHaveValue(user.email);
      return;
    }
    await password.fill(user.password);
    await dropPostsTo(page, "/login");
    await submit.click();
    await expect(lostNotice(page)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await expect(email).toHaveValue(user.email);
    await expect(password).toHaveValue(user.password);

    await page.unrouteAll();
    await submit.click();
    await page.waitForURL((url) => url.pathname.startsWith("/patientShow"));
    await expect(lostNotice(page)).toHaveCount(0);
  });

  test("the account page keeps a changed name until the page is left", async ({ page }) => {
    const user = await createUser({
      tag: "lost-acct",
      identity: 2,
      firstName: "Ann",
      lastName: "Old",
    });
    await signIn(page, user.email, user.password, 2);
    await page.goto("/account");
    const lastName = page.getByRole("textbox", {
      name: tr("en", "fields.lastName", "auth"),
      exact: true,
    });
    await lastName.fill("Kowalska-Nowak");
    if (!jsEnabled()) {
      await page.getByRole("button", { name: tr("en", "account.profileSubmit", "auth") }).click();
      await expect(page.getByText(tr("en", "account.profileSaved", "auth"))).toBeVisible();
      await expect(lastName).toHaveValue("Kowalska-Nowak");
      return;
    }
    await dropPostsTo(page, "/account");
    await page.getByRole("button", { name: tr("en", "account.profileSubmit", "auth") }).click();
    await expect(lostNotice(page)).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      tr("en", "account.title", "auth"),
    );
    await expect(lastName).toHaveValue("Kowalska-Nowak");

    await page.getByRole("button", { name: tr("en", "lostRequest.dismiss") }).click();
    await expect(lostNotice(page)).toHaveCount(0);
    await page.getByRole("button", { name: tr("en", "account.profileSubmit", "auth") }).click();
    await expect(lostNotice(page)).toBeVisible();
    await page
      .getByRole("contentinfo")
      .getByRole("link", { name: tr("en", "nav.about") })
      .click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(lostNotice(page)).toHaveCount(0);
  });
});
