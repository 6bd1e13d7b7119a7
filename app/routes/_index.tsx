import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { Welcome } from "~/components/welcome";
import { getSessionUser, homePath } from "~/services/session.server";

/** `/`: signed-in users go to their home (`homePath`); visitors see the welcome page. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  if (user) throw redirect(homePath(user));
  return null;
}

export default function Home() {
  return <Welcome viewer={{ kind: "visitor" }} />;
}

export { ErrorBoundary } from "~/components/route-error-boundary";
