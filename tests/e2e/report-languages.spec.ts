import { expect, test, type Page } from "@playwright/test";
import { displayDate } from "../../app/report/day";
import { formatDate } from "../../app/report/locale-format";
import {
  reportPageHref,
  reportPdfFileName,
  reportPdfHref,
  type ReportKind,
} from "../../app/report/report-kinds";
import type { GlucoseUnit } from "../../app/domain/glucose-unit";
import { createAcceptedShare, createUser } from "./db";
import { tr, type Lng } from "./i18n";
import { createKnownPatient } from "./known-patient";
import { downloadReportPdf, readPdf } from "./report-pdf";
import { signInWithLanguage } from "./support";

/**
 * Each language with a glucose unit and a report, so that both units and every report are seen
 * in print outside English. The Russian locale has no CGM views: its clinicians print the pump
 * report. `figure` is the report's key figure over the patient's uploaded week (known-patient.ts),
 * worked out by hand and written in the reader's number format:
 * - CGM average and statistics MBG: 2016 readings of 63, 99, 153 and 225 mg/dL equally often, one
 *   63 replaced by 396: (504 x 540 + 333) / 2016 = 135.17 -> 135 mg/dL; / 18 = 7.51 -> 7.5 mmol/L;
 * - pump total insulin: 7 days x (23.00 U basal + 3.00 U bolus) = 182.00 U;
 * - AGP time in range 70-180: the 99s and 153s, 2 x 504 / 2016 = 50.0 %.
 */
const CASES: readonly { lng: Lng; unit: GlucoseUnit; kind: ReportKind; figure: string }[] = [
  { lng: "en", unit: 1, kind: "cgm", figure: "135" },
  { lng: "pl", unit: 0, kind: "cgm", figure: "7,5" },
  { lng: "ru", unit: 1, kind: "pump", figure: "182,00" },
  { lng: "it", unit: 0, kind: "agp", figure: "50,0" },
  { lng: "ro", unit: 1, kind: "statistics", figure: "135" },
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

  for (const { lng, unit, kind, figure: expected } of CASES) {
    test(`${lng}, ${unit === 1 ? "mg/dL" : "mmol/L"}: the ${kind} report and its PDF are in the reader's language and unit`, async ({
      page,
      request,
    }, testInfo) => {
      const r = (key: string) => tr(lng, key, "reports");
      const unitText = tr(lng, `units.${unit}`);
      const patient = await createKnownPatient(request, {
        tag: `report-${lng}-patient`,
        firstName: "Kira",
        lastName: `Known${lng}`,
      });
      const clinic = await createUser({
        tag: `report-${lng}`,
        identity: 2,
        firstName: "Lena",
        lastName: `Lang${lng}`,
        lang: lng,
        unit,
      });
      await createAcceptedShare(patient.id, clinic.id);
      await signInWithLanguage(page, clinic, lng);

      // The uploaded week: the 7 days ending yesterday.
      const { first: start, last: end } = patient;
      await page.goto(
        `${reportPageHref(kind, patient.pid)}?start=${displayDate(start)}&end=${displayDate(end)}`,
      );
      const title = r(`${kind}.title`);
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

      if (kind === "cgm") {
        await expect(figure(page, "cgm-figures", r("cgm.average"))).toHaveText(
          `${expected} ${unitText}`,
        );
      } else if (kind === "agp") {
        await expect(page.getByTestId("agp-tir-inRange")).toHaveText(`${expected} %`);
      } else if (kind === "statistics") {
        await expect(
          page.getByTestId("statistic-MBG").getByTestId("current").getByTestId("value"),
        ).toHaveText(expected);
      } else {
        await expect(figure(page, "pump-totals", r("pump.total"))).toHaveText(
          `${expected} ${tr(lng, "units.u", "views")}`,
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
        patient: patient.name,
        report: title,
        from: formatDate(start, lng),
        to: formatDate(end, lng),
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
