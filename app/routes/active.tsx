import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { Field, FormMessages } from "~/components/form";
import { activateAccount, sendActivationCode } from "~/models/account.server";
import { clientIp } from "~/models/rate-limit.server";
import { activateSchema, claimAccountSchema, sendCodeSchema } from "~/schemas/auth";
import { getLocale } from "~/utils/i18n.server";
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

const HIDDEN = ["password", "confirmPassword"];

function schemaFor(signedIn: boolean, intent: FormDataEntryValue | null) {
  if (intent === "sendCode") return signedIn ? z.object({}) : sendCodeSchema;
  return signedIn ? activateSchema : claimAccountSchema;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await getSessionUser(request);
  if (user?.active) throw redirect("/");
  const formData = await request.formData();
  const intent = formData.get("intent");
  const submission = parseWithZod(formData, { schema: schemaFor(Boolean(user), intent) });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: HIDDEN }), notice: null }, { status: 400 });
  const value = submission.value as { code?: string; email?: string; password?: string; origin?: string };

  if (intent === "sendCode") {
    const sent = await sendActivationCode({ email: user?.email ?? value.email!, locale: await getLocale(request), ip: clientIp(request) });
    if (!sent.ok) return data({ result: submission.reply({ formErrors: [sent.error], hideFields: HIDDEN }), notice: null }, { status: 429 });
    return { result: submission.reply({ hideFields: HIDDEN }), notice: "active.codeSent" };
  }
  if (!verifyOriginToken(value.origin ?? "")) {
    return data({ result: submission.reply({ formErrors: ["errors.originExpired"], hideFields: HIDDEN }), notice: null }, { status: 400 });
  }
  const result = await activateAccount({ email: user?.email ?? value.email!, code: value.code!, password: value.password });
  if (!result.ok) return data({ result: submission.reply({ fieldErrors: { code: [result.error] }, hideFields: HIDDEN }), notice: null }, { status: 400 });
  return redirect("/", { headers: { "Set-Cookie": await createUserSession(request, result.userId) } });
}

export default function Active() {
  const { t } = useTranslation("auth");
  const { origin, signedIn, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm<Record<string, string>>({
    id: "active",
    lastResult: actionData?.result,
    defaultValue: { email },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: schemaFor(signedIn, formData.get("intent")) }),
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
          <button type="submit" name="intent" value="activate" className={f.defaultSubmit} tabIndex={-1} aria-hidden="true" />
          <FormMessages errors={form.errors} notice={actionData?.notice} />
          <input type="hidden" name="origin" value={origin.token} />
          {signedIn ? null : <Field meta={fields.email!} label={t("fields.email")} type="email" autoComplete="username" required />}
          <div>
            <button type="submit" name="intent" value="sendCode" className={s.buttonSecondary}>
              {t("active.sendCode")}
            </button>
          </div>
          <Field meta={fields.code!} label={t("fields.activationCode")} prefix={origin.prefix} autoComplete="one-time-code" inputMode="numeric" required />
          {signedIn ? null : (
            <>
              <Field meta={fields.password!} label={t("fields.newPassword")} type="password" autoComplete="new-password" hint={t("register.passwordHint")} required />
              <Field meta={fields.confirmPassword!} label={t("fields.confirmPassword")} type="password" autoComplete="new-password" required />
            </>
          )}
          <div>
            <button type="submit" name="intent" value="activate" className={s.button} disabled={navigation.state !== "idle"}>
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
