import { createHmac, timingSafeEqual } from "node:crypto";
import { sessionSecret } from "./secret.server";

/** Long enough for a PDF that waits in the renderer's queue, short enough to be useless later. */
const TTL_MS = 5 * 60_000;

/** What a render token vouches for: this reader's PDF of this patient's report over these dates. */
export interface RenderClaim {
  readonly viewerId: number;
  readonly pid: number;
  readonly purpose: string;
  readonly start: string;
  readonly end: string;
}

const sign = (claim: RenderClaim, expires: number) =>
  createHmac("sha256", sessionSecret())
    .update(
      `render:${claim.viewerId}:${claim.pid}:${claim.purpose}:${claim.start}:${claim.end}:${expires}`,
    )
    .digest("base64url");

/**
 * A signed, expiring token that the PDF route adds to the report page address it hands to the
 * server's Chromium: the page then knows that this load is the rendering of a read the PDF route
 * has already authorised and written to the access log. It needs no server-side state.
 */
export function createRenderToken(claim: RenderClaim, now = Date.now()): string {
  const expires = now + TTL_MS;
  return `${expires}.${sign(claim, expires)}`;
}

export function verifyRenderToken(token: string, claim: RenderClaim, now = Date.now()): boolean {
  const at = token.indexOf(".");
  if (at <= 0) return false;
  const expires = Number(token.slice(0, at));
  if (!Number.isSafeInteger(expires) || expires <= now) return false;
  const expected = Buffer.from(sign(claim, expires));
  const given = Buffer.from(token.slice(at + 1));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
