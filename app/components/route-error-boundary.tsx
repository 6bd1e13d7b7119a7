import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { ErrorPage } from "./error-page";

/** The ErrorBoundary every route exports: a translated page for the error's status. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) console.error(error);
  return <ErrorPage status={isRouteErrorResponse(error) ? error.status : 500} />;
}
