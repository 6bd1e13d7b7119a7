import { describe, expect, it } from "vitest";
import { loader as root } from "~/root";
import { action as login } from "~/routes/login";
import { createUserSession, takeSessionNotice } from "~/services/session.server";
import { db } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";

const PASSWORD = "notice password 1";

async function account(email: string, identity: number, setting?: { lang: string; unit: number }) {
  return db().user.create({
    data: {
      email,
      passwordHash: await hashPassword(PASSWORD),
      identity,
      ...(identity === 1 ? { patient: { create: {} } } : {}),
      ...(setting ? { setting: { create: setting } } : {}),
    },
  });
}

/** Posts the sign-in form; answers the redirect and the cookies a browser sends afterwards. */
async function signIn(email: string, identity: number, ip: string) {
  const request = new Request("http://localhost/login", {
    method: "POST",
    body: new URLSearchParams({ email, password: PASSWORD, identity: String(identity) }),
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": ip },
  });
  const response = await login({ request, params: {}, context: {} });
  if (!(response instanceof Response))
    throw new Error(`sign-in refused: ${JSON.stringify(response)}`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  return { response, cookie };
}

const page = (cookie: string, path = "/") =>
  root({
    request: new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }),
    params: {},
    context: {},
  });

describe("the sign-in notice", () => {
  it.each([
    [1, "notice-person@test.diacare", "203.0.113.11"],
    [2, "notice-clinic@test.diacare", "203.0.113.12"],
  ])(
    "identity %i: the first page after sign-in has it, the next does not",
    async (identity, email, ip) => {
      await account(email, identity);
      const { response, cookie } = await signIn(email, identity, ip);
      expect(response.status).toBe(302);
      expect(response.headers.get("X-Remix-Reload-Document")).toBe("true");
      const first = response.headers.get("Location")!;
      expect(first).toMatch(/^\/patientShow\//);
      expect((await page(cookie, first)).notice).toBe("signedIn");
      const next = await page(cookie, "/about");
      expect(next.notice).toBeNull();
      expect(next.user?.email).toBe(email);
    },
  );

  it("comes with the saved language and unit on the first page", async () => {
    await account("notice-pl@test.diacare", 1, { lang: "pl", unit: 1 });
    const { cookie } = await signIn("notice-pl@test.diacare", 1, "203.0.113.13");
    const first = await page(cookie);
    expect(first).toMatchObject({ notice: "signedIn", locale: "pl", user: { unit: 1 } });
  });

  it("is taken by one of two requests racing for it", async () => {
    const user = await account("notice-race@test.diacare", 1);
    const cookie = (
      await createUserSession(new Request("http://localhost/"), user.id, "signedIn")
    ).split(";")[0]!;
    const request = () => new Request("http://localhost/", { headers: { Cookie: cookie } });
    const taken = await Promise.all([takeSessionNotice(request()), takeSessionNotice(request())]);
    expect(taken.sort()).toEqual([null, "signedIn"]);
    expect(await takeSessionNotice(request())).toBeNull();
  });

  it("is not there for a session made without one", async () => {
    const user = await account("notice-none@test.diacare", 1);
    const cookie = (await createUserSession(new Request("http://localhost/"), user.id)).split(
      ";",
    )[0]!;
    expect((await page(cookie)).notice).toBeNull();
  });
});
