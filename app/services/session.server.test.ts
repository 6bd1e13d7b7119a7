import { describe, expect, it } from "vitest";
import { secureCookies } from "./session.server";

describe("secureCookies", () => {
  it("marks the session cookie Secure in production over https", () => {
    expect(secureCookies({ NODE_ENV: "production", APP_URL: "https://diacare.example" })).toBe(
      true,
    );
  });
  it("not for the plain-http demo or development", () => {
    expect(secureCookies({ NODE_ENV: "production", APP_URL: "http://127.0.0.1:3000" })).toBe(false);
    expect(secureCookies({ NODE_ENV: "development", APP_URL: "https://diacare.example" })).toBe(
      false,
    );
  });
});
