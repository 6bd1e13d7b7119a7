import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import {
  addCgmSeries,
  addFinishedUpload,
  createAcceptedShare,
  createUser,
  readsLogged,
  setPaperSize,
} from "./db";
import { tr, type Lng } from "./i18n";
import { readPdf } from "./report-pdf";
import { jsEnabled, signIn } from "./support";

/**
 * The clinic's triage view on /patientShow/patients, with and without JavaScript: switching the
 * period changes the categories, the category counts are links that filter, the clinic's own
 * tags (defined on the tags page, attached and removed per row, a tag filter, a delete that asks
 * first), the printable summary and its PDF (one page, the patients in it, `pdf` access-log
 * rows), and axe on the pages.
 */

const DAY_SLOTS = 288;

/** A translation with its {{placeholders}} filled. */
function t(
  key: string,
  values: Record<string, string | number> = {},
  ns = "triage",
  lng: Lng = "en",
) {
  const count = typeof values.count === "number" ? values.count : undefined;
  return tr(lng, key, ns, count).replace(/{{\s*(\w+)\s*}}/g, (_, name: string) =>
    String(values[name]),
  );
}

/**
 * Four patients, 5-minute readings ending now:
 * - Drop: 14 days; the newest 6 days 200 mg/dL, before that 120. Over 7 days (from local
 *   midnight 6 days ago) time in range is at most 288 / 2016 = 14 %, before it 100 % with every
 *   slot worn: "time in range dropped". Over 14 days there is no period before with data: 1728
 *   of 4032 or so above 180 (over 25 %): "high".
 * - Steady: 14 days of 120: on target either way.
 * - Lowe: 14 days, every tenth reading 60 (10 % below 70, none below 54): "low".
 * - Quiet: no readings: "no data".
 */
async function clinicWithPatients(tag: string) {
  const clinic = await createUser({
    tag: `${tag}-clinic`,
    identity: 2,
    firstName: "Pop",
    lastName: "Clinic",
  });
  const make = async (name: string, values: ((k: number) => number) | null) => {
    const p = await createUser({
      tag: `${tag}-${name.toLowerCase()}`,
      identity: 1,
      firstName: name,
      lastName: "Pop",
    });
    if (values) await addCgmSeries(p.pid!, 14 * DAY_SLOTS, values);
    await addFinishedUpload(p.pid!, p.id, new Date(Date.now() - 3_600_000));
    await createAcceptedShare(p.id, clinic.id);
    return p;
  };
  const drop = await make("Drop", (k) => (k < 6 * DAY_SLOTS ? 200 : 120));
  const steady = await make("Steady", () => 120);
  const lowe = await make("Lowe", (k) => (k % 10 === 0 ? 60 : 120));
  const quiet = await make("Quiet", null);
  return { clinic, drop, steady, lowe, quiet };
}

const rows = (page: Page) =>
  page.getByTestId("triage-table").getByTestId("triage-row").getByRole("rowheader");
const countLink = (page: Page, category: string) =>
  page.getByTestId("triage-counts").locator(`a[data-category="${category}"]`);
const category = (page: Page, name: string) =>
  page.getByTestId("triage-row").filter({ hasText: name }).locator('[data-col="category"]');

/**
 * axe on the page's address, in a second tab of the same session: axe runs as a script, so
 * without JavaScript the tab may run scripts but loads none of the app's (the server's page as
 * such a browser gets it), as the accessibility spec does.
 */
async function axe(page: Page) {
  const context = await page
    .context()
    .browser()!
    .newContext({ javaScriptEnabled: true, storageState: await page.context().storageState() });
  try {
    if (!jsEnabled()) await context.route(/\/build\/.*\.js(\?.*)?$/, (route) => route.abort());
    const tab = await context.newPage();
    await tab.goto(page.url());
    await tab.waitForLoadState("networkidle");
    const { violations } = await new AxeBuilder({ page: tab })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    expect(
      violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`),
    ).toEqual([]);
  } finally {
    await context.close();
  }
}

test.describe("the clinic's triage view", () => {
  test("period, category counts that filter, tags, printable summary and PDF", async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const s = await clinicWithPatients("pop");
    await signIn(page, s.clinic.email, s.clinic.password, 2);
    await page.goto("/patientShow/patients");

    // 14 days (the default): Drop is high, nobody dropped.
    await expect(
      page
        .getByTestId("triage-periods")
        .getByRole("link", { name: t("period.days", { count: 14 }) }),
    ).toHaveAttribute("aria-current", "page");
    await expect(countLink(page, "all")).toHaveText(`4 ${t("counts.all")}`);
    await expect(countLink(page, "high")).toHaveText(`1 ${t("categories.high")}`);
    await expect(countLink(page, "tirDrop")).toHaveText(`0 ${t("categories.tirDrop")}`);
    await expect(category(page, "Drop")).toHaveText(t("categories.high"));
    // The worst category first: Lowe (low), Drop (high), Quiet (no data), Steady (on target).
    await expect(rows(page)).toHaveText(["Lowe Pop", "Drop Pop", "Quiet Pop", "Steady Pop"]);

    // 7 days: Drop's time in range fell from the 7 days before.
    await page
      .getByTestId("triage-periods")
      .getByRole("link", { name: t("period.days", { count: 7 }) })
      .click();
    await expect(page).toHaveURL(/[?&]period=7/);
    await expect(countLink(page, "tirDrop")).toHaveText(`1 ${t("categories.tirDrop")}`);
    await expect(countLink(page, "high")).toHaveText(`0 ${t("categories.high")}`);
    await expect(countLink(page, "low")).toHaveText(`1 ${t("categories.low")}`);
    await expect(countLink(page, "noData")).toHaveText(`1 ${t("categories.noData")}`);
    await expect(countLink(page, "target")).toHaveText(`1 ${t("categories.target")}`);
    await expect(category(page, "Drop")).toHaveText(t("categories.tirDrop"));

    // A count is a link that filters; "All" shows everyone again.
    await countLink(page, "tirDrop").click();
    await expect(page).toHaveURL(/[?&]cat=tirDrop/);
    await expect(page).toHaveURL(/[?&]period=7/);
    await expect(rows(page)).toHaveText(["Drop Pop"]);
    await expect(countLink(page, "tirDrop")).toHaveAttribute("aria-current", "page");
    await expect(page.getByTestId("triage-count")).toHaveText(
      tr("en", "triage.countFiltered", "patients").replace("{{count}}", "1"),
    );
    await axe(page);
    await countLink(page, "all").click();
    await expect(rows(page)).toHaveCount(4);

    // Tags: defined on the tags page; a second with the same name in other case is refused.
    await page.getByRole("link", { name: t("tags.manage") }).click();
    await expect(page.getByRole("heading", { name: t("tags.title") })).toBeVisible();
    await page.getByLabel(t("tags.name")).fill("Pump start");
    await page.getByRole("button", { name: t("tags.add") }).click();
    await expect(
      page.getByRole("status").filter({ hasText: t("tags.done.created") }),
    ).toBeVisible();
    await page.getByLabel(t("tags.name")).fill("PUMP START");
    await page.getByRole("button", { name: t("tags.add") }).click();
    await expect(
      page.getByRole("alert").filter({ hasText: t("tags.errors.nameTaken") }),
    ).toBeVisible();
    await expect(page.getByTestId("tag-list").getByRole("listitem")).toHaveCount(1);
    await axe(page);

    // Attached to Drop from its row; the tag filter lists only Drop.
    await page.goto("/patientShow/patients?period=7");
    await page
      .getByRole("combobox", { name: t("tags.attachLabel", { name: "Drop Pop" }) })
      .selectOption({ label: "Pump start" });
    await page.getByRole("button", { name: t("tags.attachButton", { name: "Drop Pop" }) }).click();
    const dropTags = page
      .getByTestId("triage-row")
      .filter({ hasText: "Drop" })
      .locator("[data-tag]");
    await expect(dropTags).toHaveText(["Pump start"]);
    await expect(page).toHaveURL(/[?&]period=7/);
    await page.locator(`select[name="tag"]`).selectOption({ label: "Pump start" });
    await page.getByRole("button", { name: tr("en", "triage.filter.apply", "patients") }).click();
    await expect(page).toHaveURL(/[?&]tag=\d+/);
    await expect(rows(page)).toHaveText(["Drop Pop"]);
    await expect(countLink(page, "all")).toHaveText(`1 ${t("counts.all")}`);

    // The summary of the tagged patients, then of all, printable.
    await page.getByRole("link", { name: t("print.link") }).click();
    await expect(page).toHaveURL(/\/triageprint\?period=7&tag=\d+/);
    await expect(page.getByTestId("summary-row")).toHaveCount(1);
    await page.goto("/triageprint?period=7");
    await expect(page.getByRole("heading", { name: t("print.title", { count: 7 }) })).toBeVisible();
    await expect(
      page.getByTestId("summary-counts").locator('td[data-category="tirDrop"]'),
    ).toHaveText("1");
    await expect(page.getByTestId("summary-row")).toHaveCount(4);
    const dropSection = page.locator('tbody[data-category="tirDrop"]');
    await expect(dropSection.getByTestId("summary-row")).toHaveText([/Drop Pop.*Pump start/]);
    await axe(page);

    // The PDF: one page, every patient; the reads are logged as the PDF's.
    const response = await page.request.get("/triageprint.pdf?period=7");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-disposition"]).toMatch(
      /^attachment; filename="triage-7d-\d{4}-\d{2}-\d{2}\.pdf"$/,
    );
    const pdf = await readPdf(await response.body(), testInfo, "triage-summary");
    expect(pdf.pages).toBe(1);
    for (const name of [
      "Drop Pop",
      "Steady Pop",
      "Lowe Pop",
      "Quiet Pop",
      t("print.title", { count: 7 }),
    ])
      expect(pdf.text).toContain(name);
    expect(await readsLogged(s.steady.pid!, s.clinic.id)).toContainEqual({
      action: "read:triage",
      channel: "pdf",
    });
    // On A4 (595 x 842 pt) by default; on the clinic's US Letter one page of 612 x 792 pt.
    expect(pdf.size).toEqual([595, 842]);
    await setPaperSize(s.clinic.id, "letter");
    const letter = await readPdf(
      await (await page.request.get("/triageprint.pdf?period=7")).body(),
      testInfo,
      "triage-summary-letter",
    );
    expect([letter.pages, ...letter.size]).toEqual([1, 612, 792]);
    expect(letter.text).toContain("Drop Pop");

    // Removed from the row: the tag filter now lists nobody.
    await page.goto("/patientShow/patients?period=7");
    await page
      .getByRole("button", { name: t("tags.detach", { tag: "Pump start", name: "Drop Pop" }) })
      .click();
    await expect(dropTags).toHaveCount(0);

    // Deleting asks first (a link to the question, a form to confirm), then the tag is gone.
    await page.goto("/patientShow/tags");
    await page.getByRole("link", { name: t("tags.delete") }).click();
    await expect(
      page.getByText(t("tags.confirmDelete", { name: "Pump start", count: 0 })),
    ).toBeVisible();
    await page.getByRole("button", { name: t("tags.confirm") }).click();
    await expect(
      page.getByRole("status").filter({ hasText: t("tags.done.deleted") }),
    ).toBeVisible();
    await expect(page.getByText(t("tags.empty"))).toBeVisible();
  });
  test("a clinic of 60: the summary prints the 36 most urgent on one page, every patient on request", async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    const clinic = await createUser({
      tag: "many-clinic",
      identity: 2,
      firstName: "Many",
      lastName: "Clinic",
    });
    // Four patients in each of six categories and 36 on target: the first 36 rows (by category)
    // are the 24 and 12 of those on target, under seven category headings, the most a page can
    // have.
    const kinds: [string, number, ((k: number) => number) | null, number][] = [
      ["Verylow", 4, () => 50, 14],
      ["Lowish", 4, (k) => (k % 10 === 0 ? 60 : 120), 14],
      ["Veryhigh", 4, () => 260, 14],
      ["Highish", 4, () => 200, 14],
      ["Shortwear", 4, () => 120, 3],
      ["Nodata", 4, null, 0],
      ["Ontarget", 36, () => 120, 14],
    ];
    for (const [kind, count, values, days] of kinds)
      for (let i = 1; i <= count; i++) {
        const p = await createUser({
          tag: `many-${kind.toLowerCase()}-${i}`,
          identity: 1,
          firstName: `${kind} Longer-Familyname`,
          lastName: `Patient ${String(i).padStart(2, "0")}`,
        });
        if (values) await addCgmSeries(p.pid!, days * DAY_SLOTS, values);
        await createAcceptedShare(p.id, clinic.id);
      }
    await signIn(page, clinic.email, clinic.password, 2);

    await page.goto("/triageprint");
    await expect(page.getByTestId("summary-row")).toHaveCount(36);
    await expect(page.getByTestId("summary-more")).toContainText(
      t("print.mostUrgent", { shown: 36, count: 60 }),
    );
    await expect(page.locator('tbody[data-category="target"] th[scope="rowgroup"]')).toContainText(
      t("print.ofCount", { shown: 12, count: 36 }),
    );
    const onePage = await page.request.get("/triageprint.pdf");
    expect(onePage.status()).toBe(200);
    const one = await readPdf(await onePage.body(), testInfo, "triage-one-page");
    expect(one.pages).toBe(1);
    expect(one.text).toContain("Verylow Longer-Familyname Patient 01");
    // The same 36 on the clinic's US Letter, 17.6 mm shorter: one page of 612 x 792 pt.
    await setPaperSize(clinic.id, "letter");
    const letter = await readPdf(
      await (await page.request.get("/triageprint.pdf")).body(),
      testInfo,
      "triage-one-page-letter",
    );
    expect([letter.pages, ...letter.size]).toEqual([1, 612, 792]);
    expect(letter.text).toContain("Verylow Longer-Familyname Patient 01");
    await setPaperSize(clinic.id, "a4");

    await page.getByRole("link", { name: t("print.everyPatient", { total: 60 }) }).click();
    await expect(page).toHaveURL(/[?&]all=1/);
    await expect(page.getByTestId("summary-row")).toHaveCount(60);
    await expect(page.getByTestId("summary-more")).toHaveCount(0);
    const every = await page.request.get("/triageprint.pdf?all=1");
    const all = await readPdf(await every.body(), testInfo, "triage-every-patient");
    expect(all.pages).toBe(2);
    expect(all.text).toContain("Ontarget Longer-Familyname Patient 36");
    await page.getByRole("link", { name: t("print.onePage") }).click();
    await expect(page.getByTestId("summary-row")).toHaveCount(36);
  });
});
