import { expect, test, type Page } from "@playwright/test";
import { tr } from "./i18n";
import { jsEnabled, signIn } from "./support";

/** Console messages about the Content-Security-Policy, and uncaught page errors. */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text()))
      problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

test.describe("security headers in the browser", () => {
  test("pages load under the CSP; with JavaScript they hydrate and navigate in the browser", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const problems = watchProblems(page);
    const response = await page.goto("/login");
    expect(response?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
    await expect(
      page.getByRole("button", { name: tr("en", "login.submit", "auth") }),
    ).toBeVisible();
    // The inline script that marks a running JavaScript carries the nonce: it ran only if allowed.
    expect(await page.evaluate(() => document.documentElement.classList.contains("js"))).toBe(
      jsEnabled(),
    );

    await signIn(page, "patient@demo.diacare.test", "demo-patient-1");
    if (jsEnabled()) {
      // A marker on the window survives only a navigation made by the hydrated app (no reload).
      await page.evaluate(
        () => ((window as unknown as { hydrationMarker: number }).hydrationMarker = 1),
      );
      await page.locator('header a[href="/supports"]').click();
      await expect(page).toHaveURL(/\/supports$/);
      expect(
        await page.evaluate(
          () => (window as unknown as { hydrationMarker?: number }).hydrationMarker,
        ),
      ).toBe(1);
    } else {
      await page.locator('header a[href="/supports"]').click();
      await expect(page).toHaveURL(/\/supports$/);
    }
    expect(problems).toEqual([]);
  });

  test("an oversized form answers a translated 413 page, with and without JavaScript", async ({
    page,
  }) => {
    await page.goto("/login");
    await page
      .getByRole("main")
      .getByLabel(/^Email/)
      .fill("someone@e2e.diacare.test");
    // Typing 70 KB is slow: the value is set directly (the form is the server-rendered one either way).
    await page
      .getByRole("main")
      .getByLabel(/^Password/)
      .evaluate((input: HTMLInputElement) => (input.value = "p".repeat(70 * 1024)));
    await page.getByRole("button", { name: tr("en", "login.submit", "auth") }).click();
    await expect(page.getByText(tr("en", "errors.413").replace("{{limitKb}}", "64"))).toBeVisible();
  });
});
