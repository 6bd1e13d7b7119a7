import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("npm run db:seed", () => {
  it("refuses to run in production", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "prisma/seed.ts"], {
      env: {
        ...process.env,
        DEPLOY_ENV: "production",
        DATABASE_URL: "postgresql://x@127.0.0.1:1/x",
        SMTP_URL: "smtp://127.0.0.1:25",
        APP_URL: "https://diacare.example",
      },
      encoding: "utf8",
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/Refusing to seed demo data/);
  });
});
