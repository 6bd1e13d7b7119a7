import { expect, type Locator, type Page } from "@playwright/test";
import { jsEnabled } from "./support";

/**
 * The date fields of the report and view forms (app/components/date-fields.tsx), used as a person
 * would: without JavaScript the YYYY/MM/DD text field found by its label; with it the picker's
 * date segments, typed with the keyboard. A picker sends its date as YYYY-MM-DD in a hidden
 * field of the same name, which is where its value is read back.
 */

/** The segments a date is typed into, in the order that never lets a month clamp the day typed. */
const TYPING_ORDER = ["year", "month", "day"] as const;

/** The picker's date field of the form field `name`: the segments before its hidden input. */
export function pickerSegments(scope: Page | Locator, name: string): Locator {
  return scope
    .locator(`input[type="text"][hidden][name="${name}"]`)
    .locator("xpath=preceding-sibling::*[1]")
    .getByRole("spinbutton");
}

async function typeDate(scope: Page | Locator, page: Page, name: string, value: string) {
  const segments = pickerSegments(scope, name);
  await expect(segments).toHaveCount(3);
  if (value === "") {
    // Backspace empties a segment digit by digit (a year takes four).
    for (const type of [...TYPING_ORDER].reverse()) {
      const segment = segments.and(scope.locator(`[data-type="${type}"]`));
      await segment.focus();
      for (let i = 0; i < 4 && (await segment.getAttribute("data-placeholder")) === null; i++)
        await page.keyboard.press("Backspace");
      await expect(segment).toHaveAttribute("data-placeholder", "true");
    }
    return;
  }
  const [year, month, day] = value.split(/[/-]/) as [string, string, string];
  const parts = { year, month, day };
  for (const type of TYPING_ORDER) {
    await segments.and(scope.locator(`[data-type="${type}"]`)).focus();
    await page.keyboard.type(parts[type]);
  }
}

/**
 * One date field: `name` is the form field (`start`, `end`, `from`, `to`, `date`), `textLabel`
 * the label of its text field without JavaScript. `scope` narrows the search (a form).
 */
export function dateField(page: Page, name: string, textLabel: string, scope?: Locator) {
  const within = scope ?? page;
  return {
    /** Types `value` (YYYY/MM/DD or YYYY-MM-DD; "" empties the field). */
    async fill(value: string) {
      if (!jsEnabled()) return within.getByLabel(textLabel).fill(value);
      await typeDate(within, page, name, value);
    },
    /** The date in the field as YYYY/MM/DD ("" when empty). */
    async value(): Promise<string> {
      if (!jsEnabled()) return (await within.getByLabel(textLabel).inputValue()).trim();
      const input = within.locator(`input[type="text"][hidden][name="${name}"]`);
      return (await input.inputValue()).replaceAll("-", "/");
    },
    /** Waits until the field holds `value` (YYYY/MM/DD). */
    async expectValue(value: string) {
      if (!jsEnabled()) return expect(within.getByLabel(textLabel)).toHaveValue(value);
      const input = within.locator(`input[type="text"][hidden][name="${name}"]`);
      await expect(input).toHaveValue(value.replaceAll("/", "-"));
    },
  };
}
