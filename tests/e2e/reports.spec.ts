import { expect, test, type Page } from "@playwright/test";
import { apiCall, apiToken } from "./api";
import { displayDate, shiftDate, todayIn } from "../../app/report/day";
import { formatDate, formatDateRange } from "../../app/report/locale-format";
import { REPORT_KINDS } from "../../app/report/report-kinds";
import { createAcceptedShare, createUser, demoPatient } from "./db";
import { tr, type Lng } from "./i18n";
import { createKnownPatient } from "./known-patient";
import { dateField } from "./date-fields";
import { downloadReportPdf, readPdf } from "./report-pdf";
import { jsEnabled, signIn, signInWithLanguage } from "./support";

const r = (key: string) => tr("en", key, "reports");
/** The report range's start and end: text fields without JavaScript, the range picker with it. */
const rangeFields = (page: Page) => ({
  start: dateField(page, "start", r("common.range.start")),
  end: dateField(page, "end", r("common.range.end")),
});
const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce(
    (out, [k, value]) => out.replaceAll(`{{${k}}}`, String(value)),
    text,
  );

/** Any run of spaces (thin, no-break or plain) as one plain space. */
const plain = (text: string) => text.replace(/\s+/g, " ");

/** The PDF title the locale file gives a report of a patient over a range (ISO dates). */
function pdfTitle(patient: string, report: string, start: string, end: string, lng: Lng = "en") {
  return fill(tr(lng, "common.documentTitle", "reports"), {
    patient,
    report,
    from: formatDate(start, lng),
    to: formatDate(end, lng),
  });
}

/** Tips: a popover with JavaScript, a plain link without; both lead to the support page's section. */
async function expectTips(page: Page, href: string) {
  if (jsEnabled()) {
    await page.getByRole("button", { name: r("common.tips.label") }).click();
    await expect(
      page.getByRole("dialog").getByRole("link", { name: r("common.tips.link") }),
    ).toHaveAttribute("href", href);
    await page.keyboard.press("Escape");
  } else {
    await expect(page.getByRole("link", { name: r("common.tips.label") })).toHaveAttribute(
      "href",
      href,
    );
  }
}

/** The text of a report figure: the first <dd> after the <dt> with this label. */
function figure(page: Page, label: string, list = "cgm-figures") {
  return page
    .getByTestId(list)
    .locator("dt", { hasText: new RegExp(`^${label}$`) })
    .locator("xpath=following-sibling::dd[1]");
}

test.describe("CGM report", () => {
  // Sign-in, two report renders and a server-side PDF on a 2-core machine.
  test.describe.configure({ timeout: 120_000 });

  test("a clinic previews a 7-day CGM report, sees the average of the uploaded readings, and downloads the PDF", async ({
    page,
    request,
  }, testInfo) => {
    const patient = await createKnownPatient(request, {
      tag: "report-patient",
      firstName: "Rita",
      lastName: "Readings",
    });
    const clinic = await createUser({
      tag: "report-clinic",
      identity: 2,
      firstName: "Rhea",
      lastName: "Reports",
    });
    await createAcceptedShare(patient.id, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);

    await page.goto(`/${patient.pid}/cgmsprint`);
    await expect(page.getByRole("heading", { level: 1, name: r("cgm.title") })).toBeVisible();
    await expect(page.getByTestId("report-patient")).toHaveText(patient.name);

    // A missing date is refused with 'Please Select The Date'; the typed start stays.
    const { first: start, last: end } = patient; // the week of data, ending yesterday
    const range = rangeFields(page);
    await range.start.fill(displayDate(start));
    await range.end.fill("");
    await page.getByRole("button", { name: r("common.preview") }).click();
    await expect(page.getByRole("alert")).toHaveText(r("common.selectDate"));
    await range.start.expectValue(displayDate(start));

    // Preview the 7-day range of the uploaded week. By hand: 7 days x 288 = 2016 readings of 63,
    // 99, 153 and 225 mg/dL equally often (sum 2016 / 4 x 540 = 272160), one 63 replaced by the
    // 396 spike: (272160 + 333) / 2016 = 135.17 mg/dL = 135.17 / 18 = 7.51 -> 7.5 mmol/L.
    await range.end.fill(displayDate(end));
    await page.getByRole("button", { name: r("common.preview") }).click();
    await expect(page.getByTestId("report-range")).toHaveText(formatDateRange(start, end, "en"));
    await expect(figure(page, r("cgm.average"))).toHaveText("7.5 mmol/L");
    await expect(figure(page, r("cgm.count"))).toHaveText("2,016");
    // Each day's chart is captioned with its date and key figures (its text alternative): 288
    // readings. The first day: mean (288 x 135 + 333) / 288 = 136.16 mg/dL = 7.56 -> 7.6 mmol/L,
    // lowest 63 / 18 = 3.5, highest the spike, 396 / 18 = 22.0. The others: mean 540 / 4 = 135
    // mg/dL = 7.5 mmol/L, lowest 3.5, highest 225 / 18 = 12.5.
    const caption = (date: string, mean: string, high: string) =>
      `${formatDate(date, "en")} · ${fill(tr("en", "cgm.chartFigures", "reports", 288), { count: 288, mean: `${mean} mmol/L`, low: "3.5", high })}`;
    await expect(page.getByTestId("day-chart").locator("figcaption")).toHaveText([
      caption(start, "7.6", "22.0"),
      ...[1, 2, 3, 4, 5, 6].map((d) => caption(shiftDate(start, d), "7.5", "12.5")),
    ]);
    await testInfo.attach(`cgm-report-screen-${testInfo.project.name}.png`, {
      body: await page.screenshot(),
      contentType: "image/png",
    });

    await expectTips(page, "/supports#cgmsprintsettings");

    // Download the PDF: with JavaScript the link fetches it and says Generated; without, the server answers an attachment.
    const pdf = await downloadReportPdf(page, testInfo, {
      href: `/${patient.pid}/cgmsprint.pdf?start=${start}&end=${end}`,
      fileName: `cgm-report-${patient.pid}-${start}-${end}.pdf`,
      label: "cgm-report",
    });
    expect(pdf.pages).toBeGreaterThanOrEqual(2);
    expect(pdf.text).toContain(patient.name);
    expect(pdf.text).toContain(r("cgm.title"));
    // The PDF's text may write the range's thin spaces as plain ones.
    expect(plain(pdf.text)).toContain(plain(formatDateRange(start, end, "en")));
    expect(pdf.title).toBe(pdfTitle(patient.name, r("cgm.title"), start, end));
  });

  test("the document the PDF renderer prints (print=1) has the report but no controls and no scripts", async ({
    page,
  }) => {
    const patient = await demoPatient();
    const clinic = await createUser({
      tag: "report-print-doc",
      identity: 2,
      firstName: "Pam",
      lastName: "Print",
    });
    await createAcceptedShare(patient.userId, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);
    const end = shiftDate(todayIn(patient.timeZone, Date.now()), -1);
    const query = `start=${shiftDate(end, -6)}&end=${end}`;
    const screen = await (await page.request.get(`/${patient.pid}/cgmsprint?${query}`)).text();
    const print = await (
      await page.request.get(`/${patient.pid}/cgmsprint?${query}&print=1`)
    ).text();
    expect(screen).toContain("<script");
    expect(screen).toContain(`name="start"`);
    expect(print).toContain(r("cgm.title"));
    expect(print).toContain('data-testid="day-chart"');
    expect(print).not.toContain(`name="start"`);
    expect(print.match(/<script/g) ?? []).toHaveLength(1); // the inline "js" class marker only; no hydration data, no modules
    expect(print.length).toBeLessThan(screen.length * 0.7);
  });

  test("someone the patient has not shared with gets 404 for every report page and 403 for its PDF", async ({
    page,
  }) => {
    const patient = await demoPatient();
    const stranger = await createUser({
      tag: "report-stranger",
      identity: 2,
      firstName: "Sid",
      lastName: "Stranger",
    });
    await signIn(page, stranger.email, stranger.password, 2);
    const end = shiftDate(todayIn(patient.timeZone, Date.now()), -1);
    for (const kind of Object.values(REPORT_KINDS)) {
      expect([kind.page, (await page.goto(`/${patient.pid}/${kind.page}`))?.status()]).toEqual([
        kind.page,
        404,
      ]);
      const pdf = await page.request.get(
        `/${patient.pid}/${kind.page}.pdf?start=${shiftDate(end, -6)}&end=${end}`,
      );
      expect([kind.page, pdf.status()]).toEqual([kind.page, 403]);
      expect(pdf.headers()["content-type"]).not.toContain("application/pdf");
    }
  });
});

test.describe("Pump report", () => {
  test.describe.configure({ timeout: 120_000 });

  test("a clinic previews a 7-day pump report, sees the insulin total of the uploaded records, and downloads the PDF", async ({
    page,
    request,
  }, testInfo) => {
    const patient = await createKnownPatient(request, {
      tag: "pump-report-patient",
      firstName: "Paul",
      lastName: "Pumper",
    });
    const clinic = await createUser({
      tag: "pump-report-clinic",
      identity: 2,
      firstName: "Pia",
      lastName: "Printer",
    });
    await createAcceptedShare(patient.id, clinic.id);
    // The handheld's settings, as the upload centre sends them (targets and sensitivity in tenths of mg/dL).
    const settings = await apiCall(
      request,
      await apiToken(request, patient, 1),
      "POST",
      "/api/pda-setting/saveOrUpdate",
      {
        pid: patient.pid,
        pdaSn: `KEQ${patient.pid}`,
        pdaVersion: "5.3.0",
        lowBg: [800],
        highBg: [1600],
        defaultCho: [10],
        sensitiveSilver: [400],
        originBasal: 1,
        bolusRate: 2,
        maxBolus: 15,
        doubleBolus: 1,
        effectiveTime: 240,
        maxiumBasalRate: 3,
        bolusIncrement: 0.05,
        quickBolusIncrement: 0.5,
        lowReseverThreshold: 20,
        tempBasalRate: 150,
      },
    );
    expect(settings.code).toBe(200);
    await signIn(page, clinic.email, clinic.password, 2);

    // Without dates: the 15 days ending today.
    await page.goto(`/${patient.pid}/print`);
    await expect(page.getByRole("heading", { level: 1, name: r("pump.title") })).toBeVisible();
    await expect(page.getByTestId("report-patient")).toHaveText(patient.name);
    const today = todayIn(patient.timeZone, Date.now());
    await expect(page.getByTestId("report-range")).toHaveText(
      formatDateRange(shiftDate(today, -14), today, "en"),
    );

    // Seven typed days ending yesterday: the uploaded week.
    const { first: start, last: end } = patient;
    const range = rangeFields(page);
    await range.start.fill(displayDate(start));
    await range.end.fill(displayDate(end));
    await page.getByRole("button", { name: r("common.preview") }).click();
    await expect(page.getByTestId("report-range")).toHaveText(formatDateRange(start, end, "en"));

    // By hand: a day is 23.00 U basal + 3.00 U bolus = 26.00 U; 7 days x 26.00 = 182.00 U.
    await expect(figure(page, r("pump.total"), "pump-totals")).toHaveText("182.00 U");
    // (45 + 15) g a day x 7 days / 7 days with pump data = 60.0 g.
    await expect(figure(page, r("pump.choAvg"), "pump-totals")).toHaveText("60.0 g");
    // One continuous chart per group of 5 days: 7 days are two charts, of 5 and of 2 days.
    await expect(page.getByTestId("chart-group").locator("svg[role=img]")).toHaveCount(2);
    await expect(page.getByTestId("chart-group").locator("h3")).toHaveText([
      formatDateRange(start, shiftDate(start, 4), "en"),
      formatDateRange(shiftDate(start, 5), end, "en"),
    ]);
    // Every stored setting is a row: its label with the unit, its value.
    const settingRows: [string, string][] = [
      ["Serial number", `KEQ${patient.pid}`],
      ["Firmware version", "5.3.0"],
      ["Basal rate (U/h)", "1.000"],
      ["Maximum basal rate (U/h)", "3.000"],
      ["Temporary basal rate (%)", "150"],
      ["Bolus rate", "2.00"],
      ["Maximum bolus (U)", "15.00"],
      ["Bolus increment (U)", "0.05"],
      ["Quick bolus increment (U)", "0.50"],
      ["Double-wave bolus", "On"],
      ["Active insulin time", "240 minutes"],
      ["Low reservoir threshold (U)", "20"],
      // The clinic reads mmol/L: 80, 160 and 40 mg/dL / 18.
      ["Low glucose target (mmol/L)", "4.4"],
      ["High glucose target (mmol/L)", "8.9"],
      ["Carbohydrate ratio (g/U)", "10.0"],
      ["Insulin sensitivity (mmol/L/U)", "2.2"],
    ];
    const settingsTable = page.getByTestId("pump-settings");
    await expect(settingsTable.locator("th")).toHaveText(settingRows.map(([label]) => label));
    await expect(settingsTable.locator("td")).toHaveText(settingRows.map(([, value]) => value));
    await testInfo.attach(`pump-report-screen-${testInfo.project.name}.png`, {
      body: await page.screenshot(),
      contentType: "image/png",
    });

    await expectTips(page, "/supports#printsettings");

    const pdf = await downloadReportPdf(page, testInfo, {
      href: `/${patient.pid}/print.pdf?start=${start}&end=${end}`,
      fileName: `pump-report-${patient.pid}-${start}-${end}.pdf`,
      label: "pump-report",
    });
    expect(pdf.pages).toBeGreaterThanOrEqual(2);
    expect(pdf.text).toContain(patient.name);
    expect(pdf.text).toContain(r("pump.title"));
    for (const label of ["Maximum basal rate (U/h)", "Low reservoir threshold (U)"]) {
      expect(pdf.text).toContain(label);
    }
    expect(pdf.title).toBe(pdfTitle(patient.name, r("pump.title"), start, end));
  });

  test("90 days of which the last week before today has data: one line for each run of days without data instead of empty charts", async ({
    page,
    request,
  }, testInfo) => {
    const patient = await createKnownPatient(request, {
      tag: "pump-90-patient",
      firstName: "Nils",
      lastName: "Ninety",
    });
    const clinic = await createUser({
      tag: "pump-90-clinic",
      identity: 2,
      firstName: "Nina",
      lastName: "Ninety",
    });
    await createAcceptedShare(patient.id, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);
    const today = todayIn(patient.timeZone, Date.now());
    const start = shiftDate(today, -89);
    // Pump and meter data on the 7 days ending yesterday: none before, none today.
    await page.goto(`/${patient.pid}/print?start=${start}&end=${today}`);
    await expect(page.getByTestId("report-range")).toHaveText(formatDateRange(start, today, "en"));
    const lines = [
      fill(r("pump.noData"), {
        from: formatDate(start, "en"),
        to: formatDate(shiftDate(patient.first, -1), "en"),
      }),
      fill(r("pump.noChartDay"), { date: formatDate(today, "en") }),
    ];
    await expect(page.getByTestId("chart-no-data")).toHaveText(lines);
    // 7 days in charts of 5: two.
    await expect(page.getByTestId("chart-group").locator("svg[role=img]")).toHaveCount(2);
    await expect(page.getByTestId("chart-group").first().locator("h3")).toHaveText(
      formatDateRange(patient.first, shiftDate(patient.first, 4), "en"),
    );

    const pdf = await readPdf(
      await (
        await page.request.get(`/${patient.pid}/print.pdf?start=${start}&end=${today}`)
      ).body(),
      testInfo,
      "pump-report-90",
    );
    for (const line of lines) expect(pdf.text).toContain(line);
    expect(pdf.title).toBe(pdfTitle(patient.name, r("pump.title"), start, today));
  });
});

test.describe("Glucose profile (AGP)", () => {
  test.describe.configure({ timeout: 120_000 });

  test("a clinic opens the AGP report of the default range, sees the time in range of the uploaded readings, and downloads the PDF", async ({
    page,
    request,
  }, testInfo) => {
    const patient = await createKnownPatient(request, {
      tag: "agp-report-patient",
      firstName: "Alma",
      lastName: "Ambulatory",
    });
    const clinic = await createUser({
      tag: "agp-report-clinic",
      identity: 2,
      firstName: "Aga",
      lastName: "Profile",
    });
    await createAcceptedShare(patient.id, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);

    // Without dates: the 14 days ending today in the patient's zone (the data ends yesterday).
    await page.goto(`/${patient.pid}/agpprint`);
    await expect(page.getByRole("heading", { level: 1, name: r("agp.title") })).toBeVisible();
    await expect(page.getByTestId("report-patient")).toHaveText(patient.name);
    const end = shiftDate(patient.last, 1);
    const start = shiftDate(end, -13);
    // The period as the profile writes it: its length and its dates in words.
    await expect(page.getByTestId("report-range")).toHaveText(/^14 days: /);

    // By hand: of 2016 readings of 63, 99, 153 and 225 mg/dL equally often (one 63 replaced by
    // 396), the 99s and 153s are in 70-180: 2 x 504 / 2016 = 50.0 %.
    await expect(page.getByTestId("agp-tir-inRange")).toHaveText("50.0 %");

    // A range without data says so and offers the latest range of the same length that has some.
    const emptyEnd = shiftDate(patient.last, -40);
    await page.goto(`/${patient.pid}/agpprint?start=${shiftDate(emptyEnd, -13)}&end=${emptyEnd}`);
    const latest = page.getByTestId("latest-data");
    await expect(latest).toContainText(r("common.noDataInRange"));
    const latestStart = shiftDate(patient.last, -13);
    await latest
      .getByRole("link", {
        name: fill(r("common.showLatest"), {
          day: formatDate(patient.last, "en"),
          from: formatDate(latestStart, "en"),
          to: formatDate(patient.last, "en"),
        }),
      })
      .click();
    await expect(page).toHaveURL(new RegExp(`start=${latestStart}&end=${patient.last}`));
    await expect(page.getByTestId("report-range")).toHaveText(/^14 days: /);
    await expect(page.getByTestId("agp-tir-inRange")).toHaveText("50.0 %");
    await expect(page.getByTestId("latest-data")).toHaveCount(0);
    await page.goto(`/${patient.pid}/agpprint`);
    await expect(page.getByTestId("agp-chart").locator("svg")).toHaveCount(1);
    await expect(page.getByTestId("agp-day")).toHaveCount(14);
    // The bands and the target range are named on the chart and in its legend.
    await expect(page.getByTestId("agp-chart").locator("text", { hasText: /^95 %$/ })).toHaveCount(
      1,
    );
    await expect(page.getByTestId("agp-chart").locator("text", { hasText: /^5 %$/ })).toHaveCount(
      1,
    );
    const legend = page.getByTestId("agp-legend");
    for (const key of ["agp.legend.outer", "agp.legend.inner", "agp.legend.median"])
      await expect(legend).toContainText(r(key));
    // The clinic reads mmol/L: 70 and 180 mg/dL are 3.9 and 10.0.
    await expect(legend).toContainText("3.9–10.0 mmol/L");
    // The daily profiles share one glucose scale, 0-350 mg/dL (19.4 mmol/L): the same top tick on
    // each of the 7 days with readings, although only the first day reaches 396 mg/dL.
    const tops = await page.getByTestId("agp-day").evaluateAll((days) =>
      days.flatMap((day) => {
        const top = [...day.querySelectorAll('g[aria-label="y-axis tick label"] text')].at(-1);
        return top ? [top.textContent] : [];
      }),
    );
    expect(tops).toEqual(Array(7).fill("19.4"));
    await testInfo.attach(`agp-report-screen-${testInfo.project.name}.png`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });

    const pdf = await downloadReportPdf(page, testInfo, {
      href: `/${patient.pid}/agpprint.pdf?start=${start}&end=${end}`,
      fileName: `glucose-profile-${patient.pid}-${start}-${end}.pdf`,
      label: "agp-report",
    });
    expect(pdf.pages).toBe(1);
    expect(pdf.text).toContain(patient.name);
    expect(pdf.text).toContain(r("agp.title"));
    expect(pdf.title).toBe(pdfTitle(patient.name, r("agp.title"), start, end));
  });
});

test.describe("Statistics report", () => {
  test.describe.configure({ timeout: 120_000 });

  test("a clinic opens the statistics report from the patient page, sees the figures of the uploaded readings for both periods and the MAGE method, and downloads the PDF", async ({
    page,
    request,
  }, testInfo) => {
    const patient = await createKnownPatient(request, {
      tag: "stats-report-patient",
      firstName: "Sara",
      lastName: "Sample",
    });
    const clinic = await createUser({
      tag: "stats-report-clinic",
      identity: 2,
      firstName: "Stan",
      lastName: "Tistics",
    });
    await createAcceptedShare(patient.id, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);

    await page.goto(`/patientShow/${patient.pid}/${patient.id}/patientHome`);
    await page.getByRole("link", { name: tr("en", "reports.statistics", "views") }).click();
    await expect(
      page.getByRole("heading", { level: 1, name: r("statistics.title") }),
    ).toBeVisible();
    await expect(page.getByTestId("report-patient")).toHaveText(patient.name);

    // Without dates: the 15 days ending today in the patient's zone, beside the 15 days before
    // (which hold the earlier CGM day).
    const end = shiftDate(patient.last, 1);
    const start = shiftDate(end, -14);
    await expect(page.getByTestId("report-range")).toHaveText(formatDateRange(start, end, "en"));
    await expect(page.getByTestId("statistics-source")).toHaveText(r("statistics.source.cgm"));
    // By hand. Current: 7 days x 288 = 2016 readings of 63, 99, 153 and 225 mg/dL equally often
    // with one 63 replaced by 396, mean (504 x 540 + 333) / 2016 = 135.17 mg/dL = 7.51 -> 7.5
    // mmol/L; the 99s and 153s in 70-180: 2 x 504 / 2016 = 50.0 %. Previous: 90 and 126 mg/dL
    // equally often, mean 216 / 2 = 108 mg/dL = 6.0 mmol/L.
    const mbg = page.getByTestId("statistic-MBG");
    await expect(mbg.getByTestId("current").getByTestId("value")).toHaveText("7.5");
    await expect(mbg.getByTestId("previous").getByTestId("value")).toHaveText("6.0");
    await expect(
      page.getByTestId("statistic-TIR").getByTestId("current").getByTestId("value"),
    ).toHaveText("50.0");
    await expect(page.getByTestId("period-current")).toContainText("2,016");
    await expect(page.getByTestId("method-MAGE")).toContainText(
      "MAGE: moving averages 5/32 points on a 5-minute grid",
    );
    await expect(page.getByTestId("statistics-other").getByTestId("statistic-GRI")).toHaveCount(1);
    await testInfo.attach(`statistics-report-screen-${testInfo.project.name}.png`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });

    const pdf = await downloadReportPdf(page, testInfo, {
      href: `/${patient.pid}/statisticsprint.pdf?start=${start}&end=${end}`,
      fileName: `statistics-report-${patient.pid}-${start}-${end}.pdf`,
      label: "statistics-report",
    });
    expect(pdf.pages).toBeGreaterThanOrEqual(1);
    expect(pdf.text).toContain(patient.name);
    expect(pdf.text).toContain(r("statistics.title"));
    expect(pdf.text).toContain("moving averages 5/32");
    expect(pdf.title).toBe(pdfTitle(patient.name, r("statistics.title"), start, end));

    // More than 90 days is refused with the translated message; the typed dates stay.
    // (With JavaScript the range picker refuses it with the same message before sending.)
    const range = rangeFields(page);
    await range.start.fill("2025/01/01");
    await range.end.fill(displayDate(end));
    await page.getByRole("button", { name: r("common.preview") }).click();
    await expect(page.getByRole("alert")).toHaveText(tr("en", "problems.tooLong", "views"));
    await range.start.expectValue("2025/01/01");
  });
});

test.describe("Statistics report in Russian", () => {
  test.describe.configure({ timeout: 120_000 });

  test("fits A4 portrait: every column's text stays inside its cell, and the PDF has the last column and a Russian title", async ({
    page,
  }, testInfo) => {
    const ru = (key: string) => tr("ru", key, "reports");
    const patient = await demoPatient();
    const clinic = await createUser({
      tag: "stats-ru-clinic",
      identity: 2,
      firstName: "Lena",
      lastName: "Russkaya",
      lang: "ru",
      unit: 1,
    });
    await createAcceptedShare(patient.userId, clinic.id);
    await signInWithLanguage(page, clinic, "ru");
    const end = shiftDate(todayIn(patient.timeZone, Date.now()), -1);
    const start = shiftDate(end, -13);

    // The document the PDF renderer prints, laid out as on paper: A4 portrait (210 mm) less the
    // page's 12 mm margins is 186 mm = 703 px wide.
    await page.setViewportSize({ width: 703, height: 1000 });
    await page.emulateMedia({ media: "print" });
    await page.goto(`/${patient.pid}/statisticsprint?start=${start}&end=${end}&print=1`);
    await expect(
      page.getByRole("heading", { level: 1, name: ru("statistics.title") }),
    ).toBeVisible();
    const spec = page.getByTestId("statistics-spec");
    await expect(spec.locator("thead th").last()).toHaveText(ru("statistics.columns.change"));
    const overflowing = await page
      .locator("table th, table td")
      .evaluateAll((cells) =>
        cells
          .filter((c) => c.scrollWidth > c.clientWidth)
          .map((c) => `${c.textContent}: ${c.scrollWidth} > ${c.clientWidth}`),
      );
    expect(overflowing).toEqual([]);
    const tableRight = await spec.evaluate((t) => t.getBoundingClientRect().right);
    expect(tableRight).toBeLessThanOrEqual(703);

    const pdf = await readPdf(
      await (
        await page.request.get(`/${patient.pid}/statisticsprint.pdf?start=${start}&end=${end}`)
      ).body(),
      testInfo,
      "statistics-ru",
    );
    // The last column's heading whole, on both tables of metrics.
    expect(pdf.text.split(ru("statistics.columns.change")).length - 1).toBeGreaterThanOrEqual(2);
    expect(pdf.title).toBe(pdfTitle("Anna Kowalczyk", ru("statistics.title"), start, end, "ru"));
  });
});
