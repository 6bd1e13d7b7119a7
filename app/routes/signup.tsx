import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SignUpForm } from "~/components/sign-up";
import { signTypeSchema } from "~/schemas/auth";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { getSessionUser } from "~/services/session.server";
import { keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

/** The sign-up choice: person (default) or clinic, then /{type}/register. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (await getSessionUser(request)) throw redirect("/");
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: signTypeSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  return redirect(`/${submission.value.signType}/register`);
}

export default function SignUp() {
  const { t } = useTranslation("auth");
  const result = useActionData<typeof action>();
  const errors = result?.error
    ? Object.values(result.error)
        .flat()
        .filter((e): e is string => typeof e === "string")
    : undefined;
  return (
    <div className={f.narrow}>
      <section className={s.card} aria-labelledby="signup-title">
        <h1 id="signup-title">{t("signup.title")}</h1>
        <SignUpForm errors={errors} />
      </section>
    </div>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** With JavaScript, a lost request keeps the form and what was typed in it. */
export const clientAction = keepFormWhenLost();
export const shouldRevalidate = skipRevalidationWhenLost;
