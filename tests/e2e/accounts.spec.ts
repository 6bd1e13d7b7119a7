import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { tr } from "./i18n";
import { createUser, testDatabaseUrl } from "./db";
import { codeFromMail, mailTo, signIn, signOut, uniqueEmail } from "./support";

const a = (key: string) => tr("en", key, "auth");
/** A form label by the start of its text (labels of required fields end in " *"). */
const label = (key: string, values: Record<string, string> = {}) => {
  const text = Object.entries(values).reduce((t, [k, v]) => t.replace(`{{${k}}}`, v), a(key));
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( \\*)?$`);
};

test.describe("sign-in form", () => {
  test("says what is missing, in the user's language", async ({ browser }) => {
    const context = await browser.newContext({
      locale: "pl",
      javaScriptEnabled: test.info().project.use.javaScriptEnabled,
    });
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByRole("button", { name: tr("pl", "login.submit", "auth") }).click();
    await expect(page.getByText(tr("pl", "errors.emailMsg", "auth"))).toBeVisible();
    await expect(page.getByText(tr("pl", "errors.passwordMsg", "auth"))).toBeVisible();
    await context.close();
  });

  test("refuses a wrong password with one message and keeps the email", async ({ page }) => {
    await page.goto("/login");
    await page
      .getByRole("main")
      .getByLabel(label("fields.email"))
      .fill("patient@demo.diacare.test");
    await page.getByLabel(/^Password/).fill("not-the-password");
    await page.getByRole("button", { name: a("login.submit") }).click();
    await expect(page.getByText(a("errors.wrongCredentials"))).toBeVisible();
    await expect(page.getByRole("main").getByLabel(label("fields.email"))).toHaveValue(
      "patient@demo.diacare.test",
    );
  });

  test("5 wrong passwords from this browser: the 6th try, even with the right password, says to try again in 15 minutes (429)", async ({
    page,
  }) => {
    const user = await createUser({
      tag: "lockout",
      identity: 1,
      firstName: "Lou",
      lastName: "Locked",
    });
    await page.goto("/login");
    const statuses: number[] = [];
    page.on("response", (response) => {
      if (
        response.request().method() === "POST" &&
        new URL(response.url()).pathname.startsWith("/login")
      )
        statuses.push(response.status());
    });
    for (let i = 0; i < 5; i++) {
      await page.getByRole("main").getByLabel(label("fields.email")).fill(user.email);
      await page.getByLabel(/^Password/).fill(`wrong password ${i}`);
      await page.getByRole("button", { name: a("login.submit") }).click();
      await expect(page.getByText(a("errors.wrongCredentials"))).toBeVisible();
    }
    await page.getByRole("main").getByLabel(label("fields.email")).fill(user.email);
    await page.getByLabel(/^Password/).fill(user.password);
    await page.getByRole("button", { name: a("login.submit") }).click();
    await expect(page.getByText(a("errors.locked").replace("{{minutes}}", "15"))).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(statuses.at(-1)).toBe(429);
  });

  test("signs the demo patient in to their home, and out again", async ({ page }) => {
    await signIn(page, "patient@demo.diacare.test", "demo-patient-1");
    await expect(page).toHaveURL(/\/patientShow\/\d+\/\d+\/patientHome$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      tr("en", "myHome", "patients"),
    );
    await signOut(page, "Anna Kowalczyk");
    await page.goto("/patientShow/patients");
    await expect(page).toHaveURL(/\/login\?redirectTo=/);
  });

  test("offers only the driver files that are placed, with their size and SHA-256; the download is that file", async ({
    page,
    request,
  }) => {
    const bytes = readFileSync("tests/fixtures/drivers/gochek-meter-driver-mac.zip");
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    await page.goto("/login");
    await page.getByText(a("drivers.title")).click();
    await expect(page.getByText(a("drivers.macNote"))).toBeVisible();
    const mac = page.getByTestId("driver-meter-mac");
    await expect(mac.getByRole("link", { name: a("drivers.meter-mac") })).toHaveAttribute(
      "href",
      "/drivers/meter-mac",
    );
    await expect(mac).toContainText(
      `gochek-meter-driver-mac.zip, ${(bytes.length / 1024).toFixed(1)} KB`,
    );
    await expect(mac.locator("code")).toHaveText(sha256);
    await expect(page.getByText(a("drivers.meter-windows"))).toHaveCount(0);
    await expect(page.getByText(a("drivers.pump-cgm-windows"))).toHaveCount(0);
    const download = await request.get("/drivers/meter-mac");
    expect(download.status()).toBe(200);
    expect(
      createHash("sha256")
        .update(await download.body())
        .digest("hex"),
    ).toBe(sha256);
    expect((await request.get("/drivers/meter-windows")).status()).toBe(404);
  });
});

test.describe("registration", () => {
  test("a person registers with the emailed code, lands home, and signs out", async ({ page }) => {
    const email = uniqueEmail("person");
    await page.goto("/signup");
    await page.getByRole("button", { name: a("signup.confirm") }).click();
    await expect(page).toHaveURL(/\/person\/register$/);
    await page.getByRole("main").getByLabel(label("fields.email")).fill(email);
    const sentAt = Date.now();
    await page.getByRole("button", { name: a("register.sendCode") }).click();
    await expect(page.getByText(a("register.codeSent"))).toBeVisible();
    const code = await codeFromMail(email, sentAt);
    await page.getByRole("main").getByLabel(label("fields.code")).fill(code);
    await page.getByRole("main").getByLabel(label("fields.newPassword")).fill("a long password 1");
    await page
      .getByRole("main")
      .getByLabel(label("fields.confirmPassword"))
      .fill("a long password 1");
    await page.getByRole("main").getByLabel(label("fields.firstName")).fill("Erin");
    await page.getByRole("main").getByLabel(label("fields.lastName")).fill("Walsh");
    await page.getByRole("main").getByLabel(label("fields.birthDate")).fill("1992-05-17");
    await page.getByRole("main").getByLabel(label("fields.heightCm")).fill("165");
    await page.getByRole("main").getByLabel(label("fields.weightKg")).fill("60");
    await page
      .getByRole("main")
      .getByLabel(label("fields.lowLimit", { unit: "mmol/L" }))
      .fill("10");
    await page
      .getByRole("main")
      .getByLabel(label("fields.highLimit", { unit: "mmol/L" }))
      .fill("3.9");
    await page.getByRole("button", { name: a("register.submit") }).click();
    await expect(page.getByText(a("errors.agreeFirst"))).toBeVisible();
    await page.getByRole("checkbox").check();
    await page.getByRole("main").getByLabel(label("fields.newPassword")).fill("a long password 1");
    await page
      .getByRole("main")
      .getByLabel(label("fields.confirmPassword"))
      .fill("a long password 1");
    await page.getByRole("button", { name: a("register.submit") }).click();
    await expect(page.getByText(a("errors.glucoseRangeWrong"))).toBeVisible();
    await page
      .getByRole("main")
      .getByLabel(label("fields.lowLimit", { unit: "mmol/L" }))
      .fill("3.9");
    await page
      .getByRole("main")
      .getByLabel(label("fields.highLimit", { unit: "mmol/L" }))
      .fill("10");
    await page.getByRole("main").getByLabel(label("fields.newPassword")).fill("a long password 1");
    await page
      .getByRole("main")
      .getByLabel(label("fields.confirmPassword"))
      .fill("a long password 1");
    if (!(await page.getByRole("checkbox").isChecked())) await page.getByRole("checkbox").check();
    await page.getByRole("button", { name: a("register.submit") }).click();
    await expect(page).toHaveURL(/\/patientShow\/\d+\/\d+\/patientHome$/);
    await signOut(page, "Erin Walsh");
    await signIn(page, email, "a long password 1");
    await expect(page).toHaveURL(/patientHome$/);
  });

  test("a clinic registers, submits its organisation, an admin approves it, and it reaches the patient list", async ({
    browser,
  }) => {
    const js = test.info().project.use.javaScriptEnabled;
    const clinicContext = await browser.newContext({ javaScriptEnabled: js });
    const clinic = await clinicContext.newPage();
    const email = uniqueEmail("clinic");
    await clinic.goto("/signup");
    await clinic.getByLabel(new RegExp(a("signup.clinic"))).check();
    await clinic.getByRole("button", { name: a("signup.confirm") }).click();
    await expect(clinic).toHaveURL(/\/clinic\/register$/);
    await clinic.getByRole("main").getByLabel(label("fields.email")).fill(email);
    const sentAt = Date.now();
    await clinic.getByRole("button", { name: a("register.sendCode") }).click();
    await expect(clinic.getByText(a("register.codeSent"))).toBeVisible();
    await clinic
      .getByRole("main")
      .getByLabel(label("fields.code"))
      .fill(await codeFromMail(email, sentAt));
    await clinic
      .getByRole("main")
      .getByLabel(label("fields.newPassword"))
      .fill("clinic password 1");
    await clinic
      .getByRole("main")
      .getByLabel(label("fields.confirmPassword"))
      .fill("clinic password 1");
    await clinic.getByRole("main").getByLabel(label("fields.firstName")).fill("Greta");
    await clinic.getByRole("main").getByLabel(label("fields.lastName")).fill("Lind");
    await clinic.getByRole("checkbox").check();
    await clinic.getByRole("button", { name: a("register.submit") }).click();
    await expect(clinic).toHaveURL(/\/patientShow\/patients$/);
    await expect(clinic.getByRole("status").getByText(a("audit.state0"))).toBeVisible();

    await clinic.getByRole("link", { name: tr("en", "completeOrganisation", "patients") }).click();
    await clinic.getByRole("button", { name: a("audit.submit") }).click();
    await expect(clinic.getByText(a("errors.OrganizationError"))).toBeVisible();
    await expect(clinic.getByText(a("errors.PhoneError"))).toBeVisible();
    const hospital = `Clinic ${Date.now()}`;
    await clinic.getByRole("main").getByLabel(label("fields.hospitalName")).fill(hospital);
    await clinic.getByRole("main").getByLabel(label("fields.address")).fill("2 Harbour Road");
    await clinic.getByRole("main").getByLabel(label("fields.area")).fill("North");
    await clinic.getByRole("main").getByLabel(label("fields.country")).selectOption("Ireland");
    await clinic.getByRole("main").getByLabel(label("fields.connectName")).fill("Greta Lind");
    await clinic.getByRole("main").getByLabel(label("fields.connectPhone")).fill("+353 1 555 0101");
    await clinic.getByRole("button", { name: a("audit.submit") }).click();
    await expect(clinic.getByRole("main").getByText(a("audit.submitted")).first()).toBeVisible();

    const adminContext = await browser.newContext({ javaScriptEnabled: js });
    const admin = await adminContext.newPage();
    await signIn(admin, "admin@demo.diacare.test", "demo-admin-1", 2);
    await admin.goto("/admin/audits");
    const card = admin.getByRole("article").filter({ hasText: hospital });
    await card.getByRole("button", { name: a("audit.approve") }).click();
    await expect(admin.getByText(a("audit.approvedNotice"))).toBeVisible();
    await expect(
      admin.getByRole("article").filter({ hasText: hospital }).getByText(a("audit.state1")),
    ).toBeVisible();
    const mail = await fetch(
      `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 26}/messages?to=${encodeURIComponent(email)}`,
    ).then((r) => r.json());
    expect(mail.at(-1).subject).toBe(tr("en", "auditApproved.subject", "mail"));

    await clinic.goto("/patientShow/patients");
    await expect(clinic.getByRole("heading", { level: 1 })).toHaveText(
      tr("en", "title", "patients"),
    );
    await expect(clinic.getByText(tr("en", "panel.emptyMine", "sharing"))).toBeVisible();
    await clinicContext.close();
    await adminContext.close();
  });
});

test.describe("sign-up with an email that already has an account", () => {
  test("answers like any other email; the address's owner is mailed a notice with a reset link", async ({
    page,
  }) => {
    const owner = await createUser({
      tag: "taken",
      identity: 1,
      firstName: "Tia",
      lastName: "Taken",
    });
    await page.goto("/person/register");
    await page.getByRole("main").getByLabel(label("fields.email")).fill(owner.email);
    const sentAt = Date.now();
    await page.getByRole("button", { name: a("register.sendCode") }).click();
    await expect(page.getByText(a("register.codeSent"))).toBeVisible();
    await expect(page.getByText(a("errors.emailTaken"))).toHaveCount(0);
    await expect
      .poll(async () =>
        (await mailTo(owner.email))
          .filter((m) => Date.parse(m.date) >= sentAt - 1000)
          .map((m) => m.subject),
      )
      .toEqual([tr("en", "accountExists.subject", "mail")]);
    expect((await mailTo(owner.email)).at(-1)?.text).toContain("/account");
  });
});

test.describe("forgotten password", () => {
  test("is reset with an emailed code", async ({ page }) => {
    const email = uniqueEmail("reset");
    const { hashPassword } = await import("../../app/utils/password.server");
    const pg = await import("pg");
    const client = new pg.default.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    await client.query(
      `INSERT INTO "User" (email, "passwordHash", identity, "updatedAt") VALUES ($1, $2, 1, now())`,
      [email, await hashPassword("old password 1")],
    );
    await client.end();

    await page.goto("/account");
    await page.getByRole("main").getByLabel(label("fields.email")).fill(email);
    const sentAt = Date.now();
    await page.getByRole("button", { name: a("register.sendCode") }).click();
    await expect(page.getByText(a("account.resetCodeSent"))).toBeVisible();
    await page
      .getByRole("main")
      .getByLabel(label("fields.code"))
      .fill(await codeFromMail(email, sentAt));
    await page.getByRole("main").getByLabel(label("fields.newPassword")).fill("new password 2");
    await page.getByRole("main").getByLabel(label("fields.confirmPassword")).fill("new password 2");
    await page.getByRole("button", { name: a("account.resetSubmit") }).click();
    await expect(page).toHaveURL(/\/login\?reset=1$/);
    await expect(page.getByText(a("account.resetDone"))).toBeVisible();
    await page.getByRole("main").getByLabel(label("fields.email")).fill(email);
    await page.getByLabel(/^Password/).fill("new password 2");
    await page.getByRole("button", { name: a("login.submit") }).click();
    await expect(page).toHaveURL(/\/patientShow\/patients$/);
  });
});

test.describe("activation", () => {
  test("an inactive account signs in, gets a code by email and activates", async ({ page }) => {
    const email = uniqueEmail("inactive");
    const { hashPassword } = await import("../../app/utils/password.server");
    const pg = await import("pg");
    const client = new pg.default.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    const { rows } = await client.query(
      `INSERT INTO "User" (email, "passwordHash", identity, active, "updatedAt") VALUES ($1, $2, 1, false, now()) RETURNING id`,
      [email, await hashPassword("inactive pass 1")],
    );
    await client.query(`INSERT INTO "Patient" ("userId", "updatedAt") VALUES ($1, now())`, [
      rows[0].id,
    ]);
    await client.end();

    await signIn(page, email, "inactive pass 1");
    await expect(page).toHaveURL(/\/active$/);
    await page.goto("/patientShow/patients");
    await expect(page).toHaveURL(/\/active$/);
    const sentAt = Date.now();
    await page.getByRole("button", { name: a("active.sendCode") }).click();
    await expect(page.getByText(a("active.codeSent"))).toBeVisible();
    await page.getByRole("main").getByLabel(label("fields.activationCode")).fill("000000");
    await page.getByRole("button", { name: a("active.submit") }).click();
    await expect(page.getByText(a("errors.codeInvalid"))).toBeVisible();
    await page
      .getByRole("main")
      .getByLabel(label("fields.activationCode"))
      .fill(await codeFromMail(email, sentAt));
    await page.getByRole("button", { name: a("active.submit") }).click();
    await expect(page).toHaveURL(/\/patientShow\/\d+\/\d+\/patientHome$/);
  });
});

test.describe("sign-up entry", () => {
  test("the header's Sign up leads to the chosen registration form", async ({ page }) => {
    await page.goto("/");
    const banner = page.getByRole("banner");
    if (test.info().project.use.javaScriptEnabled) {
      await banner.getByRole("button", { name: tr("en", "nav.signUp") }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel(new RegExp(a("signup.clinic"))).check();
      await dialog.getByRole("button", { name: a("signup.confirm") }).click();
    } else {
      await banner.getByRole("link", { name: tr("en", "nav.signUp") }).click();
      await page.getByLabel(new RegExp(a("signup.clinic"))).check();
      await page.getByRole("button", { name: a("signup.confirm") }).click();
    }
    await expect(page).toHaveURL(/\/clinic\/register$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(a("register.title.clinic"));
  });
});
