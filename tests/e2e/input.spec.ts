import { expect, test } from "@playwright/test";
import { createUser, hasOrganisation } from "./db";
import { tr } from "./i18n";
import { signIn } from "./support";

const a = (key: string) => tr("en", key, "auth");
/** A form field by its label's text (labels of required fields end in " *"). */
const field = (key: string) =>
  new RegExp(`^${tr("en", key, "auth").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( \\*)?$`);

test.describe("hostile input on pages", () => {
  test("text with hidden text-direction characters is refused with the translated message, the typed values stay, nothing is saved", async ({
    page,
  }) => {
    const clinic = await createUser({
      tag: "bidi-clinic",
      identity: 2,
      firstName: "Bea",
      lastName: "Bidi",
      isPass: 0,
    });
    await signIn(page, clinic.email, clinic.password, 2);
    await page.goto("/organisation");
    const main = page.getByRole("main");
    // U+202E turns the rest of a name around on screen: "Clinic ‮latipsoH" would read "Clinic Hospital".
    const spoofed = "Clinic \u202Elatipsoh";
    await main.getByLabel(field("fields.hospitalName")).fill(spoofed);
    await main.getByLabel(field("fields.address")).fill("2 Harbour \u2066Road");
    await main.getByLabel(field("fields.area")).fill("North");
    await main.getByLabel(field("fields.country")).selectOption("Ireland");
    await main.getByLabel(field("fields.connectName")).fill("Bea Bidi");
    await main.getByLabel(field("fields.connectPhone")).fill("+353 1 555 0101");
    await page.getByRole("button", { name: a("audit.submit") }).click();
    // The message names the field it refuses.
    for (const label of [a("fields.hospitalName"), a("fields.address")]) {
      await expect(
        main.getByText(
          `Illegal input in ${label}: remove the invisible control or text-direction characters.`,
        ),
      ).toHaveCount(1);
    }
    await expect(main.getByLabel(field("fields.hospitalName"))).toHaveValue(spoofed);
    await expect(main.getByLabel(field("fields.connectName"))).toHaveValue("Bea Bidi");
    expect(await hasOrganisation(clinic.id)).toBe(false);
  });

  test("a sign-in link that names an off-site address ends on this site", async ({ page }) => {
    const person = await createUser({
      tag: "redirect-person",
      identity: 1,
      firstName: "Rita",
      lastName: "Redirect",
    });
    for (const target of [
      "%2F%09%2Fevil.example",
      "%2F%2Fevil.example",
      "https%3A%2F%2Fevil.example",
      "%2F%5Cevil.example",
    ]) {
      await page.context().clearCookies();
      await page.goto(`/login?redirectTo=${target}`);
      await page
        .getByRole("main")
        .getByLabel(/^Email/)
        .fill(person.email);
      await page
        .getByRole("main")
        .getByLabel(/^Password/)
        .fill(person.password);
      await page.getByLabel(a("login.identity1")).check();
      await page.getByRole("button", { name: a("login.submit") }).click();
      await page.waitForURL((url) => url.pathname.startsWith("/patientShow/"));
      expect([target, new URL(page.url()).host]).toEqual([
        target,
        new URL(test.info().project.use.baseURL ?? "http://127.0.0.1").host,
      ]);
    }
  });
});
