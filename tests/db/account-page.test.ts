import { describe, expect, it } from "vitest";
import { profilePhoto } from "~/models/profile.server";
import { readSessionData } from "~/models/session.server";
import { action, loader } from "~/routes/account";
import { loader as photoLoader } from "~/routes/profile-photo";
import { db } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import { sessionStorage } from "~/services/session.server";

const PASSWORD = "account page 1";
const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');

let n = 0;
async function person() {
  return db().user.create({
    data: {
      email: `account-page-${++n}@test.diacare`,
      passwordHash: await hashPassword(PASSWORD),
      identity: 1,
      firstName: "Anna",
      lastName: "Kowalczyk",
      setting: { create: { lang: "en" } },
      patient: { create: {} },
    },
  });
}

async function cookieFor(userId: number) {
  const session = await sessionStorage().getSession();
  session.set("userId", userId);
  return (await sessionStorage().commitSession(session)).split(";")[0]!;
}

type Answer = {
  status: number;
  intent?: string;
  result?: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> } | null;
  notice?: string | null;
  location?: string | null;
  setCookie?: string | null;
};

/** Posts to the /account action as `cookie` (or signed out); answers a reply or a redirect alike. */
async function post(cookie: string | null, body: URLSearchParams | FormData): Promise<Answer> {
  const request = new Request("http://localhost/account", {
    method: "POST",
    headers: cookie ? { Cookie: cookie } : {},
    body,
  });
  try {
    const answer = (await action({ request, params: {}, context: {} })) as unknown;
    if (answer instanceof Response)
      return {
        status: answer.status,
        location: answer.headers.get("Location"),
        setCookie: answer.headers.get("Set-Cookie"),
      };
    const { data, init } = answer as { data: Omit<Answer, "status">; init?: { status?: number } };
    return { status: init?.status ?? 200, ...data };
  } catch (thrown) {
    if (thrown instanceof Response)
      return { status: thrown.status, location: thrown.headers.get("Location") };
    throw thrown;
  }
}

function upload(bytes: Uint8Array<ArrayBuffer>, name: string, type: string) {
  const body = new FormData();
  body.append("intent", "photo");
  body.append("photo", new File([bytes], name, { type }));
  return body;
}

describe("/account: profile", () => {
  it("refuses a name with a control character with 400, giving back every value typed", async () => {
    const user = await person();
    const answer = await post(
      await cookieFor(user.id),
      new URLSearchParams({
        intent: "profile",
        firstName: "Zofia\u0007",
        middleName: "Maria",
        lastName: "Nowak",
        userName: "zosia",
      }),
    );
    expect(answer).toMatchObject({ status: 400, intent: "profile", notice: null });
    expect(answer.result?.error).toEqual({ firstName: ["input.hiddenCharacters"] });
    expect(answer.result?.initialValue).toMatchObject({
      middleName: "Maria",
      lastName: "Nowak",
      userName: "zosia",
    });
    expect(await db().user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      firstName: "Anna",
      middleName: null,
    });
  });

  it("saves the names trimmed, blank optional ones as null", async () => {
    const user = await person();
    expect(
      await post(
        await cookieFor(user.id),
        new URLSearchParams({
          intent: "profile",
          firstName: " Zofia ",
          middleName: " ",
          lastName: "Nowak",
          userName: "",
        }),
      ),
    ).toMatchObject({ status: 200, notice: "account.profileSaved" });
    expect(await db().user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      firstName: "Zofia",
      middleName: null,
      lastName: "Nowak",
      userName: null,
    });
  });

  it("sends a signed-out post to the sign-in page and refuses an unknown intent with 400", async () => {
    expect(await post(null, new URLSearchParams({ intent: "deleteAccount" }))).toEqual({
      status: 302,
      location: "/login?redirectTo=/account",
    });
    const user = await person();
    expect(
      await post(await cookieFor(user.id), new URLSearchParams({ intent: "dropTables" })),
    ).toMatchObject({ status: 400 });
  });
});

describe("/account: photo", () => {
  it("keeps the type the bytes show; refuses SVG (400) and an oversized file (413); serves it privately", async () => {
    const user = await person();
    const cookie = await cookieFor(user.id);
    expect(await post(cookie, upload(PNG, "me.txt", "text/plain"))).toMatchObject({
      status: 200,
      notice: "account.photoSaved",
    });
    const svg = await post(cookie, upload(SVG, "me.png", "image/png"));
    expect(svg).toMatchObject({ status: 400, intent: "photo" });
    expect(svg.result?.error).toEqual({ photo: ["errors.photoType"] });
    const big = await post(cookie, upload(new Uint8Array(512 * 1024 + 10), "big.png", "image/png"));
    expect(big).toMatchObject({
      status: 413,
      intent: "photo",
      result: { error: { photo: ["errors.photoTooLarge"] } },
    });
    expect(await profilePhoto(user.id)).toEqual({ bytes: PNG, type: "image/png" });

    const page = (await loader({
      request: new Request("http://localhost/account", { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    })) as { photoSrc: string | null };
    expect(page.photoSrc).toMatch(/^\/profile-photo\?v=\d+$/);
    const served = await photoLoader({
      request: new Request(`http://localhost${page.photoSrc}`, { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    });
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(served.headers.get("Cache-Control")).toBe("private, max-age=86400");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
  });

  it("is served to nobody signed out", async () => {
    await expect(
      photoLoader({
        request: new Request("http://localhost/profile-photo?v=1"),
        params: {},
        context: {},
      }),
    ).rejects.toMatchObject({ status: 302 });
  });
});

describe("/account: sign out everywhere and delete", () => {
  it("signs out everywhere but the browser that asked", async () => {
    const user = await person();
    const here = await cookieFor(user.id);
    const elsewhere = await cookieFor(user.id);
    expect(await post(here, new URLSearchParams({ intent: "signOutEverywhere" }))).toMatchObject({
      status: 200,
      notice: "account.signedOutEverywhere",
    });
    const ids = await db().session.findMany({
      where: { userId: user.id },
      select: { id: true, revokedAt: true },
    });
    expect(ids.filter((s) => s.revokedAt === null)).toHaveLength(1);
    const live = ids.find((s) => s.revokedAt === null)!;
    expect(await readSessionData(live.id)).toEqual({ userId: user.id });
    const session = await sessionStorage().getSession(here);
    expect(session.id).toBe(live.id);
    expect((await sessionStorage().getSession(elsewhere)).get("userId")).toBeUndefined();
  });

  it("refuses a wrong password with 400 and deletes nothing; with the right one the account goes and the cookie is cleared", async () => {
    const user = await person();
    const cookie = await cookieFor(user.id);
    const wrong = await post(
      cookie,
      new URLSearchParams({ intent: "deleteAccount", currentPassword: "guess" }),
    );
    expect(wrong).toMatchObject({ status: 400, intent: "deleteAccount" });
    expect(wrong.result?.error).toEqual({ currentPassword: ["errors.currentPasswordWrong"] });
    expect(await db().user.count({ where: { id: user.id } })).toBe(1);

    const done = await post(
      cookie,
      new URLSearchParams({ intent: "deleteAccount", currentPassword: PASSWORD }),
    );
    expect(done).toMatchObject({ status: 302, location: "/login?deleted=1" });
    expect(done.setCookie).toMatch(/^__session=;.*Expires=Thu, 01 Jan 1970/);
    expect(await db().user.count({ where: { id: user.id } })).toBe(0);
  });
});
