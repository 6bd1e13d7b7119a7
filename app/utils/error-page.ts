/**
 * A route that answers a file (a PDF, a CSV) has no page of its own to show a refusal on. It
 * answers `errorPageAnswer(status)` instead, and the server sends the app's error page of that
 * status in its place (server/error-page.ts): the same translated page, header and way back as
 * any refused page, with the status kept.
 */

/** The statuses that have an error page a file route may ask for. */
export const ERROR_PAGE_STATUSES = [403, 404] as const;
export type ErrorPageStatus = (typeof ERROR_PAGE_STATUSES)[number];

/** The header that carries the request for an error page from the route to the server. */
export const ERROR_PAGE_HEADER = "X-DiaCare-Error-Page";

/** A file route's refusal, shown to the browser as the app's error page with this status. */
export function errorPageAnswer(status: ErrorPageStatus): Response {
  return new Response(null, {
    status,
    headers: { [ERROR_PAGE_HEADER]: String(status), "Cache-Control": "no-store" },
  });
}

/** The error page a route's answer asks for, or null for an ordinary answer. */
export function errorPageStatusOf(response: Response): ErrorPageStatus | null {
  const asked = Number(response.headers.get(ERROR_PAGE_HEADER));
  return (ERROR_PAGE_STATUSES as readonly number[]).includes(asked) && response.status === asked
    ? (asked as ErrorPageStatus)
    : null;
}
