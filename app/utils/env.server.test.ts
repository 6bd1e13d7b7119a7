import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";

describe("parseEnv", () => {
  it("defaults to the embedded demo database on port 3000", () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DEPLOY_ENV).toBe("demo");
    expect(env.PORT).toBe(3000);
    expect(env.APP_URL).toBe("http://127.0.0.1:3000");
  });

  it("uses a given database as development", () => {
    expect(parseEnv({ DATABASE_URL: "postgresql://u@localhost/db" }).DEPLOY_ENV).toBe(
      "development",
    );
  });

  it("names every missing production setting", () => {
    expect(() => parseEnv({ DEPLOY_ENV: "production" })).toThrow(
      /DATABASE_URL[\s\S]*SESSION_SECRET[\s\S]*SMTP_URL/,
    );
  });

  it("rejects malformed values with the variable's name", () => {
    expect(() => parseEnv({ PORT: "seventy" })).toThrow(/PORT/);
    expect(() => parseEnv({ SESSION_SECRET: "short" })).toThrow(/SESSION_SECRET/);
  });
  it("names APP_URL when production has everything else (no default fills it in)", () => {
    const production = {
      DEPLOY_ENV: "production",
      DATABASE_URL: "postgresql://u@db.example/diacare",
      SESSION_SECRET: "s".repeat(32),
      SMTP_URL: "smtp://mail.example:587",
    };
    expect(() => parseEnv(production)).toThrow(/APP_URL: required when DEPLOY_ENV=production/);
    expect(() =>
      parseEnv({
        ...production,
        APP_URL: "https://diacare.example",
        SESSION_SECRET: "s".repeat(31),
      }),
    ).toThrow(/SESSION_SECRET/);
    expect(parseEnv({ ...production, APP_URL: "https://diacare.example" }).APP_URL).toBe(
      "https://diacare.example",
    );
  });

  it("names each of the four when production has none", () => {
    let message = "";
    try {
      parseEnv({ DEPLOY_ENV: "production" });
    } catch (error) {
      message = (error as Error).message;
    }
    for (const name of ["DATABASE_URL", "SESSION_SECRET", "SMTP_URL", "APP_URL"])
      expect(message).toContain(`${name}: required`);
  });

  it("renders PDFs inline unless told to queue them, and queues them only with PostgreSQL", () => {
    expect(parseEnv({}).PDF_RENDERER).toBe("inline");
    const queued = parseEnv({ PDF_RENDERER: "queue", DATABASE_URL: "postgresql://u@localhost/db" });
    expect(queued.PDF_RENDERER).toBe("queue");
    expect(queued.PDF_RENDER_URL).toBeUndefined();
    expect(() => parseEnv({ PDF_RENDERER: "queue" })).toThrow(
      /PDF_RENDERER: queue needs DATABASE_URL/,
    );
    expect(() => parseEnv({ PDF_RENDERER: "remote" })).toThrow(/PDF_RENDERER/);
    expect(() => parseEnv({ PDF_RENDER_URL: "not a url" })).toThrow(/PDF_RENDER_URL/);
  });
});
