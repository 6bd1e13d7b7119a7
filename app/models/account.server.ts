import type { EmailCodePurpose } from "@prisma/client";
import { Identity } from "~/domain/codes";
import { GlucoseUnit } from "~/domain/glucose-unit";
import type { Locale } from "~/i18n";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { sendCodeEmail, sendTranslatedMail } from "~/utils/mail.server";
import { hashPassword, verifyPassword } from "~/utils/password.server";
import {
  CODE_TTL_MINUTES,
  consumeEmailCode,
  issueEmailCode,
  withdrawEmailCode,
} from "./email-code.server";
import { clearRateLimit, hitRateLimit, RATE_LIMITS, refundRateLimit } from "./rate-limit.server";

/**
 * Who a user is: sign-in, registration, activation, passwords and email. Every function returns
 * a result naming what went wrong (an `auth` i18n key) rather than throwing for bad input.
 */

export type Failure = { ok: false; error: string; retryAfterSeconds?: number };

// A real argon2id hash of a random string: checking against it when the email is unknown makes
// a failed sign-in take as long as one with a wrong password.
const TIMING_DUMMY_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$Y0Mub4ATYi4jwxYdXOl2dQ$g9WwonDswlU9zhouIqV4EayOGuGSo0rBh9zRE+wR1u4";

/** A refusal by a rate limit: "try again in N minutes" (`errors.locked` takes `minutes`). */
const locked = (retryAfterSeconds: number): Failure => ({
  ok: false,
  error: "errors.locked",
  retryAfterSeconds,
});

/**
 * Checks an email, password and sign-in type (identity). Only failures are counted: per account
 * and client IP (5 per 15 minutes: a guesser locks only their own address out), per client IP
 * over all accounts, and per account over all addresses (a slower ceiling). Each attempt is
 * counted before the password is checked and refunded when it succeeds, so parallel guesses
 * cannot slip past a limit. One message for an unknown email, a wrong password and a wrong type:
 * nothing reveals whether an email exists.
 */
export async function verifyLogin(input: {
  email: string;
  password: string;
  identity: number;
  ip: string;
}) {
  const keys = {
    accountIp: `signin:fail:${input.email}|${input.ip}`,
    ip: `signin:fail-ip:${input.ip}`,
    account: `signin:fail:${input.email}`,
  };
  const counted: string[] = [];
  for (const [key, rule] of [
    [keys.accountIp, RATE_LIMITS.signInFailuresPerAccountIp],
    [keys.ip, RATE_LIMITS.signInFailuresPerIp],
    [keys.account, RATE_LIMITS.signInFailuresPerAccount],
  ] as const) {
    const hit = await hitRateLimit(key, rule);
    if (!hit.allowed) {
      // A refused attempt is no failure of the other counters: an address already locked out
      // must not use up the account's ceiling for everyone else.
      await Promise.all(counted.map(refundRateLimit));
      return locked(hit.retryAfterSeconds);
    }
    counted.push(key);
  }

  const user = await db().user.findUnique({ where: { email: input.email } });
  const passwordOk = await verifyPassword(user?.passwordHash ?? TIMING_DUMMY_HASH, input.password);
  if (
    !user ||
    !user.passwordHash ||
    user.deletedAt ||
    !passwordOk ||
    user.identity !== input.identity
  ) {
    return { ok: false, error: "errors.wrongCredentials" } satisfies Failure;
  }
  await Promise.all([
    clearRateLimit(keys.accountIp),
    refundRateLimit(keys.ip),
    refundRateLimit(keys.account),
  ]);
  if (user.disabled) return { ok: false, error: "errors.accountDisabled" } satisfies Failure;
  return { ok: true as const, userId: user.id, active: user.active };
}

type CodeRequest = {
  email: string;
  purpose: EmailCodePurpose;
  locale: Locale;
  ip: string;
  userId?: number | null;
};

/**
 * Issues a code within the send limits (per address and per client IP) and the resend
 * cool-down, and then, with the code row committed, sends `mail` (null: no mail, e.g. for an
 * address without an account). A failed send withdraws the code, so that "send again" works at
 * once. `wait` false sends in the background: the answer then takes the same time whether or not
 * an email goes out, and a slow mail server does not hold up the request.
 */
async function issueAndMail(
  input: CodeRequest,
  mail: ((code: string) => Promise<void>) | null,
  wait: boolean,
): Promise<{ ok: true; mailed: boolean | null } | Failure> {
  const byEmail = await hitRateLimit(`code:send:${input.email}`, RATE_LIMITS.sendCodePerEmail);
  if (!byEmail.allowed) return locked(byEmail.retryAfterSeconds);
  const byIp = await hitRateLimit(`code:send-ip:${input.ip}`, RATE_LIMITS.sendCodePerIp);
  if (!byIp.allowed) return locked(byIp.retryAfterSeconds);
  const issued = await issueEmailCode({
    email: input.email,
    purpose: input.purpose,
    userId: input.userId,
  });
  if (!issued.ok)
    return {
      ok: false,
      error: "errors.codeCooldown",
      retryAfterSeconds: issued.retryAfterSeconds,
    } satisfies Failure;
  const send = () => mailOrWithdraw(input.purpose, issued, mail!);
  // In the background nothing is known yet (null), whether an email goes out or not.
  if (!wait) {
    if (mail)
      send().catch((error) =>
        console.error(
          `[mail] the ${input.purpose} code could not be withdrawn:`,
          error instanceof Error ? error.message : error,
        ),
      );
    return { ok: true as const, mailed: null };
  }
  if (!mail) return { ok: true as const, mailed: false };
  return (await send())
    ? { ok: true as const, mailed: true }
    : ({ ok: false, error: "errors.mailFailed" } satisfies Failure);
}

/** Sends the email of an issued code; when that fails the code is withdrawn. Answers whether it went out. */
async function mailOrWithdraw(
  purpose: EmailCodePurpose,
  issued: { id: number; code: string },
  mail: (code: string) => Promise<void>,
): Promise<boolean> {
  try {
    await mail(issued.code);
    return true;
  } catch (error) {
    console.error(
      `[mail] the ${purpose} email could not be sent:`,
      error instanceof Error ? error.message : error,
    );
    await withdrawEmailCode(issued.id);
    return false;
  }
}

const codeMail = (input: CodeRequest) => (code: string) =>
  sendCodeEmail({
    to: input.email,
    locale: input.locale,
    purpose: input.purpose,
    code,
    expiresInMinutes: CODE_TTL_MINUTES,
  });

/** The notice to an address that already has an account: someone tried to sign up with it; a reset link. */
const accountExistsMail = (input: CodeRequest) => () =>
  sendTranslatedMail({
    to: input.email,
    locale: input.locale,
    key: "accountExists",
    values: { link: `${env().APP_URL.replace(/\/+$/, "")}/account` },
  });

/**
 * Sign-up's "send code". The answer is the same for a free and a taken address (same limits,
 * same cool-down, same work, the email sent in the background): a free address receives the
 * verification code, a taken one a notice that it already has an account, with a reset link.
 */
export async function sendSignUpCode(input: { email: string; locale: Locale; ip: string }) {
  const request: CodeRequest = { ...input, purpose: "verify_email" };
  const taken = await isEmailTaken(input.email);
  return issueAndMail(request, taken ? accountExistsMail(request) : codeMail(request), false);
}

/**
 * The change-email code for a signed-in user. A taken address gets no code (and the change
 * would be refused), but the answer is the same, so the form does not reveal who has an account.
 */
export async function sendChangeEmailCode(input: {
  userId: number;
  email: string;
  locale: Locale;
  ip: string;
}) {
  const request: CodeRequest = { ...input, purpose: "change_email" };
  const taken = await isEmailTaken(input.email);
  return issueAndMail(request, taken ? null : codeMail(request), false);
}

async function checkCode(email: string, purpose: EmailCodePurpose, code: string) {
  const limit = await hitRateLimit(`code:check:${email}`, RATE_LIMITS.checkCodePerEmail);
  if (!limit.allowed) return locked(limit.retryAfterSeconds);
  const result = await consumeEmailCode({ email, purpose, code });
  if (!result.ok)
    return {
      ok: false,
      error:
        result.reason === "expired"
          ? "errors.codeExpired"
          : result.reason === "too_many_attempts"
            ? "errors.codeTooManyAttempts"
            : "errors.codeInvalid",
    } satisfies Failure;
  return { ok: true as const };
}

async function isEmailTaken(email: string) {
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
type PersonProfile = {
  birthDate: string;
  height: number;
  weight: number;
  unit: number;
  lowLimitMgdl: number;
  highLimitMgdl: number;
};

/**
 * Creates a self-registered account after checking the emailed verification code: a person
 * (identity 1, with a health profile) or a clinic (identity 2, organisation audit not submitted).
 */
export async function registerAccount(
  input: NewAccount &
    (
      | { identity: typeof Identity.Person; profile: PersonProfile }
      | { identity: typeof Identity.Clinic }
    ),
) {
  // The code comes first: only the owner of the address learns whether it is taken.
  const code = await checkCode(input.email, "verify_email", input.code);
  if (!code.ok) return code;
  if (await isEmailTaken(input.email))
    return { ok: false, error: "errors.emailTaken" } satisfies Failure;
  const passwordHash = await hashPassword(input.password);
  const profile = input.identity === Identity.Person ? input.profile : null;
  try {
    const user = await db().user.create({
      data: {
        email: input.email,
        passwordHash,
        identity: input.identity,
        firstName: input.firstName,
        lastName: input.lastName,
        ...(profile
          ? {
              birthDate: new Date(profile.birthDate),
              heightCm: profile.height,
              weightKg: profile.weight,
            }
          : {}),
        setting: { create: { lang: input.lang, unit: profile?.unit ?? GlucoseUnit.Mmol } },
        ...(profile
          ? {
              patient: {
                create: { lowLimit: profile.lowLimitMgdl, highLimit: profile.highLimitMgdl },
              },
            }
          : {}),
      },
    });
    return { ok: true as const, userId: user.id };
  } catch (error) {
    if (error instanceof Error && /Unique constraint/.test(error.message))
      return { ok: false, error: "errors.emailTaken" } satisfies Failure;
    throw error;
  }
}

/** Changes a signed-in user's password; every other session and every API token is ended. */
export async function changePassword(input: {
  userId: number;
  currentPassword: string;
  password: string;
  keepSessionId?: string;
}) {
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
    ...revokeSessionsAndTokens(userId, now, keepSessionId),
  ]);
}

/** The statements that revoke a user's page sessions (all but `keepSessionId`) and every API token. */
function revokeSessionsAndTokens(userId: number, now: Date, keepSessionId?: string) {
  return [
    db().session.updateMany({
      where: { userId, revokedAt: null, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) },
      data: { revokedAt: now },
    }),
    db().apiToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } }),
  ] as const;
}

/**
 * Signs a user out everywhere but this browser: every other page session and every API token is
 * revoked (an `/api/` call with an old token then answers the revoked-token code). Answers how
 * many sessions and tokens were ended.
 */
export async function signOutEverywhere(input: { userId: number; keepSessionId: string }) {
  const [sessions, tokens] = await db().$transaction([
    ...revokeSessionsAndTokens(input.userId, new Date(), input.keepSessionId),
  ]);
  return { sessions: sessions.count, tokens: tokens.count };
}

/**
 * Sends a reset code when the email belongs to an account. The answer is the same, after the
 * same work, for a known and an unknown email: a code row is issued either way (it can never
 * be used without an account) and the email goes out in the background.
 */
export async function requestPasswordReset(input: { email: string; locale: Locale; ip: string }) {
  const user = await db().user.findUnique({
    where: { email: input.email },
    select: { id: true, deletedAt: true },
  });
  const known = user && !user.deletedAt ? user : null;
  const request: CodeRequest = { ...input, purpose: "reset_password", userId: known?.id ?? null };
  return issueAndMail(request, known ? codeMail(request) : null, false);
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
export async function changeEmail(input: {
  userId: number;
  email: string;
  code: string;
  currentPassword: string;
}) {
  const user = await db().user.findUniqueOrThrow({ where: { id: input.userId } });
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
    return { ok: false, error: "errors.currentPasswordWrong" } satisfies Failure;
  }
  const code = await checkCode(input.email, "change_email", input.code);
  if (!code.ok) return code;
  if (await isEmailTaken(input.email))
    return { ok: false, error: "errors.emailTaken" } satisfies Failure;
  await db().user.update({ where: { id: user.id }, data: { email: input.email } });
  return { ok: true as const };
}

/**
 * Emails a new activation code to an account that is not active yet; any other email gets the
 * same answer after the same work. `wait` (for the account's creator, who knows it exists)
 * waits for the send and says whether it went out.
 */
export async function sendActivationCode(input: {
  email: string;
  locale: Locale;
  ip: string;
  wait?: boolean;
}) {
  const user = await db().user.findUnique({
    where: { email: input.email },
    select: { id: true, active: true, deletedAt: true },
  });
  const pending = user && !user.active && !user.deletedAt ? user : null;
  const request: CodeRequest = { ...input, purpose: "activate", userId: pending?.id ?? null };
  return issueAndMail(request, pending ? codeMail(request) : null, input.wait ?? false);
}

/**
 * Activates an account created for someone else, which starts inactive until its owner types the
 * activation code emailed to them. A signed-in inactive user only types the code; someone claiming
 * the account from the email also chooses a password.
 */
export async function activateAccount(input: { email: string; code: string; password?: string }) {
  const user = await db().user.findUnique({ where: { email: input.email } });
  if (!user || user.deletedAt || user.disabled)
    return { ok: false, error: "errors.codeInvalid" } satisfies Failure;
  if (!user.passwordHash && !input.password)
    return { ok: false, error: "errors.passwordMsg" } satisfies Failure;
  const code = await checkCode(input.email, "activate", input.code);
  if (!code.ok) return code;
  await db().user.update({
    where: { id: user.id },
    data: {
      active: true,
      ...(input.password
        ? { passwordHash: await hashPassword(input.password), passwordChangedAt: new Date() }
        : {}),
    },
  });
  return { ok: true as const, userId: user.id };
}

/** An account with its patient record id and settings (the API's user-info answer is made from it). */
/**
 * An account with its patient id, its settings (without the logo's bytes) and its photo's version:
 * what the API's user info answers.
 */
export function findAccountWithSetting(userId: number) {
  return db().user.findUniqueOrThrow({
    where: { id: userId },
    include: {
      patient: { select: { id: true } },
      setting: {
        select: {
          lang: true,
          unit: true,
          weightUnit: true,
          heightUnit: true,
          reportLogoType: true,
          updatedAt: true,
        },
      },
      photo: { select: { updatedAt: true } },
    },
  });
}

export async function accountEmail(userId: number): Promise<string> {
  const user = await db().user.findUniqueOrThrow({
    where: { id: userId },
    select: { email: true },
  });
  return user.email;
}

/** Whether the account exists and has been activated. */
export async function isAccountActive(userId: number): Promise<boolean> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { active: true } });
  return user?.active ?? false;
}
