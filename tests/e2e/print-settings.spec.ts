import { expect, test, type Locator, type Page } from "@playwright/test";
import { LOGO_MAX_BYTES } from "../../app/schemas/setting";
import { reportPdfHref } from "../../app/report/report-kinds";
import { createUser } from "./db";
import { tr } from "./i18n";
import { readPdf } from "./report-pdf";
import { signIn } from "./support";

const t = (key: string) => tr("en", key, "settings");

/** A valid 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
);

async function upload(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.getByLabel(t("logo.file")).setInputFiles(file);
  await page.getByRole("button", { name: t("logo.upload") }).click();
}

/** An <img> that the browser loaded and decoded (a broken image has no natural width). */
async function expectLoadedImage(image: Locator) {
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
}

/** The report header's title row (logo and title), aligned by the saved nameStyle. */
const titleRow = (page: Page) => page.locator("[data-testid=report-header] > div").first();

test.describe("report print settings", () => {
  // Several sign-ins, uploads and report renders on a 2-core machine.
  test.describe.configure({ timeout: 90_000 });

  test("signed-out visitors are sent to sign in first", async ({ page }) => {
    await page.goto("/newsetting");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fnewsetting$/);
  });

  test("a person chooses US Letter paper: the preview sheet takes its proportions, the report's pages and its PDF are Letter", async ({
    page,
  }, testInfo) => {
    const user = await createUser({
      tag: "paper-size",
      identity: 1,
      firstName: "Paige",
      lastName: "Letter",
    });
    await signIn(page, user.email, user.password, 1);
    await page.goto("/newsetting");
    const a4 = page.getByRole("radio", { name: t("print.a4") });
    const letter = page.getByRole("radio", { name: t("print.letter") });
    await expect(page.getByRole("radiogroup", { name: t("print.paperSize") })).toBeVisible();
    await expect(a4).toBeChecked();
    await expect(letter).not.toBeChecked();
    const preview = page.getByTestId("settings-preview");
    /** The preview sheet's height over its width. */
    const proportion = async () => {
      const box = (await preview.boundingBox())!;
      return box.height / box.width;
    };
    await expect(preview).toHaveAttribute("data-paper", "a4");
    // A4 portrait: 297 / 210 = 1.414; US Letter portrait: 279.4 / 215.9 = 1.294.
    expect(await proportion()).toBeCloseTo(1.414, 2);

    await letter.check();
    await page.getByRole("button", { name: t("save") }).click();
    await expect(page.getByRole("status").filter({ hasText: t("notices.saved") })).toBeVisible();
    await expect(letter).toBeChecked();
    await expect(a4).not.toBeChecked();
    await expect(preview).toHaveAttribute("data-paper", "letter");
    await expect.poll(proportion).toBeCloseTo(1.294, 2);
    await expect(page.getByText(t("preview.note").split("{{")[0]!)).toContainText(
      t("print.letter"),
    );

    // Landscape too: the sheet turns, 215.9 / 279.4 = 0.773 (the notice of the first save may
    // still be shown: the sheet is waited for).
    await page.getByRole("radio", { name: t("print.landscape") }).check();
    await page.getByRole("button", { name: t("save") }).click();
    await expect(page.getByRole("status").filter({ hasText: t("notices.saved") })).toBeVisible();
    await expect(letter).toBeChecked();
    await expect.poll(proportion).toBeCloseTo(0.773, 2);

    // The CGM report's pages are Letter, its multi-day charts' pages Letter landscape.
    const range = { start: "2026-01-05", end: "2026-01-07" };
    await page.goto(`/${user.pid}/cgmsprint?start=${range.start}&end=${range.end}`);
    await expect(page.getByTestId("report-patient")).toHaveText(user.name);
    const css = await page
      .locator("style")
      .evaluateAll((styles) => styles.map((el) => el.textContent).join("\n"));
    expect(css).toContain("@page { size: letter landscape;");
    expect(css).toContain("@page wide { size: letter landscape;");
    // Its PDF: 8.5 x 11 in = 612 x 792 pt, turned.
    const pdf = await readPdf(
      await (await page.request.get(reportPdfHref("cgm", user.pid!, range))).body(),
      testInfo,
      "cgm-letter",
    );
    expect(pdf.size).toEqual([792, 612]);
    expect(pdf.text).toContain(user.name);
  });

  test("a person sets landscape, centred title, no split line and a logo; the CGM report follows; bad files are refused; the logo is removed after confirming", async ({
    page,
  }, testInfo) => {
    const user = await createUser({
      tag: "print-settings",
      identity: 1,
      firstName: "Lena",
      lastName: "Logo",
    });
    await signIn(page, user.email, user.password, 1);

    await page.goto("/newsetting");
    await expect(page.getByRole("heading", { level: 1, name: t("title") })).toBeVisible();
    await expect(page.getByRole("link", { name: t("print.help") })).toHaveAttribute(
      "href",
      "/supports#printsettings",
    );
    // The defaults: portrait, left, split line on, no logo.
    await expect(page.getByRole("radio", { name: t("print.portrait") })).toBeChecked();
    await expect(page.getByRole("radio", { name: t("print.left") })).toBeChecked();
    await expect(page.getByRole("checkbox", { name: t("print.splitLine") })).toBeChecked();
    await expect(page.getByText(t("logo.none"))).toBeVisible();

    await page.getByRole("radio", { name: t("print.landscape") }).check();
    await page.getByRole("radio", { name: t("print.center") }).check();
    await page.getByRole("checkbox", { name: t("print.splitLine") }).uncheck();
    await page.getByRole("radio", { name: t("units.lb") }).check();
    await page.getByRole("button", { name: t("save") }).click();
    await expect(page.getByRole("status").filter({ hasText: t("notices.saved") })).toBeVisible();
    await expect(page.getByRole("radio", { name: t("print.landscape") })).toBeChecked();
    await expect(page.getByRole("radio", { name: t("units.lb") })).toBeChecked();
    // The preview shows the saved settings.
    const preview = page.getByTestId("settings-preview");
    await expect(preview.locator("[data-testid=report-header] > div").first()).toHaveCSS(
      "justify-content",
      "center",
    );
    await expect(preview.getByTestId("report-header")).toHaveCSS("border-bottom-style", "none");

    // A PNG logo (declared as a PNG) is kept and shown.
    await expect(
      page.getByText(t("logo.hint").replace("{{size}}", String(LOGO_MAX_BYTES / 1024))),
    ).toBeVisible();
    await upload(page, { name: "logo.png", mimeType: "image/png", buffer: PNG });
    await expect(
      page.getByRole("status").filter({ hasText: t("notices.logoSaved") }),
    ).toBeVisible();
    await expectLoadedImage(page.getByTestId("current-logo"));
    await expectLoadedImage(preview.locator("img"));
    await testInfo.attach(`print-settings-${testInfo.project.name}.png`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });

    // The CGM report's header: the logo, the centred title, no rule under it, landscape paper.
    await page.goto(`/${user.pid}/cgmsprint`);
    await expect(page.getByTestId("report-patient")).toHaveText(user.name);
    await expectLoadedImage(
      page
        .getByTestId("report-header")
        .getByRole("img", { name: tr("en", "common.header.logo", "reports") }),
    );
    await expect(titleRow(page)).toHaveCSS("justify-content", "center");
    await expect(page.getByTestId("report-header")).toHaveCSS("border-bottom-style", "none");
    expect(
      await page
        .locator("style")
        .evaluateAll((styles) => styles.map((el) => el.textContent).join("\n")),
    ).toContain("@page { size: A4 landscape;");

    // Text, an SVG and an oversized file are refused with their messages; the logo stays.
    await page.goto("/newsetting");
    await upload(page, {
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("not an image"),
    });
    await expect(page.getByRole("alert").filter({ hasText: t("errors.logoType") })).toBeVisible();
    await upload(page, { name: "logo.svg", mimeType: "image/svg+xml", buffer: SVG });
    await expect(page.getByRole("alert").filter({ hasText: t("errors.logoType") })).toBeVisible();
    const big = Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES)]);
    await upload(page, { name: "big.png", mimeType: "image/png", buffer: big });
    await expect(
      page.getByRole("alert").filter({ hasText: t("errors.logoTooLarge") }),
    ).toBeVisible();
    await page.goto("/newsetting");
    await expectLoadedImage(page.getByTestId("current-logo"));

    // Removing asks first; cancelling keeps the logo, confirming removes it.
    await page.getByRole("link", { name: t("logo.remove") }).click();
    await expect(
      page.getByRole("alert").filter({ hasText: t("logo.removeConfirm") }),
    ).toBeVisible();
    await page.getByRole("link", { name: t("logo.removeNo") }).click();
    await expect(page.getByText(t("logo.removeConfirm"))).toHaveCount(0);
    await expect(page.getByTestId("current-logo")).toBeVisible();
    await page.getByRole("link", { name: t("logo.remove") }).click();
    await page.getByRole("button", { name: t("logo.removeYes") }).click();
    await expect(
      page.getByRole("status").filter({ hasText: t("notices.logoRemoved") }),
    ).toBeVisible();
    await expect(page.getByText(t("logo.none"))).toBeVisible();
    await expect(page.getByTestId("current-logo")).toHaveCount(0);

    await page.goto(`/${user.pid}/cgmsprint`);
    await expect(page.getByTestId("report-patient")).toHaveText(user.name);
    await expect(page.getByTestId("report-header").getByRole("img")).toHaveCount(0);
    await expect(titleRow(page)).toHaveCSS("justify-content", "center");
  });

  test("a person chooses Polish, their time zone and meal times on the settings page; a refused time keeps what was typed; /setting leads there", async ({
    page,
  }) => {
    const user = await createUser({
      tag: "settings-day",
      identity: 1,
      firstName: "Dora",
      lastName: "Day",
    });
    await signIn(page, user.email, user.password, 1);
    await page.goto("/setting");
    await expect(page).toHaveURL(/\/newsetting$/);

    const zone = page.getByLabel(t("day.zone"), { exact: true });
    // The zones show their offset, name and the time there now: "(GMT+01:00) Warsaw — 14:05".
    await expect(zone.locator("option")).toHaveCount(31);
    await expect(zone.locator('option[value="Europe/Warsaw"]')).toHaveText(
      /^\(GMT\+0[12]:00\) Warsaw — \d{2}:\d{2}$/,
    );
    await zone.selectOption("Europe/Rome");
    const section = page.locator("#day");
    await section.locator('input[name="lunchStart"]').fill("12:30:00");
    await section.locator('input[name="lunchEnd"]').fill("12:00:00");
    await section.getByRole("button", { name: tr("en", "centre.save", "upload") }).click();
    await expect(
      section.getByRole("alert").filter({ hasText: t("errors.mealTimeWrong") }),
    ).toBeVisible();
    await expect(page.getByLabel(t("day.zone"), { exact: true })).toHaveValue("Europe/Rome");
    await expect(section.locator('input[name="lunchStart"]')).toHaveValue("12:30:00");
    await section.locator('input[name="lunchEnd"]').fill("14:15:00");
    await section.getByRole("button", { name: tr("en", "centre.save", "upload") }).click();
    await expect(
      section.getByRole("status").filter({ hasText: tr("en", "centre.saved", "upload") }),
    ).toBeVisible();
    await page.goto("/newsetting");
    await expect(page.getByLabel(t("day.zone"), { exact: true })).toHaveValue("Europe/Rome");
    await expect(page.locator('#day input[name="lunchEnd"]')).toHaveValue("14:15:00");

    // The target range, in the person's unit (mmol/L): refused when upside down, then saved.
    const low = section.getByLabel(
      tr("en", "fields.lowLimit", "record").replace("{{unit}}", "mmol/L"),
    );
    const high = section.getByLabel(
      tr("en", "fields.highLimit", "record").replace("{{unit}}", "mmol/L"),
    );
    await expect(low).toHaveValue("3.9");
    await low.fill("9");
    await high.fill("5");
    await section.getByRole("button", { name: t("day.saveRange") }).click();
    await expect(section.getByText(tr("en", "errors.glucoseRangeWrong", "record"))).toBeVisible();
    await page.locator("#target-range input[name=lowLimit]").fill("4.2");
    await page.locator("#target-range input[name=highLimit]").fill("9.5");
    await page.getByRole("button", { name: t("day.saveRange") }).click();
    await expect(
      page.getByRole("status").filter({ hasText: t("notices.rangeSaved") }),
    ).toBeVisible();
    await page.goto("/newsetting");
    await expect(page.locator("#target-range input[name=highLimit]")).toHaveValue("9.5");

    // The language: the next page, and the saved setting, are Polish.
    await page.getByRole("radio", { name: "Polski" }).check();
    await page.getByRole("button", { name: t("save") }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "pl");
    await expect(
      page.getByRole("heading", { level: 1, name: tr("pl", "title", "settings") }),
    ).toBeVisible();
    await page.goto(`/${user.pid}/cgmsprint`);
    await expect(page.locator("html")).toHaveAttribute("lang", "pl");
  });
});
