import type { Prisma } from "@prisma/client";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { SHARE_REQUEST_LIFETIME_MS } from "~/domain/share-expiry";
import { db } from "~/utils/db.server";
import { sessionSecret } from "~/utils/secret.server";

/**
 * The `data` of an invitation email link (`/invite_result?doctorName=..&data=..`), a signed,
 * expiring, single-use token:
 * `${nonce}.${expiresAtMs}.${hmac}`. The nonce is the id of an InviteToken row that names the
 * invitation (a ReadPower row); the HMAC (SHA-256 with the session secret) covers nonce and
 * expiry, so a link cannot be forged or extended. Single use: `usedAt` is set by a conditional
 * update, so of two simultaneous uses exactly one wins. Deleting the invitation deletes its
 * tokens (cascade), which makes its links invalid.
 */

/** A link lives as long as the invitation it was sent with has to be answered. */
export const INVITE_TOKEN_TTL_MS = SHARE_REQUEST_LIFETIME_MS;

const NONCE_PATTERN = /^[A-Za-z0-9_-]{22}$/;
const EXPIRY_PATTERN = /^\d{1,15}$/;

type Client = Prisma.TransactionClient;

const sign = (payload: string) =>
  createHmac("sha256", sessionSecret()).update(`invite:${payload}`).digest("base64url");

export type InviteTokenError = "invalid" | "expired" | "used";

/** Creates the token row of an invitation and answers the signed link value. */
export async function createInviteToken(
  readPowerId: number,
  { client = db() as Client, now = Date.now() } = {},
): Promise<string> {
  const nonce = randomBytes(16).toString("base64url");
  const expiresAt = now + INVITE_TOKEN_TTL_MS;
  await client.inviteToken.create({
    data: { id: nonce, readPowerId, expiresAt: new Date(expiresAt) },
  });
  const payload = `${nonce}.${expiresAt}`;
  return `${payload}.${sign(payload)}`;
}

/** Checks the form, the signature and the expiry of a link value (no database access). */
export function verifyInviteToken(
  token: string,
  now = Date.now(),
): { ok: true; nonce: string; expiresAt: number } | { ok: false; error: InviteTokenError } {
  const parts = token.trim().split(".");
  if (parts.length !== 3) return { ok: false, error: "invalid" };
  const [nonce, expires, signature] = parts as [string, string, string];
  if (!NONCE_PATTERN.test(nonce) || !EXPIRY_PATTERN.test(expires))
    return { ok: false, error: "invalid" };
  const expected = Buffer.from(sign(`${nonce}.${expires}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, error: "invalid" };
  if (Number(expires) <= now) return { ok: false, error: "expired" };
  return { ok: true, nonce, expiresAt: Number(expires) };
}

/** The invitation a link names, without using the link up (for the page that shows it). */
export async function peekInviteToken(
  token: string,
  { client = db() as Client, now = Date.now() } = {},
): Promise<{ ok: true; readPowerId: number } | { ok: false; error: InviteTokenError }> {
  const checked = verifyInviteToken(token, now);
  if (!checked.ok) return checked;
  const row = await client.inviteToken.findUnique({ where: { id: checked.nonce } });
  if (!row) return { ok: false, error: "invalid" };
  if (row.usedAt) return { ok: false, error: "used" };
  if (row.expiresAt.getTime() <= now) return { ok: false, error: "expired" };
  return { ok: true, readPowerId: row.readPowerId };
}

/**
 * Uses a link up: answers the invitation it names, or why it cannot be used. Run it in the
 * transaction that acts on the invitation, so that a failed action leaves the link unused.
 */
export async function consumeInviteToken(
  token: string,
  { client = db() as Client, now = Date.now() } = {},
): Promise<{ ok: true; readPowerId: number } | { ok: false; error: InviteTokenError }> {
  const checked = verifyInviteToken(token, now);
  if (!checked.ok) return checked;
  const claimed = await client.inviteToken.updateMany({
    where: { id: checked.nonce, usedAt: null, expiresAt: { gt: new Date(now) } },
    data: { usedAt: new Date(now) },
  });
  const row = await client.inviteToken.findUnique({ where: { id: checked.nonce } });
  if (!row) return { ok: false, error: "invalid" };
  if (claimed.count === 1) return { ok: true, readPowerId: row.readPowerId };
  if (row.usedAt) return { ok: false, error: "used" };
  return { ok: false, error: "expired" };
}
