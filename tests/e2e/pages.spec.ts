import { readFileSync } from "node:fs";
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { createUser } from "./db";
import { tr, type Lng } from "./i18n";
import { readPdf } from "./report-pdf";
import { signIn } from "./support";

/** The product version as package.json states it. */
const VERSION = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
const s = (key: string, lng: Lng = "en") => tr(lng, key, "support");
const fill = (text: string, values: Record<string, string>) =>
  Object.entries(values).reduce((out, [k, v]) => out.replace(`{{${k}}}`, v), text);

test.describe("welcome page /home", () => {
  test("a visitor sees what DiaCare does and the way in: sign up or sign in", async ({ page }) => {
    const response = await page.goto("/home");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(tr("en", "home.welcome"));
    await expect(page.getByText(tr("en", "home.featureUpload"))).toBeVisible();
    await expect(
      page.getByRole("main").getByRole("link", { name: tr("en", "home.getStarted") }),
    ).toHaveAttribute("href", "/signup");
    await page
      .getByRole("main")
      .getByRole("link", { name: tr("en", "home.haveAccount") })
      .click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a person is not redirected and gets the upload centre and the reports", async ({
    page,
  }) => {
    const person = await createUser({
      tag: "home-person",
      identity: 1,
      firstName: "Hana",
      lastName: "Home",
    });
    await signIn(page, person.email, person.password);
    const response = await page.goto("/home");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(/\/home$/);
    const main = page.getByRole("main");
    await expect(main.getByRole("link", { name: tr("en", "home.dataLink") })).toHaveAttribute(
      "href",
      `/patientShow/${person.pid}/${person.id}/patientHome`,
    );
    for (const [key, page_] of [
      ["pump.title", "print"],
      ["cgm.title", "cgmsprint"],
      ["agp.title", "agpprint"],
      ["statistics.title", "statisticsprint"],
      ["bloodTests.title", "bloodtestsprint"],
    ] as const) {
      await expect(
        main.getByRole("link", { name: tr("en", key, "reports"), exact: true }),
      ).toHaveAttribute("href", `/${person.pid}/${page_}`);
    }
    await main.getByRole("link", { name: tr("en", "home.uploadLink") }).click();
    await expect(page).toHaveURL(new RegExp(`/patientShow/${person.pid}/upload$`));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });

  test("a clinic gets the patient list; the logo leads back to /home", async ({ page }) => {
    const clinic = await createUser({
      tag: "home-clinic",
      identity: 2,
      firstName: "Cleo",
      lastName: "Clinic",
    });
    await signIn(page, clinic.email, clinic.password, 2);
    await page
      .getByRole("banner")
      .getByRole("link", { name: tr("en", "app.name") })
      .click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(
      page.getByRole("main").getByRole("link", { name: tr("en", "home.patientsLink") }),
    ).toHaveAttribute("href", "/patientShow/patients");
    await expect(
      page.getByRole("main").getByRole("link", { name: tr("en", "home.uploadLink") }),
    ).toHaveCount(0);
  });

  test("/ still sends a signed-in person to their data", async ({ page }) => {
    const person = await createUser({
      tag: "home-root",
      identity: 1,
      firstName: "Rita",
      lastName: "Root",
    });
    await signIn(page, person.email, person.password);
    await page.goto("/");
    await expect(page).toHaveURL(new RegExp(`/patientShow/${person.pid}/${person.id}/patientHome`));
  });
});

test.describe("about page", () => {
  test("is linked from the footer and shows the version and the open-source licences", async ({
    page,
  }) => {
    await page.goto("/home");
    await page
      .getByRole("contentinfo")
      .getByRole("link", { name: tr("en", "nav.about") })
      .click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(tr("en", "about.title"));
    await expect(page.getByTestId("product-version")).toHaveText(
      fill(tr("en", "about.version"), { version: VERSION }),
    );
    await expect(page.getByText(/2011/).first()).toBeVisible();
    const table = page.getByRole("table", { name: tr("en", "about.caption") });
    // package.json's dependencies with the licences their own manifests state.
    for (const [name, licence] of [
      ["react", "MIT"],
      ["@prisma/client", "Apache-2.0"],
      ["linkedom", "ISC"],
    ] as const) {
      const row = table.getByRole("row", { name: new RegExp(`^${name} `) });
      await expect(row.getByRole("cell").last()).toHaveText(licence);
    }
    // Development tools are not shipped, so not listed.
    await expect(table.getByRole("rowheader", { name: "vitest", exact: true })).toHaveCount(0);
  });
});

test.describe("support page", () => {
  test("has every section's anchor, the browser and device tables and the driver diagrams", async ({
    page,
  }) => {
    const response = await page.goto("/supports");
    expect(response?.status()).toBe(200);
    for (const anchor of [
      "environments",
      "devices",
      "upload",
      "drivers",
      "drivers-help",
      "driver-windows",
      "driver-mac",
      "printsettings",
      "cgmsprintsettings",
      "downloads",
      "terms",
      "privacy",
    ])
      await expect(page.locator(`[id="${anchor}"]`), anchor).toHaveCount(1);

    const browsers = page.getByRole("table", { name: s("environments.caption") });
    const cells = async (name: string) =>
      browsers.getByRole("row", { name: new RegExp(`^${name}`) }).getByRole("cell");
    await expect(await cells("Google Chrome")).toHaveText([
      fill(s("environments.from"), { version: "61" }),
      fill(s("environments.from"), { version: "89" }),
      s("environments.yes"),
    ]);
    await expect(await cells("Microsoft Edge")).toHaveText([
      fill(s("environments.from"), { version: "79" }),
      fill(s("environments.from"), { version: "89" }),
      s("environments.yes"),
    ]);
    for (const name of ["Mozilla Firefox", "Apple Safari"])
      await expect(await cells(name)).toHaveText([
        s("environments.no"),
        s("environments.no"),
        s("environments.yes"),
      ]);

    const devices = page.getByRole("table", { name: s("devices.caption") });
    await expect(
      devices.getByRole("row", { name: new RegExp(`^${s("devices.pump.name")}`) }),
    ).toContainText(fill(s("devices.pump.software"), { version: "5.0.0" }));
    await expect(
      devices.getByRole("row", { name: new RegExp(`^${s("devices.cgm.name")}`) }),
    ).toContainText(fill(s("devices.cgm.software"), { prefix: "1." }));
    await expect(
      page.getByText(fill(s("devices.carbs"), { version: "5.2.0", special: "5.0.10, 5.0.3C" })),
    ).toBeVisible();

    for (const key of ["connect", "deviceManager", "systemInformation"])
      await expect(page.getByRole("img", { name: s(`drivers.diagrams.${key}`) })).toBeVisible();
    await expect(page.locator("#driver-windows ol").first().locator("li")).toHaveText(
      [1, 2, 3, 4].map((n) => s(`drivers.windows.step${n}`)),
    );
    await expect(page.locator("#printsettings")).toContainText(s("print.dialog"));
    await expect(page.locator("#cgmsprintsettings")).toContainText(s("cgmPrint.range"));
    await expect(page.locator("#printsettings a[href='/newsetting']")).toHaveCount(1);
  });
});

/** Clicks a download link on /supports and reads the PDF it gives. */
async function downloadFromSupport(page: Page, testInfo: TestInfo, name: string, label: string) {
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: 60_000 }),
    page.getByRole("link", { name, exact: true }).click(),
  ]);
  const pdf = await readPdf(readFileSync(await download.path()), testInfo, label);
  return { fileName: download.suggestedFilename(), ...pdf };
}

test.describe("user guide and terms as PDFs", () => {
  test.describe.configure({ timeout: 120_000 });

  test("are printed from the app's own pages with the version, as attachments", async ({
    page,
  }, testInfo) => {
    await page.goto("/supports");
    await expect(page.locator("#downloads")).toContainText(
      fill(s("downloads.intro"), { version: VERSION }),
    );

    const guide = await downloadFromSupport(page, testInfo, s("downloads.guide"), "guide");
    expect(guide.fileName).toBe(`diacare-user-guide-${VERSION}-en.pdf`);
    expect(guide.pages).toBeGreaterThan(1);
    expect(guide.text).toContain(s("guide.title"));
    expect(guide.text).toContain(fill(s("guide.version"), { version: VERSION }));
    expect(guide.text).toContain(s("cgmPrint.title"));
    expect(guide.title).toBe(
      `${s("guide.title")} ${fill(s("guide.version"), { version: VERSION })}`,
    );

    const terms = await downloadFromSupport(page, testInfo, s("downloads.terms"), "terms");
    expect(terms.fileName).toBe(`diacare-terms-${VERSION}-en.pdf`);
    expect(terms.text).toContain(s("legal.termsTitle"));
    expect(terms.text).toContain(s("legal.privacyTitle"));
    expect(terms.text).toContain(fill(s("legal.version"), { version: VERSION }));

    const response = await page.request.get("/supports/terms.pdf");
    expect(response.headers()["content-type"]).toBe("application/pdf");
    expect(response.headers()["content-disposition"]).toBe(
      `attachment; filename="diacare-terms-${VERSION}-en.pdf"`,
    );
  });

  test("come in the visitor's language", async ({ browser }, testInfo) => {
    const context = await browser.newContext({
      locale: "pl",
      javaScriptEnabled: test.info().project.use.javaScriptEnabled,
    });
    const page = await context.newPage();
    await page.goto("/supports");
    const terms = await downloadFromSupport(page, testInfo, s("downloads.terms", "pl"), "terms-pl");
    expect(terms.fileName).toBe(`diacare-terms-${VERSION}-pl.pdf`);
    expect(terms.title).toBe(
      `${s("legal.title", "pl")} ${fill(s("legal.version", "pl"), { version: VERSION })}`,
    );
    expect(terms.text).not.toContain(s("legal.termsTitle"));
    await context.close();
  });
});
