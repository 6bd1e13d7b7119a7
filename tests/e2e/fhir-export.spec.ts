import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import type { Bundle, DiagnosticReport, Observation } from "@medplum/fhirtypes";
import { formatDateRange } from "../../app/report/locale-format";
import { contractProblem } from "../support/api-contract";
import { CGM_PROFILES } from "../../app/report/fhir-cgm-summary";
import { createAcceptedShare, createUser, readsLogged } from "./db";
import { tr } from "./i18n";
import { createKnownPatient } from "./known-patient";
import { readPdf } from "./report-pdf";
import { signIn } from "./support";

const r = (key: string) => tr("en", key, "reports");

/** The text of an AGP figure: the <dd> after the <dt> with this label. */
function figure(page: Page, label: string) {
  return page
    .getByTestId("agp-statistics")
    .locator("dt", { hasText: new RegExp(`^${label.replace(/[()]/g, "\\$&")}$`) })
    .locator("xpath=following-sibling::dd[1]");
}

/** The leading number of a figure's text ("7.5 mmol/L" is 7.5). */
const numberOf = async (page: Page, label: string) =>
  Number((await figure(page, label).innerText()).split(" ")[0]);

test.describe("HL7 FHIR CGM summary download", () => {
  // Sign-in, a report page and a server-side PDF on a 2-core machine.
  test.describe.configure({ timeout: 120_000 });

  test("a clinic downloads the CGM summary of the AGP page it reads: the page's figures, the page as a PDF, one read in the patient's log", async ({
    page,
    request,
    browser,
  }, testInfo) => {
    const patient = await createKnownPatient(request, {
      tag: "fhir-export-patient",
      firstName: "Fiona",
      lastName: "Export",
    });
    const clinic = await createUser({
      tag: "fhir-export-clinic",
      identity: 2,
      firstName: "Fred",
      lastName: "Interop",
    });
    await createAcceptedShare(patient.id, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);

    const { first: start, last: end } = patient;
    await page.goto(`/${patient.pid}/agpprint?start=${start}&end=${end}`);
    // The page names the period in words: "7 days: November 19 – 25, 2026".
    await expect(page.getByTestId("report-range")).toHaveText(
      new RegExp(`^7 days: .*\\s${Number(end.slice(8))}, ${end.slice(0, 4)}$`),
    );
    const link = page.getByRole("link", { name: r("fhir.download") });
    await expect(link).toHaveAttribute(
      "href",
      `/${patient.pid}/cgm-summary.json?start=${start}&end=${end}`,
    );
    const shownMean = await numberOf(page, r("agp.mean"));
    const shownCv = await numberOf(page, r("agp.cv"));
    const readsBefore = (await readsLogged(patient.pid, clinic.id)).length;

    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 60_000 }),
      link.click(),
    ]);
    expect(download.suggestedFilename()).toBe(`cgm-summary-${end}.json`);
    const bundle = JSON.parse(readFileSync(await download.path(), "utf8")) as Bundle;
    await testInfo.attach(`cgm-summary-${testInfo.project.name}.json`, {
      body: JSON.stringify(bundle, null, 2),
      contentType: "application/json",
    });
    expect([bundle.resourceType, bundle.type, bundle.meta?.profile]).toEqual([
      "Bundle",
      "transaction",
      [CGM_PROFILES.bundle],
    ]);
    const resources = bundle.entry!.map((e) => e.resource!);
    const member = (profile: string) =>
      resources.find((x) => x.meta?.profile?.includes(profile)) as Observation;
    const value = (profile: string) => member(profile).valueQuantity!.value;

    // By hand (tests/e2e/known-patient.ts): 2016 readings of the week, 504 each of 63, 99, 153 and
    // 225 mg/dL but one 63 replaced by 396. Mean (504 x 540 + 333) / 2016 = 135.1652 mg/dL,
    // 7.5092 mmol/L; GMI 3.31 + 0.02392 x 135.1652 = 6.5432 %; readings every 5 minutes on all
    // 7 days, so 100 % active. Bands: < 54 none; 54-69 503 / 2016 = 24.95 %; 70-180 1008 / 2016
    // = 50 %; 181-250 504 / 2016 = 25 %; > 250 1 / 2016 = 0.05 %.
    expect(value(CGM_PROFILES.meanMass)).toBe(135.2);
    expect(value(CGM_PROFILES.meanMoles)).toBe(7.51);
    expect(value(CGM_PROFILES.gmi)).toBe(6.54);
    expect(value(CGM_PROFILES.activePercent)).toBe(100);
    expect(value(CGM_PROFILES.daysOfWear)).toBe(7);
    expect(
      member(CGM_PROFILES.timesInRanges).component!.map((c) => c.valueQuantity!.value),
    ).toEqual([0, 24.95, 50, 25, 0.05]);
    // The page shows the same figures (in the clinic's mmol/L, to 0.1).
    expect(shownMean).toBe(7.5);
    expect(Math.abs(value(CGM_PROFILES.meanMoles)! - shownMean)).toBeLessThanOrEqual(0.05);
    expect(Math.abs(value(CGM_PROFILES.cv)! - shownCv)).toBeLessThanOrEqual(0.05);
    await expect(page.getByTestId("agp-tir-inRange")).toHaveText("50.0 %");

    // The CGM device the readings came from, and the AGP page itself as the embedded PDF.
    expect(resources.find((x) => x.resourceType === "Device")).toMatchObject({
      serialNumber: `KAX${patient.pid}`,
      deviceName: [{ type: "user-friendly-name" }],
    });
    const report = resources.find((x) => x.resourceType === "DiagnosticReport") as DiagnosticReport;
    expect(report.meta?.profile).toEqual([CGM_PROFILES.pdf]);
    expect(report.presentedForm![0]!.contentType).toBe("application/pdf");
    const pdf = await readPdf(
      Buffer.from(report.presentedForm![0]!.data!, "base64"),
      testInfo,
      "cgm-summary-pdf",
    );
    expect(pdf.text).toContain(patient.name);
    expect(pdf.text).toContain(r("agp.title"));

    // One read, on the FHIR channel: the PDF's own page load is not logged again.
    expect((await readsLogged(patient.pid, clinic.id)).slice(readsBefore)).toEqual([
      { action: "read:cgmSummary", channel: "fhir" },
    ]);

    // The patient reads it in "Who viewed my data", in plain words with its channel.
    const own = await browser.newContext({
      javaScriptEnabled: testInfo.project.use.javaScriptEnabled,
    });
    const ownPage = await own.newPage();
    await signIn(ownPage, patient.email, patient.password, 1);
    await ownPage.goto("/patientShow/accessLog");
    await expect(
      ownPage
        .getByRole("row")
        .filter({ hasText: "Fred Interop" })
        .filter({ hasText: tr("en", "accessLog.actions.read_cgmSummary", "sharing") })
        .filter({ hasText: tr("en", "accessLog.channels.fhir", "sharing") })
        .filter({ hasText: formatDateRange(start, end, "en") }),
    ).toHaveCount(1);
    await own.close();

    // The API with the page session (no token) embeds the same PDF on asking (pdf=1).
    const viaApi = await page.request.get(
      `/api/fhir/cgm-summary?pid=${patient.pid}&start=${start}&end=${end}&pdf=1`,
    );
    expect(viaApi.status()).toBe(200);
    expect(viaApi.headers()["content-type"]).toBe("application/fhir+json; charset=utf-8");
    const apiBundle = (await viaApi.json()) as Bundle;
    expect(contractProblem("GET", viaApi.url(), viaApi.status(), apiBundle)).toBeNull();
    const apiReport = apiBundle.entry!.find((e) => e.resource!.resourceType === "DiagnosticReport")!
      .resource as DiagnosticReport;
    expect(
      Buffer.from(apiReport.presentedForm![0]!.data!, "base64").subarray(0, 5).toString(),
    ).toBe("%PDF-");
    expect(
      (
        apiBundle.entry!.find((e) => e.resource!.meta?.profile?.includes(CGM_PROFILES.gmi))!
          .resource as Observation
      ).valueQuantity!.value,
    ).toBe(6.54);
  });
});
