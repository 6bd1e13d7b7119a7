import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  CODE_TTL_MINUTES,
  consumeEmailCode,
  issueEmailCode,
  MAX_ATTEMPTS,
  RESEND_COOLDOWN_SECONDS,
} from "~/models/email-code.server";
import { db } from "~/utils/db.server";

async function issued(
  email: string,
  purpose: "verify_email" | "activate" | "reset_password" | "change_email" = "verify_email",
  userId?: number,
) {
  const result = await issueEmailCode({ email, purpose, userId });
  if (!result.ok) throw new Error(`expected a code, got ${result.reason}`);
  return result;
}

/** Moves every code of an address back in time, as if the cool-down had passed. */
async function ageCodes(email: string, seconds: number) {
  const rows = await db().emailCode.findMany({ where: { email } });
  for (const row of rows) {
    await db().emailCode.update({
      where: { id: row.id },
      data: { createdAt: new Date(row.createdAt.getTime() - seconds * 1000) },
    });
  }
}

/** A six-digit code that is not `code`. */
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("issueEmailCode", () => {
  it("uses the agreed constants", () => {
    expect({ CODE_TTL_MINUTES, RESEND_COOLDOWN_SECONDS, MAX_ATTEMPTS }).toEqual({
      CODE_TTL_MINUTES: 15,
      RESEND_COOLDOWN_SECONDS: 60,
      MAX_ATTEMPTS: 5,
    });
  });

  it("returns a six-digit code expiring in 15 minutes and stores only a keyed hash of it", async () => {
    const before = Date.now();
    const { code, expiresAt } = await issued("  Hash@Example.TEST ");
    expect(code).toMatch(/^\d{6}$/);
    expect(expiresAt.getTime()).toBeGreaterThanOrEqual(before + 15 * 60_000);
    expect(expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 15 * 60_000);

    const rows = await db().emailCode.findMany({ where: { email: "hash@example.test" } });
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row.codeHash).not.toBe(createHash("sha256").update(code).digest("hex"));
    expect(row.expiresAt.getTime()).toBe(expiresAt.getTime());
    expect(row.usedAt).toBeNull();
  });

  it("refuses a new code within the cool-down, saying how long to wait", async () => {
    await issued("cool@example.test");
    const again = await issueEmailCode({ email: "COOL@example.test", purpose: "verify_email" });
    expect(again).toEqual({ ok: false, reason: "cooldown", retryAfterSeconds: expect.any(Number) });
    if (again.ok) throw new Error("unreachable");
    expect(again.retryAfterSeconds).toBeGreaterThan(0);
    expect(again.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await db().emailCode.count({ where: { email: "cool@example.test" } })).toBe(1);
    // Another purpose has its own cool-down.
    expect(
      (await issueEmailCode({ email: "cool@example.test", purpose: "reset_password" })).ok,
    ).toBe(true);
  });

  it("after the cool-down issues a new code and the older one stops working", async () => {
    const first = await issued("again@example.test");
    await ageCodes("again@example.test", 59);
    expect(
      (await issueEmailCode({ email: "again@example.test", purpose: "verify_email" })).ok,
    ).toBe(false);
    let second = first;
    while (second.code === first.code) {
      await ageCodes("again@example.test", 61);
      second = await issued("again@example.test");
    }
    expect(
      await consumeEmailCode({
        email: "again@example.test",
        purpose: "verify_email",
        code: first.code,
      }),
    ).toEqual({ ok: false, reason: "invalid" });
    expect(
      await consumeEmailCode({
        email: "again@example.test",
        purpose: "verify_email",
        code: second.code,
      }),
    ).toEqual({ ok: true, userId: null });
  });

  it("issues one code when two requests race", async () => {
    const results = await Promise.all([
      issueEmailCode({ email: "race-issue@example.test", purpose: "activate" }),
      issueEmailCode({ email: "race-issue@example.test", purpose: "activate" }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await db().emailCode.count({ where: { email: "race-issue@example.test" } })).toBe(1);
  });
});

describe("consumeEmailCode", () => {
  it("accepts the right code once and returns the account it was issued for", async () => {
    const user = await db().user.create({ data: { email: "once@example.test" } });
    const { code } = await issued("once@example.test", "reset_password", user.id);
    expect(
      await consumeEmailCode({ email: " ONCE@example.test", purpose: "reset_password", code }),
    ).toEqual({ ok: true, userId: user.id });
    expect(
      await consumeEmailCode({ email: "once@example.test", purpose: "reset_password", code }),
    ).toEqual({ ok: false, reason: "invalid" });
    const row = await db().emailCode.findFirstOrThrow({ where: { email: "once@example.test" } });
    expect(row.usedAt).not.toBeNull();
  });

  it("does not accept a code for another purpose or another address", async () => {
    const { code } = await issued("scope@example.test", "change_email");
    expect(
      await consumeEmailCode({ email: "scope@example.test", purpose: "verify_email", code }),
    ).toEqual({ ok: false, reason: "invalid" });
    expect(
      await consumeEmailCode({ email: "other@example.test", purpose: "change_email", code }),
    ).toEqual({ ok: false, reason: "invalid" });
    expect(
      await consumeEmailCode({ email: "scope@example.test", purpose: "change_email", code }),
    ).toMatchObject({ ok: true });
  });

  it("counts wrong tries; after five the code is dead, even for the right code", async () => {
    const { code } = await issued("tries@example.test");
    const wrong = otherCode(code);
    const answers = [];
    for (let i = 0; i < MAX_ATTEMPTS; i++)
      answers.push(
        (
          await consumeEmailCode({
            email: "tries@example.test",
            purpose: "verify_email",
            code: wrong,
          })
        ).ok
          ? "ok"
          : "no",
      );
    expect(answers).toEqual(["no", "no", "no", "no", "no"]);
    const row = await db().emailCode.findFirstOrThrow({ where: { email: "tries@example.test" } });
    expect(row.attempts).toBe(MAX_ATTEMPTS);
    expect(
      await consumeEmailCode({ email: "tries@example.test", purpose: "verify_email", code }),
    ).toEqual({ ok: false, reason: "too_many_attempts" });
    expect((await db().emailCode.findUniqueOrThrow({ where: { id: row.id } })).usedAt).toBeNull();
  });

  it("reports the last wrong try as too many, and accepts the right code on the fifth try", async () => {
    const { code } = await issued("fifth@example.test");
    for (let i = 0; i < MAX_ATTEMPTS - 1; i++) {
      expect(
        await consumeEmailCode({
          email: "fifth@example.test",
          purpose: "verify_email",
          code: otherCode(code),
        }),
      ).toEqual({ ok: false, reason: "invalid" });
    }
    expect(
      await consumeEmailCode({ email: "fifth@example.test", purpose: "verify_email", code }),
    ).toEqual({ ok: true, userId: null });

    const { code: next } = await issued("fifth2@example.test");
    for (let i = 0; i < MAX_ATTEMPTS - 1; i++)
      await consumeEmailCode({
        email: "fifth2@example.test",
        purpose: "verify_email",
        code: otherCode(next),
      });
    expect(
      await consumeEmailCode({
        email: "fifth2@example.test",
        purpose: "verify_email",
        code: otherCode(next),
      }),
    ).toEqual({ ok: false, reason: "too_many_attempts" });
  });

  it("answers expired for a code past its expiry", async () => {
    const { code } = await issued("late@example.test");
    await db().emailCode.updateMany({
      where: { email: "late@example.test" },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(
      await consumeEmailCode({ email: "late@example.test", purpose: "verify_email", code }),
    ).toEqual({ ok: false, reason: "expired" });
    const row = await db().emailCode.findFirstOrThrow({ where: { email: "late@example.test" } });
    expect(row.usedAt).toBeNull();
    expect(row.attempts).toBe(0);
  });

  it("treats malformed input as invalid without counting a try", async () => {
    const { code } = await issued("format@example.test");
    for (const bad of ["12345", "1234567", "abcdef", "12 456", "", `${code}0`, "١٢٣٤٥٦"]) {
      expect(
        await consumeEmailCode({
          email: "format@example.test",
          purpose: "verify_email",
          code: bad,
        }),
      ).toEqual({ ok: false, reason: "invalid" });
    }
    const row = await db().emailCode.findFirstOrThrow({ where: { email: "format@example.test" } });
    expect(row.attempts).toBe(0);
    expect(
      await consumeEmailCode({
        email: "format@example.test",
        purpose: "verify_email",
        code: ` ${code} `,
      }),
    ).toMatchObject({ ok: true });
  });

  it("answers invalid when no code was ever issued", async () => {
    expect(
      await consumeEmailCode({ email: "nobody@example.test", purpose: "activate", code: "123456" }),
    ).toEqual({ ok: false, reason: "invalid" });
  });

  it("lets exactly one of two concurrent submissions of the right code succeed", async () => {
    const { code } = await issued("race@example.test", "activate");
    const results = await Promise.all([
      consumeEmailCode({ email: "race@example.test", purpose: "activate", code }),
      consumeEmailCode({ email: "race@example.test", purpose: "activate", code }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: "invalid" }]);

    const { code: next } = await issued("race5@example.test", "activate");
    const five = await Promise.all(
      Array.from({ length: MAX_ATTEMPTS }, () =>
        consumeEmailCode({ email: "race5@example.test", purpose: "activate", code: next }),
      ),
    );
    expect(five.filter((r) => r.ok)).toHaveLength(1);
  });

  it("never allows more than five tries, even when they arrive together", async () => {
    const { code } = await issued("flood@example.test");
    const guesses = Array.from({ length: 20 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0"),
    );
    const results = await Promise.all(
      guesses.map((g) =>
        consumeEmailCode({ email: "flood@example.test", purpose: "verify_email", code: g }),
      ),
    );
    const row = await db().emailCode.findFirstOrThrow({ where: { email: "flood@example.test" } });
    expect(row.attempts).toBe(MAX_ATTEMPTS);
    expect(results.filter((r) => r.ok)).toEqual([]);
    expect(
      results.filter((r) => !r.ok && r.reason === "too_many_attempts").length,
    ).toBeGreaterThanOrEqual(20 - MAX_ATTEMPTS);
    // After the flood the right code is refused too: the five tries are spent.
    expect(
      await consumeEmailCode({ email: "flood@example.test", purpose: "verify_email", code }),
    ).toEqual({ ok: false, reason: "too_many_attempts" });
  });
});
