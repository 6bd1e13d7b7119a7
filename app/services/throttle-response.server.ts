import { API_CODES, apiMessage, apiResponse } from "./api.server";

/**
 * Answers for a request refused by a rate limit: HTTP 429 with `Retry-After` (seconds), and a
 * translated "try again in N minutes" message (the key takes `minutes`).
 */

export function minutesToWait(retryAfterSeconds: number): number {
  return Math.max(1, Math.ceil(retryAfterSeconds / 60));
}

export function retryAfterHeaders(retryAfterSeconds: number): Record<string, string> {
  return { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) };
}

/** The `/api/` envelope with code 429. `msgKey` is `ns:key`. */
export async function apiThrottled(
  request: Request,
  msgKey: string,
  retryAfterSeconds: number,
): Promise<Response> {
  const msg = await apiMessage(request, msgKey, { minutes: minutesToWait(retryAfterSeconds) });
  return apiResponse(API_CODES.rateLimited, msg, null, retryAfterHeaders(retryAfterSeconds));
}

/**
 * A form error that carries its interpolation values: `key|{"minutes":3}`. The form components
 * split it back (ErrorList) so that the message is translated in the reader's language.
 */
export function errorWithMinutes(key: string, retryAfterSeconds: number): string {
  return `${key}|${JSON.stringify({ minutes: minutesToWait(retryAfterSeconds) })}`;
}

type Refusal = { error: string; retryAfterSeconds?: number };

/** The form error of a refusal: with the minutes to wait when a rate limit refused it. */
export function formError(refusal: Refusal): string {
  return refusal.retryAfterSeconds === undefined
    ? refusal.error
    : errorWithMinutes(refusal.error, refusal.retryAfterSeconds);
}

/** The status of a page answering a refusal: 429 with Retry-After for a rate limit, else `status`. */
export function refusalInit(refusal: Refusal, status = 400): ResponseInit {
  return refusal.retryAfterSeconds === undefined
    ? { status }
    : { status: 429, headers: retryAfterHeaders(refusal.retryAfterSeconds) };
}
