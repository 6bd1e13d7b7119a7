import { expect, test, type Page } from "@playwright/test";
import { computeAll } from "../../app/metrics";
import { dayWindow, displayDate, shiftDate, todayIn } from "../../app/report/day";
import { buildPumpReport } from "../../app/report/pump-report";
import {
  reportPageHref,
  reportPdfFileName,
  reportPdfHref,
  type ReportKind,
} from "../../app/report/report-kinds";
import { formatGlucose, formatNumber, type GlucoseUnit } from "../../app/report/units";
import {
  createAcceptedShare,
  createUser,
  demoPatient,
  pumpRecordsAround,
  readingsBetween,
} from "./db";
import { tr, type Lng } from "./i18n";
import { downloadReportPdf, readPdf } from "./report-pdf";
import { signInWithLanguage } from "./support";

/**
 * Each language with a glucose unit and a report, so that both units and every report are seen in
 * print outside English. The Russian locale has no CGM views: its clinicians print the pump report.
 */
const CASES: readonly { lng: Lng; unit: GlucoseUnit; kind: ReportKind }[] = [
  { lng: "en", unit: 1, kind: "cgm" },
  { lng: "pl", unit: 0, kind: "cgm" },
  { lng: "ru", unit: 1, kind: "pump" },
  { lng: "it", unit: 0, kind: "agp" },
  { lng: "ro", unit: 1, kind: "statistics" },
];

/** The <dd> after the <dt> with exactly this label in a report's figure list. */
function figure(page: Page, list: string, label: string) {
  return page
    .getByTestId(list)
    .locator("dt", { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) })
    .locator("xpath=following-sibling::dd[1]");
}

test.describe("reports in every language and both units", () => {
  // Sign-in, a report render and a server-side PDF per test on a 2-core machine.
  test.describe.configure({ timeout: 120_000 });

  for (const { lng, unit, kind } of CASES) {
    test(`${lng}, ${unit === 1 ? "mg/dL" : "mmol/L"}: the ${kind} report and its PDF are in the reader's language and unit`, async ({
      page,
    }, testInfo) => {
      const r = (key: string) => tr(lng, key, "reports");
      const unitText = tr(lng, `units.${unit}`);
      const patient = await demoPatient();
      const clinic = await createUser({
        tag: `report-${lng}`,
        identity: 2,
        firstName: "Lena",
        lastName: `Lang${lng}`,
        lang: lng,
        unit,
      });
      await createAcceptedShare(patient.userId, clinic.id);
      await signInWithLanguage(page, clinic, lng);

      const end = shiftDate(todayIn(patient.timeZone, Date.now()), -1);
      const start = shiftDate(end, -6);
      const span = {
        start: dayWindow(start, patient.timeZone).start,
        end: dayWindow(end, patient.timeZone).end,
      };
      await page.goto(
        `${reportPageHref(kind, patient.pid)}?start=${displayDate(start)}&end=${displayDate(end)}`,
      );
      const title = r(`${kind}.title`);
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

      const { cgm } = await readingsBetween(patient.pid, span.start, span.end);
      const metrics = computeAll(cgm, {
        timeZone: patient.timeZone,
        limits: { low: 70, high: 180 },
      });
      if (kind === "cgm") {
        await expect(figure(page, "cgm-figures", r("cgm.average"))).toHaveText(
          `${formatGlucose(metrics.mean.value, unit, lng)} ${unitText}`,
        );
      } else if (kind === "agp") {
        await expect(page.getByTestId("agp-tir-inRange")).toHaveText(
          `${formatNumber(metrics.timeInRanges.value!.range70to180, 1, lng)} %`,
        );
      } else if (kind === "statistics") {
        await expect(
          page.getByTestId("statistic-MBG").getByTestId("current").getByTestId("value"),
        ).toHaveText(formatGlucose(metrics.mean.value, unit, lng));
      } else {
        const records = await pumpRecordsAround(patient.pid, span.start, span.end);
        const built = buildPumpReport({
          from: start,
          to: end,
          timeZone: patient.timeZone,
          now: Date.now(),
          records,
          limits: { low: 70, high: 180 },
          setting: { unit, nameStyle: 0 },
        });
        if (built.status !== "ok") throw new Error(built.problem);
        await expect(figure(page, "pump-totals", r("pump.total"))).toHaveText(
          `${formatNumber(built.report.PumpTotalCount.total, 2, lng)} ${tr(lng, "units.u", "views")}`,
        );
      }

      const range = { start, end };
      const href = reportPdfHref(kind, patient.pid, range);
      const label = `${kind}-${lng}`;
      // Signed-in Polish readers are held by the regional-site dialog, which covers the page: fetch their PDF with the same session.
      const pdf =
        lng === "pl"
          ? await readPdf(await (await page.request.get(href)).body(), testInfo, label)
          : await downloadReportPdf(page, testInfo, {
              href,
              fileName: reportPdfFileName(kind, patient.pid, range),
              label,
              lang: lng,
            });
      expect(pdf.text).toContain(title);
      expect(pdf.text).toContain(unitText);
      expect(pdf.text).toContain(r("common.header.generatedAt"));
      expect(pdf.text).not.toContain(tr(lng, "regional.title"));
      // The PDF's title metadata names patient, report and range in the reader's language.
      const titleValues: Record<string, string> = {
        patient: "Anna Kowalczyk",
        report: title,
        from: displayDate(start),
        to: displayDate(end),
      };
      expect(pdf.title).toBe(
        Object.entries(titleValues).reduce(
          (text, [k, value]) => text.replaceAll(`{{${k}}}`, value),
          r("common.documentTitle"),
        ),
      );
    });
  }
});
