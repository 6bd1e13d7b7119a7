import { expect, test, type Page } from "@playwright/test";
import { ageRequest, createShareRequest, createUser } from "./db";
import { tr } from "./i18n";
import { jsEnabled, mailTo, signIn, signOut } from "./support";

// A share request or invitation still waiting 14 days after it was sent has expired: the lists
// say so, it can no longer be answered (the email link says that it has expired), and sending it
// again starts it anew. Requests are aged by moving their sending time back in the database.

const sh = (key: string, values: Record<string, string | number> = {}) =>
  Object.entries(values).reduce(
    (text, [k, v]) => text.replace(`{{${k}}}`, String(v)),
    tr("en", key, "sharing", typeof values.count === "number" ? values.count : undefined),
  );
const panel = (page: Page) => page.getByRole("complementary", { name: sh("panel.label") });
const drawer = (page: Page, title: string) =>
  jsEnabled()
    ? page.getByRole("dialog", { name: title })
    : page.getByRole("region", { name: title });
const linkIn = (text: string) =>
  text.match(/https?:\/\/\S+\/invite_result\?\S+/)![0].replace(/^https?:\/\/[^/]+/, "");

test.describe("expired share requests and invitations", () => {
  test("a clinic sees its expired invitation, whose email link says so, and invites again with a new email", async ({
    page,
    browser,
  }) => {
    const clinic = await createUser({
      tag: "exp-clinic",
      identity: 2,
      firstName: "Edna",
      lastName: "Expiry",
    });
    const patient = await createUser({
      tag: "exp-patient",
      identity: 1,
      firstName: "Otto",
      lastName: "Late",
    });
    await signIn(page, clinic.email, clinic.password, 2);
    await panel(page)
      .getByRole("link", { name: sh("panel.newInvite") })
      .click();
    let open = drawer(page, sh("add.inviteTitle"));
    await open.getByRole("searchbox", { name: sh("add.searchLabel") }).fill(patient.email);
    await open.getByRole("button", { name: sh("panel.searchButton") }).click();
    await open.getByRole("button", { name: `${sh("add.invite")}: ${patient.name}` }).click();
    await expect(open.getByRole("status")).toHaveText(sh("messages.inviteSuccess"));
    await expect.poll(async () => (await mailTo(patient.email)).length).toBe(1);
    const firstLink = linkIn((await mailTo(patient.email))[0]!.text);

    await ageRequest(patient.id, clinic.id, 15);

    // The email link: the invitation has expired, and there is nothing to answer.
    const visitor = await browser.newContext({ javaScriptEnabled: jsEnabled() });
    const guest = await visitor.newPage();
    await guest.goto(firstLink);
    await expect(guest.getByText(sh("errors.invitationExpired"))).toBeVisible();
    await expect(guest.getByRole("button", { name: sh("invite.agree"), exact: true })).toHaveCount(
      0,
    );

    // The clinic's list and drawer: expired, with "Invite again".
    await page.goto("/patientShow/patients");
    await expect(panel(page).getByRole("link", { name: new RegExp(patient.name) })).toContainText(
      sh("status.expired"),
    );
    await panel(page)
      .getByRole("link", { name: sh("panel.newInvite") })
      .click();
    open = drawer(page, sh("add.inviteTitle"));
    const sent = open
      .getByRole("table", { name: sh("add.sentInvites") })
      .getByRole("row")
      .filter({ hasText: patient.name });
    await expect(sent).toContainText(sh("status.expired"));
    await sent.getByRole("button", { name: `${sh("add.inviteAgain")}: ${patient.name}` }).click();
    await expect(open.getByRole("status")).toHaveText(sh("messages.inviteSuccess"));
    await expect(sent).toContainText(sh("status.waiting"));

    // A new email whose link works; the first link does not.
    await expect.poll(async () => (await mailTo(patient.email)).length).toBe(2);
    const secondLink = linkIn((await mailTo(patient.email))[1]!.text);
    expect(secondLink).not.toBe(firstLink);
    await guest.goto(firstLink);
    await expect(guest.getByText(sh("errors.linkInvalid"))).toBeVisible();
    await guest.goto(secondLink);
    await expect(guest.getByText(sh("invite.body", { doctorName: clinic.name }))).toBeVisible();
    await guest.getByRole("button", { name: sh("invite.agree"), exact: true }).click();
    await expect(guest.getByRole("status")).toHaveText(
      sh("invite.agreed", { doctorName: clinic.name }),
    );
    await visitor.close();
  });

  test("an expired share request cannot be accepted by its reader; its sender shares again from its page", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const owner = await createUser({
      tag: "exp-owner",
      identity: 1,
      firstName: "Olive",
      lastName: "Sender",
    });
    const reader = await createUser({
      tag: "exp-reader",
      identity: 1,
      firstName: "Rupert",
      lastName: "Slow",
    });
    await createShareRequest(owner.id, reader.id, 0, new Date());
    await ageRequest(owner.id, reader.id, 14);

    // The reader: the request is listed as expired and offers no answer.
    await signIn(page, reader.email, reader.password);
    const incoming = panel(page).getByRole("link", { name: new RegExp(owner.name) });
    await expect(incoming).toContainText(sh("status.expired"));
    await incoming.click();
    await expect(
      page.getByText(sh("share.shareReceived", { name: owner.name, email: owner.email })),
    ).toBeVisible();
    await expect(page.getByText(`${sh("share.status")} ${sh("status.expired")}`)).toBeVisible();
    await expect(page.getByText(sh("share.expiredHint", { count: 14 }))).toBeVisible();
    await expect(page.getByRole("button", { name: sh("share.approve") })).toHaveCount(0);
    await signOut(page, reader.name);

    // The sender: expired in "shared with others"; "Share again" makes it wait once more.
    await signIn(page, owner.email, owner.password);
    await panel(page)
      .getByRole("link", { name: sh("panel.sharedWithOthers") })
      .click();
    const outgoing = panel(page).getByRole("link", { name: new RegExp(reader.name) });
    await expect(outgoing).toContainText(sh("status.expired"));
    await outgoing.click();
    await page.getByRole("button", { name: sh("add.shareAgain") }).click();
    await expect(page.getByRole("status")).toHaveText(sh("messages.shareSuccess"));
    await expect(page.getByText(`${sh("share.status")} ${sh("status.waiting")}`)).toBeVisible();
    await expect(page.getByRole("button", { name: sh("add.shareAgain") })).toHaveCount(0);
    await expect(outgoing).toContainText(sh("status.waiting"));
  });
});
