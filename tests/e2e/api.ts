import { expect, type APIRequestContext } from "@playwright/test";
import { contractProblem } from "../support/api-contract";

/**
 * Calls of the HTTP API (/api/...) as a device client makes them: a token header, JSON bodies.
 * Every answer is checked against the API document (its code, HTTP status and data schema).
 */

/** The envelope of every /api/ answer. */
export type Envelope<T = unknown> = { code: number; msg: string; data: T };

/** Signs in through the API and answers the token the server sends in the `token` header. */
export async function apiToken(
  request: APIRequestContext,
  user: { email: string; password: string },
  identity: 1 | 2,
): Promise<string> {
  const answer = await request.post("/api/user/login", {
    data: { userName: user.email, password: user.password, identity },
  });
  expect(answer.status()).toBe(200);
  expect(
    contractProblem("POST", "/api/user/login", answer.status(), await answer.json()),
  ).toBeNull();
  const token = answer.headers()["token"];
  expect(token).toBeTruthy();
  return token!;
}

/** One API call with the token; the HTTP status must be 200 (the envelope's code is the caller's to check). */
export async function apiCall<T>(
  request: APIRequestContext,
  token: string,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<Envelope<T>> {
  const answer =
    method === "GET"
      ? await request.get(path, { headers: { token } })
      : await request.post(path, { headers: { token }, data: body });
  expect([path, answer.status()]).toEqual([path, 200]);
  const envelope = (await answer.json()) as Envelope<T>;
  expect(contractProblem(method, path, answer.status(), envelope)).toBeNull();
  return envelope;
}
