import { expect, test, type Page } from "@playwright/test";
import { Temporal } from "temporal-polyfill";
import { createUser, demoPatient } from "./db";
import { tr } from "./i18n";
import { signIn, signInWithLanguage } from "./support";

/**
 * Collects what a page reports as broken: uncaught errors and console errors (React's hydration
 * errors among them), except Chromium's own note that a document answered 403 or 404, which is
 * what these pages are meant to answer.
 */
function watchForErrors(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (
      message.type() === "error" &&
      !/^Failed to load resource: the server responded with a status of 40[34]\b/.test(
        message.text(),
      )
    )
      problems.push(`console: ${message.text()}`);
  });
  return problems;
}

/** The way back every refusal offers a signed-in user: the homepage and the patient list. */
async function expectWayBack(page: Page) {
  const main = page.getByRole("main");
  await expect(main.getByRole("link", { name: tr("en", "errors.backHome") })).toHaveAttribute(
    "href",
    "/",
  );
  await expect(main.getByRole("link", { name: tr("en", "errors.backToPatients") })).toHaveAttribute(
    "href",
    "/patientShow/patients",
  );
}

test.describe("a patient who is not shared with the viewer", () => {
  test.describe.configure({ timeout: 120_000 });

  test("the patient page is the app's 404 page, each sentence once, with a way back", async ({
    page,
  }) => {
    const patient = await demoPatient();
    const stranger = await createUser({
      tag: "not-shared-page",
      identity: 2,
      firstName: "Nora",
      lastName: "Notshared",
    });
    const problems = watchForErrors(page);
    await signIn(page, stranger.email, stranger.password, 2);
    const response = await page.goto(`/patientShow/${patient.pid}/${patient.userId}/patientHome`);
    expect(response?.status()).toBe(404);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(tr("en", "notFound.title"));
    await expect(main.getByText(tr("en", "errors.404"), { exact: true })).toBeVisible();
    await expect(main.getByText(tr("en", "notFound.body"), { exact: true })).toBeVisible();
    // "The requested resource does not exist" was said twice, once in each paragraph.
    const text = (await main.innerText()).toLowerCase();
    expect(text.split(tr("en", "errors.404").toLowerCase()).length - 1).toBe(1);
    await expectWayBack(page);
    // The CSV export of the same patient answers the same page.
    const csv = await page.goto(`/patientShow/${patient.pid}/export.csv?days=30`);
    expect([csv?.status(), csv?.headers()["content-type"]]).toEqual([
      404,
      "text/html; charset=utf-8",
    ]);
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(tr("en", "notFound.title"));
    await expectWayBack(page);
    expect(problems).toEqual([]);
  });

  test("a report PDF is the app's 403 page (not bare text), with the header and a way back that works", async ({
    page,
  }) => {
    const patient = await demoPatient();
    const stranger = await createUser({
      tag: "not-shared-pdf",
      identity: 2,
      firstName: "Pete",
      lastName: "Pdfless",
    });
    const problems = watchForErrors(page);
    await signIn(page, stranger.email, stranger.password, 2);
    const today = Temporal.Now.plainDateISO(patient.timeZone);
    const range = `start=${today.subtract({ days: 7 })}&end=${today.subtract({ days: 1 })}`;
    for (const name of ["print", "cgmsprint", "agpprint", "statisticsprint", "bloodtestsprint"]) {
      const response = await page.goto(`/${patient.pid}/${name}.pdf?${range}`);
      expect([name, response?.status(), response?.headers()["content-type"]]).toEqual([
        name,
        403,
        "text/html; charset=utf-8",
      ]);
      await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText(
        tr("en", "forbidden.title"),
      );
      await expect(
        page.getByRole("main").getByText(tr("en", "errors.403"), { exact: true }),
      ).toBeVisible();
    }
    // The page is the app's: its header names the signed-in user, in the visitor's language.
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(
      page.getByLabel(tr("en", "nav.userMenu").replace("{{name}}", "Pete Pdfless")),
    ).toBeVisible();
    await expectWayBack(page);
    await page
      .getByRole("main")
      .getByRole("link", { name: tr("en", "errors.backToPatients") })
      .click();
    await expect(page).toHaveURL(/\/patientShow\/patients$/);
    await expect(
      page.getByRole("heading", { level: 1, name: tr("en", "title", "patients") }),
    ).toBeVisible();
    // A malformed patient id is refused the same way.
    const malformed = await page.goto(`/abc/print.pdf?${range}`);
    expect(malformed?.status()).toBe(403);
    await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText(
      tr("en", "forbidden.title"),
    );
    expect(problems).toEqual([]);
  });

  test("in another language the PDF refusal is translated too", async ({ page }) => {
    const patient = await demoPatient();
    const stranger = await createUser({
      tag: "not-shared-pl",
      identity: 2,
      firstName: "Piotr",
      lastName: "Obcy",
      lang: "pl",
    });
    await signInWithLanguage(page, stranger, "pl");
    const response = await page.goto(`/${patient.pid}/print.pdf?start=2026-01-01&end=2026-01-07`);
    expect(response?.status()).toBe(403);
    await expect(page.locator("html")).toHaveAttribute("lang", "pl");
    await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText(
      tr("pl", "forbidden.title"),
    );
    await expect(
      page.getByRole("main").getByText(tr("pl", "errors.403"), { exact: true }),
    ).toBeVisible();
    await expect(
      page.getByRole("main").getByRole("link", { name: tr("pl", "errors.backToPatients") }),
    ).toHaveAttribute("href", "/patientShow/patients");
  });
});
