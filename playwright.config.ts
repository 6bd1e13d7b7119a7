import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const SMTP_PORT = PORT + 25;
const MAILBOX_PORT = PORT + 26;
/** The local SMTP catcher's HTTP view of the mail the app sent (tests/support/smtp-catcher.ts). */
export const MAILBOX_URL = `http://127.0.0.1:${MAILBOX_PORT}/messages`;
/** A second server of the same build whose English texts are pseudo-localised (pseudo-locale.spec.ts). */
const PSEUDO_PORT = PORT + 27;
export const PSEUDO_URL = `http://127.0.0.1:${PSEUDO_PORT}`;
const PSEUDO_LOCALES = ".cache/pseudo-locales";
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  // Debian's Chromium (Playwright cannot download its own browser on a closed network), with the
  // flags of app/utils/pdf.server.ts: no sandbox or GPU, /tmp for shared memory, no traffic of
  // its own.
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

/** The app servers' environment (the port aside). */
const serverEnv = {
  HOST: "127.0.0.1",
  DATABASE_URL: process.env.E2E_DATABASE_URL ?? "",
  DEPLOY_ENV: "test",
  SESSION_SECRET: "e2e-session-secret-that-is-long-enough-0123456789",
  SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
  // Every test browser comes from 127.0.0.1; the per-account limits still apply.
  RATE_LIMIT_SIGNIN_PER_IP: "1000",
  RATE_LIMIT_CODES_PER_IP: "1000",
  // One driver file placed (the Mac meter driver): the others must not be offered.
  DRIVERS_DIR: "tests/fixtures/drivers",
  MAILBOX_URL,
};

/**
 * End-to-end tests against the built app (`npm start`) on the database that scripts/test.sh
 * prepared (E2E_DATABASE_URL, migrated and seeded). Every spec runs twice: with JavaScript and
 * without it, as the clinicians' locked-down browsers do.
 */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  // A guard against hangs, not a speed target: the multi-person flows (sign-up with a mailed code,
  // an admin approving, several argon2 sign-ins) take 20-30 s on a loaded two-core CI machine.
  timeout: 90_000,
  reporter: [["list"], ["json", { outputFile: "reports/e2e.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: chromium,
    trace: "retain-on-failure",
  },
  projects: [
    {
      name: "js",
      use: { ...devices["Desktop Chrome"], launchOptions: chromium, javaScriptEnabled: true },
    },
    {
      name: "no-js",
      use: { ...devices["Desktop Chrome"], launchOptions: chromium, javaScriptEnabled: false },
    },
  ],
  webServer: [
    {
      command: `npx tsx tests/support/smtp-catcher.ts --port ${SMTP_PORT} --http ${MAILBOX_PORT}`,
      url: MAILBOX_URL,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: "npm start --silent",
      url: `http://127.0.0.1:${PORT}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { ...serverEnv, PORT: String(PORT) },
    },
    {
      command: `npx tsx tests/support/pseudo-locale.ts ${PSEUDO_LOCALES} && npm start --silent`,
      url: `${PSEUDO_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { ...serverEnv, PORT: String(PSEUDO_PORT), LOCALES_DIR: PSEUDO_LOCALES },
    },
  ],
});
