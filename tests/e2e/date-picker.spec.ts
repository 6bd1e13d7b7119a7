import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { displayDate, shiftDate, todayIn } from "../../app/report/day";
import { formatDate, formatDateRange } from "../../app/report/locale-format";
import { createAcceptedShare, createUser, demoPatient } from "./db";
import { dateField, pickerSegments } from "./date-fields";
import { LOCALES, tr, type Lng } from "./i18n";
import { createKnownPatient } from "./known-patient";
import { jsEnabled, signIn, signInWithLanguage } from "./support";

/**
 * The date fields of the reports and data views: with JavaScript a react-aria date picker in the
 * reader's language (segments, a calendar from a button, no future day, the rule's limits and
 * the server's messages before sending); without it the YYYY/MM/DD text fields. Each test runs in
 * both projects and expects the same page in the end.
 */

const r = (key: string, lng: Lng = "en") => tr(lng, key, "reports");
const v = (key: string, lng: Lng = "en") => tr(lng, key, "views");
const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce(
    (out, [k, value]) => out.replaceAll(`{{${k}}}`, String(value)),
    text,
  );

/** The picker's field row, named by its label (the calendar button is in it). */
function picker(page: Page, label: string): Locator {
  return page.getByRole("group", { name: label, exact: true });
}

/** The day cells of the open calendar's month (the other months' days are hidden). */
function dayCell(dialog: Locator, date: string): Locator {
  return dialog
    .locator('td [role="button"]:not([data-outside-month])')
    .getByText(String(Number(date.slice(8, 10))), { exact: true });
}

/** Months from `from`'s to `to`'s (ISO dates). */
function monthsBetween(from: string, to: string): number {
  const index = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7));
  return index(to) - index(from);
}

/** Pages the open calendar from the month of `shown` to the month of `date`. */
async function showMonthOf(dialog: Locator, shown: string, date: string) {
  const months = monthsBetween(shown, date);
  for (let i = 0; i < Math.abs(months); i++)
    await dialog.locator(`button[slot="${months > 0 ? "next" : "previous"}"]`).click();
}

/** A date as the form sends it: YYYY-MM-DD from a picker, YYYY/MM/DD (encoded) as typed without JavaScript. */
function sent(date: string): string {
  return jsEnabled() ? date : encodeURIComponent(displayDate(date));
}

/** Serious or critical WCAG 2.1 A/AA violations on the page as it is now (accessibility.spec.ts's rules). */
async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((n) => n.target).join(" | ")}`);
}

/** The no-JavaScript form: the text fields with their YYYY/MM/DD placeholder, no calendar. */
async function expectTextFields(page: Page, labels: readonly string[]) {
  for (const label of labels)
    await expect(page.getByLabel(label, { exact: true })).toHaveAttribute(
      "placeholder",
      "YYYY/MM/DD",
    );
  await expect(page.getByRole("spinbutton")).toHaveCount(0);
}

test.describe("date pickers", () => {
  // Sign-ins, uploads and report pages on a 2-core machine.
  test.describe.configure({ timeout: 150_000 });

  test("a report range is picked in the calendar by clicks and by keyboard; no future day; too long is refused with the server's message", async ({
    page,
    request,
  }) => {
    const patient = await createKnownPatient(request, {
      tag: "picker-report",
      firstName: "Petra",
      lastName: "Picked",
    });
    const clinic = await createUser({
      tag: "picker-report-clinic",
      identity: 2,
      firstName: "Paul",
      lastName: "Picker",
    });
    await createAcceptedShare(patient.id, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);
    const today = todayIn(patient.timeZone, Date.now());
    const { first, last } = patient; // the 7 days of data, ending yesterday
    const preview = page.getByRole("button", { name: r("common.preview") });
    const shown = page.getByTestId("report-range");

    // The CGM report opens on the 14 days ending today: today - 13 to today.
    await page.goto(`/${patient.pid}/cgmsprint`);
    await expect(shown).toHaveText(formatDateRange(shiftDate(today, -13), today, "en"));

    if (!jsEnabled()) {
      await expectTextFields(page, [r("common.range.start"), r("common.range.end")]);
      await page.getByLabel(r("common.range.start")).fill(displayDate(first));
      await page.getByLabel(r("common.range.end")).fill(displayDate(shiftDate(first, 3)));
      await preview.click();
      await expect(shown).toHaveText(formatDateRange(first, shiftDate(first, 3), "en"));
    } else {
      const range = picker(page, r("common.range.label"));
      // The rule's limits are the picker's description.
      await expect(range).toHaveAccessibleDescription(
        new RegExp(
          fill(tr("en", "dateFields.between", "common", 14), { min: 3, count: 14 }).replace(
            ".",
            "\\.",
          ),
        ),
      );
      const button = range.getByRole("button");
      const dialog = page.getByRole("dialog");

      // Clicks: the first day of data, then three days later (4 days).
      await button.click();
      await expect(dialog).toBeVisible();
      await showMonthOf(dialog, shiftDate(today, -13), first);
      await dayCell(dialog, first).click();
      await showMonthOf(dialog, first, shiftDate(first, 3));
      await dayCell(dialog, shiftDate(first, 3)).click();
      await expect(dialog).toBeHidden();
      await preview.click();
      await expect(shown).toHaveText(formatDateRange(first, shiftDate(first, 3), "en"));

      // Keyboard: Enter on the button opens the calendar on the range's start; Escape closes it
      // and the focus is back on the button. (The mouse is moved off the calendar first: a
      // pointer resting on a day moves the range's end there once a start is chosen.)
      await page.mouse.move(0, 0);
      await button.focus();
      await page.keyboard.press("Enter");
      await expect(dialog).toBeVisible();
      const focused = dialog.locator('[role="button"]:focus');
      await expect(focused).toHaveText(String(Number(first.slice(8, 10))));
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(button).toBeFocused();
      // Arrows move by a day: the start one day after the first day of data, Enter (the focus
      // then steps to the next day, to show that an end is wanted), four days on, Enter:
      // first + 1 to first + 6 = the last day of data.
      await page.keyboard.press("Enter");
      await expect(focused).toHaveText(String(Number(first.slice(8, 10))));
      await page.keyboard.press("ArrowRight");
      await expect(focused).toHaveText(String(Number(shiftDate(first, 1).slice(8, 10))));
      await page.keyboard.press("Enter");
      await expect(focused).toHaveText(String(Number(shiftDate(first, 2).slice(8, 10))));
      for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowRight");
      await expect(focused).toHaveText(String(Number(last.slice(8, 10))));
      await page.keyboard.press("Enter");
      await expect(dialog).toBeHidden();
      await expect(button).toBeFocused();
      await page.keyboard.press("Tab");
      await expect(preview).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(shown).toHaveText(formatDateRange(shiftDate(first, 1), last, "en"));

      // No future day: today can be chosen, tomorrow cannot, and no later month is offered.
      await button.click();
      await showMonthOf(dialog, shiftDate(first, 1), today);
      await expect(dayCell(dialog, today)).not.toHaveAttribute("aria-disabled", "true");
      const tomorrow = shiftDate(today, 1);
      if (monthsBetween(today, tomorrow) === 0)
        await expect(dayCell(dialog, tomorrow)).toHaveAttribute("aria-disabled", "true");
      await expect(dialog.locator('button[slot="next"]')).toBeDisabled();
      // The open calendar passes axe as the pages do.
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
    }

    // 15 days are one too many for a CGM report: the server's message, before sending with
    // JavaScript, from the server without it.
    const range = {
      start: dateField(page, "start", r("common.range.start")),
      end: dateField(page, "end", r("common.range.end")),
    };
    await range.start.fill(displayDate(shiftDate(last, -14)));
    await range.end.fill(displayDate(last));
    const before = page.url();
    await preview.click();
    await expect(page.getByRole("alert")).toHaveText(v("problems.tooLong14"));
    await range.start.expectValue(displayDate(shiftDate(last, -14)));
    // The picker's refusal passes axe too (axe runs as a script in the page, which the project
    // without JavaScript does not allow).
    if (jsEnabled()) expect(await axeViolations(page)).toEqual([]);
    if (jsEnabled())
      expect(page.url()).toBe(before); // nothing was sent
    else await expect(page).toHaveURL(new RegExp(`[?&]start=${sent(shiftDate(last, -14))}&`));
  });

  test("the BG view's range by clicks and DAILY's day by keyboard, none in the future", async ({
    page,
  }) => {
    const patient = await demoPatient();
    const clinic = await createUser({
      tag: "picker-views",
      identity: 2,
      firstName: "Vic",
      lastName: "Views",
    });
    await createAcceptedShare(patient.userId, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);
    const base = `/patientShow/${patient.pid}/${patient.userId}/patientHome`;
    const today = todayIn(patient.timeZone, Date.now());

    // BG: the 10 days ending 3 days ago.
    const to = shiftDate(today, -3);
    const from = shiftDate(to, -9);
    await page.goto(`${base}?tab=bg`);
    if (jsEnabled()) {
      const opened = await dateField(page, "from", v("range.from")).value();
      const dialog = page.getByRole("dialog");
      await picker(page, v("range.label")).getByRole("button").click();
      await showMonthOf(dialog, opened.replaceAll("/", "-"), from);
      await dayCell(dialog, from).click();
      await showMonthOf(dialog, from, to);
      await dayCell(dialog, to).click();
      await expect(dialog).toBeHidden();
    } else {
      await expectTextFields(page, [v("range.from"), v("range.to")]);
      await page.getByLabel(v("range.from")).fill(displayDate(from));
      await page.getByLabel(v("range.to")).fill(displayDate(to));
    }
    await page.getByRole("button", { name: v("range.show"), exact: true }).click();
    await expect(
      page.getByText(
        fill(v("range.showing"), { from: formatDate(from, "en"), to: formatDate(to, "en") }),
        {
          exact: true,
        },
      ),
    ).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`[?&]to=${sent(to)}(&|$)`));

    // DAILY: two days before the day shown.
    await page.goto(`${base}?tab=daily&date=${to}`);
    const day = dateField(page, "date", v("nav.date"));
    await day.expectValue(displayDate(to));
    const chosen = shiftDate(to, -2);
    if (jsEnabled()) {
      const button = picker(page, tr("en", "dateFields.date")).getByRole("button");
      const dialog = page.getByRole("dialog");
      await button.focus();
      await page.keyboard.press("Enter");
      const focused = dialog.locator('[role="button"]:focus');
      await expect(focused).toHaveText(String(Number(to.slice(8, 10))));
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowLeft");
      await expect(focused).toHaveText(String(Number(chosen.slice(8, 10))));
      await page.keyboard.press("Enter");
      await expect(dialog).toBeHidden();
      await expect(button).toBeFocused();
      await page.keyboard.press("Tab");
      await expect(page.getByRole("button", { name: v("nav.show") })).toBeFocused();
      await page.keyboard.press("Enter");

      // Today is the last day offered; a future day typed into the segments is refused with
      // the server's message before sending.
      await page.waitForURL(new RegExp(`date=${chosen}`));
      await button.click();
      await showMonthOf(dialog, chosen, today);
      await expect(dayCell(dialog, today)).not.toHaveAttribute("aria-disabled", "true");
      const tomorrow = shiftDate(today, 1);
      if (monthsBetween(today, tomorrow) === 0)
        await expect(dayCell(dialog, tomorrow)).toHaveAttribute("aria-disabled", "true");
      await page.keyboard.press("Escape");
    } else {
      await expectTextFields(page, [v("nav.date")]);
      await page.getByLabel(v("nav.date")).fill(displayDate(chosen));
      await page.getByRole("button", { name: v("nav.show") }).click();
    }
    await day.expectValue(displayDate(chosen));
    await expect(page).toHaveURL(new RegExp(`[?&]date=${sent(chosen)}(&|$)`));

    await day.fill(displayDate(shiftDate(today, 1)));
    await page.getByRole("button", { name: v("nav.show") }).click();
    await expect(page.getByRole("alert")).toContainText(v("problems.future"));
  });

  for (const lng of LOCALES) {
    test(`${lng}: the language's date order and first weekday, the limits, and a too-long range refused in ${lng}`, async ({
      page,
    }) => {
      const patient = await createUser({
        tag: `picker-${lng}-patient`,
        identity: 1,
        firstName: "Lina",
        lastName: `Locale${lng}`,
      });
      const clinic = await createUser({
        tag: `picker-${lng}`,
        identity: 2,
        firstName: "Lars",
        lastName: `Lang${lng}`,
        lang: lng,
      });
      await createAcceptedShare(patient.id, clinic.id);
      await signInWithLanguage(page, clinic, lng);
      // Every signed-in Polish reader is held by the regional-site dialog (regional.spec.ts);
      // it is set aside here to reach the form behind it.
      const setAside = () =>
        page.evaluate(() => {
          document.querySelector("[inert]")?.removeAttribute("inert");
          const overlay = document.querySelector('[role="alertdialog"]')?.parentElement;
          if (overlay) overlay.style.display = "none";
        });

      // The pump report over the first week of February 2026. 2026-02-01 is a Sunday (2026-01-01
      // is a Thursday, + 31 days = + 4 weeks + 3 days), so a calendar whose weeks start on Sunday
      // begins February with the 1st, and one whose weeks start on Monday with 26 January.
      await page.goto(`/${patient.pid}/print?start=2026/02/01&end=2026/02/07`);
      if (lng === "pl") await setAside();
      if (jsEnabled()) {
        const range = picker(page, r("common.range.label", lng));
        await expect(range).toHaveAccessibleDescription(
          new RegExp(
            fill(tr(lng, "dateFields.atMost", "common", 90), { count: 90 }).replace(".", "\\."),
          ),
        );
        // American English writes the month first; the other four languages the day first.
        await expect(pickerSegments(page, "start").first()).toHaveAttribute(
          "data-type",
          lng === "en" ? "month" : "day",
        );
        await range.getByRole("button").click();
        const dialog = page.getByRole("dialog");
        const firstCell = dialog.locator("tbody tr").first().locator("td").first();
        await expect(firstCell).toHaveText(lng === "en" ? "1" : "26");
        await page.keyboard.press("Escape");
        await expect(dialog).toBeHidden();
      } else {
        await expectTextFields(page, [r("common.range.start", lng), r("common.range.end", lng)]);
      }

      // 2026-01-01 to 2026-04-01 is 31 + 28 + 31 + 1 = 91 days: one more than a report allows.
      const start = dateField(page, "start", r("common.range.start", lng));
      const end = dateField(page, "end", r("common.range.end", lng));
      await start.fill("2026/01/01");
      await end.fill("2026/04/01");
      const before = page.url();
      await page.getByRole("button", { name: r("common.preview", lng) }).click();
      await expect(page.getByRole("alert")).toHaveText(v("problems.tooLong", lng));
      // With JavaScript the picker refused it before sending; without, the server did.
      if (jsEnabled()) expect(page.url()).toBe(before);
      else await expect(page).toHaveURL(/[?&]start=2026%2F01%2F01&/);
      await start.expectValue("2026/01/01");
      await end.expectValue("2026/04/01");
    });
  }
});
