import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { createUser, testDatabaseUrl } from "./db";
import { tr } from "./i18n";
import { codeFromMail, jsEnabled, mailTo, signIn, signOut, uniqueEmail } from "./support";

/** A `record` string with its {{values}} filled in. */
const r = (key: string, values: Record<string, string> = {}) =>
  Object.entries(values).reduce(
    (text, [k, v]) => text.replace(`{{${k}}}`, v),
    tr("en", key, "record"),
  );
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A form label by its text (labels of required fields end in " *"). */
const label = (key: string, values: Record<string, string> = {}) =>
  new RegExp(`^${escape(r(key, values))}( \\*)?$`);
const optionName = (code: string) => tr("en", `names.${code}`, "options");
const mmol = { unit: tr("en", "units.0") };

const main = (page: Page) => page.getByRole("main");
const panel = (page: Page) =>
  page.getByRole("complementary", { name: tr("en", "panel.label", "sharing") });

async function withDbClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** The record id (pid) of the account with this email. */
async function withPid(email: string): Promise<number> {
  const { rows } = await withDbClient((client) =>
    client.query<{ id: number }>(
      'SELECT p.id FROM "Patient" p JOIN "User" u ON u.id = p."userId" WHERE u.email = $1',
      [email],
    ),
  );
  return rows[0]!.id;
}

test.describe("patient health record", () => {
  test("a clinic adds a patient: a wrong range is refused with the form kept, then the patient is added and gets the activation email", async ({
    page,
  }) => {
    test.slow(); // two sign-ins, the mail round trip and an activation
    const clinic = await createUser({
      tag: "rec-clinic",
      identity: 2,
      firstName: "Clara",
      lastName: "Care",
    });
    const email = uniqueEmail("rec-new");
    await signIn(page, clinic.email, clinic.password, 2);
    await panel(page)
      .getByRole("link", { name: r("links.addPatient") })
      .click();
    await expect(page).toHaveURL(/\/patientAdd$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(r("add.title"));

    const form = main(page);
    await form.getByLabel(label("fields.email")).fill(email);
    await form.getByLabel(label("fields.firstName")).fill("Nina");
    await form.getByLabel(label("fields.lastName")).fill("Novak");
    await form.getByLabel(r("gender.female"), { exact: true }).check();
    await form
      .getByLabel(label("fields.diabetesType"))
      .selectOption({ label: optionName("type1") });
    await form.getByLabel(optionName("hypertension"), { exact: true }).check();
    await form.getByLabel(label("fields.birthDate")).fill("1985-07-04");
    await form.getByLabel(label("fields.lowLimit", mmol)).fill("10");
    await form.getByLabel(label("fields.highLimit", mmol)).fill("4");
    await form.getByLabel(label("fields.timeZone")).selectOption("Europe/Warsaw");
    await form.getByRole("button", { name: r("add.submit") }).click();

    // 'Glucose Range Not Right' (by the browser with JavaScript, by the server without); nothing is lost.
    await expect(form.getByText(r("errors.glucoseRangeWrong"), { exact: true })).toBeVisible();
    await expect(form.getByLabel(label("fields.email"))).toHaveValue(email);
    await expect(form.getByLabel(label("fields.firstName"))).toHaveValue("Nina");
    await expect(form.getByLabel(r("gender.female"), { exact: true })).toBeChecked();
    await expect(form.getByLabel(optionName("hypertension"), { exact: true })).toBeChecked();
    await expect(
      form.getByLabel(label("fields.diabetesType")).locator("option:checked"),
    ).toHaveText(optionName("type1"));
    await expect(form.getByLabel(label("fields.lowLimit", mmol))).toHaveValue("10");
    await expect(form.getByLabel(label("fields.timeZone"))).toHaveValue("Europe/Warsaw");

    // Both limits are required: 'Please Add Glucose Range'.
    await form.getByLabel(label("fields.highLimit", mmol)).fill("");
    await form.getByRole("button", { name: r("add.submit") }).click();
    await expect(form.getByText(r("errors.glucoseRangeRequired"), { exact: true })).toBeVisible();

    const sentAt = Date.now();
    await form.getByLabel(label("fields.lowLimit", mmol)).fill("3.9");
    await form.getByLabel(label("fields.highLimit", mmol)).fill("10");
    await form.getByRole("button", { name: r("add.submit") }).click();
    await expect(page.getByRole("status")).toContainText(
      r("add.success", { name: "Nina Novak", email }),
    );
    await expect(page.getByRole("status")).toContainText(r("add.waiting", { name: "Nina Novak" }));
    await expect(form.getByLabel(label("fields.email"))).toHaveValue("");

    // The activation email, read from the SMTP catcher, carries a code the activation page takes.
    const code = await codeFromMail(email, sentAt);
    expect((await mailTo(email)).at(-1)?.subject).toBe(tr("en", "code.activate.subject", "mail"));

    // Until the new owner accepts, the clinic sees the patient only as waiting, and nothing of the record.
    await page.getByRole("link", { name: r("add.open") }).click();
    await expect(page).toHaveURL(/\/patientShow\/patients$/);
    const waiting = panel(page).getByRole("link", { name: /Nina Novak/ });
    await expect(waiting).toContainText(tr("en", "status.waiting", "sharing"));
    const pid = await withPid(email);
    const refused = await page.goto(`/patient?pid=${pid}`);
    expect(refused?.status()).toBe(404);
    await signOut(page, clinic.name);

    // The new person activates the account with the emailed code and a password of their own,
    // then sees who created it and accepts that the clinic reads the data.
    const a = (key: string, values: Record<string, string> = {}) =>
      Object.entries(values).reduce(
        (text, [k, v]) => text.replace(`{{${k}}}`, v),
        tr("en", key, "auth"),
      );
    const authLabel = (key: string) => new RegExp(`^${escape(a(key))}( \\*)?$`);
    await page.goto(`/active?email=${encodeURIComponent(email)}`);
    await main(page).getByLabel(authLabel("fields.activationCode")).fill(code);
    await main(page).getByLabel(authLabel("fields.newPassword")).fill("nina password 1");
    await main(page).getByLabel(authLabel("fields.confirmPassword")).fill("nina password 1");
    await page.getByRole("button", { name: a("active.submit") }).click();
    await expect(page).toHaveURL(/\/active$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(a("active.creatorTitle"));
    await expect(
      main(page).getByText(
        a("active.creatorIntroClinic", { name: clinic.name, email: clinic.email }),
      ),
    ).toBeVisible();
    await page.getByRole("button", { name: a("active.creatorAccept") }).click();
    await expect(page).toHaveURL(/\/patientShow\/\d+\/\d+\/patientHome$/);
    await signOut(page, "Nina Novak");

    // Now the clinic can open the (read-only) record.
    await signIn(page, clinic.email, clinic.password, 2);
    await page.goto(`/patient?pid=${pid}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      r("record.titleOf", { name: "Nina Novak" }),
    );
    await expect(main(page).getByText(r("record.readOnly"))).toBeVisible();
    await expect(main(page).getByText(optionName("hypertension"))).toBeVisible();
    await expect(main(page).getByText(`3.9–10 ${mmol.unit}`)).toBeVisible();
    await expect(main(page).getByRole("button", { name: r("record.submit") })).toHaveCount(0);
  });

  test("a person edits their own health record and sees it saved", async ({ page }) => {
    test.slow();
    const person = await createUser({
      tag: "rec-person",
      identity: 1,
      firstName: "Piotr",
      lastName: "Self",
    });
    await signIn(page, person.email, person.password);
    await panel(page)
      .getByRole("link", { name: r("links.healthRecord") })
      .click();
    await expect(page).toHaveURL(/\/patient$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(r("record.title"));

    const form = main(page);
    // The stored defaults (70-180 mg/dL) in the person's unit, mmol/L.
    await expect(form.getByLabel(label("fields.lowLimit", mmol))).toHaveValue("3.9");
    await expect(form.getByLabel(label("fields.highLimit", mmol))).toHaveValue("10");

    // Gender and the type of diabetes are required.
    await form.getByRole("button", { name: r("record.submit") }).click();
    await expect(form.getByText(r("errors.genderMsg"))).toBeVisible();
    await expect(form.getByText(r("errors.diabetesTypeMsg"))).toBeVisible();

    await form.getByLabel(r("gender.male"), { exact: true }).check();
    await form.getByLabel(label("fields.pronoun")).selectOption({ label: r("pronoun.he") });
    await form
      .getByLabel(label("fields.diabetesType"))
      .selectOption({ label: optionName("type2") });
    await form.getByLabel(optionName("neuropathy"), { exact: true }).check();
    await form.getByLabel(label("fields.lowLimit", mmol)).fill("4.2");
    await form.getByLabel(label("fields.highLimit", mmol)).fill("9");
    await form.getByLabel(label("fields.timeZone")).selectOption("Europe/Rome");
    const meal = (key: "start" | "end", m: string) =>
      form.getByLabel(label(`fields.${key}`, { meal: r(`fields.${m}`) }));
    await meal("start", "breakfast").fill("07:00");
    await meal("end", "breakfast").fill("09:30");
    await form.getByRole("button", { name: r("record.submit") }).click();
    await expect(page.getByRole("status")).toHaveText(r("record.saved"));

    await page.goto("/patient");
    await expect(form.getByLabel(r("gender.male"), { exact: true })).toBeChecked();
    await expect(form.getByLabel(label("fields.pronoun")).locator("option:checked")).toHaveText(
      r("pronoun.he"),
    );
    await expect(
      form.getByLabel(label("fields.diabetesType")).locator("option:checked"),
    ).toHaveText(optionName("type2"));
    await expect(form.getByLabel(optionName("neuropathy"), { exact: true })).toBeChecked();
    await expect(form.getByLabel(optionName("retinopathy"), { exact: true })).not.toBeChecked();
    await expect(form.getByLabel(label("fields.lowLimit", mmol))).toHaveValue("4.2");
    await expect(form.getByLabel(label("fields.highLimit", mmol))).toHaveValue("9");
    await expect(form.getByLabel(label("fields.timeZone"))).toHaveValue("Europe/Rome");
    await expect(meal("start", "breakfast")).toHaveValue("07:00");
    await expect(meal("end", "breakfast")).toHaveValue("09:30");
  });

  test("a person who reads in feet, inches and pounds enters their height and weight in them; they are kept in cm and kg", async ({
    page,
  }) => {
    const person = await createUser({
      tag: "rec-body",
      identity: 1,
      firstName: "Bea",
      lastName: "Body",
    });
    await withDbClient((client) =>
      client.query('UPDATE "Setting" SET "heightUnit" = 1, "weightUnit" = 1 WHERE "userId" = $1', [
        person.id,
      ]),
    );
    await signIn(page, person.email, person.password);
    await page.goto("/patient");
    const form = main(page);
    await form.getByLabel(r("gender.female"), { exact: true }).check();
    await form
      .getByLabel(label("fields.diabetesType"))
      .selectOption({ label: optionName("type1") });
    await form.getByLabel(label("fields.heightFt")).fill("5");
    await form.getByLabel(label("fields.heightIn")).fill("9");
    // 4 lb is below the 4.5 lb a record accepts: refused, with what was typed kept.
    await form.getByLabel(label("fields.weightLb")).fill("4");
    await form.getByRole("button", { name: r("record.submit") }).click();
    await expect(form.getByText(r("errors.weightBoundsLb"))).toBeVisible();
    await expect(form.getByLabel(label("fields.heightFt"))).toHaveValue("5");
    await form.getByLabel(label("fields.weightLb")).fill("150");
    await form.getByRole("button", { name: r("record.submit") }).click();
    await expect(page.getByRole("status")).toHaveText(r("record.saved"));

    // 5 ft 9 in = 69 in x 2.54 = 175.26 cm; 150 lb x 0.45359237 = 68.04 kg.
    const stored = await withDbClient((client) =>
      client.query<{ heightCm: number; weightKg: number }>(
        'SELECT "heightCm", "weightKg" FROM "User" WHERE id = $1',
        [person.id],
      ),
    );
    expect(stored.rows[0]).toEqual({ heightCm: 175.26, weightKg: 68.04 });
    await page.goto("/patient");
    await expect(form.getByLabel(label("fields.heightFt"))).toHaveValue("5");
    await expect(form.getByLabel(label("fields.heightIn"))).toHaveValue("9");
    await expect(form.getByLabel(label("fields.weightLb"))).toHaveValue("150");
  });

  test("leaving the add-patient form with data asks first with JavaScript; without it the link just leaves", async ({
    page,
  }) => {
    const clinic = await createUser({
      tag: "rec-leave",
      identity: 2,
      firstName: "Lea",
      lastName: "Leave",
    });
    await signIn(page, clinic.email, clinic.password, 2);
    await page.goto("/patientAdd");
    // Untouched: leaving needs no confirmation.
    await page
      .getByRole("navigation", { name: tr("en", "nav.main") })
      .getByRole("link", { name: tr("en", "nav.support") })
      .click();
    await expect(page).toHaveURL(/\/supports$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/patientAdd$/);

    await main(page).getByLabel(label("fields.email")).fill("someone@example.org");
    if (!jsEnabled()) {
      await page
        .getByRole("navigation", { name: tr("en", "nav.main") })
        .getByRole("link", { name: tr("en", "nav.support") })
        .click();
      await expect(page).toHaveURL(/\/supports$/);
      await expect(page.getByRole("alertdialog")).toHaveCount(0);
      return;
    }
    await page
      .getByRole("navigation", { name: tr("en", "nav.main") })
      .getByRole("link", { name: tr("en", "nav.support") })
      .click();
    const dialog = page.getByRole("alertdialog", { name: r("add.leaveTitle") });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: r("add.stay") }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(/\/patientAdd$/);
    await expect(main(page).getByLabel(label("fields.email"))).toHaveValue("someone@example.org");

    await page
      .getByRole("navigation", { name: tr("en", "nav.main") })
      .getByRole("link", { name: tr("en", "nav.support") })
      .click();
    await page
      .getByRole("alertdialog", { name: r("add.leaveTitle") })
      .getByRole("button", { name: r("add.leave") })
      .click();
    await expect(page).toHaveURL(/\/supports$/);
  });

  test("a clinic whose organisation is not approved is told it cannot add patients", async ({
    page,
  }) => {
    const clinic = await createUser({
      tag: "rec-unapproved",
      identity: 2,
      firstName: "Una",
      lastName: "Pending",
      isPass: 3,
    });
    await signIn(page, clinic.email, clinic.password, 2);
    await page.goto("/patientAdd");
    await expect(main(page).getByText(r("add.notApproved"))).toBeVisible();
    await expect(main(page).getByRole("button", { name: r("add.submit") })).toHaveCount(0);
  });
});
