import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, type TestInfo } from "@playwright/test";
import type { Locale } from "../../app/i18n";
import { tr } from "./i18n";
import { jsEnabled } from "./support";

export interface ReadPdf {
  readonly pages: number;
  /** The first page's media box in points, rounded (pdfinfo "Page size"): A4 595 x 842, Letter 612 x 792. */
  readonly size: readonly [number, number];
  /** The document's title metadata (pdfinfo "Title:"), "" without one. */
  readonly title: string;
  /** pdftotext -layout of the whole document. */
  readonly text: string;
}

/**
 * Clicks a report's Download PDF link (in the page's language), checks the file name, the
 * "Generated" status with JavaScript, and that the file is a PDF; reads it back with pdfinfo and
 * pdftotext (poppler-utils) and attaches its first page as a PNG to the test report.
 */
export async function downloadReportPdf(
  page: Page,
  testInfo: TestInfo,
  options: { href: string; fileName: string; label: string; lang?: Locale },
): Promise<ReadPdf> {
  const lang = options.lang ?? "en";
  const link = page.getByRole("link", { name: tr(lang, "common.download", "reports") });
  await expect(link).toHaveAttribute("href", options.href);
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: 60_000 }),
    link.click(),
  ]);
  expect(download.suggestedFilename()).toBe(options.fileName);
  if (jsEnabled())
    await expect(
      page.getByRole("status").filter({ hasText: tr(lang, "common.generated", "reports") }),
    ).toBeVisible();
  return readPdf(readFileSync(await download.path()), testInfo, options.label);
}

/** Reads a PDF back (pdfinfo, pdftotext) and attaches its first page as a PNG to the test report. */
export async function readPdf(bytes: Buffer, testInfo: TestInfo, label: string): Promise<ReadPdf> {
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
  const dir = mkdtempSync(path.join(os.tmpdir(), "diacare-pdf-"));
  try {
    const file = path.join(dir, "report.pdf");
    writeFileSync(file, bytes);
    const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
    const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
    const title = /^Title:\s+(.*)$/m.exec(info)?.[1]?.trim() ?? "";
    const [width, height] = (/^Page size:\s+([\d.]+) x ([\d.]+)/m.exec(info)?.slice(1) ?? []).map(
      (v) => Math.round(Number(v)),
    );
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    execFileSync("pdftoppm", [
      "-png",
      "-r",
      "60",
      "-f",
      "1",
      "-l",
      "1",
      "-singlefile",
      file,
      path.join(dir, "page1"),
    ]);
    await testInfo.attach(`${label}-page1-${testInfo.project.name}.png`, {
      body: readFileSync(path.join(dir, "page1.png")),
      contentType: "image/png",
    });
    testInfo.annotations.push({ type: `${label} pdf pages`, description: String(pages) });
    return { pages, size: [width ?? 0, height ?? 0], title, text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
