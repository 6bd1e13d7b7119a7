import { expect, test, type Page } from "@playwright/test";
import { createAcceptedShare, createUser } from "./db";
import { tr } from "./i18n";
import { mailTo, signIn, signOut } from "./support";

const sh = (key: string, values: Record<string, string | number> = {}) =>
  Object.entries(values).reduce((text, [k, v]) => text.replace(`{{${k}}}`, String(v)), tr("en", key, "sharing"));
const panel = (page: Page) => page.getByRole("complementary", { name: sh("panel.label") });

async function searchAndAct(page: Page, email: string, action: "add.invite" | "add.share") {
  await panel(page).getByRole("link", { name: sh("panel.newShare") }).click();
  const drawer = page.getByRole("region", { name: sh(action === "add.invite" ? "add.inviteTitle" : "add.shareTitle") });
  await drawer.getByRole("searchbox", { name: sh("add.searchLabel") }).fill(email);
  await drawer.getByRole("button", { name: sh("panel.searchButton") }).click();
  const row = page.getByRole("row").filter({ hasText: email.slice(0, 18) });
  await row.getByRole("button", { name: new RegExp(`^${sh(action)}`) }).click();
  await expect(page.getByRole("status")).toHaveText(sh(action === "add.invite" ? "messages.inviteSuccess" : "messages.shareSuccess"));
  await expect(page.getByRole("row").filter({ hasText: email.slice(0, 18) }).getByRole("button", { name: sh(action === "add.invite" ? "add.invited" : "add.shared") })).toBeDisabled();
}

test.describe("sharing", () => {
  test("a clinic invites a patient, the patient accepts, the clinic sees the patient with the dot badge", async ({ page }) => {
    const clinic = await createUser({ tag: "inv-clinic", identity: 2, firstName: "Clara", lastName: "Clinic" });
    const patient = await createUser({ tag: "inv-patient", identity: 1, firstName: "Pia", lastName: "Patient" });

    await signIn(page, clinic.email, clinic.password, 2);
    await searchAndAct(page, patient.email, "add.invite");
    await expect(panel(page).getByRole("link", { name: new RegExp(patient.name) })).toContainText(sh("status.waiting"));
    await signOut(page, clinic.name);

    await signIn(page, patient.email, patient.password);
    await panel(page).getByRole("link", { name: sh("panel.sharedWithOthers") }).click();
    await panel(page).getByRole("link", { name: new RegExp(clinic.name) }).click();
    await expect(page.getByText(sh("share.inviteReceived", { name: clinic.name, email: clinic.email }))).toBeVisible();
    await page.getByRole("button", { name: sh("share.approve") }).click();
    await expect(page.getByRole("status")).toHaveText(sh("messages.operateSuccess"));
    await signOut(page, patient.name);

    await signIn(page, clinic.email, clinic.password, 2);
    const entry = panel(page).getByRole("link", { name: new RegExp(patient.name) });
    await expect(entry.getByRole("img", { name: sh("panel.newData") })).toBeVisible();
    await entry.click();
    await expect(page).toHaveURL(new RegExp(`/patientShow/${patient.pid}/${patient.id}/patientHome`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(patient.name);
    await page.reload();
    await expect(panel(page).getByRole("link", { name: new RegExp(patient.name) }).getByRole("img", { name: sh("panel.newData") })).toHaveCount(0);
  });

  test("a patient shares with a person who accepts with a nickname; another refuses", async ({ page }) => {
    // Four sign-ins (argon2id each) and four sign-outs in one flow on a 2-core machine.
    test.setTimeout(90_000);
    const owner = await createUser({ tag: "share-owner", identity: 1, firstName: "Olga", lastName: "Owner" });
    const friend = await createUser({ tag: "share-friend", identity: 1, firstName: "Fred", lastName: "Friend" });
    const stranger = await createUser({ tag: "share-refuser", identity: 1, firstName: "Rita", lastName: "Refuser" });

    await signIn(page, owner.email, owner.password);
    await searchAndAct(page, friend.email, "add.share");
    await searchAndAct(page, stranger.email, "add.share");
    await signOut(page, owner.name);

    await signIn(page, friend.email, friend.password);
    await panel(page).getByRole("link", { name: new RegExp(owner.name) }).click();
    await page.getByLabel(sh("share.nickName")).fill("Mum");
    await page.getByRole("button", { name: sh("share.approve") }).click();
    await expect(page.getByRole("status")).toHaveText(sh("messages.operateSuccess"));
    await expect(panel(page).getByRole("link", { name: /Mum/ })).toBeVisible();
    await signOut(page, friend.name);

    await signIn(page, stranger.email, stranger.password);
    await panel(page).getByRole("link", { name: new RegExp(owner.name) }).click();
    await page.getByRole("button", { name: sh("share.refuse") }).click();
    await expect(page.getByRole("status")).toHaveText(sh("messages.operateSuccess"));
    await signOut(page, stranger.name);

    await signIn(page, owner.email, owner.password);
    await panel(page).getByRole("link", { name: sh("panel.sharedWithOthers") }).click();
    await expect(panel(page).getByRole("link", { name: new RegExp(stranger.name) })).toContainText(sh("status.refused"));
    await expect(panel(page).getByRole("link", { name: new RegExp(friend.name) })).not.toContainText(sh("status.waiting"));
  });

  test("the email link accepts an invitation without signing in, once", async ({ page, browser }) => {
    const clinic = await createUser({ tag: "mail-clinic", identity: 2, firstName: "Mara", lastName: "Medic" });
    const patient = await createUser({ tag: "mail-patient", identity: 1, firstName: "Paul", lastName: "Mailed" });
    await signIn(page, clinic.email, clinic.password, 2);
    await searchAndAct(page, patient.email, "add.invite");

    const mail = (await mailTo(patient.email)).at(-1)!;
    expect(mail.subject).toBe(tr("en", "invitation.subject", "mail").replace("{{doctorName}}", clinic.name));
    const link = mail.text.match(/https?:\/\/\S+\/invite_result\?\S+/)![0];
    const visitor = await browser.newContext({ javaScriptEnabled: test.info().project.use.javaScriptEnabled });
    const guest = await visitor.newPage();
    await guest.goto(link.replace(/^https?:\/\/[^/]+/, ""));
    await expect(guest.getByText(sh("invite.body", { doctorName: clinic.name }))).toBeVisible();
    await guest.getByRole("button", { name: sh("invite.agree"), exact: true }).click();
    await expect(guest.getByRole("status")).toHaveText(sh("invite.agreed", { doctorName: clinic.name }));
    await guest.goto(link.replace(/^https?:\/\/[^/]+/, ""));
    await expect(guest.getByText(tr("en", "errors.linkUsed", "sharing"))).toBeVisible();
    await visitor.close();

    await page.reload();
    await panel(page).getByRole("link", { name: new RegExp(patient.name) }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(patient.name);
  });

  test("the search finds a user only by the whole email, never by a part of it", async ({ page }) => {
    const owner = await createUser({ tag: "search-owner", identity: 1, firstName: "Sue", lastName: "Searcher" });
    const target = await createUser({ tag: "search-target", identity: 1, firstName: "Tom", lastName: "Target" });
    await signIn(page, owner.email, owner.password);
    await panel(page).getByRole("link", { name: sh("panel.newShare") }).click();
    const drawer = page.getByRole("region", { name: sh("add.shareTitle") });
    const box = drawer.getByRole("searchbox", { name: sh("add.searchLabel") });
    await expect(box).toHaveAttribute("placeholder", sh("add.searchPlaceholder"));
    await box.fill(target.email.slice(0, 12));
    await drawer.getByRole("button", { name: sh("panel.searchButton") }).click();
    await expect(page.getByText(sh("add.noResults"))).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: target.name })).toHaveCount(0);
    await box.fill(` ${target.email.toUpperCase()} `);
    await drawer.getByRole("button", { name: sh("panel.searchButton") }).click();
    await expect(page.getByRole("row").filter({ hasText: target.name })).toHaveCount(1);
    await expect(page.getByRole("row")).toHaveCount(2);
  });

  test("the list pages by 10 once there are 11 entries", async ({ page }) => {
    const clinic = await createUser({ tag: "page-clinic", identity: 2, firstName: "Paula", lastName: "Pager" });
    for (let i = 0; i < 11; i++) {
      const patient = await createUser({ tag: `page-p${i}`, identity: 1, firstName: `Pat${String(i).padStart(2, "0")}`, lastName: "Paged" });
      await createAcceptedShare(patient.id, clinic.id);
    }
    await signIn(page, clinic.email, clinic.password, 2);
    await expect(panel(page).getByRole("listitem")).toHaveCount(10);
    await expect(panel(page).getByText(sh("panel.pageOf", { page: 1, pages: 2 }))).toBeVisible();
    await panel(page).getByRole("link", { name: sh("panel.next") }).click();
    await expect(panel(page).getByRole("listitem")).toHaveCount(1);
    await expect(panel(page).getByText(sh("panel.pageOf", { page: 2, pages: 2 }))).toBeVisible();
  });
});
