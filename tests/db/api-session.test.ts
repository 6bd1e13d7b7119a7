import { describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { loader as userInfo } from "~/routes/api.user.getUserInfo";
import { db } from "~/utils/db.server";
import { call, type Handler } from "./api-client";
import { cookieFor } from "./report-support";

// The upload centre calls `/api/` from the browser with the page's session: a request without a
// token header is the signed-in session's user; a token header, when there is one, decides.

const ask = (headers: Record<string, string>) =>
  call(userInfo as Handler, new Request("http://localhost/api/user/getUserInfo", { headers }));

async function user(tag: string, active = true) {
  return db().user.create({
    data: {
      email: `${tag}-${Date.now()}@session-api.test`,
      identity: 1,
      active,
      patient: { create: {} },
    },
  });
}

describe("an /api/ call without a token header", () => {
  it("is the signed-in session's user; an inactive one answers 9999; no session answers 800", async () => {
    const anna = await user("anna");
    expect(await ask({ Cookie: await cookieFor(anna.id) })).toMatchObject({
      status: 200,
      code: 200,
      data: { email: anna.email },
    });
    const sleeping = await user("sleeping", false);
    expect(await ask({ Cookie: await cookieFor(sleeping.id) })).toMatchObject({ code: 9999 });
    expect(await ask({})).toMatchObject({ status: 401, code: 800 });
  });

  it("a token header decides over the session, and a bad token is not rescued by the session", async () => {
    const anna = await user("anna2");
    const bob = await user("bob");
    expect(
      await ask({ Cookie: await cookieFor(anna.id), token: await createApiToken(bob.id) }),
    ).toMatchObject({ code: 200, data: { email: bob.email } });
    expect(await ask({ Cookie: await cookieFor(anna.id), token: "not-a-token" })).toMatchObject({
      code: 801,
    });
  });
});
