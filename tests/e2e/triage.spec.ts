import { expect, test, type Page } from "@playwright/test";
import {
  addCgmReadings,
  addFinishedUpload,
  createAcceptedShare,
  createShareRequest,
  createUser,
  readsLogged,
  type TestUser,
} from "./db";
import { tr, type Lng } from "./i18n";
import { signIn, signInWithLanguage } from "./support";

/**
 * The clinic's triage list on /patientShow/patients, with and without JavaScript: the figures of
 * hand-made data, sorting by time in range from the column head, filtering by a flag, the reader's
 * language and unit, and who sees no list (a person, a clinic still under audit, a patient whose
 * share is not accepted).
 */

/**
 * The patients' zone: UTC, unless UTC midnight is less than a quarter of an hour ago (the readings
 * of the last ten minutes would fall on two days); then Kolkata, whose midnight is 18:30 UTC.
 */
function zoneAwayFromMidnight(): string {
  const now = new Date();
  return now.getUTCHours() === 0 && now.getUTCMinutes() < 15 ? "Asia/Kolkata" : "UTC";
}
const DAY = 86_400_000;

/** A translation with its {{placeholders}} filled. */
function t(lng: Lng, key: string, values: Record<string, string | number> = {}, ns = "patients") {
  const count = typeof values.count === "number" ? values.count : undefined;
  return tr(lng, key, ns, count).replace(/{{\s*(\w+)\s*}}/g, (_, name: string) =>
    String(values[name]),
  );
}

/**
 * Three patients, each reading taken in the last ten minutes (one local day of data):
 * - Alpha: 5 x 60 and 5 x 120 mg/dL. Below 70: 5/10 = 50 %, below 54: 0 %, in range 5/10 = 50 %,
 *   mean 90, GMI 3.31 + 0.02392 x 90 = 5.4628 (5.5). Uploaded a day ago. Flags: below range
 *   (50 % > 4 %), in range under 70 %.
 * - Bravo: 50 and 3 x 150. Below 70 and below 54: 1/4 = 25 %, in range 3/4 = 75 %, mean
 *   (50 + 450) / 4 = 125, GMI 3.31 + 2.99 = 6.3. Last upload 10 days ago. Flags: no upload for
 *   7 days, below range.
 * - Charlie: 5 x 100. In range 100 %, below 0 %, mean 100, GMI 3.31 + 2.392 = 5.702 (5.7).
 *   Uploaded 2 days ago. No flags.
 * And Delta, whose share request the clinic has not accepted: not listed.
 */
async function clinicWithPatients(tag: string, lng: Lng = "en", unit: 0 | 1 = 0) {
  const clinic = await createUser({
    tag: `${tag}-clinic`,
    identity: 2,
    firstName: "Triage",
    lastName: "Clinic",
    lang: lng,
    unit,
  });
  const now = Date.now();
  const zone = zoneAwayFromMidnight();
  const make = async (name: string, values: number[], uploadedDaysAgo: number) => {
    const patient = await createUser({
      tag: `${tag}-${name.toLowerCase()}`,
      identity: 1,
      firstName: name,
      lastName: "Triage",
      timeZone: zone,
    });
    // One reading a minute, the newest a minute ago.
    await addCgmReadings(
      patient.pid!,
      values.map((mgdl, i) => [i + 1, mgdl]),
    );
    await addFinishedUpload(patient.pid!, patient.id, new Date(now - uploadedDaysAgo * DAY));
    return patient;
  };
  const alpha = await make("Alpha", [60, 60, 60, 60, 60, 120, 120, 120, 120, 120], 1);
  const bravo = await make("Bravo", [50, 150, 150, 150], 10);
  const charlie = await make("Charlie", [100, 100, 100, 100, 100], 2);
  const delta = await make("Delta", [40, 40], 20);
  for (const p of [alpha, bravo, charlie]) await createAcceptedShare(p.id, clinic.id);
  await createShareRequest(delta.id, clinic.id, 0, new Date());
  return { clinic, alpha, bravo, charlie, delta };
}

const table = (page: Page) => page.getByTestId("triage-table");
/** The rows' patients, in order (waits for a navigation to bring them). */
const expectRows = (page: Page, names: string[]) =>
  expect(table(page).getByTestId("triage-row").getByRole("rowheader")).toHaveText(names);

async function cells(page: Page, name: string) {
  const row = table(page).getByTestId("triage-row").filter({ hasText: name });
  const col = (c: string) => row.locator(`[data-col="${c}"]`).innerText();
  return {
    days: await col("days"),
    tir: await col("tir"),
    below70: await col("below70"),
    below54: await col("below54"),
    gmi: await col("gmi"),
    flags: await row
      .locator("[data-flag]")
      .evaluateAll((els) => els.map((el) => el.getAttribute("data-flag"))),
  };
}

test.describe("the clinic's triage list", () => {
  test("shows each patient's figures, sorts by time in range from the column head and filters by a flag", async ({
    page,
  }) => {
    const s = await clinicWithPatients("triage-sort");
    await signIn(page, s.clinic.email, s.clinic.password, 2);
    await page.goto("/patientShow/patients");
    const main = page.getByRole("main");
    await expect(
      main.getByRole("heading", { name: t("en", "triage.title", { count: 14 }) }),
    ).toBeVisible();
    await expect(page.getByTestId("triage-count")).toHaveText(
      t("en", "triage.count", { count: 3 }),
    );

    // The default order: the worst category first: Bravo very low (25 % below 54), Alpha low
    // (50 % below 70), Charlie's 5 readings of the last minutes a sensor hardly worn.
    await expectRows(page, ["Bravo Triage", "Alpha Triage", "Charlie Triage"]);
    const categoryHead = table(page).locator('th[data-sort="category"]');
    const flagsHead = table(page).locator('th[data-sort="flags"]');
    await expect(categoryHead).toHaveAttribute("aria-sort", "ascending");
    await expect(flagsHead).not.toHaveAttribute("aria-sort", /./);
    expect(await cells(page, "Alpha")).toEqual({
      days: "1",
      tir: "50.0 %",
      below70: "50.0 %",
      below54: "0.0 %",
      gmi: "5.5 %",
      flags: ["belowRange", "lowTir"],
    });
    expect(await cells(page, "Bravo")).toEqual({
      days: "1",
      tir: "75.0 %",
      below70: "25.0 %",
      below54: "25.0 %",
      gmi: "6.3 %",
      flags: ["noUpload", "belowRange"],
    });
    expect(await cells(page, "Charlie")).toEqual({
      days: "1",
      tir: "100.0 %",
      below70: "0.0 %",
      below54: "0.0 %",
      gmi: "5.7 %",
      flags: [],
    });
    await expect(table(page).getByRole("columnheader")).toHaveText([
      t("en", "triage.columns.name"),
      `${t("en", "columns.category", {}, "triage")} ▲`,
      t("en", "triage.columns.lastUpload"),
      t("en", "triage.columns.days", { days: 14 }),
      t("en", "columns.wear", {}, "triage"),
      t("en", "triage.columns.tir", { low: "3.9", high: "10.0", unit: "mmol/L" }),
      t("en", "columns.change", { count: 14 }, "triage"),
      t("en", "triage.columns.below", { limit: "3.9", unit: "mmol/L" }),
      t("en", "triage.columns.below", { limit: "3.0", unit: "mmol/L" }),
      t("en", "columns.above", { limit: "10.0", unit: "mmol/L" }, "triage"),
      t("en", "triage.columns.gmi"),
      t("en", "triage.columns.flags"),
      t("en", "columns.tags", {}, "triage"),
    ]);

    // Sort by time in range: the worst first, then the other way.
    const tirHead = table(page).locator('th[data-sort="tir"]');
    await tirHead.getByRole("link").click();
    await expect(page).toHaveURL(/[?&]sort=tir&dir=asc/);
    await expect(tirHead).toHaveAttribute("aria-sort", "ascending");
    await expect(categoryHead).not.toHaveAttribute("aria-sort", /./);
    await expectRows(page, ["Alpha Triage", "Bravo Triage", "Charlie Triage"]);
    await tirHead.getByRole("link").click();
    await expect(page).toHaveURL(/[?&]sort=tir&dir=desc/);
    await expect(tirHead).toHaveAttribute("aria-sort", "descending");
    await expectRows(page, ["Charlie Triage", "Bravo Triage", "Alpha Triage"]);

    // Filter: only the patients without an upload for 7 days; the order is kept.
    const noUpload = t("en", "triage.flags.noUpload", { count: 7 });
    await main.getByRole("checkbox", { name: noUpload }).check();
    await main.getByRole("button", { name: t("en", "triage.filter.apply") }).click();
    await expect(page).toHaveURL(/[?&]flag=noUpload/);
    await expect(page).toHaveURL(/[?&]sort=tir/);
    await expect(page.getByTestId("triage-count")).toHaveText(
      t("en", "triage.countFiltered", { count: 1 }),
    );
    await expectRows(page, ["Bravo Triage"]);
    await expect(main.getByRole("checkbox", { name: noUpload })).toBeChecked();
    await expect(tirHead).toHaveAttribute("aria-sort", "descending");

    // Both glucose flags: any of them.
    await main.getByRole("checkbox", { name: noUpload }).uncheck();
    await main
      .getByRole("checkbox", { name: t("en", "triage.flags.lowTir", { percent: 70 }) })
      .check();
    await main.getByRole("button", { name: t("en", "triage.filter.apply") }).click();
    await expect(page).toHaveURL(/[?&]flag=lowTir/);
    await expect(page.getByTestId("triage-count")).toHaveText(
      t("en", "triage.countFiltered", { count: 1 }),
    );
    await expectRows(page, ["Alpha Triage"]);

    await main.getByRole("link", { name: t("en", "triage.filter.clear") }).click();
    await expect(page.getByTestId("triage-count")).toHaveText(
      t("en", "triage.count", { count: 3 }),
    );
    await expectRows(page, ["Charlie Triage", "Bravo Triage", "Alpha Triage"]);

    // Each patient shown was one read in their access log; Delta, never shown, none.
    expect(await readsLogged(s.alpha.pid!, s.clinic.id)).toContainEqual({
      action: "read:triage",
      channel: "page",
    });
    expect(await readsLogged(s.delta.pid!, s.clinic.id)).toEqual([]);

    // A row leads to the patient's page.
    await table(page).getByRole("link", { name: "Charlie Triage" }).click();
    await expect(page).toHaveURL(new RegExp(`/patientShow/${s.charlie.pid}/${s.charlie.id}/`));

    // The patient reads it in "Who viewed my data", in words.
    await page.context().clearCookies();
    await signIn(page, s.alpha.email, s.alpha.password, 1);
    await page.goto("/patientShow/accessLog");
    await expect(
      page
        .getByRole("main")
        .getByText(tr("en", "accessLog.actions.read_triage", "sharing"))
        .first(),
    ).toBeVisible();
  });

  test("is in the reader's language and unit", async ({ page }) => {
    const s = await clinicWithPatients("triage-pl", "pl", 1);
    await signInWithLanguage(page, s.clinic, "pl");
    await page.goto("/patientShow/patients?sort=name&dir=asc");
    await expect(
      page.getByRole("heading", { name: t("pl", "triage.title", { count: 14 }) }),
    ).toBeVisible();
    await expect(table(page).locator('th[data-sort="tir"]')).toHaveText(
      t("pl", "triage.columns.tir", { low: "70", high: "180", unit: tr("pl", "units.1") }),
    );
    await expect(table(page).locator('th[data-sort="below54"]')).toHaveText(
      t("pl", "triage.columns.below", { limit: "54", unit: tr("pl", "units.1") }),
    );
    expect(await cells(page, "Alpha")).toMatchObject({ tir: "50,0 %", gmi: "5,5 %" });
    await expect(
      table(page).getByTestId("triage-row").filter({ hasText: "Bravo" }).locator("[data-flag]"),
    ).toHaveText([
      t("pl", "triage.flags.noUpload", { count: 7 }),
      t("pl", "triage.flags.belowRange", { percent: 4 }),
    ]);
  });

  test("a person, and a clinic still under audit, get no list", async ({ page }) => {
    const s = await clinicWithPatients("triage-none");
    const person: TestUser = await createUser({
      tag: "triage-person",
      identity: 1,
      firstName: "Paula",
      lastName: "Person",
    });
    await createAcceptedShare(s.alpha.id, person.id);
    await signIn(page, person.email, person.password, 1);
    await page.goto("/patientShow/patients?sort=tir");
    await expect(
      page.getByRole("main").getByText(tr("en", "choosePerson", "patients")),
    ).toBeVisible();
    await expect(page.getByTestId("triage")).toHaveCount(0);

    const auditing = await createUser({
      tag: "triage-audit",
      identity: 2,
      firstName: "Audit",
      lastName: "Clinic",
      isPass: 3,
    });
    await createAcceptedShare(s.bravo.id, auditing.id);
    await page.context().clearCookies();
    await signIn(page, auditing.email, auditing.password, 2);
    await page.goto("/patientShow/patients");
    await expect(
      page.getByRole("main").getByText(tr("en", "auditNeeded", "patients")),
    ).toBeVisible();
    await expect(page.getByTestId("triage")).toHaveCount(0);
    expect(await readsLogged(s.bravo.pid!, auditing.id)).toEqual([]);
  });
});
