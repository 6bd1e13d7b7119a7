/**
 * Writes docs/images/daily-phone.png, the README's picture of the DAILY view on a phone (390 CSS
 * px wide, drawn at 2 device pixels per CSS pixel): the demo clinic's view of the demo patient's
 * newest pump day, from the page's top to the end of the day totals.
 *
 * Run against a server with the demo data (`npm run demo`, or `npm start` on a seeded database):
 *   npx tsx scripts/phone-screenshot.ts [http://127.0.0.1:3000]
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

const base = process.argv[2] ?? "http://127.0.0.1:3000";
const out = path.resolve("docs/images/daily-phone.png");

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
try {
  const page = await (
    await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      locale: "en",
    })
  ).newPage();
  await page.goto(`${base}/login`);
  await page
    .getByRole("main")
    .getByLabel(/^Email/)
    .fill("clinic@demo.diacare.test");
  await page
    .getByRole("main")
    .getByLabel(/^Password/)
    .fill("demo-clinic-1");
  await page.locator("input[name=identity][value='2']").check();
  await page.locator("main button[type=submit]").click();
  await page.waitForURL(/\/patientShow\//);
  await page
    .getByRole("complementary")
    .getByRole("link", { name: /Anna Kowalczyk/ })
    .click();
  await page.getByTestId("chart-narrow").locator("svg").waitFor();
  // No hover highlight where the click left the pointer.
  await page.mouse.move(0, 0);
  const totals = await page.getByTestId("daily-totals").boundingBox();
  if (!totals) throw new Error("the DAILY totals are not on the page");
  mkdirSync(path.dirname(out), { recursive: true });
  await page.screenshot({
    path: out,
    fullPage: true,
    clip: { x: 0, y: 0, width: 390, height: Math.ceil(totals.y + totals.height + 16) },
  });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
