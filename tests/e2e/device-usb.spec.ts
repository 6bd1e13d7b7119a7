import { expect, test, type Page } from "@playwright/test";
import type { HandheldOptions, SimulatedFault } from "../../app/device/simulator/equil";
import { shiftDate, todayIn } from "../../app/report/day";
import { createUser } from "./db";
import { fill, percents, u, v, withFakeUsb } from "./device-page";
import { tr } from "./i18n";
import { jsEnabled, signIn } from "./support";

const withHandheld = (
  page: Page,
  pid: number,
  handheld: HandheldOptions,
  faults: SimulatedFault[] = [],
) => withFakeUsb(page, pid, { handheld, faults });

async function uploadPump(page: Page, password: string | null) {
  await page.getByRole("radio", { name: new RegExp(u("device.kinds.equil")) }).check();
  await page.getByRole("button", { name: u("device.upload"), exact: true }).click();
  const dialog = page.getByTestId("password-dialog");
  if (password === null)
    return dialog.getByRole("button", { name: u("device.password.skip") }).click();
  // The six boxes take a pasted password at once.
  await dialog.getByLabel(fill(u("device.password.box"), { n: 1 })).focus();
  await page.evaluate((text) => {
    const transfer = new DataTransfer();
    transfer.setData("text", text);
    document.activeElement?.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  }, password);
  await dialog.getByRole("button", { name: u("device.password.confirm") }).click();
}

test.describe("pump upload over WebUSB (a simulated handheld behind navigator.usb)", () => {
  test.describe.configure({ timeout: 120_000 });

  test("the happy path: password accepted, the product's percents in order, the records in the history and the DAILY view; a fault ends with its message", async ({
    page,
  }) => {
    const patient = await createUser({
      tag: "usb-pump",
      identity: 1,
      firstName: "Una",
      lastName: "Usb",
      unit: 1,
      timeZone: "Europe/Warsaw",
    });
    await signIn(page, patient.email, patient.password, 1);
    if (!jsEnabled()) {
      // Without JavaScript there is no WebUSB: the page says so.
      await page.goto(`/patientShow/${patient.pid}/upload`);
      await expect(page.getByText(u("device.noScript"))).toBeVisible();
      return;
    }
    const start = shiftDate(todayIn("Europe/Warsaw", Date.now()), -3);
    await withHandheld(page, patient.pid!, {
      serial: "EQUSB001",
      password: "123456",
      start,
      days: 2,
      seed: 5,
    });
    await uploadPump(page, "123456");
    const progress = page.getByTestId("upload-progress");
    await expect(progress).toHaveAttribute("data-status", "success", { timeout: 60_000 });
    // 30 after the password, 60 the version, 62 the settings, 65/70/75 the record tasks, 99.01 sent, 100 done.
    expect(await percents(page)).toEqual([30, 60, 62, 65, 70, 75, 99.01, 100]);
    await expect(progress.getByRole("link", { name: u("device.seeData") })).toBeVisible();

    await page.goto(`/patientShow/${patient.pid}/${patient.id}/uploads`);
    const row = page.getByTestId("upload-history").locator("tbody tr").first();
    await expect(row).toContainText("EQUSB001");
    await page.goto(
      `/patientShow/${patient.pid}/${patient.id}/patientHome?tab=daily&date=${start}`,
    );
    await expect(page.getByRole("heading", { name: v("daily.totals") })).toBeVisible();

    // A wrong password: the upload ends at once with its message and may start again.
    await withHandheld(page, patient.pid!, {
      serial: "EQUSB001",
      password: "123456",
      start,
      days: 2,
      seed: 5,
    });
    await uploadPump(page, "654321");
    await expect(progress).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
    await expect(progress).toContainText(tr("en", "device.failures.wrongPassword", "upload"));
    await progress.getByRole("button", { name: u("device.reset") }).click();
    await expect(page.getByTestId("upload-progress")).toHaveCount(0);
  });

  test("a CGM handheld is refused as a pump; a handheld unplugged during the history asks to replug", async ({
    page,
  }) => {
    const patient = await createUser({
      tag: "usb-faults",
      identity: 1,
      firstName: "Fay",
      lastName: "Fault",
      timeZone: "Europe/Warsaw",
    });
    await signIn(page, patient.email, patient.password, 1);
    if (!jsEnabled()) {
      await page.goto(`/patientShow/${patient.pid}/upload`);
      await expect(page.getByText(u("device.noScript"))).toBeVisible();
      return;
    }
    const progress = page.getByTestId("upload-progress");
    await withHandheld(page, patient.pid!, { version: "1.3.2" });
    await uploadPump(page, null);
    await expect(progress).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
    await expect(progress).toContainText(tr("en", "device.failures.cgmPda", "upload"));

    await withHandheld(page, patient.pid!, {}, [
      { kind: "unplugged", on: "history", afterBytes: 100 },
    ]);
    await uploadPump(page, null);
    await expect(progress).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
    await expect(progress).toContainText(tr("en", "device.failures.replugUsb", "upload"));
    expect((await percents(page)).at(-1)).toBe(70);
  });
});
