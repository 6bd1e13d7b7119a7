import { errorPageStatusOf } from "../app/utils/error-page";

/**
 * When a route answered `errorPageAnswer` (app/utils/error-page.ts) to a GET or HEAD, the request
 * to render instead: the app's `/error/<status>` page with the original request's headers (its
 * session cookie and languages), so the page shows the visitor's header and language. Null when
 * the answer stands as it is.
 */
export function errorPageRequest(original: Request, answer: Response): Request | null {
  const status = errorPageStatusOf(answer);
  if (status === null || (original.method !== "GET" && original.method !== "HEAD")) return null;
  return new Request(new URL(`/error/${status}`, original.url), {
    method: original.method,
    headers: original.headers,
    signal: original.signal,
  });
}
