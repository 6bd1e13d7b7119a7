import { describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { issueEmailCode } from "~/models/email-code.server";
import { action as activateRoute } from "~/routes/api.active.active";
import { loader as randomStringRoute } from "~/routes/api.active.randomString";
import { loader as findOneRoute } from "~/routes/api.patient.findOne";
import { action as saveRoute } from "~/routes/api.patient.save";
import { loader as findListRoute } from "~/routes/api.read-power.findList";
import { action as processRoute } from "~/routes/api.read-power.process";
import { action as activePageAction, loader as activePageLoader } from "~/routes/active";
import { db } from "~/utils/db.server";
import { createOriginToken } from "~/utils/origin-token.server";
import { sessionStorage } from "~/services/session.server";
import { getApi, postApi, type Handler } from "./api-client";

// An account created for someone else (/patientAdd, POST /api/patient/save without pid) gives its
// creator a pending share only: the creator reads nothing of the record until the owner, once
// the account is activated, sees who created it and accepts.

let serial = 0;

async function clinic() {
  serial += 1;
  const user = await db().user.create({
    data: {
      email: `creator-${serial}@creator.test`,
      identity: 2,
      isPass: 1,
      firstName: "Clinic",
      lastName: `No${serial}`,
      setting: { create: { lang: "en" } },
    },
  });
  return { ...user, token: await createApiToken(user.id) };
}

async function createdPatient(creatorToken: string) {
  serial += 1;
  const type1 = await db().option.findFirstOrThrow({ where: { code: "type1" } });
  const email = `owner-${serial}@creator.test`;
  const answer = await postApi(
    saveRoute as Handler,
    "/api/patient/save",
    [
      {
        email,
        firstName: "Olga",
        gender: "female",
        diabetesType: type1.id,
        lowLimit: 3.9,
        highLimit: 10,
      },
    ],
    creatorToken,
  );
  expect(answer).toMatchObject({ code: 200 });
  return { email, userId: answer.data.userId as number, pid: answer.data.pid as number };
}

async function activationCode(email: string) {
  // The emailed code is withdrawn if the email fails; issuing a fresh one stands for the email.
  await db().emailCode.deleteMany({ where: { email } });
  const issued = await issueEmailCode({ email, purpose: "activate" });
  if (!issued.ok) throw new Error("no code");
  return issued.code;
}

async function cookieOf(setCookie: string | null) {
  return setCookie!.split(";")[0]!;
}

async function pageCall(
  run: () => Promise<unknown>,
): Promise<{ status: number; location: string | null; setCookie: string | null; body: unknown }> {
  let result: unknown;
  try {
    result = await run();
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response)
    return {
      status: result.status,
      location: result.headers.get("Location"),
      setCookie: result.headers.get("Set-Cookie"),
      body: null,
    };
  const wrapped = result as { type?: string; data?: unknown; init?: { status?: number } };
  if (wrapped?.type === "DataWithResponseInit")
    return {
      status: wrapped.init?.status ?? 200,
      location: null,
      setCookie: null,
      body: wrapped.data,
    };
  return { status: 200, location: null, setCookie: null, body: result };
}

const pageForm = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.append(key, value);
  return data;
};

describe("the creator's share of an account made for someone else", () => {
  it("API: pending until the owner accepts; the creator sees it waiting, with nothing of the patient's data", async () => {
    const creator = await clinic();
    const owner = await createdPatient(creator.token);
    expect(
      await db().readPower.findFirstOrThrow({ where: { providerId: owner.userId } }),
    ).toMatchObject({ readerId: creator.id, sourceType: 2, state: 0 });
    expect(
      await getApi(findOneRoute as Handler, `/api/patient/findOne?pid=${owner.pid}`, creator.token),
    ).toMatchObject({ status: 404 });
    const waiting = await getApi(
      findListRoute as Handler,
      "/api/read-power/findList",
      creator.token,
    );
    expect(waiting.data.data).toEqual([
      expect.objectContaining({ userId: owner.userId, state: 0, sourceType: 2, birthDate: null }),
    ]);

    // Activation answers who created the account and the share waiting for an answer.
    const origin = (await getApi(randomStringRoute as Handler, "/api/active/randomString")).data;
    const activated = await postApi(activateRoute as Handler, "/api/active/active", {
      origin: origin.origin,
      code: await activationCode(owner.email),
      email: owner.email,
      password: "owner password 1",
      confirmPassword: "owner password 1",
    });
    const readPowerId = (
      await db().readPower.findFirstOrThrow({ where: { providerId: owner.userId } })
    ).id;
    expect(activated).toMatchObject({
      code: 200,
      data: {
        creatorShare: {
          readPowerId,
          creatorName: `Clinic No${serial - 1}`,
          creatorEmail: creator.email,
          creatorIdentity: 2,
        },
      },
    });
    expect(
      await getApi(findOneRoute as Handler, `/api/patient/findOne?pid=${owner.pid}`, creator.token),
    ).toMatchObject({ status: 404 });

    // Only the owner answers; the creator cannot accept its own share.
    expect(
      await postApi(
        processRoute as Handler,
        "/api/read-power/process",
        { id: readPowerId, state: 1 },
        creator.token,
      ),
    ).toMatchObject({ status: 403 });
    const ownerToken = await createApiToken(owner.userId);
    expect(
      await postApi(
        processRoute as Handler,
        "/api/read-power/process",
        { id: readPowerId, state: 1 },
        ownerToken,
      ),
    ).toMatchObject({ code: 200, data: { state: 1 } });
    expect(
      await getApi(findOneRoute as Handler, `/api/patient/findOne?pid=${owner.pid}`, creator.token),
    ).toMatchObject({ code: 200, data: { pid: owner.pid } });
  });

  it("pages, without JavaScript: /active activates, then shows the creator and takes the owner's refusal", async () => {
    const creator = await clinic();
    const owner = await createdPatient(creator.token);
    const origin = createOriginToken();
    const code = await activationCode(owner.email);
    const claimed = await pageCall(() =>
      activePageAction({
        request: new Request("http://localhost/active", {
          method: "POST",
          body: pageForm({
            intent: "activate",
            origin: origin.token,
            email: owner.email,
            code,
            password: "owner password 2",
            confirmPassword: "owner password 2",
          }),
        }),
        params: {},
        context: {},
      }),
    );
    expect(claimed).toMatchObject({ status: 302, location: "/active" });
    const cookie = await cookieOf(claimed.setCookie);

    const step = await pageCall(() =>
      activePageLoader({
        request: new Request("http://localhost/active", { headers: { Cookie: cookie } }),
        params: {},
        context: {},
      }),
    );
    const readPowerId = (
      await db().readPower.findFirstOrThrow({ where: { providerId: owner.userId } })
    ).id;
    expect(step).toMatchObject({
      status: 200,
      body: {
        step: "creatorShare",
        creatorShare: {
          readPowerId,
          creatorEmail: creator.email,
          creatorName: expect.stringContaining("Clinic"),
        },
      },
    });

    const missing = await pageCall(() =>
      activePageAction({
        request: new Request("http://localhost/active", {
          method: "POST",
          headers: { Cookie: cookie },
          body: pageForm({ intent: "creatorShare", readPowerId: String(readPowerId) }),
        }),
        params: {},
        context: {},
      }),
    );
    expect(missing).toMatchObject({ status: 400, body: { errors: ["errors.decisionRequired"] } });

    const refused = await pageCall(() =>
      activePageAction({
        request: new Request("http://localhost/active", {
          method: "POST",
          headers: { Cookie: cookie },
          body: pageForm({
            intent: "creatorShare",
            readPowerId: String(readPowerId),
            decision: "refuse",
          }),
        }),
        params: {},
        context: {},
      }),
    );
    expect(refused).toMatchObject({
      status: 302,
      location: `/patientShow/${owner.pid}/${owner.userId}/patientHome`,
    });
    expect(await db().readPower.findUniqueOrThrow({ where: { id: readPowerId } })).toMatchObject({
      state: 2,
    });
    expect(
      await getApi(findOneRoute as Handler, `/api/patient/findOne?pid=${owner.pid}`, creator.token),
    ).toMatchObject({ status: 404 });
    // Answered: /active has nothing more to ask.
    expect(
      await pageCall(() =>
        activePageLoader({
          request: new Request("http://localhost/active", { headers: { Cookie: cookie } }),
          params: {},
          context: {},
        }),
      ),
    ).toMatchObject({ status: 302, location: "/" });
  });

  it("a signed-in owner cannot answer someone else's creator share from /active", async () => {
    const creator = await clinic();
    const owner = await createdPatient(creator.token);
    const other = await createdPatient(creator.token);
    await db().user.update({ where: { id: owner.userId }, data: { active: true } });
    const session = await sessionStorage().getSession();
    session.set("userId", owner.userId);
    const cookie = await cookieOf(await sessionStorage().commitSession(session));
    const othersRow = (
      await db().readPower.findFirstOrThrow({ where: { providerId: other.userId } })
    ).id;
    const answer = await pageCall(() =>
      activePageAction({
        request: new Request("http://localhost/active", {
          method: "POST",
          headers: { Cookie: cookie },
          body: pageForm({
            intent: "creatorShare",
            readPowerId: String(othersRow),
            decision: "accept",
          }),
        }),
        params: {},
        context: {},
      }),
    );
    expect(answer.status).toBe(403);
    expect(await db().readPower.findUniqueOrThrow({ where: { id: othersRow } })).toMatchObject({
      state: 0,
    });
  });
});
