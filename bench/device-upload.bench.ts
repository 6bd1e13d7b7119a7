/**
 * The pump upload in the browser, from the user's click to "Upload Success", on the production
 * server and the local PostgreSQL: Chromium opens the upload centre as the seeded clinic for the
 * seeded patient, with the byte-level handheld simulator behind a fake `navigator.usb` (the one
 * the browser tests use) holding 90 days of history and answering without simulated delays. The
 * page's own code runs: the WebUSB transport, the frames, the upload steps, the slices to the API
 * and the polling. Also the history parse alone inside the same browser.
 *
 * Targets: the whole 90-day upload < 10 s; parsing 90 days of history in the browser < 150 ms.
 */
import { buildSync } from "esbuild";
import path from "node:path";
import { chromium } from "@playwright/test";
import { shiftDate, todayIn } from "../app/report/day";
import { seededPatient, withBenchServer } from "./server";
import { median, type BenchResult } from "./timing";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--no-first-run",
  "--disable-background-networking",
];
const DAYS = 90;

const bundle = (entry: string) =>
  buildSync({
    entryPoints: [path.resolve(entry)],
    bundle: true,
    format: "iife",
    platform: "browser",
    write: false,
    tsconfig: path.resolve("tsconfig.json"),
  }).outputFiles[0]!.text;

type Step = { percent: number; at: number };

export async function benchDeviceUpload(): Promise<BenchResult[]> {
  return withBenchServer("device_upload", async (server) => {
    const { pid } = await seededPatient(server.databaseUrl);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    try {
      const context = await browser.newContext({ baseURL: server.origin });
      const cookies = server.cookie.split("; ").map((pair) => ({
        name: pair.slice(0, pair.indexOf("=")),
        value: pair.slice(pair.indexOf("=") + 1),
        url: server.origin,
      }));
      await context.addCookies(cookies);
      const start = shiftDate(todayIn("Europe/Warsaw", Date.now()), -DAYS);
      const handheld = { serial: "EQBENCH90", start, days: DAYS, seed: 3 };
      await context.addInitScript({
        content: `window.__FAKE_HANDHELD__ = ${JSON.stringify({ handheld, faults: [], readDelayMs: 0 })};\n${bundle("tests/e2e/browser/fake-usb.ts")}\n${bundle("bench/browser/parse-history.ts")}`,
      });
      const page = await context.newPage();
      await page.goto(`/patientShow/${pid}/upload`);
      await page.waitForLoadState("networkidle");
      const parses: number[] = [];
      let records = 0;
      for (let i = 0; i < 6; i++) {
        const run = await page.evaluate(() =>
          (
            window as unknown as { __parseHistory: () => { ms: number; records: number } }
          ).__parseHistory(),
        );
        if (i > 0) parses.push(run.ms);
        records = run.records;
      }

      await page.evaluate(() => {
        const steps: { percent: number; at: number }[] = [];
        (window as unknown as { __steps: typeof steps }).__steps = steps;
        new MutationObserver(() => {
          const now = Number(
            document.querySelector('[role="progressbar"]')?.getAttribute("aria-valuenow") ?? NaN,
          );
          if (!Number.isNaN(now) && steps.at(-1)?.percent !== now)
            steps.push({ percent: now, at: performance.now() });
        }).observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
          attributeFilter: ["aria-valuenow"],
        });
      });
      await page.locator('input[name="device"][value="equil"]').check();
      await page.locator("button", { hasText: /^Upload$/ }).click();
      const skip = page.getByTestId("password-dialog").locator("button").nth(1);
      await skip.waitFor();
      const clicked = await skip.evaluate((button) => {
        const at = performance.now();
        (button as HTMLButtonElement).click();
        return at;
      });
      const progress = page.getByTestId("upload-progress");
      await progress
        .and(
          page.locator(
            '[data-status="success"], [data-status="failed"], [data-status="noNewRecords"]',
          ),
        )
        .waitFor({ timeout: 120_000 });
      const status = await progress.getAttribute("data-status");
      if (status !== "success")
        throw new Error(`the upload ended ${status}: ${await progress.innerText()}`);
      const steps = await page.evaluate(
        () => (window as unknown as { __steps: { percent: number; at: number }[] }).__steps,
      );
      const at = (percent: number) =>
        (steps.find((s: Step) => s.percent === percent)?.at ?? NaN) - clicked;
      const summary =
        (await progress.innerText()).split("\n").find((line) => line.includes(":")) ?? "";
      return [
        {
          name: `device upload: ${DAYS}-day pump, click to success`,
          ms: at(100),
          detail: `target < 10 s; ${summary.trim()}`,
        },
        {
          name: "device upload: handheld read (click to 75 %)",
          ms: at(75),
          detail: "password skipped, version, 7 programs, settings, CGM, zone, history",
        },
        {
          name: "device upload: slices sent (75 % to 99.01 %)",
          ms: at(99.01) - at(75),
          detail: "",
        },
        {
          name: "device upload: server processing (99.01 % to 100 %)",
          ms: at(100) - at(99.01),
          detail: "",
        },
        {
          name: `device: ${DAYS} days of history parsed in Chromium`,
          ms: median(parses),
          detail: `${records} records; target < 150 ms; median of 5`,
        },
      ];
    } finally {
      await browser.close();
    }
  });
}
