import { expect, test, type Locator, type Page } from "@playwright/test";
import { computeAll } from "../../app/metrics";
import { dayWindow, displayDate, shiftDate, todayIn } from "../../app/report/day";
import { MARK_CLASS } from "../../app/report/charts/render.server";
import { buildPumpDay, splitAroundDay } from "../../app/report/pump-day";
import { formatGlucose, formatNumber, type GlucoseUnit } from "../../app/report/units";
import {
  createAcceptedShare,
  createUser,
  demoPatient,
  newestCgmDay,
  pumpRecordsAround,
  readingsBetween,
} from "./db";
import { tr, type Lng } from "./i18n";
import { signIn, signInWithLanguage } from "./support";

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

async function dateShown(page: Page) {
  return (await page.getByLabel(v("nav.date")).inputValue()).trim();
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

  test("a clinic steps through days, switches tabs and units, and sees the numbers app/metrics computes", async ({
    page,
  }) => {
    const patient = await demoPatient();
    const clinic = await createUser({
      tag: "views-clinic",
      identity: 2,
      firstName: "Vera",
      lastName: "Views",
    });
    await createAcceptedShare(patient.userId, clinic.id);
    const yesterday = shiftDate(todayIn(patient.timeZone, Date.now()), -1);
    const dayBefore = shiftDate(yesterday, -1);

    await signIn(page, clinic.email, clinic.password, 2);
    await page.getByRole("link", { name: /Anna Kowalczyk/ }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Anna Kowalczyk");

    // DAILY opens on the last day with pump data; the totals equal the day model of the stored records.
    await expect(tabLink(page, "daily")).toHaveAttribute("aria-current", "page");
    expect(await dateShown(page)).toBe(displayDate(yesterday));
    await page.getByRole("link", { name: new RegExp(v("nav.previous")) }).click();
    await expect.poll(() => dateShown(page)).toBe(displayDate(dayBefore));
    const window = dayWindow(dayBefore, patient.timeZone);
    const pump = buildPumpDay({
      date: dayBefore,
      timeZone: patient.timeZone,
      ...splitAroundDay(await pumpRecordsAround(patient.pid, window.start, window.end), window),
      pdaVersion: "5.3.0",
    });
    await expect(figure(page, v("daily.insulin"))).toHaveText(
      `${formatNumber(pump.pumpTotalCount.total, 2, "en")} U`,
    );
    await expect(figure(page, v("daily.boluses"))).toHaveText(String(pump.totals.bolusCount));
    await expect(page.getByTestId("chart").locator("svg").first()).toBeVisible();
    // The chart's text alternative carries the day's insulin total.
    await expect(page.getByTestId("chart-caption")).toContainText(
      `${formatNumber(pump.pumpTotalCount.total, 2, "en")} U`,
    );
    await page.getByRole("link", { name: new RegExp(v("nav.next")) }).click();
    await expect.poll(() => dateShown(page)).toBe(displayDate(yesterday));

    // CGMS keeps the day; its figures equal computeAll on that day's stored readings, in both units.
    await tabLink(page, "cgms").click();
    await expect(tabLink(page, "cgms")).toHaveAttribute("aria-current", "page");
    expect(await dateShown(page)).toBe(displayDate(yesterday));
    const day = dayWindow(yesterday, patient.timeZone);
    const { cgm, meter } = await readingsBetween(patient.pid, day.start, day.end);
    const metrics = computeAll(cgm, { timeZone: patient.timeZone, limits: { low: 70, high: 180 } });
    const percent = (x: number | null) => `${formatNumber(x, 1, "en")} %`;
    for (const unit of [0, 1] as const) {
      if (unit === 1) await chooseUnit(page, 1);
      await expect(figure(page, v("cgms.average"))).toHaveText(
        `${formatGlucose(metrics.mean.value, unit, "en")} ${tr("en", `units.${unit}`)}`,
      );
      await expect(figure(page, v("cgms.sd"))).toHaveText(
        `${formatGlucose(metrics.sd.value, unit, "en")} ${tr("en", `units.${unit}`)}`,
      );
      await expect(figure(page, v("cgms.cv"))).toHaveText(percent(metrics.cv.value));
      await expect(figure(page, v("cgms.count"))).toHaveText(String(metrics.meta.readings));
      const inRange = page
        .getByTestId("time-in-ranges")
        .getByRole("listitem")
        .filter({
          hasText: fill(v("cgms.bands.range70to180"), {
            low: formatGlucose(70, unit, "en"),
            high: formatGlucose(180, unit, "en"),
          }),
        });
      await expect(inRange).toContainText(percent(metrics.timeInRanges.value!.range70to180));
    }

    // BG: the summary counts the stored meter readings of the two weeks ending on that day.
    await tabLink(page, "bg").click();
    const from = shiftDate(yesterday, -13);
    const range = await readingsBetween(
      patient.pid,
      dayWindow(from, patient.timeZone).start,
      day.end,
    );
    await expect(page.getByLabel(v("range.from"))).toHaveValue(displayDate(from));
    await expect(figure(page, v("bg.count"))).toHaveText(String(range.meter.length));
    const mean = range.meter.reduce((sum, r) => sum + r.mgdl, 0) / range.meter.length;
    await expect(figure(page, v("bg.average"))).toHaveText(`${formatGlucose(mean, 1, "en")} mg/dL`);
    await expect(page.getByTestId("chart-caption")).toContainText(`${range.meter.length} `);
    await expect(page.getByTestId("chart-caption")).toContainText(
      `${formatGlucose(mean, 1, "en")} mg/dL`,
    );
    expect(meter.length).toBeGreaterThan(0);
  });

  test("the DAILY glucose panel plots the same points as the printed pump report of that day: the day's stored meter readings", async ({
    page,
  }) => {
    const patient = await demoPatient();
    const clinic = await createUser({
      tag: "views-glucose",
      identity: 2,
      firstName: "Gina",
      lastName: "Glucose",
    });
    await createAcceptedShare(patient.userId, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);
    const date = shiftDate(todayIn(patient.timeZone, Date.now()), -2);
    const day = dayWindow(date, patient.timeZone);
    // The seeded pump enters no BG itself: the day's glucose is the meter readings stored for it.
    const { meter } = await readingsBetween(patient.pid, day.start, day.end);
    expect(meter.length).toBeGreaterThan(0);
    const stored = meter.map((r) => ({ time: r.time, mgdl: r.mgdl }));
    /** The glucose dots of the charts in `scope`: instant and mg/dL from their data attributes. */
    const plotted = async (scope: Locator) =>
      (
        await scope
          .locator(`g.${MARK_CLASS.meterBg} circle`)
          .evaluateAll((dots) =>
            dots.map((d) => [d.getAttribute("data-time"), d.getAttribute("data-mgdl")]),
          )
      ).map(([time, mgdl]) => ({ time: Number(time), mgdl: Number(mgdl) }));

    await page.goto(
      `/patientShow/${patient.pid}/${patient.userId}/patientHome?tab=daily&date=${date}`,
    );
    await expect(page.getByTestId("chart").locator("svg")).toBeVisible();
    const screen = await plotted(page.getByTestId("chart"));

    // The document the PDF renderer prints, over the day before, the day and the day after.
    await page.goto(
      `/${patient.pid}/print?start=${shiftDate(date, -1)}&end=${shiftDate(date, 1)}&print=1`,
    );
    await expect(page.getByTestId("chart-group")).toHaveCount(1);
    const print = (await plotted(page.getByTestId("chart-group"))).filter(
      (p) => p.time >= day.start && p.time < day.end,
    );

    expect(screen).toEqual(stored);
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

    await page.goto(base);
    await page.getByLabel(v("nav.date")).fill("2026/02/30");
    await page.getByRole("button", { name: v("nav.show") }).click();
    await expect(page.getByRole("alert")).toContainText(v("problems.invalid"));
    await expect(page.getByLabel(v("nav.date"))).toHaveValue("2026/02/30");

    await page.goto(`${base}?tab=daily&date=${shiftDate(today, 3)}`);
    await expect(page.getByRole("alert")).toContainText(v("problems.future"));

    const empty = "2020-01-15";
    await page.goto(`${base}?tab=cgms&date=${empty}`);
    await expect(page.getByText(fill(v("empty.day"), { date: displayDate(empty) }))).toBeVisible();
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

    const newest = (await newestCgmDay(patient.pid, patient.timeZone))!.replaceAll("-", "/");
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
