import { expect, test, type Page } from "@playwright/test";
import {
  addCgmReadings,
  ageRequest,
  completeHealthRecord,
  createInvitation,
  createUser,
  readsLogged,
} from "./db";
import { tr, type Lng } from "./i18n";
import { jsEnabled, signIn, signInWithLanguage, signOut } from "./support";

/** A caring string in English, with its values. */
const ca = (key: string, values: Record<string, string | number> = {}, lng: Lng = "en") =>
  Object.entries(values).reduce(
    (text, [k, v]) => text.replace(`{{${k}}}`, String(v)),
    tr(lng, key, "caring"),
  );
const sh = (key: string) => tr("en", key, "sharing");
const vw = (key: string) => tr("en", key, "views");
const header = (page: Page) => page.getByRole("navigation", { name: tr("en", "nav.main") });

test.describe("remote caring", () => {
  test("a person completes their health information first; the header leads to the caring pages", async ({
    page,
  }) => {
    const person = await createUser({
      tag: "care-first",
      identity: 1,
      firstName: "Fay",
      lastName: "First",
    });
    await signIn(page, person.email, person.password);
    await header(page)
      .getByRole("link", { name: tr("en", "nav.caring") })
      .click();
    await expect(page).toHaveURL(/\/caring$/);
    const missing = page.getByTestId("caring-missing");
    await expect(missing.getByRole("heading", { name: ca("missing.title") })).toBeVisible();
    await expect(missing).toContainText(ca("missing.health"));
    await expect(missing).not.toContainText(ca("missing.account"));
    await expect(missing.getByRole("link", { name: ca("missing.healthLink") })).toHaveAttribute(
      "href",
      "/patient",
    );
    // Every caring page says the same until it is done, reading nothing.
    await page.goto("/caringpatients");
    await expect(page.getByTestId("caring-missing")).toContainText(ca("missing.health"));

    await completeHealthRecord(person.id);
    await page.goto("/caring");
    await expect(page.getByTestId("caring-missing")).toHaveCount(0);
    await expect(page.getByTestId("caring-count-patients")).toHaveText(
      ca("hub.patientsCount", { count: 0 }),
    );
    await page
      .getByRole("heading", { name: ca("menu.add") })
      .getByRole("link")
      .click();
    await expect(page).toHaveURL(/\/caringadd$/);
    await expect(page.getByText(ca("hub.cgmNote"))).toBeVisible();
  });

  test("a person invites a relative by email; once accepted, the carer sees the current glucose, trend and alarm, and the details, each read in the relative's access log", async ({
    page,
  }) => {
    // Three sign-ins (argon2id each) and two sign-outs on a 2-core machine.
    test.setTimeout(90_000);
    const carer = await createUser({
      tag: "care-carer",
      identity: 1,
      firstName: "Cara",
      lastName: "Carer",
    });
    const relative = await createUser({
      tag: "care-relative",
      identity: 1,
      firstName: "Rolf",
      lastName: "Relative",
    });
    await completeHealthRecord(carer.id);
    // 100, 110, 120, 130 mg/dL every 5 minutes: +2 mg/dL a minute (0.11 mmol/L/min), rising;
    // 130 mg/dL = 7.2 mmol/L, within the default 3.9-10.0.
    await addCgmReadings(relative.pid!, [
      [16, 100],
      [11, 110],
      [6, 120],
      [1, 130],
    ]);

    await signIn(page, carer.email, carer.password);
    await page.goto("/caringadd");
    await page.getByRole("searchbox", { name: ca("add.searchLabel") }).fill(relative.email);
    await page.getByRole("button", { name: sh("panel.searchButton") }).click();
    const found = page.getByRole("table", { name: ca("add.results") });
    await found.getByRole("button", { name: `${sh("add.invite")}: ${relative.name}` }).click();
    await expect(page.getByRole("status")).toHaveText(sh("messages.inviteSuccess"));
    await page.goto("/caringpedding");
    const waiting = page.getByRole("row").filter({ hasText: relative.email });
    await expect(waiting).toContainText(ca("pending.kinds.invitation"));
    await expect(waiting).toContainText(sh("status.waiting"));
    await signOut(page, carer.name);

    await signIn(page, relative.email, relative.password);
    await page
      .getByRole("complementary", { name: sh("panel.label") })
      .getByRole("link", { name: sh("panel.sharedWithOthers") })
      .click();
    await page
      .getByRole("complementary", { name: sh("panel.label") })
      .getByRole("link", { name: new RegExp(carer.name) })
      .click();
    await page.getByRole("button", { name: sh("share.approve") }).click();
    await expect(page.getByRole("status")).toHaveText(sh("messages.operateSuccess"));
    await signOut(page, relative.name);

    await signIn(page, carer.email, carer.password);
    await page.goto("/caringpatients");
    const row = page.getByRole("row").filter({ hasText: relative.email });
    await expect(row).toContainText("7.2 mmol/L");
    await expect(row).toContainText(/\d+ minutes? ago/);
    await expect(row).toContainText(vw("cgms.trends.rising"));
    await expect(row).toContainText(vw("cgms.alarms.none"));
    await row.getByRole("link", { name: relative.name }).click();
    await expect(page).toHaveURL(new RegExp(`/${relative.id}/caringdetail$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(relative.name);
    const latest = page.getByTestId("caring-latest");
    await expect(latest).toContainText("7.2 mmol/L");
    await expect(latest).toContainText(ca("detail.none"));
    await page.getByRole("link", { name: vw("reports.cgm") }).click();
    await expect(page).toHaveURL(new RegExp(`/${relative.pid}/cgmsprint$`));

    expect(
      (await readsLogged(relative.pid!, carer.id)).filter((r) =>
        r.action.startsWith("read:caring"),
      ),
    ).toEqual([
      { action: "read:caringList", channel: "page" },
      { action: "read:caringDetail", channel: "page" },
    ]);
    // A stranger's page answers like a page that does not exist.
    const stranger = await createUser({
      tag: "care-stranger",
      identity: 1,
      firstName: "Stan",
      lastName: "Stranger",
    });
    const response = await page.goto(`/${stranger.id}/caringdetail`);
    expect(response?.status()).toBe(404);
    expect(await readsLogged(stranger.pid!, carer.id)).toEqual([]);
  });

  test("a clinic's pending requests: an expired invitation is sent again, a refused one deleted after confirming", async ({
    page,
  }) => {
    const clinic = await createUser({
      tag: "care-clinic",
      identity: 2,
      firstName: "Clio",
      lastName: "Clinic",
    });
    const expired = await createUser({
      tag: "care-expired",
      identity: 1,
      firstName: "Eve",
      lastName: "Expired",
    });
    const refused = await createUser({
      tag: "care-refused",
      identity: 1,
      firstName: "Ray",
      lastName: "Refused",
    });
    await createInvitation(expired.id, clinic.id, 0);
    await ageRequest(expired.id, clinic.id, 15);
    await createInvitation(refused.id, clinic.id, 2);

    await signIn(page, clinic.email, clinic.password, 2);
    await header(page)
      .getByRole("link", { name: tr("en", "nav.caring") })
      .click();
    await expect(page.getByTestId("caring-count-pending")).toHaveText(
      ca("hub.pendingCount", { count: 2 }),
    );
    await page
      .getByRole("navigation", { name: ca("menu.label") })
      .getByRole("link", { name: ca("menu.pending") })
      .click();
    const expiredRow = page.getByRole("row").filter({ hasText: expired.email });
    await expect(expiredRow).toContainText(sh("status.expired"));
    await expiredRow
      .getByRole("button", { name: `${ca("pending.sendAgain")}: ${expired.name}` })
      .click();
    await expect(page.getByRole("status")).toHaveText(sh("messages.inviteSuccess"));
    await expect(expiredRow).toContainText(sh("status.waiting"));

    const refusedRow = page.getByRole("row").filter({ hasText: refused.email });
    await expect(refusedRow).toContainText(sh("status.refused"));
    await refusedRow
      .getByRole("link", { name: `${ca("pending.delete")}: ${refused.name}` })
      .click();
    await expect(page.getByRole("alert")).toHaveText(
      ca("pending.deleteConfirm", { name: refused.name }),
    );
    // "No" keeps it.
    await page.getByRole("link", { name: ca("pending.deleteNo") }).click();
    await expect(page.getByRole("alert")).toHaveCount(0);
    await refusedRow
      .getByRole("link", { name: `${ca("pending.delete")}: ${refused.name}` })
      .click();
    await page.getByRole("button", { name: ca("pending.deleteYes") }).click();
    await expect(page.getByRole("status")).toHaveText(ca("pending.deleted"));
    await expect(page.getByRole("row").filter({ hasText: refused.email })).toHaveCount(0);
    await expect(page.getByRole("row").filter({ hasText: expired.email })).toHaveCount(1);
  });

  test("the health file: gender and diabetes type required, typed data kept after a refused submit; with JavaScript leaving asks first", async ({
    page,
  }) => {
    const carer = await createUser({
      tag: "care-file",
      identity: 1,
      firstName: "Fern",
      lastName: "File",
    });
    await completeHealthRecord(carer.id);
    await signIn(page, carer.email, carer.password);
    await page.goto("/caringadd");
    await page.getByRole("link", { name: ca("add.byFile") }).click();
    await expect(page).toHaveURL(/\/caringadd\?by=file$/);
    const email = `file-${Date.now()}@e2e.diacare.test`;
    await page.getByLabel(tr("en", "fields.email", "record")).fill(email);
    await page.getByLabel(tr("en", "fields.firstName", "record")).fill("Nina");
    await page
      .getByLabel(tr("en", "fields.lowLimit", "record").replace("{{unit}}", "mmol/L"))
      .fill("3.9");
    await page
      .getByLabel(tr("en", "fields.highLimit", "record").replace("{{unit}}", "mmol/L"))
      .fill("10");
    await page.getByRole("button", { name: tr("en", "add.submit", "record") }).click();
    await expect(page.getByText(tr("en", "errors.genderMsg", "record"))).toBeVisible();
    await expect(page.getByText(tr("en", "errors.diabetesTypeMsg", "record"))).toBeVisible();
    await expect(page.getByLabel(tr("en", "fields.email", "record"))).toHaveValue(email);
    await expect(page.getByLabel(tr("en", "fields.firstName", "record"))).toHaveValue("Nina");

    if (jsEnabled()) {
      await page
        .getByRole("navigation", { name: ca("menu.label") })
        .getByRole("link", { name: ca("menu.patients") })
        .click();
      const dialog = page.getByRole("alertdialog", { name: tr("en", "add.leaveTitle", "record") });
      await expect(dialog).toBeVisible();
      await dialog.getByRole("button", { name: tr("en", "add.stay", "record") }).click();
      await expect(page).toHaveURL(/\/caringadd\?by=file$/);
      await expect(page.getByLabel(tr("en", "fields.email", "record"))).toHaveValue(email);
    }

    await page.getByLabel(tr("en", "gender.female", "record"), { exact: true }).check();
    await page
      .getByLabel(tr("en", "fields.diabetesType", "record"))
      .selectOption({ label: tr("en", "names.type1", "options") });
    await page.getByRole("button", { name: tr("en", "add.submit", "record") }).click();
    await expect(page.getByRole("status")).toContainText(email);
    await page.getByRole("link", { name: ca("add.openPending") }).click();
    const row = page.getByRole("row").filter({ hasText: email });
    await expect(row).toContainText(ca("pending.kinds.created"));
    await expect(row).toContainText(ca("pending.notActivated"));
  });

  test("in Russian, remote caring is a clinic's only: a person has no link and the page is a 404", async ({
    page,
  }) => {
    const person = await createUser({
      tag: "care-ru-person",
      identity: 1,
      firstName: "Ivan",
      lastName: "Petrov",
      lang: "ru",
    });
    await signInWithLanguage(page, person, "ru", 1);
    await expect(
      page.getByRole("navigation", { name: tr("ru", "nav.main") }).getByRole("link", {
        name: tr("ru", "nav.caring"),
      }),
    ).toHaveCount(0);
    expect((await page.goto("/caring"))?.status()).toBe(404);
    await page.context().clearCookies();

    const clinic = await createUser({
      tag: "care-ru-clinic",
      identity: 2,
      firstName: "Olga",
      lastName: "Klinika",
      lang: "ru",
    });
    await signInWithLanguage(page, clinic, "ru", 2);
    await page
      .getByRole("navigation", { name: tr("ru", "nav.main") })
      .getByRole("link", { name: tr("ru", "nav.caring") })
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(ca("hub.title", {}, "ru"));
  });
});
