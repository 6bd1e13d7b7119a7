import { expect, test } from "@playwright/test";
import { shiftDate, todayIn } from "../../app/report/day";
import { formatDateRange } from "../../app/report/locale-format";
import { reportPdfHref, reportPurpose, type ReportKind } from "../../app/report/report-kinds";
import { createAcceptedShare, createUser, readsLogged, writeAccessLog } from "./db";
import { tr } from "./i18n";
import { downloadReportPdf } from "./report-pdf";
import { signIn } from "./support";

const s = (key: string) => tr("en", key, "sharing");

/**
 * The clinic's reads of one patient's pages and reports, in order. The clinic's patient list,
 * where its sign-in may land, logs a read of its own for each patient in its triage table
 * (tests/e2e/triage.spec.ts checks those).
 */
const pageReads = async (pid: number, readerId: number) =>
  (await readsLogged(pid, readerId)).filter((r) => r.action !== "read:triage");

test.describe("every read of a patient's data is in the patient's access log, once", () => {
  // Four server-side PDFs and a sign-in on a 2-core machine.
  test.describe.configure({ timeout: 180_000 });

  test("a clinic's page views and PDF downloads each write one row with their channel; the patient sees them", async ({
    page,
    browser,
  }, testInfo) => {
    // A patient of this test alone, so that no other test's reads crowd the log page.
    const owner = await createUser({
      tag: "log-patient",
      identity: 1,
      firstName: "Paula",
      lastName: "Private",
    });
    const patient = { pid: owner.pid!, userId: owner.id, timeZone: "UTC" };
    const clinic = await createUser({
      tag: "log-clinic",
      identity: 2,
      firstName: "Lola",
      lastName: "Logged",
    });
    await createAcceptedShare(patient.userId, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);
    expect(await pageReads(patient.pid, clinic.id)).toEqual([]);

    await page.goto(`/patientShow/${patient.pid}/${patient.userId}/patientHome`);
    await expect(page.getByRole("heading", { level: 1, name: owner.name })).toBeVisible();
    expect(await pageReads(patient.pid, clinic.id)).toEqual([
      { action: "read:patientHome", channel: "page" },
    ]);

    // The CGM report page, then its PDF: the server's Chromium loads the page again, and that load
    // is the PDF's read, not a second one.
    const end = shiftDate(todayIn(patient.timeZone, Date.now()), -1);
    const start = shiftDate(end, -6);
    await page.goto(`/${patient.pid}/cgmsprint?start=${start}&end=${end}`);
    await expect(page.getByTestId("report-range")).toHaveText(formatDateRange(start, end, "en"));
    const range = { start, end };
    await downloadReportPdf(page, testInfo, {
      href: reportPdfHref("cgm", patient.pid, range),
      fileName: `cgm-report-${patient.pid}-${start}-${end}.pdf`,
      label: "logged-cgm",
    });
    expect((await pageReads(patient.pid, clinic.id)).slice(1)).toEqual([
      { action: "read:cgmReport", channel: "page" },
      { action: "read:cgmReport", channel: "pdf" },
    ]);

    // The other PDFs, asked for directly with the clinic's cookies: one "pdf" row each.
    for (const kind of ["pump", "agp", "statistics", "bloodTests"] as ReportKind[]) {
      const before = (await pageReads(patient.pid, clinic.id)).length;
      const answer = await page.request.get(reportPdfHref(kind, patient.pid, range), {
        timeout: 90_000,
      });
      expect([kind, answer.status(), answer.headers()["content-type"]]).toEqual([
        kind,
        200,
        "application/pdf",
      ]);
      expect((await pageReads(patient.pid, clinic.id)).slice(before)).toEqual([
        { action: `read:${reportPurpose(kind)}`, channel: "pdf" },
      ]);
    }

    // The patient reads their log: the clinic's reads with what, which dates and how.
    const own = await browser.newContext({
      javaScriptEnabled: testInfo.project.use.javaScriptEnabled,
    });
    const ownPage = await own.newPage();
    await signIn(ownPage, owner.email, owner.password, 1);
    await ownPage.goto("/patientShow/accessLog");
    const rows = ownPage.getByRole("row").filter({ hasText: "Lola Logged" });
    await expect(
      rows
        .filter({ hasText: s("accessLog.printed.read_cgmReport") })
        .filter({ hasText: s("accessLog.channels.pdf") }),
    ).toHaveCount(1);
    await expect(
      rows
        .filter({ hasText: s("accessLog.actions.read_cgmReport") })
        .filter({ hasText: s("accessLog.channels.page") })
        .filter({ hasText: formatDateRange(start, end, "en") }),
    ).toHaveCount(1);
    await expect(rows.filter({ hasText: s("accessLog.actions.read_patientHome") })).toHaveCount(1);
    await expect(
      rows.filter({ hasText: s("accessLog.printed.read_bloodTestsReport") }),
    ).toHaveCount(1);
    // The page and PDF reads above; the clinic's patient list logs its own (see pageReads).
    await expect(rows.filter({ hasNotText: s("accessLog.actions.read_triage") })).toHaveCount(7);
    await own.close();
  });
});

test.describe("'Who viewed my data' in a browser whose time zone is neither UTC nor the account's", () => {
  test.use({ timezoneId: "America/New_York" });

  test("times on the account's clock, the reader's name and role, plain words, newest first, 20 a page; no page or hydration errors", async ({
    page,
  }) => {
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error" || /hydrat/i.test(message.text()))
        problems.push(`console ${message.type()}: ${message.text()}`);
    });

    const owner = await createUser({
      tag: "log-zone-patient",
      identity: 1,
      firstName: "Zofia",
      lastName: "Zoned",
      timeZone: "Europe/Warsaw",
    });
    const clinic = await createUser({
      tag: "log-zone-clinic",
      identity: 2,
      firstName: "Carl",
      lastName: "Clinic",
    });
    const relative = await createUser({
      tag: "log-zone-relative",
      identity: 1,
      firstName: "Rita",
      lastName: "Relative",
    });
    // 23 entries: two pages. The newest is a statistics PDF logged under the code reads once had.
    const older = Array.from({ length: 20 }, (_, i) => ({
      actorId: clinic.id,
      action: "read:patientHome",
      channel: "page" as const,
      at: new Date(Date.UTC(2026, 10, 2 + i, 9, 0)),
    }));
    await writeAccessLog(owner.pid!, [
      {
        actorId: relative.id,
        action: "share:save",
        channel: null,
        at: new Date("2026-10-20T23:30:00Z"),
      },
      ...older,
      {
        actorId: relative.id,
        action: "read:statisticsReport",
        channel: "page",
        at: new Date("2026-11-25T15:03:00Z"),
        detail: { start: "2026-11-01", end: "2026-11-14" },
      },
      {
        actorId: clinic.id,
        action: "read:statisticsprint",
        channel: "pdf",
        at: new Date("2026-11-25T15:04:00Z"),
        detail: { start: "2026-11-01", end: "2026-11-14" },
      },
    ]);

    await signIn(page, owner.email, owner.password, 1);
    await page.goto("/patientShow/accessLog");
    const log = page.getByRole("region", { name: s("accessLog.title") });
    // Warsaw is UTC+1 in November: 15:04 UTC is 16:04 there (10:04 in the browser's New York).
    await expect(log.getByRole("columnheader").first()).toHaveText(
      "When (time zone Europe/Warsaw)",
    );
    const entries = log.getByTestId("access-log-entry");
    await expect(entries).toHaveCount(20);
    await expect(entries.nth(0).getByRole("cell")).toHaveText([
      "Nov 25, 2026, 16:04",
      "Carl Clinic · Doctor or clinic",
      "Printed your statistics report",
      "Nov 1 – 14, 2026",
      "PDF download",
    ]);
    await expect(entries.nth(1).getByRole("cell")).toHaveText([
      "Nov 25, 2026, 16:03",
      "Rita Relative · Relative or carer",
      "Read your statistics report",
      "Nov 1 – 14, 2026",
      "Web page",
    ]);
    await expect(entries.nth(2).getByRole("cell")).toHaveText([
      "Nov 21, 2026, 10:00",
      "Carl Clinic · Doctor or clinic",
      "Opened your patient page",
      "",
      "Web page",
    ]);
    await expect(log).not.toContainText("read:");
    await expect(log.getByRole("navigation", { name: s("panel.pages") })).toContainText(
      "Page 1 of 2",
    );

    // The pager is a pair of links: the same with JavaScript and without.
    await log.getByRole("link", { name: s("panel.next") }).click();
    await expect(page).toHaveURL(/[?&]logPage=2$/);
    await expect(log.getByRole("navigation", { name: s("panel.pages") })).toContainText(
      "Page 2 of 2",
    );
    await expect(entries).toHaveCount(3);
    // The oldest: 23:30 UTC on 20 October is 01:30 the next day in Warsaw (summer time, UTC+2).
    await expect(entries.nth(2).getByRole("cell")).toHaveText([
      "Oct 21, 2026, 01:30",
      "Rita Relative · Relative or carer",
      "Shared data",
      "",
      "",
    ]);
    await expect(entries.nth(0).getByRole("cell").first()).toHaveText("Nov 3, 2026, 10:00");
    await log.getByRole("link", { name: s("panel.previous") }).click();
    await expect(entries).toHaveCount(20);
    await expect(entries.nth(0).getByRole("cell").first()).toHaveText("Nov 25, 2026, 16:04");

    expect(problems).toEqual([]);
  });
});
