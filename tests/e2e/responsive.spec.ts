import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { createAcceptedShare, createUser, demoPatient } from "./db";
import { tr } from "./i18n";
import { jsEnabled, signIn } from "./support";

/**
 * The patient's pages on a phone (390 x 844) and a tablet (768 x 1024), with JavaScript and
 * without (the layout is CSS only): nothing scrolls the page sideways, the chart shown is drawn
 * for the width so that its text renders at 10 CSS px or more, tables of a phone stack each row's
 * cells, and the patient list and report links fold away on the phone; axe finds nothing serious
 * in the narrow layout either. Full-page screenshots are attached to the test report.
 */

const v = (key: string) => tr("en", key, "views");

const SIZES = [
  {
    name: "phone",
    viewport: { width: 390, height: 844 },
    narrowChart: true,
    stackedViewTables: true,
    foldedReportLinks: true,
  },
  {
    name: "tablet",
    viewport: { width: 768, height: 1024 },
    narrowChart: false,
    stackedViewTables: false,
    foldedReportLinks: false,
  },
] as const;

/** Smallest rendered text the charts may show, CSS px. */
const MIN_TEXT_PX = 10;

/**
 * No serious or critical WCAG 2.1 A/AA violation (the rules of accessibility.spec.ts) in the page
 * at this size. axe runs as a script: without JavaScript it checks the same page, signed in the
 * same way, in a context that runs scripts but loads none of the app's (the server-rendered page).
 */
async function expectAccessible(page: Page) {
  let audited = page;
  if (!jsEnabled()) {
    const context = await page
      .context()
      .browser()!
      .newContext({
        viewport: page.viewportSize(),
        storageState: await page.context().storageState(),
        javaScriptEnabled: true,
      });
    await context.route(/\/build\/.*\.js(\?.*)?$/, (route) => route.abort());
    audited = await context.newPage();
    await audited.goto(page.url());
  }
  const { violations } = await new AxeBuilder({ page: audited })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  if (audited !== page) await audited.context().close();
  expect(
    violations
      .filter((x) => x.impact === "serious" || x.impact === "critical")
      .map((x) => `${x.id}: ${x.nodes.map((n) => n.target.join(" ")).join(" | ")}`),
  ).toEqual([]);
}

async function expectNoSideScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    clientWidth: document.scrollingElement!.clientWidth,
  }));
  expect(scrollWidth, `page width of ${page.url()}`).toBeLessThanOrEqual(clientWidth);
}

/** The x-axis tick labels of the chart shown: rendered font size (its size times the svg's scale) and box height, CSS px. */
async function tickText(chart: Locator) {
  return chart
    .locator('g[aria-label="x-axis tick label"] text')
    .first()
    .evaluate((text) => {
      const svg = text.closest("svg")!;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return {
        fontPx: parseFloat(getComputedStyle(text).fontSize) * scale,
        heightPx: text.getBoundingClientRect().height,
      };
    });
}

/** The boxes of the first body row's first two cells. */
async function firstRowCells(table: Locator) {
  const cells = table.locator("tbody tr").first().locator("td, th");
  const [a, b] = [await cells.nth(0).boundingBox(), await cells.nth(1).boundingBox()];
  expect(a && b).toBeTruthy();
  return [a!, b!] as const;
}

async function expectStacked(table: Locator, stacked: boolean) {
  const [a, b] = await firstRowCells(table);
  if (stacked) {
    // One under the other, both starting at the row's left edge.
    expect(b.y).toBeGreaterThanOrEqual(a.y + a.height - 1);
    expect(Math.abs(b.x - a.x)).toBeLessThan(1);
  } else {
    // Side by side on one line.
    expect(b.x).toBeGreaterThanOrEqual(a.x + a.width - 1);
    expect(Math.abs(b.y - a.y)).toBeLessThan(1);
  }
}

for (const size of SIZES) {
  test.describe(`patient pages on a ${size.name} (${size.viewport.width} x ${size.viewport.height})`, () => {
    test.use({ viewport: size.viewport });
    test.describe.configure({ timeout: 90_000 });

    test("DAILY, BG and CGMS fit the width, with readable charts and stacked or tabular tables", async ({
      page,
    }, testInfo) => {
      const patient = await demoPatient();
      const clinic = await createUser({
        tag: `responsive-${size.name}`,
        identity: 2,
        firstName: "Rita",
        lastName: "Responsive",
      });
      await createAcceptedShare(patient.userId, clinic.id);
      await signIn(page, clinic.email, clinic.password, 2);
      const base = `/patientShow/${patient.pid}/${patient.userId}/patientHome`;

      for (const tab of ["daily", "bg", "cgms"] as const) {
        await page.goto(`${base}?tab=${tab}`);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Anna Kowalczyk");
        await expectNoSideScroll(page);

        // One of the two drawings shows: the narrow one on the phone, the wide one (as printed) on the tablet.
        const shown = page.getByTestId(size.narrowChart ? "chart-narrow" : "chart");
        await expect(shown.locator("svg")).toBeVisible();
        await expect(page.getByTestId(size.narrowChart ? "chart" : "chart-narrow")).toBeHidden();
        const text = await tickText(shown);
        expect(text.fontPx, `${tab} tick label font size`).toBeGreaterThanOrEqual(MIN_TEXT_PX);
        expect(text.heightPx, `${tab} tick label height`).toBeGreaterThanOrEqual(MIN_TEXT_PX);

        if (tab === "daily")
          await expectStacked(page.getByTestId("daily-table"), size.stackedViewTables);
        if (tab === "bg") await expectStacked(page.getByTestId("bg-table"), size.stackedViewTables);
        await expectAccessible(page);
        await testInfo.attach(`${tab}-${size.name}-${testInfo.project.name}.png`, {
          body: await page.screenshot({ fullPage: true }),
          contentType: "image/png",
        });
      }

      // The 14-day overlay fits too.
      await page.goto(`${base}?tab=cgms&view=overlay`);
      await expect(
        page.getByTestId(size.narrowChart ? "chart-narrow" : "chart").locator("svg"),
      ).toBeVisible();
      await expectNoSideScroll(page);
    });

    test("the patient list folds away on a patient's page, the report links fold on the phone, and the upload history stacks", async ({
      page,
    }, testInfo) => {
      const patient = await demoPatient();
      const clinic = await createUser({
        tag: `responsive-panel-${size.name}`,
        identity: 2,
        firstName: "Pia",
        lastName: "Panel",
      });
      await createAcceptedShare(patient.userId, clinic.id);
      await signIn(page, clinic.email, clinic.password, 2);

      // The list page itself shows the list: one column has room for nothing else.
      const panel = page.getByRole("complementary", { name: tr("en", "panel.label", "sharing") });
      const patientLink = panel.getByRole("link", { name: /Anna Kowalczyk/ });
      await expect(patientLink).toBeVisible();
      await patientLink.click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Anna Kowalczyk");

      // On the patient's page the list is folded (both sizes are one column) and opens from its summary, without scripts too.
      await expect(patientLink).toBeHidden();
      await panel.getByText(tr("en", "panel.label", "sharing"), { exact: true }).click();
      await expect(patientLink).toBeVisible();

      const reports = page.getByRole("navigation", { name: v("reports.label") });
      const pumpReport = reports.getByRole("link", { name: v("reports.pump") });
      if (size.foldedReportLinks) {
        await expect(pumpReport).toBeHidden();
        await page
          .getByTestId("report-menu")
          .getByText(v("reports.label"), { exact: true })
          .click();
        await expect(pumpReport).toBeVisible();
      } else {
        await expect(pumpReport).toBeVisible();
        await expect(page.getByTestId("report-menu")).toBeHidden();
      }
      // All six tabs on screen, none past the edge.
      const tabs = page.getByRole("navigation", { name: v("tabs.label") }).getByRole("link");
      await expect(tabs).toHaveCount(6);
      for (const box of await tabs.evaluateAll((links) =>
        links.map((l) => l.getBoundingClientRect().right),
      ))
        expect(box).toBeLessThanOrEqual(size.viewport.width);
      await expectNoSideScroll(page);

      // The upload history: a table of seven columns stacks its rows on both.
      await page.goto(`/patientShow/${patient.pid}/${patient.userId}/uploads`);
      await expect(page.getByTestId("upload-history")).toBeVisible();
      await expectStacked(page.getByTestId("upload-history"), true);
      await expectNoSideScroll(page);
      await testInfo.attach(`uploads-${size.name}-${testInfo.project.name}.png`, {
        body: await page.screenshot({ fullPage: true }),
        contentType: "image/png",
      });
    });

    test("the report pages do not scroll sideways; their wide tables stack on the phone", async ({
      page,
    }, testInfo) => {
      const patient = await demoPatient();
      const clinic = await createUser({
        tag: `responsive-reports-${size.name}`,
        identity: 2,
        firstName: "Rex",
        lastName: "Reports",
      });
      await createAcceptedShare(patient.userId, clinic.id);
      await signIn(page, clinic.email, clinic.password, 2);
      for (const report of ["print", "cgmsprint", "agpprint", "statisticsprint"] as const) {
        await page.goto(`/${patient.pid}/${report}`);
        await expect(page.locator("h1").first()).toBeVisible();
        await expectNoSideScroll(page);
        if (report === "print")
          await expectStacked(page.getByTestId("pump-days"), size.stackedViewTables);
        if (report === "statisticsprint")
          await expectStacked(page.getByTestId("statistics-periods"), size.stackedViewTables);
        await testInfo.attach(`${report}-${size.name}-${testInfo.project.name}.png`, {
          body: await page.screenshot({ fullPage: true }),
          contentType: "image/png",
        });
      }
    });
  });
}
