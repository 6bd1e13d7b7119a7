import { FormProvider, getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { useTranslation } from "react-i18next";
import { Field, FormMessages, NewPasswordFields } from "~/components/form";
import {
  changeEmail,
  changePassword,
  requestPasswordReset,
  resetPassword,
  sendChangeEmailCode,
} from "~/models/account.server";
import { clientIp } from "~/models/rate-limit.server";
import {
  changeEmailSchema,
  changePasswordSchema,
  resetPasswordSchema,
  sendCodeSchema,
} from "~/schemas/auth";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { getLocale } from "~/services/locale.server";
import { getSession, getSessionUser } from "~/services/session.server";
import { formError, refusalInit } from "~/services/throttle-response.server";

/**
 * `/account`, open to everyone. Signed in: change password, change email.
 * Signed out: reset a forgotten password with an emailed code.
 */
const SCHEMAS = {
  password: changePasswordSchema,
  sendEmailCode: sendCodeSchema,
  email: changeEmailSchema,
  sendResetCode: sendCodeSchema,
  reset: resetPasswordSchema,
} as const;
type Intent = keyof typeof SCHEMAS;
const intentSchema = z.enum(Object.keys(SCHEMAS) as [Intent, ...Intent[]]);
const SIGNED_IN: Intent[] = ["password", "sendEmailCode", "email"];
const HIDDEN = ["currentPassword", "password", "confirmPassword"];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  if (user && !user.active) throw redirect("/active");
  return { signedIn: Boolean(user), email: user?.email ?? null };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  const intent = intentSchema.safeParse(formData.get("intent"));
  if (!intent.success) throw new Response("Bad Request", { status: 400 });
  const user = await getSessionUser(request);
  if (SIGNED_IN.includes(intent.data) !== Boolean(user?.active))
    throw redirect(user ? "/account" : "/login?redirectTo=/account");
  const submission = parseWithZod(formData, { schema: SCHEMAS[intent.data] });
  const reply = (
    extra: Parameters<typeof submission.reply>[0] = {},
    notice: string | null = null,
    status = 400,
  ) =>
    data(
      { intent: intent.data, result: submission.reply({ hideFields: HIDDEN, ...extra }), notice },
      { status },
    );
  const refused = (refusal: { error: string; retryAfterSeconds?: number }) =>
    data(
      {
        intent: intent.data,
        result: submission.reply({ hideFields: HIDDEN, formErrors: [formError(refusal)] }),
        notice: null,
      },
      refusalInit(refusal),
    );
  if (submission.status !== "success") return reply();
  const locale = await getLocale(request);
  const ip = clientIp(request);
  const v = submission.value as Record<string, string>;

  switch (intent.data) {
    case "password": {
      const session = await getSession(request);
      const done = await changePassword({
        userId: user!.id,
        currentPassword: v.currentPassword!,
        password: v.password!,
        keepSessionId: session.id,
      });
      return done.ok
        ? reply({ resetForm: true }, "account.passwordChanged", 200)
        : reply({ fieldErrors: { currentPassword: [done.error] } });
    }
    case "sendEmailCode": {
      const sent = await sendChangeEmailCode({ userId: user!.id, email: v.email!, locale, ip });
      return sent.ok ? reply({}, "account.codeSent", 200) : refused(sent);
    }
    case "email": {
      const done = await changeEmail({
        userId: user!.id,
        email: v.email!,
        code: v.code!,
        currentPassword: v.currentPassword!,
      });
      return done.ok
        ? reply({ resetForm: true }, "account.emailChanged", 200)
        : reply({ formErrors: [done.error] });
    }
    case "sendResetCode": {
      const sent = await requestPasswordReset({ email: v.email!, locale, ip });
      return sent.ok ? reply({}, "account.resetCodeSent", 200) : refused(sent);
    }
    case "reset": {
      const done = await resetPassword({ email: v.email!, code: v.code!, password: v.password! });
      return done.ok ? redirect("/login?reset=1") : reply({ fieldErrors: { code: [done.error] } });
    }
  }
}

function AccountForm({
  id,
  intents,
  title,
  children,
}: {
  id: string;
  intents: Intent[];
  title: string;
  children: (fields: ReturnType<typeof useAccountForm>[1]) => React.ReactNode;
}) {
  const actionData = useActionData<typeof action>();
  const mine = actionData && intents.includes(actionData.intent) ? actionData : undefined;
  const [form, fields] = useAccountForm(id, mine?.result);
  const navigation = useNavigation();
  return (
    <section className={s.card} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <FormProvider context={form.context}>
        <Form
          method="post"
          {...getFormProps(form)}
          className={f.form}
          aria-busy={navigation.state !== "idle"}
        >
          <FormMessages errors={form.errors} notice={mine?.notice} />
          {children(fields)}
        </Form>
      </FormProvider>
    </section>
  );
}

function useAccountForm(id: string, lastResult: SubmissionResult<string[]> | undefined) {
  return useForm<Record<string, string>>({
    id,
    lastResult,
    onValidate: ({ formData }) => {
      const intent = intentSchema.safeParse(formData.get("intent"));
      return parseWithZod(formData, { schema: SCHEMAS[intent.success ? intent.data : "password"] });
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
}

export default function Account() {
  const { t } = useTranslation("auth");
  const { signedIn, email } = useLoaderData<typeof loader>();
  const submit = (intent: Intent, label: string, secondary = false) => (
    <div>
      <button
        type="submit"
        name="intent"
        value={intent}
        className={secondary ? s.buttonSecondary : s.button}
      >
        {label}
      </button>
    </div>
  );

  if (!signedIn) {
    return (
      <div className={f.narrow}>
        <h1>{t("account.resetTitle")}</h1>
        <AccountForm
          id="reset"
          intents={["sendResetCode", "reset"]}
          title={t("account.resetIntro")}
        >
          {(fields) => (
            <>
              <Field
                meta={fields.email!}
                label={t("fields.email")}
                type="email"
                autoComplete="username"
                required
              />
              {submit("sendResetCode", t("register.sendCode"), true)}
              <Field
                meta={fields.code!}
                label={t("fields.code")}
                autoComplete="one-time-code"
                inputMode="numeric"
                required
              />
              <NewPasswordFields password={fields.password!} confirm={fields.confirmPassword!} />
              {submit("reset", t("account.resetSubmit"))}
            </>
          )}
        </AccountForm>
      </div>
    );
  }

  return (
    <div className={f.narrow}>
      <h1>{t("account.title")}</h1>
      <p>{t("account.signedInAs", { email })}</p>
      <AccountForm id="password" intents={["password"]} title={t("account.passwordTitle")}>
        {(fields) => (
          <>
            <Field
              meta={fields.currentPassword!}
              label={t("fields.currentPassword")}
              type="password"
              autoComplete="current-password"
              required
            />
            <NewPasswordFields password={fields.password!} confirm={fields.confirmPassword!} />
            {submit("password", t("account.passwordSubmit"))}
          </>
        )}
      </AccountForm>
      <AccountForm id="email" intents={["sendEmailCode", "email"]} title={t("account.emailTitle")}>
        {(fields) => (
          <>
            <Field
              meta={fields.email!}
              label={t("fields.newEmail")}
              type="email"
              autoComplete="email"
              required
            />
            {submit("sendEmailCode", t("register.sendCode"), true)}
            <Field
              meta={fields.code!}
              label={t("fields.code")}
              autoComplete="one-time-code"
              inputMode="numeric"
              required
            />
            <Field
              meta={fields.currentPassword!}
              label={t("fields.currentPassword")}
              type="password"
              autoComplete="current-password"
              required
            />
            {submit("email", t("account.emailSubmit"))}
          </>
        )}
      </AccountForm>
    </div>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
