import { expect, test } from "@playwright/test";
import { backgroundBehind, contrastRatio, rgbOf, textContrast } from "./contrast";
import { LOCALES, tr } from "./i18n";
import { jsEnabled } from "./support";

test.describe("home page", () => {
  for (const lng of LOCALES) {
    test(`renders in ${lng} from Accept-Language`, async ({ browser }) => {
      const context = await browser.newContext({
        locale: lng,
        javaScriptEnabled: test.info().project.use.javaScriptEnabled,
      });
      const page = await context.newPage();
      const response = await page.goto("/");
      expect(response?.status()).toBe(200);
      await expect(page.locator("html")).toHaveAttribute("lang", lng);
      await expect(page).toHaveTitle(tr(lng, "app.title"));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(tr(lng, "home.welcome"));
      await expect(page.getByRole("navigation", { name: tr(lng, "nav.main") })).toBeVisible();
      await expect(
        page.getByRole("link", { name: tr(lng, "nav.signIn"), exact: true }),
      ).toBeVisible();
      await context.close();
    });
  }

  test("the page's translations come from a file the browser may keep: its name changes with the text", async ({
    page,
    request,
  }) => {
    await page.goto("/");
    const src = await page.locator('script[src^="/i18n/"]').getAttribute("src");
    expect(src).toMatch(/^\/i18n\/en\.[0-9a-f]{16}\.js$/);
    const current = await request.get(src!);
    expect(current.status()).toBe(200);
    expect(current.headers()["content-type"]).toContain("text/javascript");
    expect(current.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    const body = await current.text();
    expect(body.startsWith("window.__i18n=")).toBe(true);
    expect(JSON.parse(body.slice("window.__i18n=".length, -1)).resources.common.app.title).toBe(
      tr("en", "app.title"),
    );
    const stale = await request.get("/i18n/en.0000000000000000.js");
    expect(stale.status()).toBe(200);
    expect(stale.headers()["cache-control"]).toBe("no-cache");
    expect(await stale.text()).toBe(body);
    expect((await request.get("/i18n/xx.js")).status()).toBe(404);
    if (jsEnabled())
      expect(await page.evaluate(() => (window as { __i18n?: { lng?: string } }).__i18n?.lng)).toBe(
        "en",
      );
  });

  test("the header's sign-in and sign-up are readable (WCAG AA 4.5:1), as a link without JavaScript and a button with it", async ({
    page,
  }) => {
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    const signUp = page.getByRole(jsEnabled() ? "button" : "link", {
      name: tr("en", "nav.signUp"),
      exact: true,
    });
    await expect(signUp).toBeVisible();
    expect(await textContrast(signUp)).toBeGreaterThanOrEqual(4.5);
    expect(
      await textContrast(page.getByRole("link", { name: tr("en", "nav.signIn"), exact: true })),
    ).toBeGreaterThanOrEqual(4.5);
  });

  test("the focus ring shows on the white page and on the blue header: a dark ring (3:1 or more on white) around a white one (3:1 or more on the header)", async ({
    page,
  }) => {
    await page.goto("/");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    const focused = page.locator(":focus");
    const ring = await focused.evaluate((element) => {
      const style = getComputedStyle(element);
      return {
        tag: element.tagName,
        outline: style.outlineColor,
        width: style.outlineWidth,
        shadow: style.boxShadow,
      };
    });
    expect(ring.tag).toBe("A");
    expect(ring.width).toBe("3px");
    // The dark ring shows on white, the white ring on whatever the link sits on (here the blue header).
    expect(contrastRatio(rgbOf(ring.outline), [255, 255, 255])).toBeGreaterThanOrEqual(3);
    expect(
      contrastRatio(rgbOf(ring.shadow), rgbOf(await backgroundBehind(focused.locator("xpath=..")))),
    ).toBeGreaterThanOrEqual(3);
  });

  test("shows the version from package.json", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("footer")).toContainText(
      tr("en", "app.version").replace("{{version}}", "0.1.0"),
    );
  });
});

test.describe("language menu", () => {
  test("switches the language and remembers it", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(tr("en", "home.welcome"));
    await page.getByLabel(tr("en", "nav.language")).click();
    await page.getByRole("button", { name: "Polski" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(tr("pl", "home.welcome"));
    await expect(page.locator("html")).toHaveAttribute("lang", "pl");
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(tr("pl", "home.welcome"));
    await page.getByLabel(tr("pl", "nav.language")).click();
    await page.getByRole("button", { name: "Română" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(tr("ro", "home.welcome"));
  });

  test("stays on the page it was used from", async ({ page }) => {
    await page.goto("/no/such/page");
    await page.getByLabel(tr("en", "nav.language")).click();
    await page.getByRole("button", { name: "Italiano" }).click();
    await expect(page).toHaveURL(/\/no\/such\/page$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(tr("it", "notFound.title"));
  });
});

test.describe("not found", () => {
  for (const lng of LOCALES) {
    test(`an unknown URL shows the 404 page in ${lng}`, async ({ browser }) => {
      const context = await browser.newContext({
        locale: lng,
        javaScriptEnabled: test.info().project.use.javaScriptEnabled,
      });
      const page = await context.newPage();
      const response = await page.goto("/this/does/not/exist");
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(tr(lng, "notFound.title"));
      await expect(page.getByText(tr(lng, "errors.404"), { exact: true })).toBeVisible();
      await expect(page.getByRole("link", { name: tr(lng, "errors.backHome") })).toHaveAttribute(
        "href",
        "/",
      );
      await context.close();
    });
  }

  test("/error/404 is the same page", async ({ page }) => {
    const response = await page.goto("/error/404");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(tr("en", "notFound.title"));
  });
});

test.describe("security headers and cross-site posts", () => {
  test("a cross-site form post is refused", async ({ request }) => {
    const response = await request.post("/set-language", {
      form: { lng: "pl", redirectTo: "/" },
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
  });

  test("an unsupported language is a 400, not a 500", async ({ request }) => {
    const response = await request.post("/set-language", { form: { lng: "xx" }, maxRedirects: 0 });
    expect(response.status()).toBe(400);
  });
});

test.describe("support page", () => {
  test("has the sections the header, registration and reports link to", async ({ page }) => {
    const response = await page.goto("/supports");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(tr("en", "title", "support"));
    for (const anchor of [
      "devices",
      "printsettings",
      "cgmsprintsettings",
      "terms",
      "privacy",
      "drivers",
    ]) {
      await expect(page.locator(`#${anchor}`)).toHaveCount(1);
    }
    await page
      .getByRole("banner")
      .getByRole("link", { name: tr("en", "nav.devices") })
      .click();
    await expect(page).toHaveURL(/\/supports#devices$/);
    await expect(
      page.getByRole("heading", { name: tr("en", "devices.title", "support") }),
    ).toBeVisible();
  });
});
