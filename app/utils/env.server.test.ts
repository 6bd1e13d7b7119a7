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
    expect(parseEnv({ DATABASE_URL: "postgresql://u@localhost/db" }).DEPLOY_ENV).toBe("development");
  });

  it("names every missing production setting", () => {
    expect(() => parseEnv({ DEPLOY_ENV: "production" })).toThrow(/DATABASE_URL[\s\S]*SESSION_SECRET[\s\S]*SMTP_URL/);
  });

  it("rejects malformed values with the variable's name", () => {
    expect(() => parseEnv({ PORT: "seventy" })).toThrow(/PORT/);
    expect(() => parseEnv({ SESSION_SECRET: "short" })).toThrow(/SESSION_SECRET/);
  });
});
