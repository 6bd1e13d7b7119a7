import { expect, test, type Page } from "@playwright/test";
import type { HandheldOptions, SimulatedFault } from "../../app/device/simulator/equil";
import { shiftDate, todayIn } from "../../app/report/day";
import { createUser, pumpRecordsAround, type TestUser } from "./db";
import {
  expectFailure,
  expectNoScript,
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
import type { FakeUsbState } from "./browser/fake-usb";

/**
 * The faults a pump upload must handle, in the browser: the upload centre's real WebUSB code
 * against the handheld simulator behind a fake navigator.usb (tests/e2e/browser/fake-usb.ts).
 * The link's read time-out is 5 s (READ_TIMEOUT_MS): a silent handheld leaves the transfer
 * pending and the product's own time-out ends the read.
 */

const ZONE = "Europe/Warsaw";
/** Without a password, every percent of a successful pump upload. */
const PERCENTS_WITHOUT_PASSWORD = [60, 62, 65, 70, 75, 99.01, 100];
const OPEN_OR_CLOSE = /^(open|close)$/;

type Choice = "accessory" | "normal" | "denied" | "cancel";

function handheldOf(patient: TestUser, extra: HandheldOptions = {}): HandheldOptions {
  return {
    serial: `EQF${patient.pid}`,
    start: shiftDate(todayIn(ZONE, Date.now()), -3),
    days: 2,
    seed: 5,
    ...extra,
  };
}

/** Installs the fake handheld and opens the patient's upload centre. */
const withHandheld = (
  page: Page,
  pid: number,
  handheld: HandheldOptions,
  faults: SimulatedFault[] = [],
  choices?: Choice[],
) => withFakeUsb(page, pid, { handheld, faults, choices });

/** Chooses the pump, clicks Upload and types the password (or skips it). */
async function uploadPump(page: Page, password: string | null = null) {
  await page.getByRole("radio", { name: new RegExp(u("device.kinds.equil")) }).check();
  await page.getByRole("button", { name: u("device.upload"), exact: true }).click();
  const dialog = page.getByTestId("password-dialog");
  if (password === null)
    return dialog.getByRole("button", { name: u("device.password.skip") }).click();
  for (const [i, char] of [...password].entries())
    await dialog.getByLabel(u("device.password.box").replace("{{n}}", String(i + 1))).fill(char);
  await dialog.getByRole("button", { name: u("device.password.confirm") }).click();
}

async function expectSuccess(page: Page) {
  const progress = page.getByTestId("upload-progress");
  await expect(progress).toHaveAttribute("data-status", "success", { timeout: 60_000 });
  await expect(progress.getByRole("status")).toHaveText(u("device.status.success"));
}

/** The handheld is closed: every open of the upload was followed by a close. */
async function expectClosed(page: Page) {
  await expect.poll(async () => (await usbState(page)).open).toBe(false);
  const state = await usbState(page);
  expect(state.closes).toBe(state.opens);
}

/** Nothing of a failed upload reached the server: no upload in the history, no pump record. */
async function expectNothingStored(page: Page, patient: TestUser) {
  await page.goto(`/patientShow/${patient.pid}/${patient.id}/uploads`);
  await expect(page.getByText(v("uploads.empty"))).toBeVisible();
  await expect(page.getByTestId("upload-history")).toHaveCount(0);
  expect(await pumpRecordsAround(patient.pid!, Date.now() - 10 * 86_400_000, Date.now())).toEqual(
    [],
  );
}

/** The upload history's newest row is this handheld's, done. */
async function expectUploaded(page: Page, patient: TestUser, serial: string) {
  await page.goto(`/patientShow/${patient.pid}/${patient.id}/uploads`);
  const row = page.getByTestId("upload-history").locator("tbody tr").first();
  await expect(row).toContainText(serial);
  await expect(row).toContainText(v("uploads.status.done"));
  expect(
    (await pumpRecordsAround(patient.pid!, Date.now() - 10 * 86_400_000, Date.now())).length,
  ).toBeGreaterThan(0);
}

/** When the events happened, from the fake's log. */
function times(state: FakeUsbState, pattern: RegExp): number[] {
  return state.log.filter(([event]) => pattern.test(event)).map(([, at]) => at);
}

test.describe("pump upload faults over WebUSB (a simulated handheld behind navigator.usb)", () => {
  test.describe.configure({ timeout: 120_000 });

  test("silent CGM and zone reads are skipped: the handheld is closed, opened again 1 s later, and the upload succeeds", async ({
    page,
  }) => {
    const patient = await createUser({
      tag: "usb-skip",
      identity: 1,
      firstName: "Sid",
      lastName: "Skip",
      unit: 1,
      timeZone: ZONE,
    });
    await signIn(page, patient.email, patient.password, 1);
    if (!jsEnabled()) return expectNoScript(page, patient.pid!);

    const handheld = handheldOf(patient);
    await withHandheld(page, patient.pid!, handheld, [
      { kind: "silent", on: "cgm" },
      { kind: "silent", on: "timeZone" },
    ]);
    await uploadPump(page);
    await expectSuccess(page);
    expect(await percents(page)).toEqual(PERCENTS_WITHOUT_PASSWORD);

    const state = await usbState(page);
    // Opened for the upload, again after the CGM time-out, again after the zone time-out.
    expect(state.accessoryOpens).toBe(3);
    expect(state.open).toBe(false);
    expect(state.asked.filter((name) => name !== "basal" && name !== "setting")).toEqual([
      "version",
      "serial",
      "cgm",
      "timeZone",
      "history",
    ]);
    // Each silent read waited out the product's 5 s time-out, then the handheld was closed and
    // opened again no sooner than 1 s later.
    const [cgmAsked] = times(state, /^ask:cgm$/);
    const [zoneAsked] = times(state, /^ask:timeZone$/);
    const closes = times(state, /^close$/);
    const opens = times(state, /^open$/);
    expect(closes[0]! - cgmAsked!).toBeGreaterThanOrEqual(4900);
    expect(opens[1]! - closes[0]!).toBeGreaterThanOrEqual(990);
    expect(closes[1]! - zoneAsked!).toBeGreaterThanOrEqual(4900);
    expect(opens[2]! - closes[1]!).toBeGreaterThanOrEqual(990);
    expect(times(state, OPEN_OR_CLOSE)).toHaveLength(6);

    await expectUploaded(page, patient, handheld.serial!);
    await page.goto(
      `/patientShow/${patient.pid}/${patient.id}/patientHome?tab=daily&date=${handheld.start}`,
    );
    await expect(page.getByRole("heading", { name: v("daily.totals") })).toBeVisible();
  });

  test("a silent history ends with the time-out message at 70 %: the handheld closed, nothing stored; Start again with it answering succeeds", async ({
    page,
  }) => {
    const patient = await createUser({
      tag: "usb-timeout",
      identity: 1,
      firstName: "Tim",
      lastName: "Out",
      timeZone: ZONE,
    });
    await signIn(page, patient.email, patient.password, 1);
    if (!jsEnabled()) return expectNoScript(page, patient.pid!);

    const handheld = handheldOf(patient);
    await withHandheld(page, patient.pid!, handheld, [{ kind: "silent", on: "history" }]);
    await uploadPump(page);
    await expectFailure(page, "timeout", 70);
    expect(await percents(page)).toEqual([60, 62, 65, 70]);
    await expectClosed(page);
    const state = await usbState(page);
    expect(state.accessoryOpens).toBe(1);
    expect(times(state, /^close$/)[0]! - times(state, /^ask:history$/)[0]!).toBeGreaterThanOrEqual(
      4900,
    );

    // Start again (the handheld answers now): a clean upload.
    await setUsbFaults(page, []);
    await resetUpload(page);
    await forgetPercents(page);
    await uploadPump(page);
    await expectSuccess(page);
    expect(await percents(page)).toEqual(PERCENTS_WITHOUT_PASSWORD);
    await expectClosed(page);
    await expectUploaded(page, patient, handheld.serial!);
  });

  test("broken replies (a short packet, a bad CRC, a bad MD5) end with the read-failed message: the handheld closed each time, nothing stored", async ({
    page,
  }) => {
    const patient = await createUser({
      tag: "usb-broken",
      identity: 1,
      firstName: "Bea",
      lastName: "Broken",
      timeZone: ZONE,
    });
    await signIn(page, patient.email, patient.password, 1);
    if (!jsEnabled()) return expectNoScript(page, patient.pid!);

    await withHandheld(page, patient.pid!, handheldOf(patient));
    const cases: [fault: SimulatedFault, percent: number][] = [
      [{ kind: "shortPacket", on: "history" }, 70],
      [{ kind: "badCrc", on: "version" }, 0],
      [{ kind: "badMd5", on: "basal" }, 60],
      [{ kind: "badMd5", on: "history" }, 70],
    ];
    for (const [i, [fault, percent]] of cases.entries()) {
      await test.step(`${fault.kind} on ${fault.on}`, async () => {
        if (i > 0) await resetUpload(page);
        await setUsbFaults(page, [fault]);
        await uploadPump(page);
        await expectFailure(page, "deviceReadFailed", percent);
        await expectClosed(page);
        const state = await usbState(page);
        expect(state.accessoryOpens).toBe(i + 1);
        expect(state.asked.at(-1)).toBe(fault.on);
      });
    }
    await expectNothingStored(page, patient);
  });

  test("a handheld that does not answer the password is read again without one, and the upload succeeds", async ({
    page,
  }) => {
    const patient = await createUser({
      tag: "usb-password",
      identity: 1,
      firstName: "Pat",
      lastName: "Word",
      timeZone: ZONE,
    });
    await signIn(page, patient.email, patient.password, 1);
    if (!jsEnabled()) return expectNoScript(page, patient.pid!);

    const handheld = handheldOf(patient, { password: "123456" });
    await withHandheld(page, patient.pid!, handheld, [{ kind: "silent", on: "password" }]);
    await uploadPump(page, "123456");
    await expectSuccess(page);
    // No 30 %: the password was never accepted.
    expect(await percents(page)).toEqual(PERCENTS_WITHOUT_PASSWORD);
    const state = await usbState(page);
    expect(state.asked.slice(0, 2)).toEqual(["password", "version"]);
    expect(state.asked.filter((name) => name === "password")).toHaveLength(1);
    // The 5 s time-out, a close, an open, then the reads without a password.
    expect(state.accessoryOpens).toBe(2);
    const [passwordAsked] = times(state, /^ask:password$/);
    const [firstClose] = times(state, /^close$/);
    expect(firstClose! - passwordAsked!).toBeGreaterThanOrEqual(4900);
    expect(times(state, /^open$/)[1]!).toBeGreaterThanOrEqual(firstClose!);
    expect(times(state, /^ask:version$/)[0]!).toBeGreaterThan(times(state, /^open$/)[1]!);
    await expectClosed(page);
    await expectUploaded(page, patient, handheld.serial!);
  });

  test("old handheld software is refused; a handheld the browser may not open is 'Access Error'; the same history a second time finds nothing new", async ({
    page,
  }) => {
    const patient = await createUser({
      tag: "usb-version",
      identity: 1,
      firstName: "Val",
      lastName: "Version",
      timeZone: ZONE,
    });
    await signIn(page, patient.email, patient.password, 1);
    if (!jsEnabled()) return expectNoScript(page, patient.pid!);

    await withHandheld(page, patient.pid!, handheldOf(patient, { version: "4.9.0" }));
    await uploadPump(page);
    await expectFailure(page, "wrongSoftwareVersion", 0);
    await expectClosed(page);

    const handheld = handheldOf(patient);
    await withHandheld(page, patient.pid!, handheld, [], ["denied", "accessory", "accessory"]);
    await uploadPump(page);
    await expectFailure(page, "accessError", 0);
    expect((await usbState(page)).accessoryOpens).toBe(0);
    await expectNothingStored(page, patient);

    await withHandheld(page, patient.pid!, handheld, [], ["accessory", "accessory"]);
    await uploadPump(page);
    await expectSuccess(page);
    await resetUpload(page);
    await forgetPercents(page);
    // The server has every record up to the newest: nothing newer on the handheld, nothing sent.
    await uploadPump(page);
    await expect(page.getByTestId("upload-progress")).toHaveAttribute(
      "data-status",
      "noNewRecords",
      { timeout: 60_000 },
    );
    await expect(page.getByTestId("upload-progress").getByRole("status")).toHaveText(
      u("device.status.noNewRecords"),
    );
    expect(await percents(page)).toEqual([60, 62, 65, 70, 75, 98]);
  });

  test("the chooser: a cancelled choice shows nothing; a handheld in normal mode is switched and asks to be chosen again, at most once in 5 s; chosen in accessory mode it uploads", async ({
    page,
  }) => {
    const patient = await createUser({
      tag: "usb-chooser",
      identity: 1,
      firstName: "Cho",
      lastName: "Oser",
      timeZone: ZONE,
    });
    await signIn(page, patient.email, patient.password, 1);
    if (!jsEnabled()) return expectNoScript(page, patient.pid!);

    const handheld = handheldOf(patient);
    // The page runs on Playwright's clock (time flows as usual), so that the test can let 5 s
    // pass in one step instead of sleeping.
    await page.clock.install();
    await withHandheld(
      page,
      patient.pid!,
      handheld,
      [],
      ["cancel", "normal", "normal", "normal", "accessory"],
    );
    const progress = page.getByTestId("upload-progress");
    const notice = page.getByRole("status").filter({ hasText: u("device.permissionAgain") });

    // The user closes the browser's chooser: no failure, no alert, no notice, nothing opened.
    await uploadPump(page);
    await expect.poll(async () => (await usbState(page)).requests.length).toBe(1);
    await expect(progress).toHaveCount(0);
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(notice).toHaveCount(0);
    expect((await usbState(page)).opens).toBe(0);

    // The handheld in normal mode: switched to accessory mode (the identity strings, then start),
    // closed, and the page asks to choose it again.
    await uploadPump(page);
    await expect(notice).toBeVisible();
    let state = await usbState(page);
    expect(state.requests[1]).toEqual([
      { vendorId: 0x05c6, productId: 0x9120 },
      { vendorId: 0x18d1, productId: 0x2d01 },
    ]);
    expect(state.strings).toEqual([
      [0, "MicrotechMD"],
      [1, "Equil"],
      [3, "1.0"],
    ]);
    expect(state.switches).toBe(1);
    expect(state.open).toBe(false);
    await expect(progress).toHaveCount(0);
    await expect(page.getByRole("alert")).toHaveCount(0);

    // Chosen again within 5 s, still in normal mode: switched again, but the notice is not shown a second time.
    await uploadPump(page);
    await expect.poll(async () => (await usbState(page)).switches).toBe(2);
    await expect(notice).toHaveCount(0);
    await expect(progress).toHaveCount(0);

    // More than 5 s after it was shown: the notice again.
    await page.clock.fastForward(5_300);
    await uploadPump(page);
    await expect(notice).toBeVisible();
    state = await usbState(page);
    expect(state.switches).toBe(3);
    expect(state.accessoryOpens).toBe(0);

    // Chosen in accessory mode: the upload runs and succeeds.
    await uploadPump(page);
    await expectSuccess(page);
    await expect(notice).toHaveCount(0);
    expect(await percents(page)).toEqual(PERCENTS_WITHOUT_PASSWORD);
    await expectClosed(page);
    await expectUploaded(page, patient, handheld.serial!);
  });
});
