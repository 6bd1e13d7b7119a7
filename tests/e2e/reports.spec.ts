import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { computeAll } from "../../app/metrics";
import { dayWindow, displayDate, shiftDate, todayIn } from "../../app/report/day";
import { buildPumpReport } from "../../app/report/pump-report";
import { formatGlucose, formatNumber } from "../../app/report/units";
import { createAcceptedShare, createUser, demoPatient, pumpRecordsAround, readingsBetween } from "./db";
import { tr } from "./i18n";
import { jsEnabled, signIn } from "./support";

const r = (key: string) => tr("en", key, "reports");

/** The text of a report figure: the first <dd> after the <dt> with this label. */
function figure(page: Page, label: string, list = "cgm-figures") {
  return page.getByTestId(list).locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]");
}

test.describe("CGM report", () => {
  // Sign-in, two report renders and a server-side PDF on a 2-core machine.
  test.describe.configure({ timeout: 120_000 });

  test("a clinic previews a 7-day CGM report, sees the average of the stored readings, and downloads the PDF", async ({ page }, testInfo) => {
    const patient = await demoPatient();
    const clinic = await createUser({ tag: "report-clinic", identity: 2, firstName: "Rhea", lastName: "Reports" });
    await createAcceptedShare(patient.userId, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);

    await page.goto(`/${patient.pid}/cgmsprint`);
    await expect(page.getByRole("heading", { level: 1, name: r("cgm.title") })).toBeVisible();
    await expect(page.getByTestId("report-patient")).toHaveText("Anna Kowalczyk");

    // A missing date is refused with the spec's message; the typed start stays.
    const end = shiftDate(todayIn(patient.timeZone, Date.now()), -1);
    const start = shiftDate(end, -6);
    await page.getByLabel(r("common.range.start")).fill(displayDate(start));
    await page.getByLabel(r("common.range.end")).fill("");
    await page.getByRole("button", { name: r("common.preview") }).click();
    await expect(page.getByRole("alert")).toHaveText(r("common.selectDate"));
    await expect(page.getByLabel(r("common.range.start"))).toHaveValue(displayDate(start));

    // Preview a 7-day range: the average is computeAll's mean of the stored readings of that range.
    await page.getByLabel(r("common.range.end")).fill(displayDate(end));
    await page.getByRole("button", { name: r("common.preview") }).click();
    await expect(page.getByTestId("report-range")).toHaveText(`${displayDate(start)} – ${displayDate(end)}`);
    const { cgm } = await readingsBetween(patient.pid, dayWindow(start, patient.timeZone).start, dayWindow(end, patient.timeZone).end);
    const metrics = computeAll(cgm, { timeZone: patient.timeZone, limits: { low: 70, high: 180 } });
    await expect(figure(page, r("cgm.average"))).toHaveText(`${formatGlucose(metrics.mean.value, 0, "en")} mmol/L`);
    await expect(figure(page, r("cgm.count"))).toHaveText(String(metrics.meta.readings));
    await expect(page.getByTestId("day-chart")).toHaveCount(7);
    await testInfo.attach(`cgm-report-screen-${testInfo.project.name}.png`, { body: await page.screenshot(), contentType: "image/png" });

    // Tips: a popover with JavaScript, a plain link without; both lead to the support page's section.
    if (jsEnabled()) {
      await page.getByRole("button", { name: r("common.tips.label") }).click();
      await expect(page.getByRole("dialog").getByRole("link", { name: r("common.tips.link") })).toHaveAttribute("href", "/supports#cgmsprintsettings");
      await page.keyboard.press("Escape");
    } else {
      await expect(page.getByRole("link", { name: r("common.tips.label") })).toHaveAttribute("href", "/supports#cgmsprintsettings");
    }

    // Download the PDF: with JavaScript the link fetches it and says Generated; without, the server answers an attachment.
    const link = page.getByRole("link", { name: r("common.download") });
    await expect(link).toHaveAttribute("href", `/${patient.pid}/cgmsprint.pdf?start=${start}&end=${end}`);
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 60_000 }), link.click()]);
    expect(download.suggestedFilename()).toBe(`cgm-report-${patient.pid}-${start}-${end}.pdf`);
    if (jsEnabled()) await expect(page.getByRole("status").filter({ hasText: r("common.generated") })).toBeVisible();
    const dir = mkdtempSync(path.join(os.tmpdir(), "diacare-report-"));
    try {
      const file = path.join(dir, "report.pdf");
      await download.saveAs(file);
      expect(readFileSync(file).subarray(0, 5).toString()).toBe("%PDF-");
      const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
      const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
      expect(pages).toBeGreaterThanOrEqual(1);
      const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
      expect(text).toContain("Anna Kowalczyk");
      expect(text).toContain(r("cgm.title"));
      expect(text).toContain(`${displayDate(start)} – ${displayDate(end)}`);
      execFileSync("pdftoppm", ["-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", file, path.join(dir, "page1")]);
      await testInfo.attach(`cgm-report-page1-${testInfo.project.name}.png`, { body: readFileSync(path.join(dir, "page1.png")), contentType: "image/png" });
      writeFileSync(path.join(dir, "pages.txt"), String(pages));
      testInfo.annotations.push({ type: "pdf pages", description: String(pages) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("someone the patient has not shared with gets 404 for the page and 403 for the PDF", async ({ page }) => {
    const patient = await demoPatient();
    const stranger = await createUser({ tag: "report-stranger", identity: 2, firstName: "Sid", lastName: "Stranger" });
    await signIn(page, stranger.email, stranger.password, 2);
    expect((await page.goto(`/${patient.pid}/cgmsprint`))?.status()).toBe(404);
    const end = shiftDate(todayIn(patient.timeZone, Date.now()), -1);
    const pdf = await page.request.get(`/${patient.pid}/cgmsprint.pdf?start=${shiftDate(end, -6)}&end=${end}`);
    expect(pdf.status()).toBe(403);
    expect(pdf.headers()["content-type"]).not.toContain("application/pdf");
  });
});

test.describe("Pump report", () => {
  test.describe.configure({ timeout: 120_000 });

  test("a clinic previews a 7-day pump report, sees the insulin total of the stored records, and downloads the PDF", async ({ page }, testInfo) => {
    const patient = await demoPatient();
    const clinic = await createUser({ tag: "pump-report-clinic", identity: 2, firstName: "Pia", lastName: "Printer" });
    await createAcceptedShare(patient.userId, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);

    // Without dates: the 15 days ending today.
    await page.goto(`/${patient.pid}/print`);
    await expect(page.getByRole("heading", { level: 1, name: r("pump.title") })).toBeVisible();
    await expect(page.getByTestId("report-patient")).toHaveText("Anna Kowalczyk");
    const today = todayIn(patient.timeZone, Date.now());
    await expect(page.getByTestId("report-range")).toHaveText(`${displayDate(shiftDate(today, -14))} – ${displayDate(today)}`);

    // The 7-day quick range from a typed start date.
    const end = shiftDate(today, -1);
    const start = shiftDate(end, -6);
    await page.getByLabel(r("common.range.start")).fill(displayDate(start));
    await page.getByRole("button", { name: "7 days" }).click();
    await expect(page.getByTestId("report-range")).toHaveText(`${displayDate(start)} – ${displayDate(end)}`);

    const records = await pumpRecordsAround(patient.pid, dayWindow(start, patient.timeZone).start, dayWindow(end, patient.timeZone).end);
    const built = buildPumpReport({ from: start, to: end, timeZone: patient.timeZone, now: Date.now(), records, pdaVersion: "5.3.0", limits: { low: 70, high: 180 }, setting: { unit: 0, nameStyle: 0 } });
    if (built.status !== "ok") throw new Error(built.problem);
    expect(built.report.PumpTotalCount.total).toBeGreaterThan(0);
    await expect(figure(page, r("pump.total"), "pump-totals")).toHaveText(`${formatNumber(built.report.PumpTotalCount.total, 2, "en")} U`);
    await expect(figure(page, r("pump.choAvg"), "pump-totals")).toHaveText(`${formatNumber(built.report.cho.avg, 1, "en")} g`);
    await expect(page.getByTestId("day-chart")).toHaveCount(built.report.days.filter((d) => d.hasData).length);
    await testInfo.attach(`pump-report-screen-${testInfo.project.name}.png`, { body: await page.screenshot(), contentType: "image/png" });

    if (jsEnabled()) {
      await page.getByRole("button", { name: r("common.tips.label") }).click();
      await expect(page.getByRole("dialog").getByRole("link", { name: r("common.tips.link") })).toHaveAttribute("href", "/supports#printsettings");
      await page.keyboard.press("Escape");
    } else {
      await expect(page.getByRole("link", { name: r("common.tips.label") })).toHaveAttribute("href", "/supports#printsettings");
    }

    const link = page.getByRole("link", { name: r("common.download") });
    await expect(link).toHaveAttribute("href", `/${patient.pid}/print.pdf?start=${start}&end=${end}`);
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 60_000 }), link.click()]);
    expect(download.suggestedFilename()).toBe(`pump-report-${patient.pid}-${start}-${end}.pdf`);
    const dir = mkdtempSync(path.join(os.tmpdir(), "diacare-pump-report-"));
    try {
      const file = path.join(dir, "report.pdf");
      await download.saveAs(file);
      expect(readFileSync(file).subarray(0, 5).toString()).toBe("%PDF-");
      const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
      const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
      expect(pages).toBeGreaterThanOrEqual(1);
      const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
      expect(text).toContain("Anna Kowalczyk");
      expect(text).toContain(r("pump.title"));
      execFileSync("pdftoppm", ["-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", file, path.join(dir, "page1")]);
      await testInfo.attach(`pump-report-page1-${testInfo.project.name}.png`, { body: readFileSync(path.join(dir, "page1.png")), contentType: "image/png" });
      testInfo.annotations.push({ type: "pdf pages", description: String(pages) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test.describe("AGP report", () => {
  test.describe.configure({ timeout: 120_000 });

  test("a clinic opens the AGP report of the default range, sees computeAll's time in range, and downloads the PDF", async ({ page }, testInfo) => {
    const patient = await demoPatient();
    const clinic = await createUser({ tag: "agp-report-clinic", identity: 2, firstName: "Aga", lastName: "Profile" });
    await createAcceptedShare(patient.userId, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);

    // Without dates: the 14 days up to the last day with CGM data.
    await page.goto(`/${patient.pid}/agpprint`);
    await expect(page.getByRole("heading", { level: 1, name: r("agp.title") })).toBeVisible();
    await expect(page.getByTestId("report-patient")).toHaveText("Anna Kowalczyk");
    const shown = (await page.getByTestId("report-range").textContent()) ?? "";
    const [start, end] = shown.split(" – ").map((d) => d.trim().replaceAll("/", "-"));
    expect(shiftDate(end!, -13)).toBe(start);

    const { cgm } = await readingsBetween(patient.pid, dayWindow(start!, patient.timeZone).start, dayWindow(end!, patient.timeZone).end);
    const metrics = computeAll(cgm, { timeZone: patient.timeZone, limits: { low: 70, high: 180 } });
    await expect(page.getByTestId("agp-tir-inRange")).toHaveText(`${formatNumber(metrics.timeInRanges.value!.range70to180, 1, "en")} %`);
    await expect(page.getByTestId("agp-chart").locator("svg")).toHaveCount(1);
    await expect(page.getByTestId("agp-day")).toHaveCount(14);
    await testInfo.attach(`agp-report-screen-${testInfo.project.name}.png`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });

    const link = page.getByRole("link", { name: r("common.download") });
    await expect(link).toHaveAttribute("href", `/${patient.pid}/agpprint.pdf?start=${start}&end=${end}`);
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 60_000 }), link.click()]);
    expect(download.suggestedFilename()).toBe(`agp-report-${patient.pid}-${start}-${end}.pdf`);
    const dir = mkdtempSync(path.join(os.tmpdir(), "diacare-agp-report-"));
    try {
      const file = path.join(dir, "report.pdf");
      await download.saveAs(file);
      const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
      const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
      expect(pages).toBeGreaterThanOrEqual(1);
      const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
      expect(text).toContain("Anna Kowalczyk");
      expect(text).toContain(r("agp.title"));
      execFileSync("pdftoppm", ["-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", file, path.join(dir, "page1")]);
      await testInfo.attach(`agp-report-page1-${testInfo.project.name}.png`, { body: readFileSync(path.join(dir, "page1.png")), contentType: "image/png" });
      testInfo.annotations.push({ type: "pdf pages", description: String(pages) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
