import { describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { action as registerPage } from "~/routes/$type.register";
import { action as sendMailAction } from "~/routes/api.user.sendMail";
import { action as accountPage } from "~/routes/account";
import { db } from "~/utils/db.server";
import enAuth from "../../locales/en/auth.json";
import enMail from "../../locales/en/mail.json";
import itAuth from "../../locales/it/auth.json";
import { documented } from "../support/api-contract";
import { catchMail } from "../support/catch-mail";
import { recipientsOf } from "../support/smtp-catcher";

// Sign-up's "send code" and the password reset answer the same for emails with and without an
// account, and both are limited per email and per client IP.

// Every answer is checked against the API document before the test reads it.
const sendMailRoute = documented(sendMailAction);

const APP_URL = "https://care.diacare.test";
const smtp = catchMail({ APP_URL });
const mailTo = (address: string) => (mail: Parameters<typeof recipientsOf>[0]) =>
  recipientsOf(mail).includes(address);

async function sendMail(body: unknown, ip: string, headers: Record<string, string> = {}) {
  const response = await sendMailRoute({
    request: new Request("http://localhost/api/user/sendMail", {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "X-Forwarded-For": ip, ...headers },
    }),
    params: {},
    context: {},
  });
  return {
    status: response.status,
    retryAfter: response.headers.get("Retry-After"),
    body: await response.json(),
  };
}

async function page(
  action: typeof registerPage | typeof accountPage,
  path: string,
  values: Record<string, string>,
  ip: string,
  params: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) form.append(key, value);
  type Body = { notice: string | null; result: { error?: Record<string, string[]> } };
  const answer = (await action({
    request: new Request(`http://localhost${path}`, {
      method: "POST",
      body: form,
      headers: { "X-Forwarded-For": ip },
    }),
    params,
    context: {},
  })) as unknown;
  // `data(body, init)` answers { type: "DataWithResponseInit", data, init }; a plain object is a 200.
  const wrapped = answer as {
    type?: string;
    data: Body;
    init: { status?: number; headers?: Record<string, string> } | null;
  };
  const body = wrapped.type === "DataWithResponseInit" ? wrapped.data : (answer as Body);
  const init = wrapped.type === "DataWithResponseInit" ? wrapped.init : null;
  return {
    status: init?.status ?? 200,
    retryAfter: new Headers(init?.headers ?? {}).get("Retry-After"),
    notice: body.notice,
    errors: body.result.error ?? {},
  };
}

/** The resend cool-down has passed (as if a minute went by). */
const coolDown = (email: string) =>
  db().emailCode.updateMany({
    where: { email },
    data: { createdAt: new Date(Date.now() - 120_000) },
  });

let serial = 0;
const taken = async () =>
  (
    await db().user.create({
      data: { email: `taken-${++serial}@enum.test`, identity: 1, patient: { create: {} } },
    })
  ).email;

describe("sign-up's send-code", () => {
  it("API: the same answer for a taken and a free email; the free one gets a code, the taken one a notice with a reset link", async () => {
    const used = await taken();
    const free = `free-${++serial}@enum.test`;
    const a = await sendMail({ email: used, type: "register" }, "198.51.100.1");
    const b = await sendMail({ email: free, type: "register" }, "198.51.100.1");
    expect(a).toEqual({
      status: 200,
      retryAfter: null,
      body: { code: 200, msg: "Code sent", data: null },
    });
    expect(b).toEqual(a);
    const notice = await smtp.catcher.waitFor(mailTo(used));
    expect(notice.subject).toBe(enMail.accountExists.subject);
    expect(notice.text).toContain(`${APP_URL}/account`);
    expect(notice.text).not.toMatch(/\b\d{6}\b/);
    const code = await smtp.catcher.waitFor(mailTo(free));
    expect(code.text).toMatch(/\b\d{6}\b/);
  });

  it("page (no JavaScript needed): the same status and notice for a taken and a free email", async () => {
    const used = await taken();
    const free = `free-${++serial}@enum.test`;
    const a = await page(
      registerPage,
      "/person/register",
      { intent: "sendCode", email: used },
      "198.51.100.2",
      { type: "person" },
    );
    const b = await page(
      registerPage,
      "/person/register",
      { intent: "sendCode", email: free },
      "198.51.100.2",
      { type: "person" },
    );
    expect(a).toEqual({ status: 200, retryAfter: null, notice: "register.codeSent", errors: {} });
    expect(b).toEqual(a);
  });

  it("5 codes per email an hour, then 429 with Retry-After and a translated 'try again in N minutes', taken or not", async () => {
    for (const email of [await taken(), `free-${++serial}@enum.test`]) {
      for (let i = 0; i < 5; i++) {
        expect((await sendMail({ email, type: "register" }, `198.51.100.${10 + i}`)).status).toBe(
          200,
        );
        await coolDown(email);
      }
      const refused = await sendMail({ email, type: "register" }, "198.51.100.20", {
        "Accept-Language": "it",
      });
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(59 * 60);
      expect(refused.body).toEqual({
        code: 429,
        msg: itAuth.errors.locked.replace("{{minutes}}", "60"),
        data: null,
      });
    }
  });

  it("20 codes per client IP an hour (RATE_LIMIT_CODES_PER_IP), then 429 on the page too", async () => {
    for (let i = 0; i < 20; i++)
      expect(
        (await sendMail({ email: `ip-${++serial}@enum.test`, type: "register" }, "198.51.100.99"))
          .status,
      ).toBe(200);
    const refused = await page(
      registerPage,
      "/person/register",
      { intent: "sendCode", email: `ip-${++serial}@enum.test` },
      "198.51.100.99",
      { type: "person" },
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.errors[""]).toEqual([
      expect.stringMatching(/^errors\.locked\|\{"minutes":\d+\}$/),
    ]);
  });
});

describe("password reset", () => {
  it("the same answer for a known and an unknown email, on the page and the API; only the known one is mailed", async () => {
    const known = await taken();
    const unknown = `nobody-${++serial}@enum.test`;
    const a = await page(
      accountPage,
      "/account",
      { intent: "sendResetCode", email: known },
      "198.51.100.30",
    );
    const b = await page(
      accountPage,
      "/account",
      { intent: "sendResetCode", email: unknown },
      "198.51.100.30",
    );
    expect(a).toEqual({
      status: 200,
      retryAfter: null,
      notice: "account.resetCodeSent",
      errors: {},
    });
    expect(b).toEqual(a);
    await coolDown(known);
    await coolDown(unknown);
    const c = await sendMail({ email: known, type: "reset" }, "198.51.100.31");
    const d = await sendMail({ email: unknown, type: "reset" }, "198.51.100.31");
    expect(c).toEqual({
      status: 200,
      retryAfter: null,
      body: { code: 200, msg: "Code sent", data: null },
    });
    expect(d).toEqual(c);
    await smtp.catcher.waitFor(mailTo(known));
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.catcher.messages.filter(mailTo(unknown))).toEqual([]);
  });

  it("an unknown email is limited per email like a known one (5 an hour), and the cool-down answers alike", async () => {
    const known = await taken();
    const unknown = `nobody-${++serial}@enum.test`;
    for (const email of [known, unknown]) {
      expect((await sendMail({ email, type: "reset" }, "198.51.100.40")).status).toBe(200);
      expect(await sendMail({ email, type: "reset" }, "198.51.100.40")).toMatchObject({
        status: 429,
        body: { code: 429, msg: enAuth.errors.codeCooldown },
      });
      for (let i = 0; i < 3; i++) {
        await coolDown(email);
        expect((await sendMail({ email, type: "reset" }, "198.51.100.41")).status).toBe(200);
      }
      await coolDown(email);
      // The 5 counted: 4 sent and 1 refused by the cool-down.
      expect(await sendMail({ email, type: "reset" }, "198.51.100.42")).toMatchObject({
        status: 429,
        body: { code: 429, msg: enAuth.errors.locked.replace("{{minutes}}", "60") },
      });
    }
  });

  it("change of email: a signed-in user learns nothing about a taken address", async () => {
    const me = await db().user.create({ data: { email: `me-${++serial}@enum.test`, identity: 1 } });
    const token = await createApiToken(me.id);
    const used = await taken();
    const a = await sendMail({ email: used, type: "changeEmail" }, "198.51.100.50", { token });
    const b = await sendMail(
      { email: `free-${++serial}@enum.test`, type: "changeEmail" },
      "198.51.100.50",
      { token },
    );
    expect(a).toEqual({
      status: 200,
      retryAfter: null,
      body: { code: 200, msg: "Code sent", data: null },
    });
    expect(b).toEqual(a);
  });
});
