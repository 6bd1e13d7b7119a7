import { beforeAll, describe, expect, it } from "vitest";
import { action as login } from "~/routes/login";
import { action as setLanguage } from "~/routes/set-language";
import { db } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";

const EMAIL = "redirect@test.diacare";
const PASSWORD = "redirect password 1";

/** Posts the sign-in form as a browser does after opening `/login?redirectTo=...` (the form carries the decoded value). */
async function signIn(redirectTo: string, ip: string) {
  const body = new URLSearchParams({ email: EMAIL, password: PASSWORD, identity: "1", redirectTo });
  const request = new Request("http://localhost/login", {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": ip },
  });
  const response = await login({ request, params: {}, context: {} });
  if (!(response instanceof Response))
    throw new Error(`sign-in refused: ${JSON.stringify(response)}`);
  return response;
}

/** What `/login?redirectTo=<query>` puts in the form's hidden field. */
const fromQuery = (query: string) => new URLSearchParams(`redirectTo=${query}`).get("redirectTo")!;

/** The person's home, where a sign-in without a usable target goes (directly, not through `/`). */
let home = "";

beforeAll(async () => {
  const user = await db().user.create({
    data: {
      email: EMAIL,
      passwordHash: await hashPassword(PASSWORD),
      identity: 1,
      patient: { create: {} },
    },
    include: { patient: true },
  });
  home = `/patientShow/${user.patient!.id}/${user.id}/patientHome`;
});

describe("the sign-in form's redirectTo", () => {
  it("follows a same-origin path", async () => {
    const response = await signIn("/patientShow/patients?page=2", "198.51.100.1");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/patientShow/patients?page=2");
  });

  it.each([
    ["%2F%09%2Fevil.example", "198.51.100.2"],
    ["%2F%2Fevil.example", "198.51.100.3"],
    ["https%3A%2F%2Fevil.example", "198.51.100.4"],
    ["%2F%5Cevil.example", "198.51.100.5"],
    ["%2F%250D%250ALocation%3A%20https%3A%2F%2Fevil.example", "198.51.100.6"],
  ])("goes home for %s", async (query, ip) => {
    const response = await signIn(fromQuery(query), ip);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(home);
  });

  it.each([
    ["", "198.51.100.8"],
    ["/", "198.51.100.9"],
  ])("goes home for %j", async (redirectTo, ip) => {
    const response = await signIn(redirectTo, ip);
    expect(response.headers.get("Location")).toBe(home);
  });

  it("goes home, not to an error, when the target holds CR/LF", async () => {
    const response = await signIn(fromQuery("%2F%0D%0ASet-Cookie%3A%20x%3Dy"), "198.51.100.7");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(home);
    expect(response.headers.get("Set-Cookie")).not.toContain("x=y");
  });
});

describe("the language menu's redirectTo", () => {
  it.each([
    ["/supports", "/supports"],
    ["/\t/evil.example", "/"],
    ["/\r\nX: y", "/"],
  ])("for %j goes to %s", async (redirectTo, location) => {
    const request = new Request("http://localhost/set-language", {
      method: "POST",
      body: new URLSearchParams({ lng: "pl", redirectTo }),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    const response = await setLanguage({ request, params: {}, context: {} });
    expect(response.headers.get("Location")).toBe(location);
  });
});
