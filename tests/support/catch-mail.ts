import { afterAll, beforeAll } from "vitest";
import { closeMailTransport } from "~/utils/mail.server";
import { startSmtpCatcher, type SmtpCatcher } from "./smtp-catcher";

/**
 * For a test file that sends real mail: starts an SMTP catcher before the file's tests, points
 * SMTP_URL (and any `extra` variables) at it, and restores everything afterwards. env() parses
 * process.env once per test file, on first use, which comes after this beforeAll.
 */
export function catchMail(extra: Record<string, string> = {}): { readonly catcher: SmtpCatcher } {
  const holder = {} as { catcher: SmtpCatcher };
  const names = ["SMTP_URL", ...Object.keys(extra)];
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  beforeAll(async () => {
    holder.catcher = await startSmtpCatcher();
    process.env.SMTP_URL = holder.catcher.url;
    Object.assign(process.env, extra);
  });
  afterAll(async () => {
    closeMailTransport();
    await holder.catcher.stop();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  return holder;
}
