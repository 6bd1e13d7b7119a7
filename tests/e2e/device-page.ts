import { buildSync } from "esbuild";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import type { AidexOptions } from "../../app/device/simulator/aidex";
import type { HandheldOptions, SimulatedFault } from "../../app/device/simulator/equil";
import type { FakeUsbState } from "./browser/fake-usb";
import { tr } from "./i18n";

/**
 * Helpers of the device specs (device-serial, device-faults): the fakes of tests/e2e/browser
 * bundled for the browser, the progress bar's percents as the page showed them, and the page
 * without JavaScript.
 */

export const u = (key: string) => tr("en", key, "upload");
export const v = (key: string) => tr("en", key, "views");
export const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce(
    (out, [k, value]) => out.replaceAll(`{{${k}}}`, String(value)),
    text,
  );

/** A browser-side fake (tests/e2e/browser/…) bundled as one script. */
export function bundle(file: string): string {
  return buildSync({
    entryPoints: [path.resolve(file)],
    bundle: true,
    format: "iife",
    platform: "browser",
    write: false,
    tsconfig: path.resolve("tsconfig.json"),
  }).outputFiles[0]!.text;
}

/** Opens the patient's upload centre and records every percent the progress bar shows, in order. */
export async function openUploadCentre(page: Page, pid: number) {
  await page.goto(`/patientShow/${pid}/upload`);
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { __percents: number[] }).__percents = seen;
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"]');
      const now = bar ? Number(bar.getAttribute("aria-valuenow")) : null;
      if (now !== null && seen.at(-1) !== now) seen.push(now);
    }).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["aria-valuenow"],
    });
  });
}

/** What the fake navigator.usb holds (tests/e2e/browser/fake-usb.ts): an Equil handheld, or an AiDEX, its faults and the chooser's answers. */
export type FakeUsbOptions = {
  handheld?: HandheldOptions;
  aidex?: AidexOptions;
  faults?: SimulatedFault[];
  choices?: ("accessory" | "normal" | "denied" | "cancel")[];
};

let fakeUsb: string | undefined;

/** Installs the fake navigator.usb for the page's next loads and opens the patient's upload centre. */
export async function withFakeUsb(page: Page, pid: number, options: FakeUsbOptions) {
  fakeUsb ??= bundle("tests/e2e/browser/fake-usb.ts");
  await page.addInitScript({
    content: `window.__FAKE_HANDHELD__ = ${JSON.stringify({ faults: [], ...options })};\n${fakeUsb}`,
  });
  await openUploadCentre(page, pid);
}

/** What happened to the fake USB device so far. */
export const usbState = (page: Page) =>
  page.evaluate(() => (window as unknown as { __fakeUsb: () => FakeUsbState }).__fakeUsb());
/** Changes the device's faults for the next choice (the fake reads them at each request). */
export const setUsbFaults = (page: Page, faults: SimulatedFault[]) =>
  page.evaluate(
    (f) =>
      void ((
        window as unknown as { __FAKE_HANDHELD__: { faults: SimulatedFault[] } }
      ).__FAKE_HANDHELD__.faults = f),
    faults,
  );

/** The percents seen so far. */
export const percents = (page: Page) =>
  page.evaluate(() => (window as unknown as { __percents: number[] }).__percents);
/** Forgets the percents seen (before the next upload on the same page). */
export const forgetPercents = (page: Page) =>
  page.evaluate(() => void (window as unknown as { __percents: number[] }).__percents.splice(0));

/** Without JavaScript there is no WebUSB or Web Serial: the device step says so. */
export async function expectNoScript(page: Page, pid: number) {
  await page.goto(`/patientShow/${pid}/upload`);
  await expect(page.getByText(u("device.noScript"))).toBeVisible();
}

/** The failure the progress shows, with its message and the percent where it stopped (checked when given); answers that percent. */
export async function expectFailure(
  page: Page,
  failure: string,
  percent?: number,
): Promise<number> {
  const progress = page.getByTestId("upload-progress");
  await expect(progress).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
  const shown = Number(await progress.getByRole("progressbar").getAttribute("aria-valuenow"));
  if (percent !== undefined) expect(shown).toBe(percent);
  await expect(progress.getByRole("alert")).toHaveText(
    fill(u("device.status.failed"), { percent: shown }),
  );
  await expect(progress).toContainText(u(`device.failures.${failure}`));
  return shown;
}

/** "Start again": the progress goes away. */
export async function resetUpload(page: Page) {
  await page
    .getByTestId("upload-progress")
    .getByRole("button", { name: u("device.reset") })
    .click();
  await expect(page.getByTestId("upload-progress")).toHaveCount(0);
}
