import { expectDocumented } from "../support/api-contract";

/**
 * Calling `/api/` route modules directly in database tests, with the envelope read back and
 * checked against the API document (its path, code, HTTP status and data schema).
 */
export type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  context: Record<string, unknown>;
}) => Promise<Response>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Answer = { status: number; code: number; msg: string; data: any };

/** Runs a loader or action; a thrown Response (token codes, 9999) is read like a returned one. */
export async function call(handler: Handler, request: Request): Promise<Answer> {
  let response: Response;
  try {
    response = await handler({ request, params: {}, context: {} });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  const body = (await response.json()) as Omit<Answer, "status">;
  expectDocumented(request.method, request.url, response.status, body);
  return { status: response.status, ...body };
}

export const tokenHeaders = (token?: string | null, extra: Record<string, string> = {}) => ({
  ...(token ? { token } : {}),
  ...extra,
});

export const getApi = (
  handler: Handler,
  path: string,
  token?: string | null,
  extra?: Record<string, string>,
) => call(handler, new Request(`http://localhost${path}`, { headers: tokenHeaders(token, extra) }));

export const postApi = (
  handler: Handler,
  path: string,
  body: unknown,
  token?: string | null,
  extra?: Record<string, string>,
) =>
  call(
    handler,
    new Request(`http://localhost${path}`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", ...tokenHeaders(token, extra) },
    }),
  );
