import { Outlet } from "@remix-run/react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/utils/session.server";

/** The patient area: signed-in, activated users only. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export default function PatientShow() {
  return <Outlet />;
}

export { ErrorBoundary } from "~/components/route-error-boundary";
