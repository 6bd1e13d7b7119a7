import { expect, test, type Locator, type Page } from "@playwright/test";
import { displayDate, shiftDate, todayIn } from "../../app/report/day";
import { formatDate } from "../../app/report/locale-format";
import { MARK_CLASS } from "../../app/report/charts/render.server";
import type { GlucoseUnit } from "../../app/domain/glucose-unit";
import { createAcceptedShare, createUser, demoPatient, newestCgmDay } from "./db";
import { tr, type Lng } from "./i18n";
import { createKnownPatient, knownInstant } from "./known-patient";
import { dateField } from "./date-fields";
import { jsEnabled, signIn, signInWithLanguage } from "./support";

const v = (key: string, lng: Lng = "en") => tr(lng, key, "views");
const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce(
    (out, [k, value]) => out.replaceAll(`{{${k}}}`, String(value)),
    text,
  );

/** The text of a summary figure: the <dd> after the <dt> with this label. */
function figure(page: Page, label: string) {
  return page
    .locator("dt", { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) })
    .locator("xpath=following-sibling::dd[1]");
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function tabLink(page: Page, tab: "daily" | "bg" | "cgms", lng: Lng = "en") {
  return page
    .getByRole("navigation", { name: v("tabs.label", lng) })
    .getByRole("link", { name: v(`tabs.${tab}`, lng), exact: true });
}

/** The day in DAILY's and CGMS's date field (YYYY/MM/DD). */
async function dateShown(page: Page) {
  return dateField(page, "date", v("nav.date")).value();
}

async function chooseUnit(page: Page, unit: GlucoseUnit) {
  await page.getByLabel(tr("en", "nav.unit")).click();
  await page.getByRole("button", { name: tr("en", `units.${unit}`), exact: true }).click();
  await expect(
    page.getByText(tr("en", "nav.currentUnit").replace("{{unit}}", tr("en", `units.${unit}`))),
  ).toBeVisible();
}

test.describe("patient data views", () => {
  // Several sign-ins and page loads per test on a 2-core machine.
  test.describe.configure({ timeout: 90_000 });

  test("a clinic steps through days, switches tabs and units, and sees the hand-computed figures of the uploaded data", async ({
    page,
    request,
  }) => {
    const patient = await createKnownPatient(request, {
      tag: "views-patient",
      firstName: "Vito",
      lastName: "Viewed",
    });
    const clinic = await createUser({
      tag: "views-clinic",
      identity: 2,
      firstName: "Vera",
      lastName: "Views",
    });
    await createAcceptedShare(patient.id, clinic.id);
    const yesterday = patient.last;
    const dayBefore = shiftDate(yesterday, -1);

    await signIn(page, clinic.email, clinic.password, 2);
    // The patient panel's entry (an approved clinic's triage table links the name too).
    await page
      .getByRole("complementary", { name: tr("en", "panel.label", "sharing") })
      .getByRole("link", { name: new RegExp(patient.name) })
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(patient.name);

    // DAILY opens on the last day with pump data. Every day of the week by hand: basal 22 h x
    // 1.00 U/h + 2 h x 0.50 U/h = 23.00 U, one bolus of 3 min x 60 U/h = 3.00 U, total 26.00 U;
    // carbohydrate 45 + 15 = 60 g; 2 meter readings.
    await expect(tabLink(page, "daily")).toHaveAttribute("aria-current", "page");
    expect(await dateShown(page)).toBe(displayDate(yesterday));
    await page.getByRole("link", { name: new RegExp(v("nav.previous")) }).click();
    await expect.poll(() => dateShown(page)).toBe(displayDate(dayBefore));
    await expect(figure(page, v("daily.insulin"))).toHaveText("26.00 U");
    await expect(figure(page, v("daily.boluses"))).toHaveText("1");
    await expect(page.getByTestId("chart").locator("svg").first()).toBeVisible();
    // The chart's text alternative carries the day's totals.
    await expect(page.getByTestId("chart-caption")).toHaveText(
      fill(tr("en", "daily.chartCaption", "views", 2), {
        total: "26.00",
        basal: "23.00",
        bolus: "3.00",
        carbs: "60",
        count: 2,
      }),
    );
    await page.getByRole("link", { name: new RegExp(v("nav.next")) }).click();
    await expect.poll(() => dateShown(page)).toBe(displayDate(yesterday));

    // CGMS keeps the day; its figures in both units, by hand. The day: 288 readings, 72 each of
    // 63, 99, 153 and 225 mg/dL. Mean 540 / 4 = 135 mg/dL = 7.5 mmol/L. Deviations -72, -36, 18,
    // 90; squares 5184 + 1296 + 324 + 8100 = 14904; sample SD sqrt(72 x 14904 / 287) =
    // sqrt(3738.98) = 61.15 -> 61 mg/dL; / 18 = 3.397 -> 3.4 mmol/L. CV 61.15 / 135 = 45.29 ->
    // 45.3 %. In 70-180: the 99s and 153s, 144 / 288 = 50.0 %.
    await tabLink(page, "cgms").click();
    await expect(tabLink(page, "cgms")).toHaveAttribute("aria-current", "page");
    expect(await dateShown(page)).toBe(displayDate(yesterday));
    // The range's limits, 70 and 180 mg/dL, are 70 / 18 = 3.89 -> 3.9 and 180 / 18 = 10.0 mmol/L.
    const expected = {
      0: { average: "7.5", sd: "3.4", low: "3.9", high: "10.0" },
      1: { average: "135", sd: "61", low: "70", high: "180" },
    } as const;
    for (const unit of [0, 1] as const) {
      if (unit === 1) await chooseUnit(page, 1);
      const unitText = tr("en", `units.${unit}`);
      await expect(figure(page, v("cgms.average"))).toHaveText(
        `${expected[unit].average} ${unitText}`,
      );
      await expect(figure(page, v("cgms.sd"))).toHaveText(`${expected[unit].sd} ${unitText}`);
      await expect(figure(page, v("cgms.cv"))).toHaveText("45.3 %");
      await expect(figure(page, v("cgms.count"))).toHaveText("288");
      const inRange = page
        .getByTestId("time-in-ranges")
        .getByRole("listitem")
        .filter({
          hasText: fill(v("cgms.bands.range70to180"), {
            low: expected[unit].low,
            high: expected[unit].high,
          }),
        });
      await expect(inRange).toContainText("50.0 %");
    }

    // BG: the meter readings of the two weeks ending on that day, by hand: 7 days x 2 = 14
    // readings, mean (90 + 150) / 2 = 120 mg/dL (the unit chosen above).
    await tabLink(page, "bg").click();
    const from = shiftDate(yesterday, -13);
    await dateField(page, "from", v("range.from")).expectValue(displayDate(from));
    await expect(figure(page, v("bg.count"))).toHaveText("14");
    await expect(figure(page, v("bg.average"))).toHaveText("120 mg/dL");
    await expect(page.getByTestId("chart-caption")).toHaveText(
      fill(tr("en", "bg.chartCaption", "views", 14), {
        count: 14,
        from: formatDate(from, "en"),
        to: formatDate(yesterday, "en"),
        average: "120 mg/dL",
      }),
    );
  });

  test("the DAILY glucose panel plots the same points as the printed pump report of that day: the day's uploaded meter readings", async ({
    page,
    request,
  }) => {
    const patient = await createKnownPatient(request, {
      tag: "views-glucose-patient",
      firstName: "Gabe",
      lastName: "Glucose",
    });
    const clinic = await createUser({
      tag: "views-glucose",
      identity: 2,
      firstName: "Gina",
      lastName: "Glucose",
    });
    await createAcceptedShare(patient.id, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);
    const date = shiftDate(patient.last, -1);
    // The pump enters no BG itself: the day's glucose is the two meter readings uploaded for it.
    const uploaded = [
      { time: knownInstant(date, "07:30"), mgdl: 90 },
      { time: knownInstant(date, "19:30"), mgdl: 150 },
    ];
    /** The glucose dots of the charts in `scope`: instant and mg/dL from their data attributes. */
    const plotted = async (scope: Locator) =>
      (
        await scope
          .locator(`g.${MARK_CLASS.meterBg} circle`)
          .evaluateAll((dots) =>
            dots.map((d) => [d.getAttribute("data-time"), d.getAttribute("data-mgdl")]),
          )
      ).map(([time, mgdl]) => ({ time: Number(time), mgdl: Number(mgdl) }));

    await page.goto(`/patientShow/${patient.pid}/${patient.id}/patientHome?tab=daily&date=${date}`);
    await expect(page.getByTestId("chart").locator("svg")).toBeVisible();
    const screen = await plotted(page.getByTestId("chart"));

    // The document the PDF renderer prints, over the day before, the day and the day after.
    await page.goto(
      `/${patient.pid}/print?start=${shiftDate(date, -1)}&end=${shiftDate(date, 1)}&print=1`,
    );
    await expect(page.getByTestId("chart-group")).toHaveCount(1);
    const print = (await plotted(page.getByTestId("chart-group"))).filter(
      (p) =>
        p.time >= knownInstant(date, "00:00") && p.time < knownInstant(shiftDate(date, 1), "00:00"),
    );

    expect(screen).toEqual(uploaded);
    expect(print).toEqual(screen);
  });

  test("bad and future dates are refused with a message; a day without data offers the nearest one", async ({
    page,
  }) => {
    const patient = await demoPatient();
    const clinic = await createUser({
      tag: "views-dates",
      identity: 2,
      firstName: "Dora",
      lastName: "Dates",
    });
    await createAcceptedShare(patient.userId, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);
    const base = `/patientShow/${patient.pid}/${patient.userId}/patientHome`;
    const today = todayIn(patient.timeZone, Date.now());

    if (jsEnabled()) {
      // The date picker cannot make a day that does not exist: the address asks for one instead.
      await page.goto(`${base}?tab=daily&date=2026/02/30`);
    } else {
      await page.goto(base);
      await page.getByLabel(v("nav.date")).fill("2026/02/30");
      await page.getByRole("button", { name: v("nav.show") }).click();
    }
    await expect(page.getByRole("alert")).toContainText(v("problems.invalid"));
    // The text field keeps what was typed; the picker, which holds only dates, stays empty.
    await dateField(page, "date", v("nav.date")).expectValue(jsEnabled() ? "" : "2026/02/30");

    await page.goto(`${base}?tab=daily&date=${shiftDate(today, 3)}`);
    await expect(page.getByRole("alert")).toContainText(v("problems.future"));

    const empty = "2020-01-15";
    await page.goto(`${base}?tab=cgms&date=${empty}`);
    await expect(
      page.getByText(fill(v("empty.day"), { date: formatDate(empty, "en") })),
    ).toBeVisible();
    await page
      .getByRole("link", { name: new RegExp(v("empty.nearest").split("(")[0]!.trim()) })
      .click();
    await expect(page.getByTestId("cgm-stats")).toBeVisible();

    await page.goto(`${base}?tab=bg&from=2026/11/20&to=2026/11/01`);
    await expect(page.getByRole("alert")).toContainText(v("problems.order"));
  });

  test("someone the patient has not shared with gets a 404", async ({ page }) => {
    const patient = await demoPatient();
    const stranger = await createUser({
      tag: "views-stranger",
      identity: 2,
      firstName: "Sam",
      lastName: "Stranger",
    });
    await signIn(page, stranger.email, stranger.password, 2);
    const response = await page.goto(
      `/patientShow/${patient.pid}/${patient.userId}/patientHome?tab=cgms`,
    );
    expect(response?.status()).toBe(404);
  });

  for (const lng of ["en", "pl"] as const) {
    test(`screenshots of the three tabs in ${lng}`, async ({ page }, testInfo) => {
      const patient = await demoPatient();
      const base = `/patientShow/${patient.pid}/${patient.userId}/patientHome`;
      const clinic = await createUser({
        tag: `views-shots-${lng}`,
        identity: 2,
        firstName: "Shot",
        lastName: lng,
        lang: lng,
      });
      await createAcceptedShare(patient.userId, clinic.id);
      await signInWithLanguage(page, clinic, lng);
      for (const tab of ["daily", "bg", "cgms"] as const) {
        await page.goto(`${base}?tab=${tab}`);
        await expect(tabLink(page, tab, lng)).toHaveAttribute("aria-current", "page");
        await expect(page.getByTestId("chart").locator("svg").first()).toBeVisible();
        await testInfo.attach(`${tab}-${lng}-${testInfo.project.name}.png`, {
          body: await page.screenshot({ fullPage: true }),
          contentType: "image/png",
        });
      }
    });
  }

  test("the Russian locale has no CGMS tab, and asking for it shows DAILY; a patient with CGM data is said to have it in the reports, which open", async ({
    page,
  }) => {
    const patient = await demoPatient();
    const reader = await createUser({
      tag: "views-ru",
      identity: 2,
      firstName: "Ivan",
      lastName: "Ru",
      lang: "ru",
    });
    await createAcceptedShare(patient.userId, reader.id);
    await signInWithLanguage(page, reader, "ru");
    await page.goto(`/patientShow/${patient.pid}/${patient.userId}/patientHome?tab=cgms`);
    await expect(tabLink(page, "daily", "ru")).toHaveAttribute("aria-current", "page");
    await expect(tabLink(page, "cgms", "ru")).toHaveCount(0);

    // The newest day as the Russian page writes it, e.g. "25 нояб. 2026 г.".
    const newest = formatDate((await newestCgmDay(patient.pid, patient.timeZone))!, "ru");
    const note = page.getByTestId("cgm-in-reports");
    await expect(note).toHaveText(
      new RegExp(`^${escapeRegExp(tr("ru", "cgmInReports", "views").replace("{{date}}", newest))}`),
    );
    await note.getByRole("link", { name: tr("ru", "reports.cgm", "views") }).click();
    await expect(page).toHaveURL(new RegExp(`/${patient.pid}/cgmsprint`));
    await expect(page.locator("h1, h2").first()).toBeVisible();

    // A patient without CGM data: no such note (the report links stay).
    const bare = await createUser({
      tag: "views-ru-bare",
      identity: 1,
      firstName: "Boris",
      lastName: "Bare",
    });
    await createAcceptedShare(bare.id, reader.id);
    await page.goto(`/patientShow/${bare.pid}/${bare.id}/patientHome`);
    await expect(tabLink(page, "daily", "ru")).toHaveAttribute("aria-current", "page");
    await expect(page.getByTestId("cgm-in-reports")).toHaveCount(0);
    await expect(
      page
        .getByRole("navigation", { name: tr("ru", "reports.label", "views") })
        .getByRole("link", { name: tr("ru", "reports.cgm", "views") }),
    ).toBeVisible();
  });
});
