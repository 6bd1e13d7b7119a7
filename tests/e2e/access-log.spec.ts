import { expect, test } from "@playwright/test";
import { displayDate, shiftDate, todayIn } from "../../app/report/day";
import { reportPdfHref, reportPurpose, type ReportKind } from "../../app/report/report-kinds";
import { createAcceptedShare, createUser, readsLogged } from "./db";
import { tr } from "./i18n";
import { downloadReportPdf } from "./report-pdf";
import { signIn } from "./support";

const s = (key: string) => tr("en", key, "sharing");

test.describe("every read of a patient's data is in the patient's access log, once", () => {
  // Four server-side PDFs and a sign-in on a 2-core machine.
  test.describe.configure({ timeout: 180_000 });

  test("a clinic's page views and PDF downloads each write one row with their channel; the patient sees them", async ({ page, browser }, testInfo) => {
    // A patient of this test alone, so that no other test's reads crowd the log page.
    const owner = await createUser({ tag: "log-patient", identity: 1, firstName: "Paula", lastName: "Private" });
    const patient = { pid: owner.pid!, userId: owner.id, timeZone: "UTC" };
    const clinic = await createUser({ tag: "log-clinic", identity: 2, firstName: "Lola", lastName: "Logged" });
    await createAcceptedShare(patient.userId, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);
    expect(await readsLogged(patient.pid, clinic.id)).toEqual([]);

    await page.goto(`/patientShow/${patient.pid}/${patient.userId}/patientHome`);
    await expect(page.getByRole("heading", { level: 1, name: owner.name })).toBeVisible();
    expect(await readsLogged(patient.pid, clinic.id)).toEqual([{ action: "read:patientHome", channel: "page" }]);

    // The CGM report page, then its PDF: the server's Chromium loads the page again, and that load
    // is the PDF's read, not a second one.
    const end = shiftDate(todayIn(patient.timeZone, Date.now()), -1);
    const start = shiftDate(end, -6);
    await page.goto(`/${patient.pid}/cgmsprint?start=${start}&end=${end}`);
    await expect(page.getByTestId("report-range")).toHaveText(`${displayDate(start)} – ${displayDate(end)}`);
    const range = { start, end };
    await downloadReportPdf(page, testInfo, { href: reportPdfHref("cgm", patient.pid, range), fileName: `cgm-report-${patient.pid}-${start}-${end}.pdf`, label: "logged-cgm" });
    expect((await readsLogged(patient.pid, clinic.id)).slice(1)).toEqual([
      { action: "read:cgmReport", channel: "page" },
      { action: "read:cgmReport", channel: "pdf" },
    ]);

    // The other three PDFs, asked for directly with the clinic's cookies: one "pdf" row each.
    for (const kind of ["pump", "agp", "statistics"] as ReportKind[]) {
      const before = (await readsLogged(patient.pid, clinic.id)).length;
      const answer = await page.request.get(reportPdfHref(kind, patient.pid, range), { timeout: 90_000 });
      expect([kind, answer.status(), answer.headers()["content-type"]]).toEqual([kind, 200, "application/pdf"]);
      expect((await readsLogged(patient.pid, clinic.id)).slice(before)).toEqual([{ action: `read:${reportPurpose(kind)}`, channel: "pdf" }]);
    }

    // The patient reads their log: the clinic's reads with what, which dates and how.
    const own = await browser.newContext({ javaScriptEnabled: testInfo.project.use.javaScriptEnabled });
    const ownPage = await own.newPage();
    await signIn(ownPage, owner.email, owner.password, 1);
    await ownPage.goto("/patientShow/accessLog");
    const rows = ownPage.getByRole("row").filter({ hasText: "Lola Logged" });
    await expect(rows.filter({ hasText: s("accessLog.actions.read_cgmReport") }).filter({ hasText: s("accessLog.channels.pdf") })).toHaveCount(1);
    await expect(rows.filter({ hasText: s("accessLog.actions.read_cgmReport") }).filter({ hasText: s("accessLog.channels.page") }).filter({ hasText: `${displayDate(start)} – ${displayDate(end)}` })).toHaveCount(1);
    await expect(rows.filter({ hasText: s("accessLog.actions.read_patientHome") })).toHaveCount(1);
    await expect(rows).toHaveCount(6);
    await own.close();
  });
});
