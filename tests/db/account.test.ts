import { describe, expect, it } from "vitest";
import {
  activateAccount,
  changePassword,
  registerAccount,
  resetPassword,
  verifyLogin,
} from "~/models/account.server";
import { checkApiToken, createApiToken } from "~/models/api-token.server";
import { issueEmailCode } from "~/models/email-code.server";
import { db } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";

let n = 0;
const email = () => `user${++n}-${Date.now()}@test.diacare`;

async function person(
  password = "correct horse 1",
  extra: Partial<{ identity: number; active: boolean; disabled: boolean }> = {},
) {
  return db().user.create({
    data: {
      email: email(),
      passwordHash: await hashPassword(password),
      identity: 1,
      ...extra,
      patient: { create: {} },
    },
  });
}

async function codeFor(address: string, purpose: "verify_email" | "activate" | "reset_password") {
  const issued = await issueEmailCode({ email: address, purpose });
  if (!issued.ok) throw new Error("code not issued");
  return issued.code;
}

describe("verifyLogin", () => {
  it("accepts the right email, password and sign-in type", async () => {
    const user = await person();
    expect(
      await verifyLogin({
        email: user.email,
        password: "correct horse 1",
        identity: 1,
        ip: "10.0.0.1",
      }),
    ).toEqual({ ok: true, userId: user.id, active: true });
  });

  it("gives one message for an unknown email, a wrong password and a wrong type", async () => {
    const user = await person();
    const wrong = [
      await verifyLogin({
        email: "nobody@test.diacare",
        password: "correct horse 1",
        identity: 1,
        ip: "10.0.0.2",
      }),
      await verifyLogin({
        email: user.email,
        password: "wrong horse 1",
        identity: 1,
        ip: "10.0.0.2",
      }),
      await verifyLogin({
        email: user.email,
        password: "correct horse 1",
        identity: 2,
        ip: "10.0.0.2",
      }),
    ];
    expect(new Set(wrong.map((r) => JSON.stringify(r)))).toEqual(
      new Set([JSON.stringify({ ok: false, error: "errors.wrongCredentials" })]),
    );
  });

  it("locks an account after 5 failures from one address, even for the right password, and tells a disabled account apart", async () => {
    const user = await person();
    for (let i = 0; i < 5; i++)
      await verifyLogin({ email: user.email, password: "nope", identity: 1, ip: "10.1.0.1" });
    const locked = await verifyLogin({
      email: user.email,
      password: "correct horse 1",
      identity: 1,
      ip: "10.1.0.1",
    });
    expect(locked).toMatchObject({ ok: false, error: "errors.locked" });
    expect((locked as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(14 * 60);
    expect((locked as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(
      15 * 60,
    );
    const disabled = await person("correct horse 1", { disabled: true });
    expect(
      await verifyLogin({
        email: disabled.email,
        password: "correct horse 1",
        identity: 1,
        ip: "10.2.0.1",
      }),
    ).toEqual({ ok: false, error: "errors.accountDisabled" });
  });

  it("5 wrong passwords from one address do not lock the owner out from another", async () => {
    const user = await person();
    for (let i = 0; i < 8; i++)
      await verifyLogin({ email: user.email, password: "nope", identity: 1, ip: "203.0.113.66" });
    expect(
      await verifyLogin({
        email: user.email,
        password: "correct horse 1",
        identity: 1,
        ip: "203.0.113.66",
      }),
    ).toMatchObject({ ok: false, error: "errors.locked" });
    expect(
      await verifyLogin({
        email: user.email,
        password: "correct horse 1",
        identity: 1,
        ip: "198.51.100.7",
      }),
    ).toEqual({ ok: true, userId: user.id, active: true });
  });

  it("counts only failures per address: 100 successful sign-ins from one clinic address lock no one", async () => {
    const users = [await person(), await person(), await person()];
    for (let i = 0; i < 100; i++) {
      const user = users[i % users.length]!;
      expect(
        (
          await verifyLogin({
            email: user.email,
            password: "correct horse 1",
            identity: 1,
            ip: "192.0.2.50",
          })
        ).ok,
      ).toBe(true);
    }
    expect(
      await db().rateLimit.findMany({
        where: { key: { contains: "192.0.2.50" }, count: { gt: 0 } },
      }),
    ).toEqual([]);
  });

  it("failures from many addresses meet the account's slower ceiling (50 an hour); an address already locked out does not use it up", async () => {
    const user = await person();
    // One address hammering: 5 failures count, every later attempt is refused without counting.
    for (let i = 0; i < 30; i++)
      await verifyLogin({ email: user.email, password: "nope", identity: 1, ip: "203.0.113.1" });
    expect(
      (await db().rateLimit.findUniqueOrThrow({ where: { key: `signin:fail:${user.email}` } }))
        .count,
    ).toBe(5);
    // 45 more failures from 9 other addresses reach the ceiling of 50.
    for (let a = 2; a <= 10; a++)
      for (let i = 0; i < 5; i++)
        await verifyLogin({
          email: user.email,
          password: "nope",
          identity: 1,
          ip: `203.0.113.${a}`,
        });
    const ceiling = await verifyLogin({
      email: user.email,
      password: "correct horse 1",
      identity: 1,
      ip: "198.51.100.99",
    });
    expect(ceiling).toMatchObject({ ok: false, error: "errors.locked" });
    expect((ceiling as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(50 * 60);
  });

  it("failures from one address over many accounts meet the per-address limit (RATE_LIMIT_SIGNIN_PER_IP, 30)", async () => {
    for (let i = 0; i < 30; i++)
      await verifyLogin({
        email: `nobody-${i}@test.diacare`,
        password: "nope",
        identity: 1,
        ip: "203.0.113.200",
      });
    const user = await person();
    expect(
      await verifyLogin({
        email: user.email,
        password: "correct horse 1",
        identity: 1,
        ip: "203.0.113.200",
      }),
    ).toMatchObject({ ok: false, error: "errors.locked" });
    expect(
      (
        await verifyLogin({
          email: user.email,
          password: "correct horse 1",
          identity: 1,
          ip: "203.0.113.201",
        })
      ).ok,
    ).toBe(true);
  });

  it("success clears the failures counted so far", async () => {
    const user = await person();
    for (let i = 0; i < 4; i++)
      await verifyLogin({ email: user.email, password: "nope", identity: 1, ip: "10.3.0.1" });
    expect(
      (
        await verifyLogin({
          email: user.email,
          password: "correct horse 1",
          identity: 1,
          ip: "10.3.0.1",
        })
      ).ok,
    ).toBe(true);
    for (let i = 0; i < 4; i++)
      await verifyLogin({ email: user.email, password: "nope", identity: 1, ip: "10.3.0.1" });
    expect(
      (
        await verifyLogin({
          email: user.email,
          password: "correct horse 1",
          identity: 1,
          ip: "10.3.0.1",
        })
      ).ok,
    ).toBe(true);
  });
});

describe("registerAccount", () => {
  const profile = {
    birthDate: "1990-02-03",
    height: 170,
    weight: 65,
    unit: 0,
    lowLimitMgdl: 70.2,
    highLimitMgdl: 180,
  };

  it("creates a person with a health profile once the emailed code is right", async () => {
    const address = email();
    const code = await codeFor(address, "verify_email");
    const created = await registerAccount({
      email: address,
      password: "a good password",
      code,
      firstName: "Ana",
      lastName: "Pop",
      lang: "ro",
      identity: 1,
      profile,
    });
    expect(created.ok).toBe(true);
    const user = await db().user.findUniqueOrThrow({
      where: { email: address },
      include: { patient: true, setting: true },
    });
    expect(user).toMatchObject({ identity: 1, active: true, firstName: "Ana" });
    expect(user.patient).toMatchObject({ lowLimit: 70.2, highLimit: 180 });
    expect(user.setting).toMatchObject({ lang: "ro", unit: 0 });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it("refuses a wrong code and a taken email without writing anything", async () => {
    const address = email();
    await codeFor(address, "verify_email");
    const wrong = await registerAccount({
      email: address,
      password: "a good password",
      code: "000000",
      firstName: "A",
      lastName: "B",
      lang: "en",
      identity: 2,
    });
    expect(wrong).toMatchObject({ ok: false, error: "errors.codeInvalid" });
    expect(await db().user.count({ where: { email: address } })).toBe(0);
    // A taken email is only named to whoever holds the code sent to it; without it the answer is "wrong code".
    const existing = await person();
    const guessed = await registerAccount({
      email: existing.email,
      password: "a good password",
      code: "123456",
      firstName: "A",
      lastName: "B",
      lang: "en",
      identity: 2,
    });
    expect(guessed).toMatchObject({ ok: false, error: "errors.codeInvalid" });
    const taken = await registerAccount({
      email: existing.email,
      password: "a good password",
      code: await codeFor(existing.email, "verify_email"),
      firstName: "A",
      lastName: "B",
      lang: "en",
      identity: 2,
    });
    expect(taken).toEqual({ ok: false, error: "errors.emailTaken" });
  });

  it("creates a clinic with the audit not yet submitted", async () => {
    const address = email();
    const created = await registerAccount({
      email: address,
      password: "a good password",
      code: await codeFor(address, "verify_email"),
      firstName: "Dr",
      lastName: "Who",
      lang: "en",
      identity: 2,
    });
    expect(created.ok).toBe(true);
    expect(
      await db().user.findUniqueOrThrow({ where: { email: address }, include: { patient: true } }),
    ).toMatchObject({ identity: 2, isPass: 0, patient: null });
  });
});

describe("passwords and activation", () => {
  it("changing the password ends other sessions and every API token", async () => {
    const user = await person();
    const token = await createApiToken(user.id);
    await db().session.create({
      data: {
        id: `s-${user.id}-keep`,
        userId: user.id,
        expiresAt: new Date(Date.now() + 3600_000),
      },
    });
    await db().session.create({
      data: {
        id: `s-${user.id}-other`,
        userId: user.id,
        expiresAt: new Date(Date.now() + 3600_000),
      },
    });
    expect(
      await changePassword({
        userId: user.id,
        currentPassword: "wrong",
        password: "new password 2",
      }),
    ).toEqual({ ok: false, error: "errors.currentPasswordWrong" });
    expect(
      (
        await changePassword({
          userId: user.id,
          currentPassword: "correct horse 1",
          password: "new password 2",
          keepSessionId: `s-${user.id}-keep`,
        })
      ).ok,
    ).toBe(true);
    expect(await checkApiToken(token)).toEqual({ ok: false, code: 803 });
    const sessions = await db().session.findMany({
      where: { userId: user.id },
      orderBy: { id: "asc" },
    });
    expect(sessions.map((s) => [s.id.endsWith("keep"), s.revokedAt === null])).toEqual([
      [true, true],
      [false, false],
    ]);
    expect(
      (
        await verifyLogin({
          email: user.email,
          password: "new password 2",
          identity: 1,
          ip: "10.4.0.1",
        })
      ).ok,
    ).toBe(true);
  });

  it("resets a forgotten password with the emailed code, once", async () => {
    const user = await person();
    const code = await codeFor(user.email, "reset_password");
    expect(
      (await resetPassword({ email: user.email, code, password: "reset password 3" })).ok,
    ).toBe(true);
    expect(
      await resetPassword({ email: user.email, code, password: "again password 4" }),
    ).toMatchObject({ ok: false });
    expect(
      (
        await verifyLogin({
          email: user.email,
          password: "reset password 3",
          identity: 1,
          ip: "10.5.0.1",
        })
      ).ok,
    ).toBe(true);
  });

  it("activates an account created for someone else, who then chooses a password", async () => {
    const created = await db().user.create({
      data: { email: email(), identity: 1, active: false, patient: { create: {} } },
    });
    const code = await codeFor(created.email, "activate");
    expect(await activateAccount({ email: created.email, code })).toEqual({
      ok: false,
      error: "errors.passwordMsg",
    });
    expect(
      (await activateAccount({ email: created.email, code, password: "my own password" })).ok,
    ).toBe(true);
    expect(
      await verifyLogin({
        email: created.email,
        password: "my own password",
        identity: 1,
        ip: "10.6.0.1",
      }),
    ).toMatchObject({ ok: true, active: true });
  });
});
