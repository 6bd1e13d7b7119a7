import { codesOf, findCall, httpStatusOf } from "~/api-docs/calls";
import { answerSchemaOf } from "~/api-docs/openapi";

/**
 * What is wrong with an `/api/` answer by the OpenAPI document (app/api-docs/), or null when
 * nothing is: the call must be documented, its code one the call may answer, the HTTP status the
 * code's, and the envelope and its `data` as documented for that code. The database and end-to-end
 * tests' API helpers run every answer through it, so the document cannot drift from the code.
 */
export function contractProblem(
  method: string,
  url: string,
  status: number,
  body: unknown,
): string | null {
  const path = new URL(url, "http://localhost").pathname;
  const call = findCall(method, path);
  const code = (body as { code?: unknown } | null)?.code;
  // Any other method and path under /api/ is no call: the envelope's 404, data null.
  if (!call)
    return status === 404 &&
      code === 404 &&
      (body as { data?: unknown }).data === null &&
      Object.keys(body as object).length === 3
      ? null
      : `${method} ${path} is not in the API document (app/api-docs/calls.ts)`;
  // A call that answers a file on success answers the envelope only when it refuses.
  if (call.file && status === 200) return null;
  if (typeof code !== "number") return `${method} ${path}: the answer has no numeric code`;
  if (!codesOf(call).some(([c]) => c === code))
    return `${method} ${path}: code ${code} is not documented for this call`;
  if (status !== httpStatusOf(code))
    return `${method} ${path}: code ${code} came with HTTP ${status}, documented ${httpStatusOf(code)}`;
  const checked = answerSchemaOf(call, code).safeParse(body);
  if (checked.success) return null;
  const issues = checked.error.issues
    .slice(0, 10)
    .map((i) => `  ${["", ...i.path].join(".") || "."}: ${i.message}`)
    .join("\n");
  return `${method} ${path}: the code ${code} answer does not match the document:\n${issues}`;
}

/** Throws when the answer does not match the document. */
export function expectDocumented(method: string, url: string, status: number, body: unknown) {
  const problem = contractProblem(method, url, status, body);
  if (problem) throw new Error(problem);
}

/**
 * A route's loader or action whose every answer, returned or thrown, is checked against the
 * document before the test reads it (the test gets the same answer, or the same throw).
 */
export function documented<A extends { request: Request }>(
  handler: (args: A) => Promise<Response>,
) {
  const check = async (request: Request, response: Response) =>
    expectDocumented(request.method, request.url, response.status, await response.clone().json());
  return async (args: A): Promise<Response> => {
    let response: Response;
    try {
      response = await handler(args);
    } catch (thrown) {
      if (thrown instanceof Response) await check(args.request, thrown);
      throw thrown;
    }
    await check(args.request, response);
    return response;
  };
}
