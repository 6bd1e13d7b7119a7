import { describe, expect, it } from "vitest";
import { action as loginAction } from "~/routes/api.user.login";
import { action as loginPage } from "~/routes/login";
import { db } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import enAuth from "../../locales/en/auth.json";
import ruAuth from "../../locales/ru/auth.json";
import { documented } from "../support/api-contract";

// Sign-in throttling on the page and the API: only failures count, per account and client IP.

// Every API answer is checked against the API document before the test reads it.
const loginApi = documented(loginAction);

let serial = 0;
async function person(password = "right password 1") {
  return db().user.create({
    data: {
      email: `signin-${++serial}@throttle.test`,
      passwordHash: await hashPassword(password),
      identity: 1,
      patient: { create: {} },
    },
  });
}

async function api(
  email: string,
  password: string,
  ip: string,
  headers: Record<string, string> = {},
) {
  const response = await loginApi({
    request: new Request("http://localhost/api/user/login", {
      method: "POST",
      body: JSON.stringify({ userName: email, password, identity: 1 }),
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

async function page(email: string, password: string, ip: string) {
  const form = new FormData();
  for (const [key, value] of Object.entries({ email, password, identity: "1", redirectTo: "" }))
    form.append(key, value);
  const answer = (await loginPage({
    request: new Request("http://localhost/login", {
      method: "POST",
      body: form,
      headers: { "X-Forwarded-For": ip },
    }),
    params: {},
    context: {},
  })) as unknown;
  if (answer instanceof Response)
    return {
      status: answer.status,
      retryAfter: answer.headers.get("Retry-After"),
      errors: [] as string[],
    };
  const wrapped = answer as {
    data: { error?: Record<string, string[]> };
    init: { status: number; headers?: Record<string, string> };
  };
  return {
    status: wrapped.init.status,
    retryAfter: new Headers(wrapped.init.headers ?? {}).get("Retry-After"),
    errors: wrapped.data.error?.[""] ?? [],
  };
}

describe("sign-in throttling", () => {
  it("API: 40 successful sign-ins from one clinic address lock no one", async () => {
    const users = [await person(), await person()];
    for (let i = 0; i < 40; i++)
      expect((await api(users[i % 2]!.email, "right password 1", "192.0.2.200")).body.code).toBe(
        200,
      );
  });

  it("API: the 6th try after 5 wrong passwords from one address is 429 with Retry-After and 'try again in N minutes'; another address still signs in", async () => {
    const user = await person();
    for (let i = 0; i < 5; i++)
      expect(await api(user.email, "wrong password", "203.0.113.9")).toMatchObject({
        status: 401,
        body: { code: 401, msg: enAuth.errors.wrongCredentials },
      });
    const locked = await api(user.email, "right password 1", "203.0.113.9", {
      "Accept-Language": "ru",
    });
    expect(locked.status).toBe(429);
    expect(Number(locked.retryAfter)).toBeGreaterThan(14 * 60);
    expect(locked.body).toEqual({
      code: 429,
      msg: ruAuth.errors.locked.replace("{{minutes}}", "15"),
      data: null,
    });
    expect((await api(user.email, "right password 1", "198.51.100.3")).body.code).toBe(200);
  });

  it("page: 429 with Retry-After and the minutes in the form error; a successful sign-in elsewhere is unaffected", async () => {
    const user = await person();
    for (let i = 0; i < 5; i++)
      expect((await page(user.email, "wrong password", "203.0.113.10")).status).toBe(401);
    const locked = await page(user.email, "right password 1", "203.0.113.10");
    expect(locked.status).toBe(429);
    expect(Number(locked.retryAfter)).toBeGreaterThan(14 * 60);
    expect(locked.errors).toEqual(['errors.locked|{"minutes":15}']);
    expect(await page(user.email, "right password 1", "198.51.100.4")).toMatchObject({
      status: 302,
    });
  });
});
