import { describe, expect, it } from "vitest";
import { createRenderToken, verifyRenderToken } from "./render-token.server";

const claim = {
  viewerId: 7,
  pid: 12,
  purpose: "cgmReport",
  start: "2026-11-01",
  end: "2026-11-14",
};
const now = Date.UTC(2026, 10, 25, 8);

describe("render tokens", () => {
  it("vouch for exactly the claim they were made for, for five minutes", () => {
    const token = createRenderToken(claim, now);
    expect(verifyRenderToken(token, claim, now + 60_000)).toBe(true);
    expect(verifyRenderToken(token, claim, now + 5 * 60_000 + 1)).toBe(false);
    for (const other of [
      { viewerId: 8 },
      { pid: 13 },
      { purpose: "agpReport" },
      { start: "2026-10-31" },
      { end: "2026-11-13" },
    ]) {
      expect(verifyRenderToken(token, { ...claim, ...other }, now)).toBe(false);
    }
  });

  it("refuse forged and malformed tokens", () => {
    const [expires, signature] = createRenderToken(claim, now).split(".") as [string, string];
    expect(verifyRenderToken(`${Number(expires) + 1}.${signature}`, claim, now)).toBe(false);
    expect(verifyRenderToken(`${expires}.${signature.slice(1)}x`, claim, now)).toBe(false);
    for (const bad of ["", ".", "abc", `${expires}`, `x.${signature}`, `${expires}.`])
      expect(verifyRenderToken(bad, claim, now)).toBe(false);
  });
});
