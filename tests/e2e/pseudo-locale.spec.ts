import { expect, test, type Page } from "@playwright/test";
import { PSEUDO_URL } from "../../playwright.config";
import { shiftDate, todayIn } from "../../app/report/day";
import { DEMO_ACCOUNTS } from "../../prisma/seed";
import { demoPatient, setLanguage } from "./db";
import { createKnownPatient } from "./known-patient";
import { signIn } from "./support";

/**
 * Every page and report in a pseudo-locale: a second server of the same build whose English texts
 * are about 40 % longer and accented ("⟦Şéééttîîñgš⟧", tests/support/pseudo-locale.ts), as longer
 * translations are. At a desktop width and on a phone (390 px) nothing scrolls the page sideways,
 * no text is cut off by a box that hides its overflow or ends in an ellipsis, and no text runs
 * out of its box. The session comes from the main server (the cookie is the host's, whatever the
 * port). Screenshots of the Polish DAILY view on a phone and the Russian statistics report (and
 * its PDF) are attached to the test report.
 */

const WIDTHS = [
  { name: "desktop", viewport: { width: 1280, height: 900 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;

type Problem = { what: string; text: string; box: string };

/** Elements whose text is clipped or overflows its box (charts, hidden and screen-reader-only elements aside). */
async function layoutProblems(page: Page): Promise<Problem[]> {
  return page.evaluate(() => {
    // Disclosures are opened: what they hide must fit as well.
    for (const details of Array.from(document.querySelectorAll("details"))) details.open = true;
    const problems: { what: string; text: string; box: string }[] = [];
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${
        el.getAttribute("class") ? `.${el.getAttribute("class")!.split(/\s+/).join(".")}` : ""
      }`;
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      if (el.closest("svg, script, style, template, noscript")) continue;
      const style = getComputedStyle(el);
      if (style.display === "none" || style.display === "inline" || style.visibility === "hidden")
        continue;
      // Screen-reader-only text is clipped to a pixel on purpose.
      if (el.clientWidth <= 1 || style.clip !== "auto" || style.clipPath !== "none") continue;
      if (el.closest("[hidden], [aria-hidden='true']") || !el.checkVisibility()) continue;
      const ownText = Array.from(el.childNodes).some(
        (n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== "",
      );
      if (!ownText) continue;
      const wider = el.scrollWidth > el.clientWidth + 1;
      const taller = el.scrollHeight > el.clientHeight + 1;
      const hidesX = ["hidden", "clip"].includes(style.overflowX);
      const hidesY = ["hidden", "clip"].includes(style.overflowY);
      let what = "";
      if (style.textOverflow === "ellipsis" && wider) what = "cut off with an ellipsis";
      else if (hidesX && wider) what = "cut off at the side";
      else if (hidesY && taller) what = "cut off at the bottom";
      else if (style.overflowX === "visible" && wider) what = "runs out of its box";
      if (what)
        problems.push({
          what,
          text: el.textContent!.trim().slice(0, 60),
          box: `${describe(el)} ${el.clientWidth}x${el.clientHeight} (content ${el.scrollWidth}x${el.scrollHeight})`,
        });
    }
    return problems;
  });
}

async function expectLaidOut(page: Page, path: string) {
  const response = await page.goto(`${PSEUDO_URL}${path}`);
  expect(response?.status(), path).toBe(200);
  // The texts are the pseudo-locale's: the test would prove nothing otherwise.
  await expect(page.locator("main")).toContainText("⟦");
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    clientWidth: document.scrollingElement!.clientWidth,
  }));
  expect.soft(scrollWidth, `${path}: page width`).toBeLessThanOrEqual(clientWidth);
  expect.soft(await layoutProblems(page), path).toEqual([]);
}

for (const width of WIDTHS) {
  test.describe(`pseudo-locale, ${width.name}`, () => {
    test.use({ viewport: width.viewport });

    test("public pages", async ({ page }) => {
      for (const path of ["/home", "/login", "/signup", "/about", "/supports", "/supports/guide"])
        await expectLaidOut(page, path);
    });

    test("a patient's views, reports, uploads and settings", async ({ page }) => {
      const { pid, userId } = await demoPatient();
      await signIn(page, DEMO_ACCOUNTS.patient.email, DEMO_ACCOUNTS.patient.password);
      const home = `/patientShow/${pid}/${userId}/patientHome`;
      for (const path of [
        `${home}?tab=daily`,
        `${home}?tab=bg`,
        `${home}?tab=cgms`,
        `${home}?tab=cgms&view=overlay`,
        `/${pid}/print`,
        `/${pid}/cgmsprint`,
        `/${pid}/agpprint`,
        `/${pid}/statisticsprint`,
        `/${pid}/bloodtestsprint`,
        `/patientShow/${pid}/upload`,
        `/patientShow/${pid}/import`,
        `/patientShow/${pid}/${userId}/uploads`,
        "/patientShow/accessLog",
        "/patientShow/add",
        "/setting",
        "/account",
        "/patient",
        "/caring",
      ])
        await expectLaidOut(page, path);
    });

    test("a clinic's patient list and dashboard", async ({ page }) => {
      await signIn(page, DEMO_ACCOUNTS.clinic.email, DEMO_ACCOUNTS.clinic.password, 2);
      for (const path of ["/patientShow/patients", "/dashboard", "/caring", "/setting"])
        await expectLaidOut(page, path);
    });
  });
}

test.describe("screenshots for the test report", () => {
  test("the Polish DAILY view on a phone, the Russian statistics report and its PDF", async ({
    page,
    request,
  }, testInfo) => {
    const patient = await createKnownPatient(request, {
      tag: "pseudo-shots",
      firstName: "Zofia",
      lastName: "Wiśniewska",
    });
    await setLanguage(patient.id, "pl");
    await signIn(page, patient.email, patient.password);
    await page.setViewportSize({ width: 390, height: 844 });
    const yesterday = shiftDate(todayIn("Asia/Kolkata", Date.now()), -1);
    await page.goto(
      `/patientShow/${patient.pid}/${patient.id}/patientHome?tab=daily&date=${yesterday}`,
    );
    await expect(page.locator("html")).toHaveAttribute("lang", "pl");
    await testInfo.attach("pl-daily-390px.png", {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });

    await setLanguage(patient.id, "ru");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/${patient.pid}/statisticsprint`);
    await expect(page.locator("html")).toHaveAttribute("lang", "ru");
    await page.emulateMedia({ media: "print" });
    await testInfo.attach("ru-statistics-print.png", {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });
    const pdf = await page.request.get(
      `/${patient.pid}/statisticsprint.pdf?start=${shiftDate(yesterday, -13)}&end=${yesterday}`,
    );
    expect(pdf.status()).toBe(200);
    const body = await pdf.body();
    expect(body.subarray(0, 4).toString()).toBe("%PDF");
    await testInfo.attach("ru-statistics.pdf", { body, contentType: "application/pdf" });
  });
});
