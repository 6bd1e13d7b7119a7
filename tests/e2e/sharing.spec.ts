import { expect, test, type Locator, type Page } from "@playwright/test";
import { createAcceptedShare, createShareRequest, createUser } from "./db";
import { tr } from "./i18n";
import { jsEnabled, mailTo, signIn, signOut } from "./support";

const sh = (key: string, values: Record<string, string | number> = {}) =>
  Object.entries(values).reduce(
    (text, [k, v]) => text.replace(`{{${k}}}`, String(v)),
    tr("en", key, "sharing"),
  );
const panel = (page: Page) => page.getByRole("complementary", { name: sh("panel.label") });

/** The add-share / add-invite drawer: a modal dialog with JavaScript, a page section without. */
const drawer = (page: Page, title: string) =>
  jsEnabled()
    ? page.getByRole("dialog", { name: title })
    : page.getByRole("region", { name: title });

/** Closes the drawer with its close button (a link on the page without JavaScript): back to the list. */
async function closeDrawer(page: Page, open: Locator) {
  await open.getByRole(jsEnabled() ? "button" : "link", { name: sh("add.close") }).click();
  await expect(page).toHaveURL(/\/patientShow\/patients$/);
  await expect(open).toHaveCount(0);
}

async function searchAndAct(page: Page, email: string, action: "add.invite" | "add.share") {
  await panel(page)
    .getByRole("link", { name: sh("panel.newShare") })
    .click();
  const open = drawer(page, sh(action === "add.invite" ? "add.inviteTitle" : "add.shareTitle"));
  await open.getByRole("searchbox", { name: sh("add.searchLabel") }).fill(email);
  await open.getByRole("button", { name: sh("panel.searchButton") }).click();
  const row = open
    .getByRole("table", { name: sh("add.results") })
    .getByRole("row")
    .filter({ hasText: email.slice(0, 18) });
  await row.getByRole("button", { name: new RegExp(`^${sh(action)}`) }).click();
  await expect(open.getByRole("status")).toHaveText(
    sh(action === "add.invite" ? "messages.inviteSuccess" : "messages.shareSuccess"),
  );
  await expect(
    row.getByRole("button", { name: sh(action === "add.invite" ? "add.invited" : "add.shared") }),
  ).toBeDisabled();
  // The new request heads the drawer's own list, waiting for its answer.
  const mine = open.getByRole("table", {
    name: sh(action === "add.invite" ? "add.sentInvites" : "add.sentShares"),
  });
  await expect(mine.getByRole("row").nth(1)).toContainText(email.slice(0, 18));
  await expect(mine.getByRole("row").nth(1)).toContainText(sh("status.waiting"));
  await closeDrawer(page, open);
}

test.describe("sharing", () => {
  test("a clinic invites a patient, the patient accepts, the clinic sees the patient with the dot badge", async ({
    page,
  }) => {
    const clinic = await createUser({
      tag: "inv-clinic",
      identity: 2,
      firstName: "Clara",
      lastName: "Clinic",
    });
    const patient = await createUser({
      tag: "inv-patient",
      identity: 1,
      firstName: "Pia",
      lastName: "Patient",
    });

    await signIn(page, clinic.email, clinic.password, 2);
    await searchAndAct(page, patient.email, "add.invite");
    await expect(panel(page).getByRole("link", { name: new RegExp(patient.name) })).toContainText(
      sh("status.waiting"),
    );
    await signOut(page, clinic.name);

    await signIn(page, patient.email, patient.password);
    await panel(page)
      .getByRole("link", { name: sh("panel.sharedWithOthers") })
      .click();
    await panel(page)
      .getByRole("link", { name: new RegExp(clinic.name) })
      .click();
    await expect(
      page.getByText(sh("share.inviteReceived", { name: clinic.name, email: clinic.email })),
    ).toBeVisible();
    await page.getByRole("button", { name: sh("share.approve") }).click();
    await expect(page.getByRole("status")).toHaveText(sh("messages.operateSuccess"));
    await signOut(page, patient.name);

    await signIn(page, clinic.email, clinic.password, 2);
    const entry = panel(page).getByRole("link", { name: new RegExp(patient.name) });
    await expect(entry.getByRole("img", { name: sh("panel.newData") })).toBeVisible();
    await entry.click();
    await expect(page).toHaveURL(
      new RegExp(`/patientShow/${patient.pid}/${patient.id}/patientHome`),
    );
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(patient.name);
    await page.reload();
    await expect(
      panel(page)
        .getByRole("link", { name: new RegExp(patient.name) })
        .getByRole("img", { name: sh("panel.newData") }),
    ).toHaveCount(0);
  });

  test("a patient shares with a person who accepts with a nickname; another refuses", async ({
    page,
  }) => {
    // Four sign-ins (argon2id each) and four sign-outs in one flow on a 2-core machine.
    test.setTimeout(90_000);
    const owner = await createUser({
      tag: "share-owner",
      identity: 1,
      firstName: "Olga",
      lastName: "Owner",
    });
    const friend = await createUser({
      tag: "share-friend",
      identity: 1,
      firstName: "Fred",
      lastName: "Friend",
    });
    const stranger = await createUser({
      tag: "share-refuser",
      identity: 1,
      firstName: "Rita",
      lastName: "Refuser",
    });

    await signIn(page, owner.email, owner.password);
    await searchAndAct(page, friend.email, "add.share");
    await searchAndAct(page, stranger.email, "add.share");
    await signOut(page, owner.name);

    await signIn(page, friend.email, friend.password);
    await panel(page)
      .getByRole("link", { name: new RegExp(owner.name) })
      .click();
    await page.getByLabel(sh("share.nickName")).fill("Mum");
    await page.getByRole("button", { name: sh("share.approve") }).click();
    await expect(page.getByRole("status")).toHaveText(sh("messages.operateSuccess"));
    await expect(panel(page).getByRole("link", { name: /Mum/ })).toBeVisible();
    await signOut(page, friend.name);

    await signIn(page, stranger.email, stranger.password);
    await panel(page)
      .getByRole("link", { name: new RegExp(owner.name) })
      .click();
    await page.getByRole("button", { name: sh("share.refuse") }).click();
    await expect(page.getByRole("status")).toHaveText(sh("messages.operateSuccess"));
    await signOut(page, stranger.name);

    await signIn(page, owner.email, owner.password);
    await panel(page)
      .getByRole("link", { name: sh("panel.sharedWithOthers") })
      .click();
    await expect(panel(page).getByRole("link", { name: new RegExp(stranger.name) })).toContainText(
      sh("status.refused"),
    );
    await expect(
      panel(page).getByRole("link", { name: new RegExp(friend.name) }),
    ).not.toContainText(sh("status.waiting"));
  });

  test("the email link accepts an invitation without signing in, once", async ({
    page,
    browser,
  }) => {
    const clinic = await createUser({
      tag: "mail-clinic",
      identity: 2,
      firstName: "Mara",
      lastName: "Medic",
    });
    const patient = await createUser({
      tag: "mail-patient",
      identity: 1,
      firstName: "Paul",
      lastName: "Mailed",
    });
    await signIn(page, clinic.email, clinic.password, 2);
    await searchAndAct(page, patient.email, "add.invite");

    const mail = (await mailTo(patient.email)).at(-1)!;
    expect(mail.subject).toBe(
      tr("en", "invitation.subject", "mail").replace("{{doctorName}}", clinic.name),
    );
    const link = mail.text.match(/https?:\/\/\S+\/invite_result\?\S+/)![0];
    const visitor = await browser.newContext({
      javaScriptEnabled: test.info().project.use.javaScriptEnabled,
    });
    const guest = await visitor.newPage();
    await guest.goto(link.replace(/^https?:\/\/[^/]+/, ""));
    await expect(guest.getByText(sh("invite.body", { doctorName: clinic.name }))).toBeVisible();
    await guest.getByRole("button", { name: sh("invite.agree"), exact: true }).click();
    await expect(guest.getByRole("status")).toHaveText(
      sh("invite.agreed", { doctorName: clinic.name }),
    );
    await guest.goto(link.replace(/^https?:\/\/[^/]+/, ""));
    await expect(guest.getByText(tr("en", "errors.linkUsed", "sharing"))).toBeVisible();
    await visitor.close();

    await page.reload();
    await panel(page)
      .getByRole("link", { name: new RegExp(patient.name) })
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(patient.name);
  });

  test("the search finds a user only by the whole email, never by a part of it", async ({
    page,
  }) => {
    const owner = await createUser({
      tag: "search-owner",
      identity: 1,
      firstName: "Sue",
      lastName: "Searcher",
    });
    const target = await createUser({
      tag: "search-target",
      identity: 1,
      firstName: "Tom",
      lastName: "Target",
    });
    await signIn(page, owner.email, owner.password);
    await panel(page)
      .getByRole("link", { name: sh("panel.newShare") })
      .click();
    const open = drawer(page, sh("add.shareTitle"));
    const box = open.getByRole("searchbox", { name: sh("add.searchLabel") });
    await expect(box).toHaveAttribute("placeholder", sh("add.searchPlaceholder"));
    await box.fill(target.email.slice(0, 12));
    await open.getByRole("button", { name: sh("panel.searchButton") }).click();
    await expect(open.getByText(sh("add.noResults"))).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: target.name })).toHaveCount(0);
    await box.fill(` ${target.email.toUpperCase()} `);
    await open.getByRole("button", { name: sh("panel.searchButton") }).click();
    const results = open.getByRole("table", { name: sh("add.results") });
    await expect(results.getByRole("row").filter({ hasText: target.name })).toHaveCount(1);
    await expect(results.getByRole("row")).toHaveCount(2);
  });

  test("the add drawer opens over the list at its own address, keeps the focus inside, and closes back to the list", async ({
    page,
  }) => {
    const owner = await createUser({
      tag: "drawer-owner",
      identity: 1,
      firstName: "Dora",
      lastName: "Drawer",
    });
    await signIn(page, owner.email, owner.password);
    const opener = page.getByRole("link", { name: sh("panel.newShare"), includeHidden: true });
    await opener.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/patientShow\/add$/);
    const open = drawer(page, sh("add.shareTitle"));
    await expect(open).toBeVisible();
    await expect(open.getByText(sh("add.noSentShares"))).toBeVisible();
    // The search's own message shows where the search is.
    await open.getByRole("button", { name: sh("panel.searchButton") }).click();
    await expect(open.getByRole("alert")).toHaveText(sh("errors.addShareTxt"));
    if (jsEnabled()) {
      // Tab and Shift+Tab go round the drawer's controls and never leave it.
      await expect(page.getByRole("dialog")).toHaveCount(1);
      const focused: string[] = [];
      for (const key of [...Array(8).fill("Tab"), ...Array(8).fill("Shift+Tab")]) {
        await page.keyboard.press(key);
        expect(
          await open.evaluate(
            (dialog) =>
              dialog.contains(document.activeElement) && document.activeElement !== dialog,
          ),
        ).toBe(true);
        focused.push(
          await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 60) ?? ""),
        );
      }
      expect(new Set(focused).size).toBeGreaterThanOrEqual(3);
      expect(focused.slice(0, 8).filter((html) => html === focused[0]!).length).toBeGreaterThan(1);
      // Escape closes it, back at the list's address, with the focus on the link that opened it.
      await page.keyboard.press("Escape");
      await expect(open).toHaveCount(0);
      await expect(page).toHaveURL(/\/patientShow\/patients$/);
      await expect(opener).toBeFocused();
    } else {
      // Without JavaScript the drawer is the page itself.
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await closeDrawer(page, open);
    }
    // The address opens it directly, over the list.
    await page.goto("/patientShow/add");
    await expect(open).toBeVisible();
    await expect(
      page.getByRole("complementary", { name: sh("panel.label"), includeHidden: true }),
    ).toBeVisible();
    await closeDrawer(page, open);
    if (jsEnabled()) await expect(opener).toBeFocused();
  });

  test("the drawer's list of one's own shares pages by 10, also without JavaScript, and shares again after a refusal", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const owner = await createUser({
      tag: "sent-owner",
      identity: 1,
      firstName: "Sam",
      lastName: "Sender",
    });
    for (let i = 0; i < 11; i++) {
      const reader = await createUser({
        tag: `sent-r${i}`,
        identity: 1,
        firstName: `Reader${String(i).padStart(2, "0")}`,
        lastName: "Listed",
      });
      // The newest (Reader10) refused; the others wait.
      await createShareRequest(
        owner.id,
        reader.id,
        i === 10 ? 2 : 0,
        new Date(Date.UTC(2026, 0, 1 + i)),
      );
    }
    await signIn(page, owner.email, owner.password);
    await page.goto("/patientShow/add");
    const open = drawer(page, sh("add.shareTitle"));
    const mine = open.getByRole("table", { name: sh("add.sentShares") });
    await expect(mine.getByRole("row")).toHaveCount(11);
    await expect(mine.getByRole("row").nth(1)).toContainText("Reader10 Listed");
    await expect(open.getByText(sh("panel.pageOf", { page: 1, pages: 2 }))).toBeVisible();
    await open
      .getByRole("navigation", { name: sh("add.sentPages") })
      .getByRole("link", { name: sh("panel.next") })
      .click();
    await expect(page).toHaveURL(/\/patientShow\/add\?sentPage=2$/);
    await expect(mine.getByRole("row")).toHaveCount(2);
    await expect(mine.getByRole("row").nth(1)).toContainText("Reader00 Listed");
    await expect(mine.getByRole("row").nth(1)).toContainText(sh("status.waiting"));
    await expect(open.getByText(sh("panel.pageOf", { page: 2, pages: 2 }))).toBeVisible();
    await open.getByRole("link", { name: sh("panel.previous") }).click();
    await expect(page).toHaveURL(/\/patientShow\/add$/);
    const refused = mine.getByRole("row").filter({ hasText: "Reader10 Listed" });
    await expect(refused).toContainText(sh("status.refused"));
    await refused.getByRole("button", { name: `${sh("add.shareAgain")}: Reader10 Listed` }).click();
    await expect(open.getByRole("status")).toHaveText(sh("messages.shareSuccess"));
    await expect(refused).toContainText(sh("status.waiting"));
    await expect(
      refused.getByRole("link", { name: `${sh("add.details")}: Reader10 Listed` }),
    ).toBeVisible();
  });

  test("the list pages by 10 once there are 11 entries", async ({ page }) => {
    const clinic = await createUser({
      tag: "page-clinic",
      identity: 2,
      firstName: "Paula",
      lastName: "Pager",
    });
    for (let i = 0; i < 11; i++) {
      const patient = await createUser({
        tag: `page-p${i}`,
        identity: 1,
        firstName: `Pat${String(i).padStart(2, "0")}`,
        lastName: "Paged",
      });
      await createAcceptedShare(patient.id, clinic.id);
    }
    await signIn(page, clinic.email, clinic.password, 2);
    await expect(panel(page).getByRole("listitem")).toHaveCount(10);
    await expect(panel(page).getByText(sh("panel.pageOf", { page: 1, pages: 2 }))).toBeVisible();
    await panel(page)
      .getByRole("link", { name: sh("panel.next") })
      .click();
    await expect(panel(page).getByRole("listitem")).toHaveCount(1);
    await expect(panel(page).getByText(sh("panel.pageOf", { page: 2, pages: 2 }))).toBeVisible();
  });
});
