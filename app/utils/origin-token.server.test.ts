import { describe, expect, it } from "vitest";
import { createOriginToken, verifyOriginToken } from "./origin-token.server";

describe("origin token", () => {
  it("verifies its own tokens until they expire", () => {
    const { prefix, token } = createOriginToken(1_000);
    expect(prefix).toMatch(/^[A-Z2-9]{4}$/);
    expect(token.startsWith(`${prefix}.`)).toBe(true);
    expect(verifyOriginToken(token, 2_000)).toBe(true);
    expect(verifyOriginToken(token, 1_000 + 31 * 60_000)).toBe(false);
  });

  it("rejects forged or altered tokens", () => {
    const { token } = createOriginToken();
    const [prefix, expires, signature] = token.split(".");
    expect(verifyOriginToken(`ZZZZ.${expires}.${signature}`)).toBe(prefix === "ZZZZ");
    expect(verifyOriginToken(`${prefix}.${Number(expires) + 1}.${signature}`)).toBe(false);
    expect(verifyOriginToken("garbage")).toBe(false);
    expect(verifyOriginToken("")).toBe(false);
  });
});
