import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FormMessages } from "~/components/form";
import { activateAccount } from "~/models/account.server";
import { activateSchema, claimAccountSchema } from "~/schemas/auth";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { createOriginToken, verifyOriginToken } from "~/utils/origin-token.server";
import { createUserSession, getSessionUser } from "~/utils/session.server";

/**
 * Activation of an account created for someone else (DESIGN.md 2). A signed-in inactive user
 * types only the emailed code; someone arriving from the email also gives the email and a password.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  if (user?.active) throw redirect("/");
  const email = new URL(request.url).searchParams.get("email") ?? "";
  return { origin: createOriginToken(), signedIn: Boolean(user), email };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await getSessionUser(request);
  if (user?.active) throw redirect("/");
  const submission = parseWithZod(await request.formData(), { schema: user ? activateSchema : claimAccountSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password", "confirmPassword"] }), { status: 400 });
  if (!verifyOriginToken(submission.value.origin)) {
    return data(submission.reply({ formErrors: ["errors.originExpired"], hideFields: ["password", "confirmPassword"] }), { status: 400 });
  }
  const value = submission.value as { code: string; email?: string; password?: string };
  const result = await activateAccount({ email: user?.email ?? value.email!, code: value.code, password: value.password });
  if (!result.ok) return data(submission.reply({ fieldErrors: { code: [result.error] }, hideFields: ["password", "confirmPassword"] }), { status: 400 });
  return redirect("/", { headers: { "Set-Cookie": await createUserSession(request, result.userId) } });
}

export default function Active() {
  const { t } = useTranslation("auth");
  const { origin, signedIn, email } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm<Record<string, string>>({
    id: "active",
    lastResult,
    defaultValue: { email },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signedIn ? activateSchema : claimAccountSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className={f.narrow}>
      <section className={s.card} aria-labelledby="active-title">
        <h1 id="active-title">{t("active.title")}</h1>
        <p>{signedIn ? t("active.introSignedIn") : t("active.intro")}</p>
        <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className={f.form}>
          <FormMessages errors={form.errors} />
          <input type="hidden" name="origin" value={origin.token} />
          {signedIn ? null : <Field meta={fields.email!} label={t("fields.email")} type="email" autoComplete="username" required />}
          <Field meta={fields.code!} label={t("fields.activationCode")} prefix={origin.prefix} autoComplete="one-time-code" inputMode="numeric" required />
          {signedIn ? null : (
            <>
              <Field meta={fields.password!} label={t("fields.newPassword")} type="password" autoComplete="new-password" hint={t("register.passwordHint")} required />
              <Field meta={fields.confirmPassword!} label={t("fields.confirmPassword")} type="password" autoComplete="new-password" required />
            </>
          )}
          <div>
            <button type="submit" className={s.button} disabled={navigation.state !== "idle"}>
              {t("active.submit")}
            </button>
          </div>
        </Form>
        </FormProvider>
      </section>
    </div>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
