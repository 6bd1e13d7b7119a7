import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { LogoutForm } from "~/components/logout-dialog";
import * as s from "~/styles/layout.css";
import { destroySession, getSessionUser } from "~/services/session.server";

/** Without JavaScript, sign-out asks for confirmation on this page. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await getSessionUser(request))) throw redirect("/login");
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  return redirect("/login", { headers: { "Set-Cookie": await destroySession(request) } });
}

export default function Logout() {
  const { t } = useTranslation();
  return (
    <section className={s.card} aria-labelledby="logout-title">
      <h1 id="logout-title">{t("logout.title")}</h1>
      <LogoutForm />
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
