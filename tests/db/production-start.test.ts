// Production safety: the server refuses to start without its settings or with demo accounts in
// the database, and demo accounts never reach a production database.
import { describe, expect, it } from "vitest";
import { db } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import { DEMO_ACCOUNTS, seedDemo } from "../../prisma/seed";
import { startServer } from "../support/server-process";

const production = () => ({
  DEPLOY_ENV: "production",
  DATABASE_URL: process.env.DATABASE_URL!,
  SESSION_SECRET: "p".repeat(40),
  SMTP_URL: "smtp://127.0.0.1:2525",
  APP_URL: "https://diacare.example",
});

/** Starts the server expecting it to stop by itself; returns its exit code and output. */
async function refusedStart(env: Record<string, string>) {
  const server = await startServer(env, { waitForHealth: false });
  const timer = setTimeout(() => server.child.kill("SIGKILL"), 90_000);
  const code = await server.exited;
  clearTimeout(timer);
  return { code, output: server.output() };
}

describe("starting in production", () => {
  it("refuses, naming each missing variable, when none is set", async () => {
    const { code, output } = await refusedStart({
      DEPLOY_ENV: "production",
      DATABASE_URL: "",
      SESSION_SECRET: "",
      SMTP_URL: "",
      APP_URL: "",
    });
    expect(code).toBe(1);
    for (const name of ["DATABASE_URL", "SESSION_SECRET", "SMTP_URL", "APP_URL"])
      expect(output).toContain(`${name}: required when DEPLOY_ENV=production`);
  }, 60_000);

  it("refuses without APP_URL even when everything else is set", async () => {
    const { code, output } = await refusedStart({ ...production(), APP_URL: "" });
    expect(code).toBe(1);
    expect(output).toContain("APP_URL: required when DEPLOY_ENV=production");
  }, 60_000);

  it("refuses a session secret shorter than 32 characters", async () => {
    const { code, output } = await refusedStart({
      ...production(),
      SESSION_SECRET: "s".repeat(31),
    });
    expect(code).toBe(1);
    expect(output).toContain("SESSION_SECRET");
  }, 60_000);

  it("refuses a database that holds a demo account", async () => {
    const admin = await db().user.create({
      data: {
        email: DEMO_ACCOUNTS.admin.email,
        passwordHash: await hashPassword(DEMO_ACCOUNTS.admin.password),
        identity: 2,
        role: "admin",
      },
    });
    try {
      const { code, output } = await refusedStart(production());
      expect(code).toBe(1);
      expect(output).toContain(`demo accounts (${DEMO_ACCOUNTS.admin.email})`);
    } finally {
      await db().user.delete({ where: { id: admin.id } });
    }
  }, 120_000);
});

describe("demo accounts", () => {
  it("are not created by the migrations", async () => {
    expect(
      await db().user.count({
        where: { email: { in: Object.values(DEMO_ACCOUNTS).map((a) => a.email) } },
      }),
    ).toBe(0);
  });

  it("are never seeded with DEPLOY_ENV=production", async () => {
    const before = process.env.DEPLOY_ENV;
    process.env.DEPLOY_ENV = "production";
    try {
      await expect(seedDemo()).rejects.toThrow(/DEPLOY_ENV is production/);
    } finally {
      if (before === undefined) delete process.env.DEPLOY_ENV;
      else process.env.DEPLOY_ENV = before;
    }
    expect(await db().user.count()).toBe(0);
  });
});
