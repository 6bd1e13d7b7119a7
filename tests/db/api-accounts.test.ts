import { describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { issueEmailCode } from "~/models/email-code.server";
import { action as activate } from "~/routes/api.active.active";
import { loader as randomString } from "~/routes/api.active.randomString";
import { loader as countries } from "~/routes/api.country.list";
import { action as password } from "~/routes/api.user.password";
import { action as register } from "~/routes/api.user.register";
import { action as sendMail } from "~/routes/api.user.sendMail";
import { action as updateIdentityInfo } from "~/routes/api.user.updateIdentityInfo";
import { db } from "~/utils/db.server";
import { hashPassword, verifyPassword } from "~/utils/password.server";
import { expectDocumented } from "../support/api-contract";

// The request last handed to a route, so that `json` can check its answer against the API document.
let asked: Request | null = null;
const args = (request: Request) => {
  asked = request;
  return { request, params: {}, context: {} };
};
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", "X-Forwarded-For": "192.0.2.10", ...headers },
  });
const json = async (response: Response) => {
  const body = await response.json();
  if (asked) expectDocumented(asked.method, asked.url, response.status, body);
  return { status: response.status, ...body };
};

async function code(email: string, purpose: "verify_email" | "activate" | "reset_password") {
  const issued = await issueEmailCode({ email, purpose });
  if (!issued.ok) throw new Error("no code");
  return issued.code;
}

describe("POST /api/user/sendMail", () => {
  it("sends a registration code, then refuses a resend within the cool-down (429)", async () => {
    expect(
      await json(
        await sendMail(
          args(post("/api/user/sendMail", { email: "fresh@api.test", type: "register" })),
        ),
      ),
    ).toMatchObject({ status: 200, code: 200 });
    expect(
      await db().emailCode.count({ where: { email: "fresh@api.test", purpose: "verify_email" } }),
    ).toBe(1);
    expect(
      await json(
        await sendMail(
          args(post("/api/user/sendMail", { email: "fresh@api.test", type: "register" })),
        ),
      ),
    ).toMatchObject({ status: 429, code: 429 });
  });

  it("answers a reset request for an unknown email like a known one", async () => {
    const answer = await json(
      await sendMail(args(post("/api/user/sendMail", { email: "nobody@api.test", type: "reset" }))),
    );
    expect(answer).toMatchObject({ code: 200 });
    // The same work as for a known email: a code row that no account can ever use.
    expect(await db().emailCode.count({ where: { email: "nobody@api.test", userId: null } })).toBe(
      1,
    );
  });

  it("validates the email (400, translated)", async () => {
    const answer = await json(
      await sendMail(
        args(post("/api/user/sendMail", { email: "nope" }, { "Accept-Language": "it" })),
      ),
    );
    expect(answer).toMatchObject({ status: 400, code: 400 });
    expect(answer.msg).not.toMatch(/valid email/);
  });
});

describe("POST /api/user/register", () => {
  it("creates a person and answers a token; a wrong code writes nothing", async () => {
    const body = {
      email: "new@api.test",
      password: "api password 9",
      confirmPassword: "api password 9",
      firstName: "N",
      lastName: "P",
      agree: true,
      identity: 1,
      birthDate: "1980-03-04",
      height: 180,
      weight: 80,
      unit: 1,
      lowLimit: 70,
      highLimit: 180,
    };
    const good = await code("new@api.test", "verify_email");
    expect(
      await json(
        await register(
          args(
            post("/api/user/register", { ...body, code: good === "111111" ? "222222" : "111111" }),
          ),
        ),
      ),
    ).toMatchObject({ code: 400 });
    expect(await db().user.count({ where: { email: "new@api.test" } })).toBe(0);
    const created = await register(args(post("/api/user/register", { ...body, code: good })));
    const answer = await json(created);
    expect(answer).toMatchObject({ code: 200, data: { token: expect.any(String) } });
    expect(created.headers.get("token")).toBe(answer.data.token);
    expect(
      await db().patient.findFirstOrThrow({ where: { user: { email: "new@api.test" } } }),
    ).toMatchObject({ lowLimit: 70, highLimit: 180 });
  });
});

describe("POST /api/user/password", () => {
  it("changes the password with a token, and resets it with a code without one", async () => {
    const user = await db().user.create({
      data: {
        email: "pw@api.test",
        passwordHash: await hashPassword("first password"),
        identity: 1,
      },
    });
    const token = await createApiToken(user.id);
    const wrong = await json(
      await password(
        args(
          post(
            "/api/user/password",
            {
              oldPassword: "nope",
              password: "second password",
              confirmPassword: "second password",
            },
            { token },
          ),
        ),
      ),
    );
    expect(wrong).toMatchObject({ code: 400 });
    expect(
      await json(
        await password(
          args(
            post(
              "/api/user/password",
              {
                oldPassword: "first password",
                password: "second password",
                confirmPassword: "second password",
              },
              { token },
            ),
          ),
        ),
      ),
    ).toMatchObject({ code: 200 });
    const reset = await code("pw@api.test", "reset_password");
    expect(
      await json(
        await password(
          args(
            post("/api/user/password", {
              email: "pw@api.test",
              code: reset,
              password: "third password",
              confirmPassword: "third password",
            }),
          ),
        ),
      ),
    ).toMatchObject({ code: 200 });
    const stored = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await verifyPassword(stored.passwordHash!, "third password")).toBe(true);
  });
});

describe("activation API", () => {
  it("gives an origin prefix and activates with it and the emailed code", async () => {
    await db().user.create({ data: { email: "act@api.test", identity: 1, active: false } });
    const origin = await json(
      await randomString(args(new Request("http://localhost/api/active/randomString"))),
    );
    expect(origin.data.randomString).toMatch(/^[A-Z2-9]{4}$/);
    const activation = await code("act@api.test", "activate");
    const forged = await json(
      await activate(
        args(
          post("/api/active/active", {
            origin: "AAAA.1.x",
            code: activation,
            email: "act@api.test",
            password: "chosen password",
            confirmPassword: "chosen password",
          }),
        ),
      ),
    );
    expect(forged).toMatchObject({ code: 400 });
    const done = await json(
      await activate(
        args(
          post("/api/active/active", {
            origin: origin.data.origin,
            code: activation,
            email: "act@api.test",
            password: "chosen password",
            confirmPassword: "chosen password",
          }),
        ),
      ),
    );
    expect(done).toMatchObject({ code: 200 });
    expect(await db().user.findUniqueOrThrow({ where: { email: "act@api.test" } })).toMatchObject({
      active: true,
    });
  });
});

describe("POST /api/user/updateIdentityInfo", () => {
  const organisation = {
    hospitalName: "API Clinic",
    address: "1 Road",
    area: "East",
    country: "Italy",
    connectName: "Dr X",
    connectPhone: "+39 06 000 000",
  };

  it("puts a clinic under review (isPass 3) and refuses a person (403)", async () => {
    const clinic = await db().user.create({ data: { email: "clinic@api.test", identity: 2 } });
    const answer = await json(
      await updateIdentityInfo(
        args(
          post("/api/user/updateIdentityInfo", organisation, {
            token: await createApiToken(clinic.id),
          }),
        ),
      ),
    );
    expect(answer).toMatchObject({ code: 200, data: { isPass: 3 } });
    expect(await db().user.findUniqueOrThrow({ where: { id: clinic.id } })).toMatchObject({
      isPass: 3,
    });
    const person = await db().user.create({ data: { email: "person@api.test", identity: 1 } });
    expect(
      await json(
        await updateIdentityInfo(
          args(
            post("/api/user/updateIdentityInfo", organisation, {
              token: await createApiToken(person.id),
            }),
          ),
        ),
      ),
    ).toMatchObject({ status: 403, code: 403 });
  });

  it("names the first missing field", async () => {
    const clinic = await db().user.create({ data: { email: "clinic2@api.test", identity: 2 } });
    const answer = await json(
      await updateIdentityInfo(
        args(
          post(
            "/api/user/updateIdentityInfo",
            { ...organisation, hospitalName: "  " },
            { token: await createApiToken(clinic.id) },
          ),
        ),
      ),
    );
    expect(answer).toMatchObject({
      code: 400,
      data: { fields: { hospitalName: ["errors.OrganizationError"] } },
    });
  });
});

describe("GET /api/country/list", () => {
  it("names countries in the caller's language", async () => {
    const answer = await json(
      await countries(
        args(
          new Request("http://localhost/api/country/list", {
            headers: { "Accept-Language": "pl" },
          }),
        ),
      ),
    );
    expect(answer.code).toBe(200);
    expect(answer.data).toContainEqual({ code: "DE", name: "Niemcy" });
    expect(answer.data.length).toBeGreaterThan(200);
  });
});
