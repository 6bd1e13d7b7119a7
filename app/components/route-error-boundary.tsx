import { isRouteErrorResponse, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { ErrorPage } from "./error-page";

function field(data: unknown, name: string): unknown {
  return typeof data === "object" && data !== null
    ? (data as Record<string, unknown>)[name]
    : undefined;
}

/**
 * The ErrorBoundary every route exports: a translated page for the error's status. A server
 * failure names its request id: the one the server put in the error, else the page's own.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const root = useRouteLoaderData<{ requestId?: string | null }>("root");
  if (!isRouteErrorResponse(error)) {
    console.error(error);
    return <ErrorPage status={500} requestId={root?.requestId} />;
  }
  const requestId = field(error.data, "requestId");
  const limitKb = field(error.data, "limitKb");
  return (
    <ErrorPage
      status={error.status}
      requestId={typeof requestId === "string" ? requestId : root?.requestId}
      limitKb={typeof limitKb === "number" ? limitKb : null}
    />
  );
}
