import { describe, expect, it } from "vitest";
import { db } from "~/utils/db.server";
import {
  destroySession,
  getSessionUser,
  homePath,
  sessionStorage,
} from "~/services/session.server";

async function signedInRequest(userId: number) {
  const storage = sessionStorage();
  const session = await storage.getSession();
  session.set("userId", userId);
  const setCookie = await storage.commitSession(session);
  const cookie = setCookie.split(";")[0]!;
  return {
    cookie,
    request: () => new Request("http://localhost/", { headers: { Cookie: cookie } }),
  };
}

describe("page sessions", () => {
  it("store only a random id in an httpOnly, SameSite=Lax cookie and the user in PostgreSQL", async () => {
    const user = await db().user.create({
      data: { email: "s1@test.diacare", identity: 1, patient: { create: {} } },
      include: { patient: true },
    });
    const storage = sessionStorage();
    const session = await storage.getSession();
    session.set("userId", user.id);
    const setCookie = await storage.commitSession(session);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).not.toContain(String(user.email));
    expect(await db().session.count({ where: { userId: user.id } })).toBe(1);
  });

  it("resolve the signed-in user, and nobody once destroyed", async () => {
    const user = await db().user.create({
      data: { email: "s2@test.diacare", identity: 1, patient: { create: {} } },
      include: { patient: true },
    });
    const { request } = await signedInRequest(user.id);
    const found = await getSessionUser(request());
    expect(found?.email).toBe("s2@test.diacare");
    expect(homePath(found!)).toBe(`/patientShow/${user.patient!.id}/${user.id}/patientHome`);
    await destroySession(request());
    expect(await getSessionUser(request())).toBeNull();
    const row = await db().session.findFirstOrThrow({ where: { userId: user.id } });
    expect(row.revokedAt).not.toBeNull();
  });

  it("ignore a session of a disabled account, and send clinics to the patient list", async () => {
    const clinic = await db().user.create({ data: { email: "c1@test.diacare", identity: 2 } });
    const { request } = await signedInRequest(clinic.id);
    expect(homePath((await getSessionUser(request()))!)).toBe("/patientShow/patients");
    await db().user.update({ where: { id: clinic.id }, data: { disabled: true } });
    expect(await getSessionUser(request())).toBeNull();
  });

  it("reject a forged cookie", async () => {
    const request = new Request("http://localhost/", {
      headers: { Cookie: "__session=forged.value" },
    });
    expect(await getSessionUser(request)).toBeNull();
  });
});

describe("createUserSession", () => {
  it("rotates the session id at sign-in and revokes the one the browser had", async () => {
    const { createUserSession } = await import("~/services/session.server");
    const user = await db().user.create({
      data: { email: "rotate@test.diacare", identity: 1, patient: { create: {} } },
    });
    const first = (await createUserSession(new Request("http://localhost/"), user.id)).split(
      ";",
    )[0]!;
    const second = (
      await createUserSession(
        new Request("http://localhost/", { headers: { Cookie: first } }),
        user.id,
      )
    ).split(";")[0]!;
    expect(second).not.toBe(first);
    expect(
      await getSessionUser(new Request("http://localhost/", { headers: { Cookie: first } })),
    ).toBeNull();
    expect(
      (await getSessionUser(new Request("http://localhost/", { headers: { Cookie: second } })))?.id,
    ).toBe(user.id);
    const rows = await db().session.findMany({ where: { userId: user.id } });
    expect(rows.filter((r) => r.revokedAt === null)).toHaveLength(1);
  });
});
