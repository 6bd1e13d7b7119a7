import { expect, test, type Page } from "@playwright/test";
import { shiftDate, todayIn } from "../../app/report/day";
import { formatDate } from "../../app/report/locale-format";
import { createUser } from "./db";
import {
  bundle,
  expectFailure,
  expectNoScript,
  fill,
  forgetPercents,
  openUploadCentre,
  percents,
  resetUpload,
  u,
  v,
} from "./device-page";
import { jsEnabled, signIn } from "./support";
import type { FakeSerialState } from "./browser/fake-serial";

/** The fake navigator.serial (tests/e2e/browser/fake-serial.ts) bundled once for the browser. */
const FAKE_SERIAL = bundle("tests/e2e/browser/fake-serial.ts");
const ZONE = "Europe/Warsaw";
const MEAL_TIMES = ["07:30", "12:15", "18:40", "22:05"];

type Meter = {
  text?: string;
  serial?: string;
  cancel?: boolean;
  openFails?: boolean;
  writeFails?: boolean;
  empty?: boolean;
};

/**
 * The GoChek memory text (docs/device-protocols.md "GoChek meter text"): a title line, the serial
 * number, four readings a day at meal times on the `days` days before today, 80-201 mg/dL, and an
 * end mark; lines end in CR LF.
 */
function meterText(
  serial: string,
  days: number,
): { text: string; readings: { date: string; time: string; mgdl: number }[]; lastDay: string } {
  const today = todayIn(ZONE, Date.now());
  const readings: { date: string; time: string; mgdl: number }[] = [];
  for (let back = days; back >= 1; back--)
    for (const time of MEAL_TIMES)
      readings.push({ date: shiftDate(today, -back), time, mgdl: 80 + 11 * readings.length });
  const lines = [
    "GoChek 2 Connect",
    `SN:${serial}`,
    ...readings.map((r) => `${r.date} ${r.time}:00,${r.mgdl},0`),
    "END",
  ];
  return { text: `${lines.join("\r\n")}\r\n`, readings, lastDay: shiftDate(today, -1) };
}

/** Installs the fake meter and opens the patient's upload centre. */
async function withMeter(page: Page, pid: number, meter: Meter) {
  await page.addInitScript({
    content: `window.__FAKE_METER__ = ${JSON.stringify(meter)};\n${FAKE_SERIAL}`,
  });
  await openUploadCentre(page, pid);
}

/** Changes the meter for the next choice (the fake reads it at each request). */
const setMeter = (page: Page, meter: Meter) =>
  page.evaluate(
    (m) => void ((window as unknown as { __FAKE_METER__: Meter }).__FAKE_METER__ = m),
    meter,
  );
const serialState = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __fakeSerial: () => FakeSerialState }).__fakeSerial(),
  );

async function uploadMeter(page: Page) {
  await page.getByRole("radio", { name: new RegExp(u("device.kinds.gocheck")) }).check();
  await page.getByRole("button", { name: u("device.upload"), exact: true }).click();
}

test.describe("meter upload over Web Serial (a simulated GoChek meter behind navigator.serial)", () => {
  test.describe.configure({ timeout: 120_000 });

  test("the happy path: 115200 8N1, 'h' sent, the product's percents in order, every reading added and on the BG view; the same memory again adds nothing", async ({
    page,
  }) => {
    const patient = await createUser({
      tag: "serial-meter",
      identity: 1,
      firstName: "Mira",
      lastName: "Meter",
      unit: 1,
      timeZone: ZONE,
    });
    await signIn(page, patient.email, patient.password, 1);
    if (!jsEnabled()) return expectNoScript(page, patient.pid!);

    const serial = `GCE2E${patient.pid}`;
    const memory = meterText(serial, 3);
    await withMeter(page, patient.pid!, { text: memory.text });
    await uploadMeter(page);
    const progress = page.getByTestId("upload-progress");
    await expect(progress).toHaveAttribute("data-status", "success", { timeout: 60_000 });
    await expect(progress).toContainText(
      fill(u("device.summary"), { added: memory.readings.length, duplicates: 0, flagged: 0 }),
    );
    await expect(progress.getByRole("link", { name: u("device.seeData") })).toBeVisible();

    // 10 when the read starts; 1-4 points a second while the meter sends (below 60); 99.1 on the
    // way to the server (one call: fewer than 1000 readings); 100 done. The product sets 60 when
    // the text is read and 99.1 in the same task, so the page draws only the second of the two.
    const seen = await percents(page);
    expect(seen[0]).toBe(10);
    expect(seen.slice(-2)).toEqual([99.1, 100]);
    const reading = seen.slice(1, -2);
    expect(reading.length).toBeGreaterThan(0);
    for (const [i, percent] of reading.entries()) {
      expect(percent).toBeGreaterThan(i === 0 ? 10 : reading[i - 1]!);
      expect(percent).toBeLessThanOrEqual(60);
    }
    expect(seen.filter((p) => p >= 99.1 && p <= 99.5)).toEqual([99.1]);

    // The port: opened once at 115200 baud, 8 data bits, 1 stop bit, no parity; "h" written; closed.
    const port = await serialState(page);
    expect(port.opens).toEqual([{ baudRate: 115200, dataBits: 8, stopBits: 1, parity: "none" }]);
    expect(port.written).toEqual([[0x68]]);
    expect(port.sent).toBeGreaterThan(1);
    expect(port.open).toBe(false);
    expect(port.closes).toBe(1);

    // The same memory again: every reading is stored already.
    await resetUpload(page);
    await forgetPercents(page);
    await uploadMeter(page);
    await expect(progress).toHaveAttribute("data-status", "noNewRecords", { timeout: 60_000 });
    await expect(progress.getByRole("status")).toHaveText(u("device.status.noNewRecords"));
    expect((await percents(page)).at(-1)).toBe(98.1);
    expect((await serialState(page)).closes).toBe(2);

    // The BG view of the days read shows every reading, with its value.
    await page.goto(
      `/patientShow/${patient.pid}/${patient.id}/patientHome?tab=bg&date=${memory.lastDay}`,
    );
    await expect(
      page
        .getByTestId("bg-summary")
        .locator("dt", { hasText: new RegExp(`^${v("bg.count")}$`) })
        .locator("xpath=following-sibling::dd[1]"),
    ).toHaveText(String(memory.readings.length));
    const table = page.locator("table", {
      has: page.locator("caption", { hasText: v("bg.tableCaption").split("{{")[0]!.trim() }),
    });
    await expect(table.locator("tbody tr")).toHaveCount(memory.readings.length);
    // Each row: the meter's date and time and its value in mg/dL (the patient's unit).
    for (const [i, r] of memory.readings.entries())
      await expect(table.locator("tbody tr").nth(i)).toContainText(
        new RegExp(`^${formatDate(r.date, "en")}${r.time}${r.mgdl} `),
      );
    // The upload history lists the meter once (the second upload added nothing).
    await page.goto(`/patientShow/${patient.pid}/${patient.id}/uploads`);
    await expect(page.getByTestId("upload-history").locator("tbody tr").first()).toContainText(
      serial,
    );
  });

  test("a cancelled choice shows nothing; a meter with no reading asks to make sure it is the same device; a port that cannot be opened says so; then a clean retry", async ({
    page,
  }) => {
    const patient = await createUser({
      tag: "serial-faults",
      identity: 1,
      firstName: "Fern",
      lastName: "Fault",
      timeZone: ZONE,
    });
    await signIn(page, patient.email, patient.password, 1);
    if (!jsEnabled()) return expectNoScript(page, patient.pid!);

    const progress = page.getByTestId("upload-progress");
    // The user closes the port chooser: no progress, no error, no port opened.
    await withMeter(page, patient.pid!, { cancel: true });
    await uploadMeter(page);
    await expect.poll(async () => (await serialState(page)).requests).toBe(1);
    await expect(progress).toHaveCount(0);
    await expect(page.getByRole("alert")).toHaveCount(0);
    expect((await serialState(page)).opens).toEqual([]);
    expect(await percents(page)).toEqual([]);

    // A meter whose memory holds no reading: it is probably another device. The port is closed.
    await setMeter(page, { empty: true, serial: `GCEMPTY${patient.pid}` });
    await uploadMeter(page);
    // It fails where the bar stood when the read ended: 10, or a reading tick below 60.
    const stoppedAt = await expectFailure(page, "sureSameDevice");
    expect(stoppedAt).toBeGreaterThanOrEqual(10);
    expect(stoppedAt).toBeLessThan(60);
    expect((await percents(page))[0]).toBe(10);
    let port = await serialState(page);
    expect(port.written).toEqual([[0x68]]);
    expect(port.open).toBe(false);
    expect(port.closes).toBe(1);

    // A port that cannot be opened (another program holds it): its message, nothing written.
    await resetUpload(page);
    await forgetPercents(page);
    await setMeter(page, { openFails: true });
    await uploadMeter(page);
    await expectFailure(page, "serialOpenFailed");
    expect((await percents(page))[0]).toBe(10);
    port = await serialState(page);
    expect(port.opens).toHaveLength(2);
    expect(port.opens[1]).toEqual({ baudRate: 115200, dataBits: 8, stopBits: 1, parity: "none" });
    expect(port.written).toEqual([[0x68]]);
    expect(port.open).toBe(false);

    // A port that opens but takes no "h": "serial port start error", and the port is closed again.
    await resetUpload(page);
    await setMeter(page, { writeFails: true });
    await uploadMeter(page);
    await expectFailure(page, "serialStartFailed");
    port = await serialState(page);
    expect(port.opens).toHaveLength(3);
    expect(port.open).toBe(false);

    // Nothing reached the server.
    await page.goto(`/patientShow/${patient.pid}/${patient.id}/uploads`);
    await expect(page.getByText(v("uploads.empty"))).toBeVisible();

    // Start again with the meter answering: the readings are added.
    const memory = meterText(`GCE2E${patient.pid}`, 1);
    await withMeter(page, patient.pid!, { text: memory.text });
    await uploadMeter(page);
    await expect(progress).toHaveAttribute("data-status", "success", { timeout: 60_000 });
    await expect(progress).toContainText(
      fill(u("device.summary"), { added: memory.readings.length, duplicates: 0, flagged: 0 }),
    );
  });
});
