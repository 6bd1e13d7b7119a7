import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import {
  data,
  redirect,
  redirectDocument,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from "@remix-run/node";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  useSearchParams,
} from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DriverDownloads } from "~/components/driver-downloads";
import { Field, FormMessages } from "~/components/form";
import { Identity } from "~/domain/codes";
import { loginSchema } from "~/schemas/auth";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { auth, AuthorizationError, SignInRefused } from "~/services/auth.server";
import { placedDrivers } from "~/utils/drivers.server";
import { localeCookie } from "~/utils/i18n.server";
import { savedLanguage } from "~/models/setting.server";
import { createUserSession, getSessionUser, signInTarget } from "~/services/session.server";
import { errorWithMinutes, retryAfterHeaders } from "~/services/throttle-response.server";
import { keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getSessionUser(request)) throw redirect("/");
  return { drivers: placedDrivers() };
}

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.clone().formData(), { schema: loginSchema });
  if (submission.status !== "success")
    return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  try {
    const signedIn = await auth().authenticate("credentials", request);
    const lang = await savedLanguage(signedIn.userId);
    const headers = new Headers({
      "Set-Cookie": await createUserSession(request, signedIn.userId, "signedIn"),
    });
    if (lang) headers.append("Set-Cookie", await localeCookie.serialize(lang));
    const to = await signInTarget(signedIn.userId, signedIn.active, submission.value.redirectTo);
    // A whole new document, also with JavaScript: the browser's strings may be another
    // language's, and the first page's loaders (which take the sign-in notice) run once.
    return redirectDocument(to, { headers });
  } catch (error) {
    if (error instanceof AuthorizationError) {
      const wait = error.cause instanceof SignInRefused ? error.cause.retryAfterSeconds : undefined;
      if (wait !== undefined) {
        return data(
          submission.reply({
            formErrors: [errorWithMinutes(error.message, wait)],
            hideFields: ["password"],
          }),
          { status: 429, headers: retryAfterHeaders(wait) },
        );
      }
      return data(submission.reply({ formErrors: [error.message], hideFields: ["password"] }), {
        status: 401,
      });
    }
    throw error;
  }
}

export default function Login() {
  const { t } = useTranslation("auth");
  const { drivers } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "login",
    lastResult,
    defaultValue: { identity: String(Identity.Person), redirectTo: params.get("redirectTo") ?? "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state !== "idle" && navigation.formAction === "/login";
  const notice = params.get("reset")
    ? "account.resetDone"
    : params.get("activated")
      ? "active.done"
      : params.get("deleted")
        ? "account.deleted"
        : null;

  return (
    <div className={f.narrow}>
      <section className={s.card} aria-labelledby="login-title">
        <h1 id="login-title">{t("login.title")}</h1>
        <FormProvider context={form.context}>
          <Form method="post" {...getFormProps(form)} className={f.form}>
            <FormMessages errors={form.errors} notice={notice} />
            <input
              type="hidden"
              name={fields.redirectTo.name}
              value={fields.redirectTo.initialValue ?? ""}
            />
            <Field
              meta={fields.email}
              label={t("fields.email")}
              type="email"
              autoComplete="username"
              inputMode="email"
              required
            />
            <Field
              meta={fields.password}
              label={t("fields.password")}
              type="password"
              autoComplete="current-password"
              required
            />
            <fieldset className={f.fieldset}>
              <legend className={f.label}>{t("login.signInAs")}</legend>
              {[Identity.Person, Identity.Clinic].map((identity) => (
                <label key={identity} className={f.choice}>
                  <input
                    type="radio"
                    name={fields.identity.name}
                    value={identity}
                    defaultChecked={
                      String(fields.identity.initialValue ?? Identity.Person) === String(identity)
                    }
                  />
                  {t(`login.identity${identity}`)}
                </label>
              ))}
            </fieldset>
            <div className={f.links}>
              <button type="submit" className={s.button} disabled={busy} aria-busy={busy}>
                {busy ? t("login.submitting") : t("login.submit")}
              </button>
              <Link to="/account">{t("login.forgot")}</Link>
              <Link to="/signup">{t("login.noAccount")}</Link>
            </div>
          </Form>
        </FormProvider>
      </section>
      <DriverDownloads drivers={drivers} />
    </div>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** With JavaScript, a lost request keeps the form and what was typed in it. */
export const clientAction = keepFormWhenLost();
export const shouldRevalidate = skipRevalidationWhenLost;
