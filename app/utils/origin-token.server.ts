import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { sessionSecret } from "./secret.server";

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const TTL_MS = 30 * 60_000;

const sign = (payload: string) =>
  createHmac("sha256", sessionSecret())
    .update(`origin:${payload}`)
    .digest("base64url")
    .slice(0, 22);

/**
 * The activation form's origin prefix (`GET /api/active/randomString`): a short random text shown
 * before the code field, with a signed, expiring token that proves the form came from this
 * server. It needs no server-side state.
 */
export function createOriginToken(now = Date.now()) {
  const prefix = Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  const payload = `${prefix}.${now + TTL_MS}`;
  return { prefix, token: `${payload}.${sign(payload)}` };
}

export function verifyOriginToken(token: string, now = Date.now()): boolean {
  const parts = token.split(".");
  if (parts.length !== 3) return false;
  const [prefix, expires, signature] = parts as [string, string, string];
  const expected = Buffer.from(sign(`${prefix}.${expires}`));
  const given = Buffer.from(signature);
  return (
    given.length === expected.length && timingSafeEqual(given, expected) && Number(expires) > now
  );
}
