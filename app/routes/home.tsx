import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Welcome, type WelcomeViewer } from "~/components/welcome";
import { Identity } from "~/domain/codes";
import { getSessionUser, homePath } from "~/services/session.server";

/**
 * `/home`: the welcome page for everyone, never a redirect: a person with their own data gets the
 * upload centre and the reports, a clinic (or a person without a health file) the patient list, a
 * visitor sign-up and sign-in.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  const viewer: WelcomeViewer = !user
    ? { kind: "visitor" }
    : user.identity === Identity.Person && user.patient
      ? { kind: "person", patient: { id: user.patient.id, userId: user.id } }
      : { kind: "reader", home: homePath(user) };
  return { viewer };
}

export default function HomePage() {
  const { viewer } = useLoaderData<typeof loader>();
  return <Welcome viewer={viewer} />;
}

export { ErrorBoundary } from "~/components/route-error-boundary";
