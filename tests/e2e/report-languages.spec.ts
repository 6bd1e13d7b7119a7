import { expect, test, type Page } from "@playwright/test";
import { computeAll } from "../../app/metrics";
import { dayWindow, displayDate, shiftDate, todayIn } from "../../app/report/day";
import { buildPumpReport } from "../../app/report/pump-report";
import { formatGlucose, formatNumber, type GlucoseUnit } from "../../app/report/units";
import { createAcceptedShare, createUser, demoPatient, pumpRecordsAround, readingsBetween } from "./db";
import { tr, type Lng } from "./i18n";
import { downloadReportPdf, readPdf } from "./report-pdf";
import { signInWithLanguage } from "./support";

/** Each language with a glucose unit, so that both units are seen in print. */
const CASES: readonly { lng: Lng; unit: GlucoseUnit }[] = [
  { lng: "en", unit: 1 },
  { lng: "pl", unit: 0 },
  { lng: "ru", unit: 1 },
  { lng: "it", unit: 0 },
  { lng: "ro", unit: 1 },
];

/** The <dd> after the <dt> with exactly this label in a report's figure list. */
function figure(page: Page, list: string, label: string) {
  return page.getByTestId(list).locator("dt", { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) }).locator("xpath=following-sibling::dd[1]");
}

test.describe("reports in every language and both units", () => {
  // Sign-in, a report render and a server-side PDF per test on a 2-core machine.
  test.describe.configure({ timeout: 120_000 });

  for (const { lng, unit } of CASES) {
    // The Russian locale has no CGM views (spec 1), so its clinicians print the pump report.
    const kind = lng === "ru" ? "pump" : "cgm";
    test(`${lng}, ${unit === 1 ? "mg/dL" : "mmol/L"}: the ${kind} report and its PDF are in the reader's language and unit`, async ({ page }, testInfo) => {
      const r = (key: string) => tr(lng, key, "reports");
      const unitText = tr(lng, `units.${unit}`);
      const patient = await demoPatient();
      const clinic = await createUser({ tag: `report-${lng}`, identity: 2, firstName: "Lena", lastName: `Lang${lng}`, lang: lng, unit });
      await createAcceptedShare(patient.userId, clinic.id);
      await signInWithLanguage(page, clinic, lng);

      const end = shiftDate(todayIn(patient.timeZone, Date.now()), -1);
      const start = shiftDate(end, -6);
      const span = { start: dayWindow(start, patient.timeZone).start, end: dayWindow(end, patient.timeZone).end };
      const route = kind === "pump" ? "print" : "cgmsprint";
      await page.goto(`/${patient.pid}/${route}?start=${displayDate(start)}&end=${displayDate(end)}`);
      const title = r(`${kind}.title`);
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

      if (kind === "cgm") {
        const { cgm } = await readingsBetween(patient.pid, span.start, span.end);
        const mean = computeAll(cgm, { timeZone: patient.timeZone, limits: { low: 70, high: 180 } }).mean.value;
        await expect(figure(page, "cgm-figures", r("cgm.average"))).toHaveText(`${formatGlucose(mean, unit, lng)} ${unitText}`);
      } else {
        const records = await pumpRecordsAround(patient.pid, span.start, span.end);
        const built = buildPumpReport({ from: start, to: end, timeZone: patient.timeZone, now: Date.now(), records, limits: { low: 70, high: 180 }, setting: { unit, nameStyle: 0 } });
        if (built.status !== "ok") throw new Error(built.problem);
        await expect(figure(page, "pump-totals", r("pump.total"))).toHaveText(`${formatNumber(built.report.PumpTotalCount.total, 2, lng)} ${tr(lng, "units.u", "views")}`);
      }

      const href = `/${patient.pid}/${route}.pdf?start=${start}&end=${end}`;
      const label = `${kind}-${lng}`;
      // Signed-in Polish readers are held by the regional dialog (spec 1), which covers the page: fetch their PDF with the same session.
      const pdf =
        lng === "pl"
          ? await readPdf(await (await page.request.get(href)).body(), testInfo, label)
          : await downloadReportPdf(page, testInfo, { href, fileName: `${kind}-report-${patient.pid}-${start}-${end}.pdf`, label, lang: lng });
      expect(pdf.text).toContain(title);
      expect(pdf.text).toContain(unitText);
      expect(pdf.text).toContain(r("common.header.generatedAt"));
      expect(pdf.text).not.toContain(tr(lng, "regional.title"));
    });
  }
});
