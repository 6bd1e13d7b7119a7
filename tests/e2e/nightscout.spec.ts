import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";
import { createAcceptedShare, createUser } from "./db";
import { tr } from "./i18n";
import { signIn } from "./support";

const n = (key: string, values: Record<string, string> = {}) =>
  Object.entries(values).reduce(
    (out, [k, v]) => out.replaceAll(`{{${k}}}`, v),
    tr("en", key, "nightscout"),
  );
const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

test.describe("Nightscout links", () => {
  test("a patient makes a link from the settings page, sees the secret once with its QR code, an uploader posts through the running server, and a revoked link opens nothing", async ({
    page,
    request,
  }) => {
    const patient = await createUser({
      tag: "ns-patient",
      identity: 1,
      firstName: "Nina",
      lastName: "Scout",
      timeZone: "Europe/Warsaw",
    });
    await signIn(page, patient.email, patient.password);
    await page.goto("/newsetting");
    await page.getByRole("link", { name: n("page.open") }).click();
    await expect(page.getByRole("heading", { level: 1, name: n("page.title") })).toBeVisible();
    await expect(page.getByText(n("page.none"))).toBeVisible();

    // A name is required: a translated error, nothing made.
    await page.getByRole("button", { name: n("page.create") }).click();
    await expect(page.getByRole("alert")).toHaveText(n("errors.name"));

    await page.getByLabel(n("page.name")).fill("xDrip+ phone");
    await page.getByRole("button", { name: n("page.create") }).click();
    await expect(page.getByRole("heading", { name: n("page.created") })).toBeVisible();
    const secret = (await page.getByTestId("ns-secret").textContent())!;
    const base = (await page.getByTestId("ns-base").textContent())!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(base).toMatch(/\/ns\/[A-Za-z0-9_-]{22}\/api\/v1\/$/);
    const withSecret = new URL((await page.getByTestId("ns-url").textContent())!);
    expect(withSecret.username).toBe(secret);
    await expect(page.getByRole("img", { name: n("page.qr") })).toBeVisible();

    // An uploader posts a reading through the server (body limits, headers and all).
    const path = new URL(base).pathname;
    const at = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    const posted = await request.post(`${path}entries`, {
      headers: { "api-secret": sha1(secret) },
      data: [{ type: "sgv", sgv: 123, date: at, direction: "Flat", device: "xDrip-G6" }],
    });
    expect(posted.status()).toBe(200);
    expect(await posted.json()).toMatchObject([{ sgv: 123, date: at, direction: "Flat" }]);
    const read = await request.get(`${path}entries/current.json`, {
      headers: { "api-secret": sha1(secret) },
    });
    expect(await read.json()).toMatchObject([{ sgv: 123 }]);

    // Shown once: the list shows the link without its secret.
    await page.goto(new URL(page.url()).pathname);
    const link = page.getByTestId("ns-link");
    await expect(link.getByRole("heading", { name: "xDrip+ phone" })).toBeVisible();
    await expect(page.getByText(secret)).toHaveCount(0);
    await expect(link.getByText(n("page.never"))).toHaveCount(0);

    // Revoke asks first; cancelling keeps the link.
    await link.getByRole("link", { name: n("page.revoke") }).click();
    await expect(page.getByText(n("page.revokeConfirm", { name: "xDrip+ phone" }))).toBeVisible();
    await page.getByRole("link", { name: n("page.cancel") }).click();
    await expect(link.getByText(n("page.active"))).toBeVisible();
    await link.getByRole("link", { name: n("page.revoke") }).click();
    await page.getByRole("button", { name: n("page.revokeYes") }).click();
    await expect(page.getByRole("status")).toHaveText(n("page.revokedDone"));
    await expect(link.getByText(n("page.revoked"))).toBeVisible();

    const refused = await request.post(`${path}entries`, {
      headers: { "api-secret": sha1(secret) },
      data: [{ type: "sgv", sgv: 130, date: at + 30_000 }],
    });
    expect(refused.status()).toBe(401);
  });

  test("a clinic the patient shares with reaches the links from the upload centre and makes a read token; a stranger gets 404", async ({
    page,
    request,
  }) => {
    const patient = await createUser({
      tag: "ns-shared",
      identity: 1,
      firstName: "Sam",
      lastName: "Shared",
      timeZone: "Europe/Warsaw",
    });
    const clinic = await createUser({
      tag: "ns-clinic",
      identity: 2,
      firstName: "Cleo",
      lastName: "Clinic",
    });
    const stranger = await createUser({
      tag: "ns-stranger",
      identity: 2,
      firstName: "Stan",
      lastName: "Stranger",
    });
    await createAcceptedShare(patient.id, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);
    await page.goto(`/patientShow/${patient.pid!}/upload`);
    await page.getByRole("link", { name: n("page.open") }).click();
    await page.getByLabel(n("page.name")).fill("Reporter");
    await page.getByLabel(n("page.kindRead")).check();
    await page.getByRole("button", { name: n("page.create") }).click();
    const readerUrl = new URL((await page.getByTestId("ns-url").textContent())!);
    const token = readerUrl.searchParams.get("token")!;
    const status = await request.get(`${readerUrl.pathname}/api/v1/status.json?token=${token}`);
    expect(status.status()).toBe(200);
    expect(await status.json()).toMatchObject({ status: "ok" });
    const write = await request.post(`${readerUrl.pathname}/api/v1/entries?token=${token}`, {
      data: [{ type: "sgv", sgv: 100, date: Date.now() - 60_000 }],
    });
    expect(write.status()).toBe(401);

    await page.context().clearCookies();
    await signIn(page, stranger.email, stranger.password, 2);
    const answer = await page.goto(`/patientShow/${patient.pid!}/nightscout`);
    expect(answer?.status()).toBe(404);
  });
});
