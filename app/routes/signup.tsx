import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormMessages } from "~/components/form";
import { signTypes, signTypeSchema } from "~/schemas/auth";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { getSessionUser } from "~/utils/session.server";

/** The sign-up choice (spec 2 section 2): person (default) or clinic, then /{type}/register. */
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
  const errors = result?.error ? Object.values(result.error).flat().filter((e): e is string => typeof e === "string") : undefined;
  return (
    <div className={f.narrow}>
      <section className={s.card} aria-labelledby="signup-title">
        <h1 id="signup-title">{t("signup.title")}</h1>
        <Form method="post" className={f.form}>
          <FormMessages errors={errors} />
          <fieldset className={f.fieldset}>
            <legend className={f.label}>{t("signup.choose")}</legend>
            {signTypes.map((type) => (
              <label key={type} className={f.choice}>
                <input type="radio" name="signType" value={type} defaultChecked={type === "person"} />
                <span>
                  <strong>{t(`signup.${type}`)}</strong> — {t(`signup.${type}Hint`)}
                </span>
              </label>
            ))}
          </fieldset>
          <div>
            <button type="submit" className={s.button}>
              {t("signup.confirm")}
            </button>
          </div>
        </Form>
      </section>
    </div>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
