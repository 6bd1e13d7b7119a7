import type { LoaderFunctionArgs } from "@remix-run/node";
import { ERROR_PAGE_STATUSES } from "~/utils/error-page";

/**
 * `/error/403` and `/error/404`: the app's error page with that status (any other status is a 404).
 * The server also renders it in place of a file route's refusal (server/error-page.ts).
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const status = Number(params.status);
  throw new Response(null, {
    status: (ERROR_PAGE_STATUSES as readonly number[]).includes(status) ? status : 404,
  });
}

export default function ErrorRoute() {
  return null;
}

export { ErrorBoundary } from "~/components/route-error-boundary";
