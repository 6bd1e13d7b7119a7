import { expect, test, type Browser } from "@playwright/test";
import { apiToken } from "./api";
import { createUser, type TestUser } from "./db";
import { tr } from "./i18n";
import { jsEnabled, signIn } from "./support";
import { contractProblem } from "../support/api-contract";

const a = (key: string, values: Record<string, string | number> = {}) =>
  Object.entries(values).reduce(
    (text, [k, v]) => text.replace(`{{${k}}}`, String(v)),
    tr("en", key, "auth"),
  );
/** A form label by its text (labels of required fields end in " *"). */
const label = (key: string) =>
  new RegExp(`^${a(key).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( \\*)?$`);
const userMenu = (name: string) => tr("en", "nav.userMenu").replace("{{name}}", name);

/** A 1 x 1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

async function newPage(browser: Browser) {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  return { context, page: await context.newPage() };
}

function person(tag: string): Promise<TestUser> {
  return createUser({ tag, identity: 1, firstName: "Paula", lastName: "Profile" });
}

test.describe("account page", () => {
  test("saves the profile's names, keeps what was typed when one is refused, and the header shows the new name", async ({
    page,
  }) => {
    const user = await person("profile");
    await signIn(page, user.email, user.password);
    await page.goto("/account");
    const main = page.getByRole("main");
    await expect(main.getByLabel(label("fields.firstName"))).toHaveValue("Paula");
    await main.getByLabel(label("fields.firstName")).fill("   ");
    await main.getByLabel(label("fields.middleName")).fill("Maria");
    await main.getByLabel(label("fields.userName")).fill("x".repeat(61));
    await page.getByRole("button", { name: a("account.profileSubmit") }).click();
    await expect(main.getByText(a("errors.firstNameMsg"))).toBeVisible();
    await expect(main.getByText(a("errors.tooLong"))).toBeVisible();
    await expect(main.getByLabel(label("fields.middleName"))).toHaveValue("Maria");

    await main.getByLabel(label("fields.firstName")).fill("  Zofia ");
    await main.getByLabel(label("fields.lastName")).fill("Nowak");
    await main.getByLabel(label("fields.userName")).fill("zosia");
    await page.getByRole("button", { name: a("account.profileSubmit") }).click();
    await expect(main.getByText(a("account.profileSaved"))).toBeVisible();
    await expect(page.getByLabel(userMenu("Zofia Nowak"))).toBeVisible();
    await page.goto("/account");
    await expect(main.getByLabel(label("fields.firstName"))).toHaveValue("Zofia");
    await expect(main.getByLabel(label("fields.middleName"))).toHaveValue("Maria");
    await expect(main.getByLabel(label("fields.userName"))).toHaveValue("zosia");
  });

  test("uploads a photo, refuses a file that is no image, shows the photo in the header, and removes it after asking", async ({
    page,
  }) => {
    const user = await person("photo");
    await signIn(page, user.email, user.password);
    await page.goto("/account");
    const main = page.getByRole("main");
    const file = main.getByLabel(a("account.photoFile"));
    const upload = page.getByRole("button", { name: a("account.photoUpload") });

    await file.setInputFiles({
      name: "photo.png",
      mimeType: "image/png",
      buffer: Buffer.from("this is a text file, not a picture"),
    });
    await upload.click();
    await expect(main.getByText(a("errors.photoType"))).toBeVisible();
    await expect(main.getByTestId("current-photo")).toHaveCount(0);

    await file.setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
    await upload.click();
    await expect(main.getByText(a("account.photoSaved"))).toBeVisible();
    const src = await main.getByTestId("current-photo").getAttribute("src");
    expect(src).toMatch(/^\/profile-photo\?v=\d+$/);
    await expect(page.getByRole("banner").getByTestId("header-photo")).toHaveAttribute("src", src!);
    const served = await page.request.get(src!);
    expect(served.status()).toBe(200);
    expect(served.headers()["content-type"]).toBe("image/png");
    expect(served.headers()["cache-control"]).toMatch(/^private/);
    expect(Buffer.from(await served.body()).equals(PNG)).toBe(true);

    await main.getByRole("link", { name: a("account.photoRemove") }).click();
    await expect(main.getByText(a("account.photoRemoveConfirm"))).toBeVisible();
    await main.getByRole("button", { name: a("account.photoRemoveYes") }).click();
    await expect(main.getByText(a("account.photoRemoved"))).toBeVisible();
    await expect(main.getByTestId("current-photo")).toHaveCount(0);
    await expect(page.getByRole("banner").getByTestId("header-photo")).toHaveCount(0);
    expect((await page.request.get(src!)).status()).toBe(404);
  });

  test("signs out everywhere else after asking: another browser's session and the API token end, this browser stays", async ({
    page,
    browser,
    request,
  }) => {
    const user = await person("everywhere");
    await signIn(page, user.email, user.password);
    const other = await newPage(browser);
    await signIn(other.page, user.email, user.password);
    const token = await apiToken(request, user, 1);
    const findOne = `/api/patient/findOne?pid=${user.pid}`;
    const found = await request.get(findOne, { headers: { token } });
    const foundBody = await found.json();
    expect(contractProblem("GET", findOne, found.status(), foundBody)).toBeNull();
    expect(foundBody.code).toBe(200);

    await page.goto("/account");
    const main = page.getByRole("main");
    await main.getByRole("link", { name: a("account.sessionsSubmit") }).click();
    await expect(main.getByText(a("account.sessionsConfirm"))).toBeVisible();
    await main.getByRole("button", { name: a("account.sessionsYes") }).click();
    await expect(main.getByText(a("account.signedOutEverywhere"))).toBeVisible();

    await other.page.goto("/newsetting");
    await expect(other.page).toHaveURL(/\/login\?redirectTo=%2Fnewsetting$/);
    const refused = await request.get(findOne, { headers: { token } });
    expect(refused.status()).toBe(401);
    const refusedBody = await refused.json();
    expect(contractProblem("GET", findOne, refused.status(), refusedBody)).toBeNull();
    expect(refusedBody.code).toBe(803);
    await page.goto("/newsetting");
    await expect(page).toHaveURL(/\/newsetting$/);
    await other.context.close();
  });

  test("deletes the account after the password is confirmed, offering the data export first; the account cannot sign in again", async ({
    page,
  }) => {
    const user = await person("delete");
    await signIn(page, user.email, user.password);
    await page.goto("/account");
    const main = page.getByRole("main");
    await expect(main.getByRole("link", { name: a("account.exportLastYear") })).toHaveAttribute(
      "href",
      new RegExp(`^/patientShow/${user.pid}/export\\.csv\\?start=`),
    );
    await main.getByRole("link", { name: a("account.deleteStart") }).click();
    await expect(main.getByText(a("account.deleteQuestion"))).toBeVisible();
    await expect(main.getByText(a("account.deletePersonRecords"))).toBeVisible();
    await expect(main.getByText(a("account.deleteFinal"))).toBeVisible();

    const section = main.getByRole("region", { name: a("account.deleteTitle") });
    await section.getByLabel(label("fields.currentPassword")).fill("not my password");
    await page.getByRole("button", { name: a("account.deleteSubmit") }).click();
    await expect(section.getByText(a("errors.currentPasswordWrong"))).toBeVisible();
    await page.goto("/newsetting");
    await expect(page).toHaveURL(/\/newsetting$/);

    await page.goto("/account?confirm=deleteAccount#delete");
    await section.getByLabel(label("fields.currentPassword")).fill(user.password);
    await page.getByRole("button", { name: a("account.deleteSubmit") }).click();
    // Without JavaScript the browser keeps the form's #delete through the redirect.
    await expect(page).toHaveURL(/\/login\?deleted=1(#delete)?$/);
    await expect(main.getByText(a("account.deleted"))).toBeVisible();
    await page.goto("/newsetting");
    await expect(page).toHaveURL(/\/login\?redirectTo=/);

    await page.goto("/login");
    await main.getByLabel(label("fields.email")).fill(user.email);
    await main.getByLabel(/^Password/).fill(user.password);
    await page.getByRole("button", { name: tr("en", "login.submit", "auth") }).click();
    await expect(main.getByText(a("errors.wrongCredentials"))).toBeVisible();
  });
});
