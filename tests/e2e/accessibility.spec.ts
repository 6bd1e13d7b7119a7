import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { createAcceptedShare, createUser, demoPatient } from "./db";
import type { Lng } from "./i18n";
import { jsEnabled, signInWithLanguage } from "./support";

/**
 * Every page checked with axe-core (WCAG 2.1 A and AA rules): signed out, as a patient, as a clinic
 * and as the administrator, in English and Russian, with JavaScript on and off (the two
 * projects). No serious or critical violation may remain; the test prints how many pages it
 * checked and what it found.
 *
 * axe runs as a script in the page, so the "JavaScript off" project checks the page as such a
 * browser gets it in a browser that may run scripts but loads none of the app's: the
 * server-rendered page, never hydrated.
 */

const SERIOUS = new Set(["serious", "critical"]);
const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
/** The seeded demo patient's email: the clinic's drawer finds it (the search, with its results table). */
const DEMO_PATIENT_EMAIL = "patient@demo.diacare.test";
/** The not-found page, checked too: it answers 404. */
const NOT_FOUND = "/error/404";

type Finding = { url: string; violations: string[] };

async function audit(page: Page, urls: readonly string[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const url of urls) {
    const response = await page.goto(url);
    expect(response?.status(), url).toBe(url === NOT_FOUND ? 404 : 200);
    await page.waitForLoadState("networkidle");
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG).analyze();
    findings.push({
      url,
      violations: violations
        .filter((v) => SERIOUS.has(v.impact ?? ""))
        .map(
          (v) =>
            `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes
              .slice(0, 3)
              .map((n) => n.target.join(" "))
              .join(" | ")}`,
        ),
    });
  }
  return findings;
}

/** A page in `lng` for the audit: the app's scripts blocked in the project without JavaScript. */
async function auditPage(browser: Browser, lng: Lng): Promise<Page> {
  const context = await browser.newContext({ locale: lng, javaScriptEnabled: true });
  if (!jsEnabled()) await context.route(/\/build\/.*\.js(\?.*)?$/, (route) => route.abort());
  return context.newPage();
}

function report(label: string, findings: Finding[]) {
  const bad = findings.filter((f) => f.violations.length > 0);
  const count = bad.reduce((n, f) => n + f.violations.length, 0);
  console.log(
    `axe ${label} [${test.info().project.name}]: ${findings.length} pages checked, ${count} serious or critical violations`,
  );
  expect(bad).toEqual([]);
}

const patientPages = (pid: number, userId: number) => [
  `/patientShow/${pid}/${userId}/patientHome?tab=daily`,
  `/patientShow/${pid}/${userId}/patientHome?tab=bg`,
  `/patientShow/${pid}/${userId}/patientHome?tab=cgms`,
  `/patientShow/${pid}/${userId}/patientHome?tab=cgms&view=overlay`,
  `/patientShow/${pid}/${userId}/uploads`,
  `/patientShow/${pid}/upload`,
  `/patientShow/${pid}/import`,
  `/${pid}/print`,
  `/${pid}/cgmsprint`,
  `/${pid}/agpprint`,
  `/${pid}/statisticsprint`,
  `/${pid}/bloodtestsprint`,
];

for (const lng of ["en", "ru"] as const satisfies readonly Lng[]) {
  test.describe(`accessibility (axe) in ${lng}`, () => {
    test.describe.configure({ timeout: 180_000 });

    test(`signed out (${lng})`, async ({ browser }) => {
      const page = await auditPage(browser, lng);
      report(
        `signed out ${lng}`,
        await audit(page, [
          "/",
          "/login",
          "/signup",
          "/person/register",
          "/clinic/register",
          "/supports",
          "/supports/guide",
          "/supports/terms",
          "/home",
          "/about",
          NOT_FOUND,
        ]),
      );
      await page.context().close();
    });

    // Signed in, the account's saved language rules; the sign-in form is the English one.
    test(`a patient (${lng})`, async ({ browser }) => {
      const page = await auditPage(browser, "en");
      const patient = await createUser({
        tag: `axe-patient-${lng}`,
        identity: 1,
        firstName: "Alba",
        lastName: "Axe",
        lang: lng,
      });
      await signInWithLanguage(page, patient, lng, 1);
      report(
        `patient ${lng}`,
        await audit(page, [
          ...patientPages(patient.pid!, patient.id),
          "/newsetting",
          "/account",
          "/account?confirm=deleteAccount",
          "/patient",
          "/patientShow/accessLog",
          "/patientShow/add",
          "/home",
        ]),
      );
    });

    test(`a clinic (${lng})`, async ({ browser }) => {
      const page = await auditPage(browser, "en");
      const demo = await demoPatient();
      const clinic = await createUser({
        tag: `axe-clinic-${lng}`,
        identity: 2,
        firstName: "Cora",
        lastName: "Axe",
        lang: lng,
      });
      await createAcceptedShare(demo.userId, clinic.id);
      await signInWithLanguage(page, clinic, lng, 2);
      report(
        `clinic ${lng}`,
        await audit(page, [
          "/patientShow/patients",
          "/patientShow/add",
          `/patientShow/add?find=${encodeURIComponent(DEMO_PATIENT_EMAIL)}`,
          "/patientAdd",
          "/organisation",
          // Without a health record: the account's own time zone.
          "/newsetting",
          "/home",
          ...patientPages(demo.pid, demo.userId),
        ]),
      );
    });

    test(`remote caring, a clinic (${lng})`, async ({ browser }) => {
      const page = await auditPage(browser, "en");
      const demo = await demoPatient();
      const clinic = await createUser({
        tag: `axe-caring-${lng}`,
        identity: 2,
        firstName: "Carl",
        lastName: "Axe",
        lang: lng,
      });
      await createAcceptedShare(demo.userId, clinic.id);
      await signInWithLanguage(page, clinic, lng, 2);
      report(
        `caring ${lng}`,
        await audit(page, [
          "/caring",
          "/caringpatients",
          "/caringpedding",
          "/caringadd",
          `/caringadd?find=${encodeURIComponent(DEMO_PATIENT_EMAIL)}`,
          "/caringadd?by=file",
          `/${demo.userId}/caringdetail`,
        ]),
      );
    });

    test(`the administrator (${lng})`, async ({ browser }) => {
      const page = await auditPage(browser, "en");
      const admin = await createUser({
        tag: `axe-admin-${lng}`,
        identity: 2,
        firstName: "Ada",
        lastName: "Admin",
        lang: lng,
        role: "admin",
      });
      await signInWithLanguage(page, admin, lng, 2);
      report(`admin ${lng}`, await audit(page, ["/admin/audits", "/admin/upload-errors"]));
    });
  });
}
