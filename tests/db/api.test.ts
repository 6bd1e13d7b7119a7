import { describe, expect, it } from "vitest";
import { checkApiToken, createApiToken } from "~/models/api-token.server";
import { action as loginRoute } from "~/routes/api.user.login";
import { loader as getUserInfoRoute } from "~/routes/api.user.getUserInfo";
import { loader as unknownApiRoute } from "~/routes/api.$";
import { db } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import enAuth from "../../locales/en/auth.json";
import plAuth from "../../locales/pl/auth.json";
import { documented } from "../support/api-contract";

// Every answer these tests read is also checked against the API document.
const login = documented(loginRoute);
const getUserInfo = documented(getUserInfoRoute);
const unknownApi = documented(unknownApiRoute);

const args = (request: Request) => ({ request, params: {}, context: {} });
const get = (path: string, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${path}`, { headers });
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", ...headers },
  });

async function user(email: string, extra: Record<string, unknown> = {}) {
  return db().user.create({
    data: {
      email,
      passwordHash: await hashPassword("api password 1"),
      identity: 1,
      ...extra,
      patient: { create: {} },
    },
  });
}

describe("POST /api/user/login", () => {
  it("answers the token in the header and in data, in the envelope", async () => {
    const u = await user("api-login@test.diacare", { firstName: "Ada" });
    const response = await login(
      args(
        post("/api/user/login", {
          userName: "API-Login@test.diacare",
          password: "api password 1",
          identity: 1,
        }),
      ),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      code: 200,
      data: { name: "Ada", userId: u.id, financeId: null, reason: null },
    });
    expect(response.headers.get("token")).toBe(body.data.token);
    expect(await checkApiToken(body.data.token)).toEqual({
      ok: true,
      active: true,
      viewer: { id: u.id, identity: 1, isPass: 0, role: "guest" },
    });
  });

  it("answers 400 with a translated message for missing fields, and 401 for wrong credentials", async () => {
    const missing = await login(
      args(post("/api/user/login", { password: "x" }, { "Accept-Language": "pl" })),
    );
    expect(await missing.json()).toMatchObject({ code: 400, msg: plAuth.errors.emailMsg });
    await user("api-wrong@test.diacare");
    const wrong = await login(
      args(
        post("/api/user/login", {
          userName: "api-wrong@test.diacare",
          password: "nope",
          identity: 1,
        }),
      ),
    );
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: 401, msg: enAuth.errors.wrongCredentials });
  });
});

describe("GET /api/user/getUserInfo", () => {
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const info = async (userId: number) =>
    (
      await (
        await getUserInfo(
          args(get("/api/user/getUserInfo", { token: await createApiToken(userId) })),
        )
      ).json()
    ).data;

  it("answers the photo's address before the logo's, and the saved units", async () => {
    const u = await user("info-photo@test.diacare", { firstName: "Pia", lastName: "Foto" });
    await db().setting.create({
      data: {
        userId: u.id,
        lang: "pl",
        unit: 1,
        weightUnit: 1,
        heightUnit: 1,
        reportLogo: PNG,
        reportLogoType: "image/png",
      },
    });
    const photo = await db().profilePhoto.create({
      data: { userId: u.id, bytes: PNG, type: "image/png" },
    });
    const pid = (await db().patient.findUniqueOrThrow({ where: { userId: u.id } })).id;
    expect(await info(u.id)).toEqual({
      name: "Pia Foto",
      financeId: null,
      email: "info-photo@test.diacare",
      isPass: 0,
      identity: 1,
      role: "guest",
      userId: u.id,
      pid,
      reason: null,
      firstName: "Pia",
      lastName: "Foto",
      unit: 1,
      weightUnit: 1,
      heightUnit: 1,
      lang: "pl",
      imagePath: `/profile-photo?v=${photo.updatedAt.getTime()}`,
      downLoadPercnet: 100,
    });
  });

  it("answers the report logo's address for an account with a logo and no photo", async () => {
    const u = await user("info-logo@test.diacare");
    const setting = await db().setting.create({
      data: { userId: u.id, lang: "it", reportLogo: PNG, reportLogoType: "image/png" },
    });
    expect(await info(u.id)).toMatchObject({
      unit: 0,
      weightUnit: 0,
      heightUnit: 0,
      lang: "it",
      imagePath: `/report-logo?v=${setting.updatedAt.getTime()}`,
      downLoadPercnet: 100,
      financeId: null,
    });
  });

  it("answers no image and the default units for a clinic with neither photo nor settings", async () => {
    const clinic = await db().user.create({
      data: { email: "info-clinic@test.diacare", identity: 2 },
    });
    expect(await info(clinic.id)).toEqual({
      name: "info-clinic@test.diacare",
      financeId: null,
      email: "info-clinic@test.diacare",
      isPass: 0,
      identity: 2,
      role: "guest",
      userId: clinic.id,
      pid: null,
      reason: null,
      firstName: null,
      lastName: null,
      unit: 0,
      weightUnit: 0,
      heightUnit: 0,
      lang: "en",
      imagePath: null,
      downLoadPercnet: 100,
    });
  });
});

describe("token codes", () => {
  it("800 missing, 801 malformed, 802 expired, 803 revoked, 804 disabled, 805 deleted, 807 refresh required", async () => {
    const code = async (headers: Record<string, string>) =>
      (await (await getUserInfoResponse(headers)).json()).code;
    async function getUserInfoResponse(headers: Record<string, string>) {
      try {
        return await getUserInfo(args(get("/api/user/getUserInfo", headers)));
      } catch (thrown) {
        if (thrown instanceof Response) return thrown;
        throw thrown;
      }
    }
    expect(await code({})).toBe(800);
    expect(await code({ token: "short" })).toBe(801);
    const u = await user("api-codes@test.diacare");
    const expired = await createApiToken(u.id);
    await db().apiToken.updateMany({
      where: { userId: u.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await code({ token: expired })).toBe(802);
    expect(await code({ token: "A".repeat(43) })).toBe(803);
    const fresh = await createApiToken(u.id);
    await db().apiToken.updateMany({
      where: { userId: u.id, expiresAt: { gt: new Date() } },
      data: { revokedAt: new Date() },
    });
    expect(await code({ token: fresh })).toBe(803);
    const disabledToken = await createApiToken(
      (await user("api-disabled@test.diacare", { disabled: true })).id,
    );
    expect(await code({ token: disabledToken })).toBe(804);
    const deletedToken = await createApiToken(
      (await user("api-deleted@test.diacare", { deletedAt: new Date() })).id,
    );
    expect(await code({ token: deletedToken })).toBe(805);
    const changed = await user("api-changed@test.diacare");
    const old = await createApiToken(changed.id);
    await db().user.update({
      where: { id: changed.id },
      data: { passwordChangedAt: new Date(Date.now() + 1000) },
    });
    expect(await code({ token: old })).toBe(807);
    const inactiveToken = await createApiToken(
      (await user("api-inactive@test.diacare", { active: false })).id,
    );
    expect(await code({ token: inactiveToken })).toBe(9999);
  });

  it("a token of one user never reads another's info", async () => {
    const a = await user("api-a@test.diacare", { firstName: "Alice" });
    const b = await user("api-b@test.diacare", { firstName: "Bob" });
    const tokenA = await createApiToken(a.id);
    const tokenB = await createApiToken(b.id);
    const infoA = await (
      await getUserInfo(args(get(`/api/user/getUserInfo?userId=${b.id}`, { token: tokenA })))
    ).json();
    const infoB = await (
      await getUserInfo(args(get("/api/user/getUserInfo", { token: tokenB })))
    ).json();
    expect(infoA.data).toMatchObject({ userId: a.id, email: "api-a@test.diacare", name: "Alice" });
    expect(infoB.data).toMatchObject({ userId: b.id, email: "api-b@test.diacare", name: "Bob" });
  });

  it("unknown /api/ paths answer a 404 envelope", async () => {
    const response = await unknownApi(args(get("/api/nothing/here")));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 404 });
  });
});
