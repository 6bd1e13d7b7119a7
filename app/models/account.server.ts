import type { EmailCodePurpose } from "@prisma/client";
import type { Locale } from "~/i18n";
import { db } from "~/utils/db.server";
import { sendCodeEmail } from "~/utils/mail.server";
import { hashPassword, verifyPassword } from "~/utils/password.server";
import { consumeEmailCode, issueEmailCode } from "./email-code.server";
import { clearRateLimit, hitRateLimit, RATE_LIMITS } from "./rate-limit.server";

/**
 * Who a user is: sign-in, registration, activation, passwords and email. Every function returns
 * a result naming what went wrong (an `auth` i18n key) rather than throwing for bad input.
 */

export type Failure = { ok: false; error: string; retryAfterSeconds?: number };

// A real argon2id hash of a random string: checking against it when the email is unknown makes
// a failed sign-in take as long as one with a wrong password.
const TIMING_DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$Y0Mub4ATYi4jwxYdXOl2dQ$g9WwonDswlU9zhouIqV4EayOGuGSo0rBh9zRE+wR1u4";

const locked = (retryAfterSeconds: number): Failure => ({ ok: false, error: "errors.locked", retryAfterSeconds });

/**
 * Checks an email, password and sign-in type (identity). Attempts are limited per account and
 * per IP; a success clears the account's counter, so only failures accumulate. One message for
 * an unknown email, a wrong password and a wrong type: nothing reveals whether an email exists.
 */
export async function verifyLogin(input: { email: string; password: string; identity: number; ip: string }) {
  const [account, byIp] = await Promise.all([
    hitRateLimit(`signin:account:${input.email}`, RATE_LIMITS.signInPerAccount),
    hitRateLimit(`signin:ip:${input.ip}`, RATE_LIMITS.signInPerIp),
  ]);
  if (!account.allowed || !byIp.allowed) return locked(Math.max(account.retryAfterSeconds, byIp.retryAfterSeconds));

  const user = await db().user.findUnique({ where: { email: input.email } });
  const passwordOk = await verifyPassword(user?.passwordHash ?? TIMING_DUMMY_HASH, input.password);
  if (!user || !user.passwordHash || user.deletedAt || !passwordOk || user.identity !== input.identity) {
    return { ok: false, error: "errors.wrongCredentials" } satisfies Failure;
  }
  if (user.disabled) return { ok: false, error: "errors.accountDisabled" } satisfies Failure;
  await clearRateLimit(`signin:account:${input.email}`);
  return { ok: true as const, userId: user.id, active: user.active };
}

/** Sends a code to an address, within the send limits and the resend cool-down. */
export async function sendEmailCode(input: { email: string; purpose: EmailCodePurpose; locale: Locale; ip: string; userId?: number }) {
  const [byEmail, byIp] = await Promise.all([
    hitRateLimit(`code:send:${input.email}`, RATE_LIMITS.sendCodePerEmail),
    hitRateLimit(`code:send-ip:${input.ip}`, RATE_LIMITS.sendCodePerIp),
  ]);
  if (!byEmail.allowed || !byIp.allowed) return locked(Math.max(byEmail.retryAfterSeconds, byIp.retryAfterSeconds));
  const issued = await issueEmailCode({ email: input.email, purpose: input.purpose, userId: input.userId });
  if (!issued.ok) return { ok: false, error: "errors.codeCooldown", retryAfterSeconds: issued.retryAfterSeconds } satisfies Failure;
  await sendCodeEmail({ to: input.email, locale: input.locale, purpose: input.purpose, code: issued.code, expiresInMinutes: 15 });
  return { ok: true as const };
}

async function checkCode(email: string, purpose: EmailCodePurpose, code: string) {
  const limit = await hitRateLimit(`code:check:${email}`, RATE_LIMITS.checkCodePerEmail);
  if (!limit.allowed) return locked(limit.retryAfterSeconds);
  const result = await consumeEmailCode({ email, purpose, code });
  if (!result.ok) return { ok: false, error: result.reason === "expired" ? "errors.codeExpired" : result.reason === "too_many_attempts" ? "errors.codeTooManyAttempts" : "errors.codeInvalid" } satisfies Failure;
  return { ok: true as const };
}

export async function isEmailTaken(email: string) {
  return (await db().user.count({ where: { email } })) > 0;
}

type NewAccount = {
  email: string;
  password: string;
  code: string;
  firstName: string;
  lastName: string;
  lang: Locale;
};
type PersonProfile = { birthDate: string; height: number; weight: number; unit: number; lowLimitMgdl: number; highLimitMgdl: number };

/**
 * Creates a self-registered account after checking the emailed verification code: a person
 * (identity 1, with a health profile) or a clinic (identity 2, organisation audit not submitted).
 */
export async function registerAccount(input: NewAccount & ({ identity: 1; profile: PersonProfile } | { identity: 2 })) {
  if (await isEmailTaken(input.email)) return { ok: false, error: "errors.emailTaken" } satisfies Failure;
  const code = await checkCode(input.email, "verify_email", input.code);
  if (!code.ok) return code;
  const passwordHash = await hashPassword(input.password);
  const profile = input.identity === 1 ? input.profile : null;
  try {
    const user = await db().user.create({
      data: {
        email: input.email,
        passwordHash,
        identity: input.identity,
        firstName: input.firstName,
        lastName: input.lastName,
        ...(profile ? { birthDate: new Date(profile.birthDate), heightCm: profile.height, weightKg: profile.weight } : {}),
        setting: { create: { lang: input.lang, unit: profile?.unit ?? 0 } },
        ...(profile ? { patient: { create: { lowLimit: profile.lowLimitMgdl, highLimit: profile.highLimitMgdl } } } : {}),
      },
    });
    return { ok: true as const, userId: user.id };
  } catch (error) {
    if (error instanceof Error && /Unique constraint/.test(error.message)) return { ok: false, error: "errors.emailTaken" } satisfies Failure;
    throw error;
  }
}

/** Changes a signed-in user's password; every other session and every API token is ended. */
export async function changePassword(input: { userId: number; currentPassword: string; password: string; keepSessionId?: string }) {
  const user = await db().user.findUniqueOrThrow({ where: { id: input.userId } });
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
    return { ok: false, error: "errors.currentPasswordWrong" } satisfies Failure;
  }
  await setPassword(user.id, input.password, input.keepSessionId);
  return { ok: true as const };
}

async function setPassword(userId: number, password: string, keepSessionId?: string) {
  const passwordHash = await hashPassword(password);
  const now = new Date();
  await db().$transaction([
    db().user.update({ where: { id: userId }, data: { passwordHash, passwordChangedAt: now } }),
    db().session.updateMany({ where: { userId, revokedAt: null, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) }, data: { revokedAt: now } }),
    db().apiToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } }),
  ]);
}

/** Sends a reset code when the email belongs to an account; answers the same either way. */
export async function requestPasswordReset(input: { email: string; locale: Locale; ip: string }) {
  const user = await db().user.findUnique({ where: { email: input.email }, select: { id: true, deletedAt: true } });
  if (!user || user.deletedAt) {
    const limit = await hitRateLimit(`code:send-ip:${input.ip}`, RATE_LIMITS.sendCodePerIp);
    return limit.allowed ? { ok: true as const } : locked(limit.retryAfterSeconds);
  }
  return sendEmailCode({ email: input.email, purpose: "reset_password", locale: input.locale, ip: input.ip, userId: user.id });
}

export async function resetPassword(input: { email: string; code: string; password: string }) {
  const code = await checkCode(input.email, "reset_password", input.code);
  if (!code.ok) return code;
  const user = await db().user.findUnique({ where: { email: input.email } });
  if (!user) return { ok: false, error: "errors.codeInvalid" } satisfies Failure;
  await setPassword(user.id, input.password);
  return { ok: true as const, userId: user.id };
}

/** Moves an account to a new email after the code sent there is confirmed with the password. */
export async function changeEmail(input: { userId: number; email: string; code: string; currentPassword: string }) {
  const user = await db().user.findUniqueOrThrow({ where: { id: input.userId } });
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
    return { ok: false, error: "errors.currentPasswordWrong" } satisfies Failure;
  }
  if (await isEmailTaken(input.email)) return { ok: false, error: "errors.emailTaken" } satisfies Failure;
  const code = await checkCode(input.email, "change_email", input.code);
  if (!code.ok) return code;
  await db().user.update({ where: { id: user.id }, data: { email: input.email } });
  return { ok: true as const };
}

/** Emails a new activation code to an account that is not active yet (same answer for any other email). */
export async function sendActivationCode(input: { email: string; locale: Locale; ip: string }) {
  const user = await db().user.findUnique({ where: { email: input.email }, select: { id: true, active: true, deletedAt: true } });
  if (!user || user.active || user.deletedAt) {
    const limit = await hitRateLimit(`code:send-ip:${input.ip}`, RATE_LIMITS.sendCodePerIp);
    return limit.allowed ? { ok: true as const } : locked(limit.retryAfterSeconds);
  }
  return sendEmailCode({ email: input.email, purpose: "activate", locale: input.locale, ip: input.ip, userId: user.id });
}

/**
 * Activates an account created for someone else (DESIGN.md 2). A signed-in inactive user
 * only types the code; someone claiming the account from the email also chooses a password.
 */
export async function activateAccount(input: { email: string; code: string; password?: string }) {
  const user = await db().user.findUnique({ where: { email: input.email } });
  if (!user || user.deletedAt || user.disabled) return { ok: false, error: "errors.codeInvalid" } satisfies Failure;
  if (!user.passwordHash && !input.password) return { ok: false, error: "errors.passwordMsg" } satisfies Failure;
  const code = await checkCode(input.email, "activate", input.code);
  if (!code.ok) return code;
  await db().user.update({
    where: { id: user.id },
    data: { active: true, ...(input.password ? { passwordHash: await hashPassword(input.password), passwordChangedAt: new Date() } : {}) },
  });
  return { ok: true as const, userId: user.id };
}
