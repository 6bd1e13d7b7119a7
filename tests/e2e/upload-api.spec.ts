import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { todayIn } from "../../app/report/day";
import { formatDate } from "../../app/report/locale-format";
import { reportPdfHref } from "../../app/report/report-kinds";
import type { UploadSummary as Summary } from "../../app/services/ingest.server";
import { apiCall, apiToken } from "./api";
import { createAcceptedShare, createUser } from "./db";
import { tr } from "./i18n";
import { readPdf } from "./report-pdf";
import { signIn } from "./support";

const v = (key: string) => tr("en", key, "views");
const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce(
    (out, [k, value]) => out.replaceAll(`{{${k}}}`, String(value)),
    text,
  );

const ZONE = "Europe/Warsaw";
/** A past day in winter time: Warsaw is UTC+01:00 all day. */
const DAY = "2026-11-10";

/**
 * A sliced pump upload: getSliceId, one sliceSave per slice, completeSliceTask, then checkSave
 * until the server's job has processed it; answers the summary.
 */
async function slicedPumpUpload(
  request: APIRequestContext,
  token: string,
  pid: number,
  deviceSn: string,
  slices: unknown[][],
): Promise<Summary> {
  const total = slices.reduce((n, slice) => n + slice.length, 0);
  const opened = await apiCall<number>(request, token, "POST", "/api/patient-data/getSliceId", {
    pid,
    deviceKind: "equil",
    deviceSn,
    pdaVersion: "5.3.0",
    total,
    timeZone: ZONE,
  });
  expect(opened.code).toBe(200);
  const sliceId = opened.data;
  for (const [index, dataList] of slices.entries()) {
    expect(
      await apiCall(request, token, "POST", "/api/patient-data/sliceSave", {
        sliceId,
        index,
        dataList,
      }),
    ).toMatchObject({ code: 200 });
  }
  expect(
    await apiCall(request, token, "POST", "/api/patient-data/completeSliceTask", {
      sliceId,
      isSuccess: true,
    }),
  ).toMatchObject({ code: 200, data: { status: "processing" } });
  let summary: Summary | false = false;
  await expect
    .poll(
      async () => {
        summary = (
          await apiCall<Summary | false>(
            request,
            token,
            "GET",
            `/api/patient-data/checkSave?sliceId=${sliceId}`,
          )
        ).data;
        return summary !== false;
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  return summary as unknown as Summary;
}

/** A pump history record of DAY (Warsaw wall clock); statusShort0 = basal raw (x 0.00625 U/h), statusShort1 = bolus raw or the record's figure. */
const pumpRecord = (
  recordId: number,
  clock: string,
  port: number,
  type: number,
  s0: number,
  s1: number,
) => ({
  recordId,
  eventIndex: recordId,
  eventPort: port,
  eventType: type,
  eventUrgency: 0,
  eventValue: 0,
  statusByte0: 80,
  statusByte1: 150,
  statusShort0: s0,
  statusShort1: s1,
  deviceTime: `${DAY} ${clock}`,
});

/**
 * The day's pump records. Hand-computed expectations:
 * - basal: 1.0 U/h (160 x 0.00625) from 00:00 to 22:00 = 22 U, then 0.5 U/h (80) to midnight = 1 U: 23.00 U;
 * - bolus: 60 U/h (9600 x 0.00625) from 08:00 to 08:03 = 3 min x 60 U/h = 3.00 U, a normal bolus;
 * - total 26.00 U; basal 23 / 26 = 88.46 % -> 88.5 %, bolus 100 - 88.5 = 11.5 %;
 * - carbohydrate 45 g at 07:55 (port 3 type 1, grams in statusShort1; the record carries the basal rate);
 * - a bolus calculation at 12:00: 300 = 3.00 U suggested, 600 = 6.00 U confirmed, 3.00 U apart
 *   (more than 2 U): both records are flagged.
 */
const PUMP_RECORDS = [
  pumpRecord(1, "00:00:00", 4, 0, 160, 0),
  pumpRecord(2, "07:55:00", 3, 1, 160, 45),
  pumpRecord(3, "08:00:00", 4, 0, 160, 9600),
  pumpRecord(4, "08:03:00", 4, 0, 160, 0),
  pumpRecord(5, "12:00:00", 0, 6, 0, 300),
  pumpRecord(6, "12:00:05", 0, 7, 0, 600),
  pumpRecord(7, "22:00:00", 4, 0, 80, 0),
  pumpRecord(8, "23:30:00", 4, 0, 80, 0),
];

/**
 * The upload history's `count` rows, newest first: device, channel, operator, dates, the record
 * counts (added, duplicates, flagged, skipped, daylight-saving) and the status; the first cell,
 * the time of the upload, is left out.
 */
async function historyRows(page: Page, count: number): Promise<(string | number[])[][]> {
  await expect(page.getByRole("heading", { level: 2, name: v("uploads.title") })).toBeVisible();
  const rows = page.getByTestId("upload-history").locator("tbody tr");
  await expect(rows).toHaveCount(count);
  const out: (string | number[])[][] = [];
  for (const row of await rows.all()) {
    const cells = (await row.locator(":scope > td").allInnerTexts()).map((text) => text.trim());
    const counts = (await row.locator("dd[data-count]").allInnerTexts()).map(Number);
    out.push([cells[0]!, cells[1]!, cells[2]!, cells[3]!, counts, cells[5]!]);
  }
  return out;
}

/** The text of a summary figure: the <dd> after the <dt> with this label. */
function figure(page: Page, testId: string, label: string) {
  return page
    .getByTestId(testId)
    .locator("dt", { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) })
    .locator("xpath=following-sibling::dd[1]");
}

test.describe("device uploads through the HTTP API, read back in the pages", () => {
  // Five uploads, three sign-ins, three data views, the history twice and a PDF on a 2-core machine.
  test.describe.configure({ timeout: 180_000 });

  test("a patient uploads a pump day, CGM and meter readings; the views, the history, the list, the log and the PDF show them", async ({
    page,
    request,
    browser,
  }, testInfo) => {
    const patient = await createUser({
      tag: "upload-patient",
      identity: 1,
      firstName: "Uma",
      lastName: "Uploader",
      unit: 1,
      timeZone: ZONE,
    });
    const clinic = await createUser({
      tag: "upload-clinic",
      identity: 2,
      firstName: "Clara",
      lastName: "Clinic",
      unit: 1,
    });
    await createAcceptedShare(patient.id, clinic.id);
    const pid = patient.pid!;
    // Serial numbers of this run only: a device uploaded for another patient would be flagged.
    const run = `${testInfo.project.name}${Date.now().toString(36)}`;
    const serial = { pump: `EQ-${run}`, cgm: `AX-${run}`, meter: `GC-${run}` };
    const token = await apiToken(request, patient, 1);

    // The pump day in two slices. 8 records, all new; the calculation's two records flagged.
    // First record 00:00 CET = 2026-11-09 23:00 UTC, last 23:30 CET = 22:30 UTC.
    const pump = await slicedPumpUpload(request, token, pid, serial.pump, [
      PUMP_RECORDS.slice(0, 4),
      PUMP_RECORDS.slice(4),
    ]);
    expect(pump).toEqual({
      status: "done",
      inserted: 8,
      duplicates: 0,
      flagged: 2,
      skipped: 0,
      dstAdjusted: 0,
      otherPatientDevice: false,
      firstDate: "2026-11-09T23:00:00.000Z",
      lastDate: "2026-11-10T22:30:00.000Z",
      error: null,
      errorValues: null,
    });

    // CGM: mg/dL = 1.8 x raw: 60 -> 108, 70 -> 126, 100 -> 180; event type 1 is not a reading (skipped).
    const cgm = await apiCall<Summary>(request, token, "POST", "/api/patient-data/saveCgmsData", {
      timeZone: ZONE,
      deviceSn: serial.cgm,
      dataList: [
        { eventIndex: 1, eventType: 7, eventData: 60, deviceTime: `${DAY} 10:00:00` },
        { eventIndex: 2, eventType: 7, eventData: 70, deviceTime: `${DAY} 10:05:00` },
        { eventIndex: 3, eventType: 7, eventData: 100, deviceTime: `${DAY} 10:10:00` },
        { eventIndex: 4, eventType: 1, eventData: 0, deviceTime: `${DAY} 10:12:00` },
      ],
    });
    // 4 sent - 1 skipped - 3 inserted = 0 duplicates; 10:00 and 10:10 CET are 09:00 and 09:10 UTC.
    expect(cgm).toMatchObject({
      code: 200,
      data: {
        status: "done",
        inserted: 3,
        duplicates: 0,
        flagged: 0,
        skipped: 1,
        firstDate: `${DAY}T09:00:00.000Z`,
        lastDate: `${DAY}T09:10:00.000Z`,
      },
    });

    // The meter: 95 mg/dL at 07:30 CET (06:30 UTC).
    const meterReading = { dateTime: `${DAY} 07:30:00`, statusShort0: 95, statusByte0: 0 };
    const meter = await apiCall<Summary>(request, token, "POST", "/api/patient-data/saveSugar", {
      deviceSn: serial.meter,
      timeZone: ZONE,
      dataList: [meterReading],
    });
    expect(meter).toMatchObject({
      code: 200,
      data: {
        status: "done",
        inserted: 1,
        duplicates: 0,
        firstDate: `${DAY}T06:30:00.000Z`,
        lastDate: `${DAY}T06:30:00.000Z`,
      },
    });

    // The same pump records again: nothing new ("No new records"); the calculation is still flagged.
    const again = await slicedPumpUpload(request, token, pid, serial.pump, [PUMP_RECORDS]);
    expect(again).toMatchObject({
      status: "done",
      inserted: 0,
      duplicates: 8,
      flagged: 2,
      skipped: 0,
    });

    // The clinic sends the same meter reading for the patient: a duplicate, written to the patient's log as an upload.
    const clinicToken = await apiToken(request, clinic, 2);
    const clinicMeter = await apiCall<Summary>(
      request,
      clinicToken,
      "POST",
      "/api/patient-data/saveSugar",
      { pid, deviceSn: serial.meter, timeZone: ZONE, dataList: [meterReading] },
    );
    expect(clinicMeter).toMatchObject({ code: 200, data: { inserted: 0, duplicates: 1 } });

    // The patient reads the day back.
    await signIn(page, patient.email, patient.password, 1);
    const home = `/patientShow/${pid}/${patient.id}/patientHome`;
    await page.goto(`${home}?tab=daily&date=${DAY}`);
    await expect(figure(page, "daily-totals", v("daily.insulin"))).toHaveText("26.00 U");
    await expect(figure(page, "daily-totals", v("daily.basal"))).toHaveText(
      `23.00 U · ${fill(v("daily.percentOf"), { value: "88.5" })}`,
    );
    await expect(figure(page, "daily-totals", v("daily.bolus"))).toHaveText(
      `3.00 U · ${fill(v("daily.percentOf"), { value: "11.5" })}`,
    );
    await expect(figure(page, "daily-totals", v("daily.carbs"))).toHaveText("45 g");
    await expect(figure(page, "daily-totals", v("daily.boluses"))).toHaveText("1");
    const rowOf = (text: string) => page.getByRole("row").filter({ hasText: text });
    await expect(rowOf(v("daily.bolusKind.normal"))).toHaveText(
      new RegExp(`^08:00\\s*${v("daily.bolusKind.normal")}\\s*3\\.00 U`),
    );
    await expect(rowOf("45 g")).toContainText("07:55");
    // The flagged calculation: a row with the mark (a word, not a colour) and the explanation, and the legend.
    const check = rowOf(v("daily.rows.check"));
    await expect(check).toHaveCount(1);
    await expect(check).toContainText("12:00");
    await expect(check).toContainText(v("daily.check.mark"));
    await expect(check).toContainText(
      fill(v("daily.check.value"), { suggested: "3.00", confirmed: "6.00" }),
    );
    await expect(check).toContainText(fill(v("daily.check.detail"), { difference: "3.00" }));
    await expect(page.getByTestId("check-legend")).toContainText(v("daily.check.legend"));
    await testInfo.attach(`uploaded-daily-${testInfo.project.name}.png`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });

    // BG: the meter reading (the duplicate was not stored twice).
    await page
      .getByRole("navigation", { name: v("tabs.label") })
      .getByRole("link", { name: v("tabs.bg"), exact: true })
      .click();
    await expect(figure(page, "bg-summary", v("bg.count"))).toHaveText("1");
    await expect(figure(page, "bg-summary", v("bg.average"))).toHaveText("95 mg/dL");

    // CGMS: (108 + 126 + 180) / 3 = 138 mg/dL over 3 readings; highest 180 at 10:10, lowest 108 at 10:00.
    await page.goto(`${home}?tab=cgms&date=${DAY}`);
    await expect(figure(page, "cgm-stats", v("cgms.average"))).toHaveText("138 mg/dL");
    await expect(figure(page, "cgm-stats", v("cgms.count"))).toHaveText("3");
    await expect(figure(page, "cgm-stats", v("cgms.highest"))).toHaveText(
      fill(v("cgms.valueAt"), { value: "180 mg/dL", time: "10:10" }),
    );
    await expect(figure(page, "cgm-stats", v("cgms.lowest"))).toHaveText(
      fill(v("cgms.valueAt"), { value: "108 mg/dL", time: "10:00" }),
    );

    // The upload history, from the patient header: five uploads, newest first, with their counts.
    await page
      .getByRole("navigation", { name: v("tabs.label") })
      .getByRole("link", { name: v("tabs.uploads") })
      .click();
    const date = formatDate(DAY, "en");
    const kind = (k: string, sn: string) =>
      `${v(`uploads.kinds.${k}`)}\n${fill(v("uploads.serial"), { serial: sn })}`;
    const done = v("uploads.status.done");
    const noNew = `${done}\n${tr("en", "noNewRecords", "upload")}`;
    const direct = v("uploads.channels.direct");
    const browserUpload = v("uploads.channels.slices");
    const you = v("uploads.you");
    // device, channel, operator, dates, [added, duplicates, flagged, skipped, daylight-saving], status
    expect(await historyRows(page, 5)).toEqual([
      [kind("gocheck", serial.meter), direct, clinic.name, date, [0, 1, 0, 0, 0], noNew],
      [kind("equil", serial.pump), browserUpload, you, date, [0, 8, 2, 0, 0], noNew],
      [kind("gocheck", serial.meter), direct, you, date, [1, 0, 0, 0, 0], done],
      [kind("aidex", serial.cgm), direct, you, date, [3, 0, 0, 1, 0], done],
      [kind("equil", serial.pump), browserUpload, you, date, [8, 0, 2, 0, 0], done],
    ]);
    await testInfo.attach(`upload-history-${testInfo.project.name}.png`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });

    // The pump report of that day as a PDF: the day's totals as computed above.
    const pdfAnswer = await page.request.get(reportPdfHref("pump", pid, { start: DAY, end: DAY }), {
      timeout: 90_000,
    });
    expect([pdfAnswer.status(), pdfAnswer.headers()["content-type"]]).toEqual([
      200,
      "application/pdf",
    ]);
    const pdf = await readPdf(await pdfAnswer.body(), testInfo, "uploaded-pump-day");
    expect(pdf.pages).toBeGreaterThanOrEqual(1);
    expect(pdf.text).toContain(tr("en", "pump.title", "reports"));
    expect(pdf.text).toContain(patient.name);
    expect(pdf.text).toContain("26.00 U");
    expect(pdf.text).toContain("23.00 U (88.5 %)");
    expect(pdf.text).toContain("3.00 U (11.5 %)");
    // The meter reading of that day.
    expect(pdf.text).toContain("95 mg/dL");

    // The clinic: its patient list shows the newest upload's date (today, in the patient's zone), and
    // the history names the patient as the operator of their uploads and the clinic as "you".
    const clinicContext = await browser.newContext({
      javaScriptEnabled: testInfo.project.use.javaScriptEnabled,
    });
    const clinicPage = await clinicContext.newPage();
    await signIn(clinicPage, clinic.email, clinic.password, 2);
    // The patient panel's entry (an approved clinic's triage table links the name too).
    const entry = clinicPage
      .getByRole("complementary", { name: tr("en", "panel.label", "sharing") })
      .getByRole("link", { name: new RegExp(patient.name) });
    await expect(entry.getByTestId("last-upload")).toHaveText(
      fill(tr("en", "panel.lastUpload", "sharing"), {
        date: formatDate(todayIn(ZONE, Date.now()), "en"),
      }),
    );
    await entry.click();
    await clinicPage
      .getByRole("navigation", { name: v("tabs.label") })
      .getByRole("link", { name: v("tabs.uploads") })
      .click();
    expect((await historyRows(clinicPage, 5)).map((cells) => cells[2])).toEqual([
      you,
      patient.name,
      patient.name,
      patient.name,
      patient.name,
    ]);
    await clinicContext.close();

    // The patient's access log: the clinic's upload and its reads, translated.
    await page.goto("/patientShow/accessLog");
    const s = (key: string) => tr("en", key, "sharing");
    const byClinic = page.getByRole("row").filter({ hasText: clinic.name });
    await expect(byClinic.filter({ hasText: s("accessLog.actions.upload_gocheck") })).toHaveCount(
      1,
    );
    await expect(
      byClinic
        .filter({ hasText: s("accessLog.actions.read_uploads") })
        .filter({ hasText: s("accessLog.channels.page") }),
    ).toHaveCount(1);
    await expect(byClinic.filter({ hasText: s("accessLog.actions.read_patientHome") })).toHaveCount(
      1,
    );
  });

  test("a patient without uploads sees the empty history", async ({ page }) => {
    const patient = await createUser({
      tag: "upload-none",
      identity: 1,
      firstName: "Nora",
      lastName: "None",
      timeZone: ZONE,
    });
    await signIn(page, patient.email, patient.password, 1);
    await page.goto(`/patientShow/${patient.pid}/${patient.id}/uploads`);
    await expect(page.getByText(v("uploads.empty"))).toBeVisible();
    await expect(page.getByTestId("upload-history")).toHaveCount(0);
  });
});
