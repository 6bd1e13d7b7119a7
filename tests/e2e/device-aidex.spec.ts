import { expect, test, type Page } from "@playwright/test";
import { shiftDate, todayIn } from "../../app/report/day";
import { createUser } from "./db";
import {
  expectFailure,
  expectNoScript,
  fill,
  forgetPercents,
  percents,
  resetUpload,
  setUsbFaults,
  u,
  usbState,
  v,
  withFakeUsb,
} from "./device-page";
import { jsEnabled, signIn } from "./support";

/**
 * The AiDEX CGM handheld over WebUSB in the browser: the upload centre's real transport, AiDEX
 * link, upload steps and API against the AiDEX simulator behind a fake navigator.usb
 * (tests/e2e/browser/fake-usb.ts).
 */

const ZONE = "Europe/Warsaw";

async function uploadAidex(page: Page) {
  await page.getByRole("radio", { name: new RegExp(u("device.kinds.aidex")) }).check();
  await page.getByRole("button", { name: u("device.upload"), exact: true }).click();
}

test.describe("AiDEX CGM upload over WebUSB (a simulated AiDEX handheld behind navigator.usb)", () => {
  test.describe.configure({ timeout: 120_000 });

  test("the happy path: 60, 65, 70, 99.01, 100; every reading and finger-prick stored, the CGMS day drawn; a second upload finds nothing new", async ({
    page,
  }) => {
    const patient = await createUser({
      tag: "usb-aidex",
      identity: 1,
      firstName: "Ada",
      lastName: "Aidex",
      unit: 1,
      timeZone: ZONE,
    });
    await signIn(page, patient.email, patient.password, 1);
    if (!jsEnabled()) return expectNoScript(page, patient.pid!);

    const start = shiftDate(todayIn(ZONE, Date.now()), -3);
    const serial = `AXE2E${patient.pid}`;
    await withFakeUsb(page, patient.pid!, { aidex: { serial, start, days: 2, seed: 9 } });
    await uploadAidex(page);
    const progress = page.getByTestId("upload-progress");
    await expect(progress).toHaveAttribute("data-status", "success", { timeout: 60_000 });
    expect(await percents(page)).toEqual([60, 65, 70, 99.01, 100]);
    // Two days: 2 x 288 readings and 2 x 2 finger-pricks.
    await expect(progress).toContainText(
      fill(u("device.summary"), { added: 580, duplicates: 0, flagged: 0 }),
    );
    const state = await usbState(page);
    expect(state.asked).toEqual([
      "version",
      "serial",
      "manualCount",
      "manualRecord",
      "manualRecord",
      "manualRecord",
      "manualRecord",
      "history",
    ]);
    expect(state.open).toBe(false);

    await page.goto(`/patientShow/${patient.pid}/${patient.id}/uploads`);
    await expect(page.getByTestId("upload-history").locator("tbody tr").first()).toContainText(
      serial,
    );
    await page.goto(`/patientShow/${patient.pid}/${patient.id}/patientHome?tab=cgms&date=${start}`);
    await expect(
      page
        .getByTestId("cgm-stats")
        .locator("dt", { hasText: new RegExp(`^${v("cgms.count")}$`) })
        .locator("xpath=following-sibling::dd[1]"),
    ).toHaveText("288");

    // Again: the server's newest index stops the finger-prick read at the newest one, and the history read brings nothing.
    await withFakeUsb(page, patient.pid!, { aidex: { serial, start, days: 2, seed: 9 } });
    await uploadAidex(page);
    await expect(page.getByTestId("upload-progress")).toHaveAttribute(
      "data-status",
      "noNewRecords",
      { timeout: 60_000 },
    );
    expect((await usbState(page)).asked).toEqual([
      "version",
      "serial",
      "manualCount",
      "manualRecord",
      "history",
    ]);
  });

  test("an Equil pump handheld on the AiDEX choice is refused; a silent history times out at 65 %; the device is closed each time and nothing stored; Start again succeeds", async ({
    page,
  }) => {
    const patient = await createUser({
      tag: "usb-aidex-faults",
      identity: 1,
      firstName: "Fia",
      lastName: "Aidex",
      timeZone: ZONE,
    });
    await signIn(page, patient.email, patient.password, 1);
    if (!jsEnabled()) return expectNoScript(page, patient.pid!);

    await withFakeUsb(page, patient.pid!, { handheld: { serial: "EQ0001" } });
    await uploadAidex(page);
    await expectFailure(page, "equilPumpPda", 0);
    expect((await usbState(page)).open).toBe(false);

    const start = shiftDate(todayIn(ZONE, Date.now()), -2);
    await withFakeUsb(page, patient.pid!, {
      ...{ aidex: { serial: `AXF${patient.pid}`, start, days: 1 } },
      faults: [{ kind: "silent", on: "history" }],
    });
    await uploadAidex(page);
    await expectFailure(page, "timeout", 65);
    expect(await percents(page)).toEqual([60, 65]);
    expect((await usbState(page)).open).toBe(false);
    await page.goto(`/patientShow/${patient.pid}/${patient.id}/uploads`);
    await expect(page.getByText(v("uploads.empty"))).toBeVisible();

    await withFakeUsb(page, patient.pid!, {
      ...{ aidex: { serial: `AXF${patient.pid}`, start, days: 1 } },
      faults: [{ kind: "silent", on: "history" }],
    });
    await uploadAidex(page);
    await expectFailure(page, "timeout", 65);
    await setUsbFaults(page, []);
    await resetUpload(page);
    await forgetPercents(page);
    await uploadAidex(page);
    await expect(page.getByTestId("upload-progress")).toHaveAttribute("data-status", "success", {
      timeout: 60_000,
    });
    await expect(page.getByTestId("upload-progress")).toContainText(
      fill(u("device.summary"), { added: 290, duplicates: 0, flagged: 0 }),
    );
  });
});
