import { expect, test, type Page } from "@playwright/test";
import { tr, type Lng } from "./i18n";

const MAILBOX = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 26}/messages`;

/** A fresh address for each test run and project. */
export function uniqueEmail(tag: string) {
  return `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@e2e.diacare.test`;
}

/** The messages the app sent to `to`, oldest first (from the SMTP catcher). */
export async function mailTo(
  to: string,
): Promise<{ subject: string; text: string; date: string }[]> {
  return (await fetch(`${MAILBOX}?to=${encodeURIComponent(to)}`)).json();
}

/** Waits for the newest email to `to` and returns the 6-digit code in it (read from the real SMTP message). */
export async function codeFromMail(to: string, after = 0): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${MAILBOX}?to=${encodeURIComponent(to)}`);
    const messages = (await response.json()) as { text: string; date: string }[];
    const fresh = messages.filter((m) => new Date(m.date).getTime() >= after - 1000);
    const code = fresh.at(-1)?.text.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code mailed to ${to}`);
}

export async function signIn(page: Page, email: string, password: string, identity: 1 | 2 = 1) {
  await page.goto("/login");
  await page
    .getByRole("main")
    .getByLabel(/^Email/)
    .fill(email);
  await page
    .getByRole("main")
    .getByLabel(/^Password/)
    .fill(password);
  await page.getByLabel(tr("en", `login.identity${identity}`, "auth")).check();
  await page.getByRole("button", { name: tr("en", "login.submit", "auth") }).click();
  await page.waitForURL((url) => /^\/(patientShow|active)/.test(url.pathname));
  await expect(page.getByRole("button", { name: tr("en", "login.submit", "auth") })).toHaveCount(0);
}

/** Signs out through the user menu: a dialog with JavaScript, the /logout page without. */
export async function signOut(page: Page, name: string) {
  await page.getByLabel(tr("en", "nav.userMenu").replace("{{name}}", name)).click();
  await page.getByRole(jsEnabled() ? "button" : "link", { name: tr("en", "nav.logout") }).click();
  await expect(page.getByText(tr("en", "logout.confirm"))).toBeVisible();
  const confirm = jsEnabled() ? page.getByRole("alertdialog") : page.getByRole("main");
  await confirm.getByRole("button", { name: tr("en", "logout.submit") }).click();
  await expect(page).toHaveURL(/\/login$/);
}

export function jsEnabled(): boolean {
  return test.info().project.use.javaScriptEnabled !== false;
}

/**
 * Signs in a user whose saved language is `lng`. With JavaScript the first page after sign-in
 * reloads itself into that language (root.tsx); this waits for the reloaded document so that the
 * next navigation does not race the reload.
 */
export async function signInWithLanguage(
  page: Page,
  user: { email: string; password: string },
  lng: Lng,
  identity: 1 | 2 = 2,
) {
  await signIn(page, user.email, user.password, identity);
  // Without JavaScript there is no reload to wait for (the `js` class marks that scripts run).
  await page.waitForFunction(
    (l) =>
      !document.documentElement.classList.contains("js") ||
      (window as { __i18n?: { lng?: string } }).__i18n?.lng === l,
    lng,
  );
}
