import type { EmailCodePurpose } from "@prisma/client";
import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { db } from "~/utils/db.server";
import { sessionSecret } from "~/utils/secret.server";

/**
 * Emailed six-digit codes (verify an address, activate an account, reset a password, change
 * the email). Only an HMAC-SHA256 of the code, keyed with the session secret, is stored, so a
 * copy of the database does not reveal codes (the code space is small enough to brute-force a
 * plain hash). Only the newest code of an email and purpose works; it expires, allows
 * MAX_ATTEMPTS tries and is single-use. Rate limits per email and IP are the caller's job
 * (`RATE_LIMITS` in rate-limit.server.ts); the resend cool-down is enforced here.
 */

export const CODE_TTL_MINUTES = 15;
export const RESEND_COOLDOWN_SECONDS = 60;
export const MAX_ATTEMPTS = 5;

const CODE_FORMAT = /^\d{6}$/;

export type IssueResult =
  | { ok: true; id: number; code: string; expiresAt: Date }
  | { ok: false; reason: "cooldown"; retryAfterSeconds: number };
export type ConsumeResult =
  | { ok: true; userId: number | null }
  | { ok: false; reason: "invalid" | "expired" | "too_many_attempts" };

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The stored form of a code; bound to the address and purpose as well as the secret. */
function hashCode(email: string, purpose: EmailCodePurpose, code: string): string {
  return createHmac("sha256", sessionSecret())
    .update(`email-code\n${purpose}\n${email}\n${code}`)
    .digest("hex");
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Makes a new code for an email and purpose, unless one was sent less than
 * RESEND_COOLDOWN_SECONDS ago. Earlier unused codes stop working. Issues for the same email and
 * purpose are serialised with a transaction-scoped advisory lock, so two app servers cannot
 * both pass the cool-down check.
 */
export async function issueEmailCode(input: {
  email: string;
  purpose: EmailCodePurpose;
  userId?: number | null;
}): Promise<IssueResult> {
  const email = normaliseEmail(input.email);
  const { purpose } = input;
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`email-code:${purpose}:${email}`}, 0))`;
    const now = new Date();
    const latest = await tx.emailCode.findFirst({
      where: { email, purpose },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { createdAt: true },
    });
    if (latest) {
      const waitMs = latest.createdAt.getTime() + RESEND_COOLDOWN_SECONDS * 1000 - now.getTime();
      if (waitMs > 0)
        return {
          ok: false,
          reason: "cooldown",
          retryAfterSeconds: Math.ceil(waitMs / 1000),
        } as const;
    }
    const code = randomInt(0, 1_000_000).toString().padStart(6, "0");
    const expiresAt = new Date(now.getTime() + CODE_TTL_MINUTES * 60_000);
    await tx.emailCode.updateMany({
      where: { email, purpose, usedAt: null },
      data: { usedAt: now },
    });
    const { id } = await tx.emailCode.create({
      data: {
        email,
        purpose,
        userId: input.userId ?? null,
        codeHash: hashCode(email, purpose, code),
        createdAt: now,
        expiresAt,
      },
      select: { id: true },
    });
    return { ok: true, id, code, expiresAt } as const;
  });
}

/**
 * Checks a typed code against the newest code of the email and purpose and, when it matches,
 * uses it up. Every try on an open code is counted before the comparison, with a conditional
 * update, so parallel guesses cannot get more than MAX_ATTEMPTS tries; the final mark as used
 * is conditional too, so of two parallel submissions of the right code only one succeeds.
 * Returns the account the code was issued for (null when it was issued without one).
 */
export async function consumeEmailCode(input: {
  email: string;
  purpose: EmailCodePurpose;
  code: string;
}): Promise<ConsumeResult> {
  const code = input.code.trim();
  if (!CODE_FORMAT.test(code)) return { ok: false, reason: "invalid" };
  const email = normaliseEmail(input.email);
  const { purpose } = input;

  const newest = await db().emailCode.findFirst({
    where: { email, purpose },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  if (!newest || newest.usedAt) return { ok: false, reason: "invalid" };
  const now = new Date();
  if (newest.expiresAt <= now) return { ok: false, reason: "expired" };
  if (newest.attempts >= MAX_ATTEMPTS) return { ok: false, reason: "too_many_attempts" };

  const [counted] = await db().emailCode.updateManyAndReturn({
    where: { id: newest.id, usedAt: null, attempts: { lt: MAX_ATTEMPTS } },
    data: { attempts: { increment: 1 } },
    select: { attempts: true },
  });
  if (!counted) {
    // Another request used the code or its last try in the meantime.
    const current = await db().emailCode.findUnique({
      where: { id: newest.id },
      select: { usedAt: true },
    });
    return { ok: false, reason: current?.usedAt ? "invalid" : "too_many_attempts" };
  }

  if (!sameHash(hashCode(email, purpose, code), newest.codeHash)) {
    return {
      ok: false,
      reason: counted.attempts >= MAX_ATTEMPTS ? "too_many_attempts" : "invalid",
    };
  }
  const used = await db().emailCode.updateMany({
    where: { id: newest.id, usedAt: null },
    data: { usedAt: new Date() },
  });
  if (used.count !== 1) return { ok: false, reason: "invalid" };
  return { ok: true, userId: newest.userId };
}

/** Deletes a code that never reached its address (the email failed), which also ends its cool-down. */
export async function withdrawEmailCode(id: number): Promise<void> {
  await db().emailCode.deleteMany({ where: { id } });
}

/** Deletes codes past their expiry (used or not: they can no longer be typed); for the periodic purge. */
export async function purgeExpiredEmailCodes(now = new Date()): Promise<number> {
  const { count } = await db().emailCode.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}
