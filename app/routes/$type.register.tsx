import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation, useParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FormMessages, NewPasswordFields } from "~/components/form";
import { Identity } from "~/domain/codes";
import { registerAccount, sendSignUpCode } from "~/models/account.server";
import { clientIp } from "~/models/rate-limit.server";
import {
  registerClinicSchema,
  registerPersonSchema,
  sendCodeSchema,
  signTypes,
  type SignType,
} from "~/schemas/auth";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { getLocale } from "~/services/locale.server";
import { createUserSession, getSessionUser } from "~/services/session.server";
import { formError, refusalInit } from "~/services/throttle-response.server";
import { keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

const HIDDEN = ["password", "confirmPassword"];

function signType(params: { type?: string }): SignType {
  const type = params.type as SignType;
  if (!signTypes.includes(type)) throw new Response("Not Found", { status: 404 });
  return type;
}

function schemaFor(type: SignType, intent: FormDataEntryValue | null) {
  if (intent === "sendCode") return sendCodeSchema;
  return type === "person" ? registerPersonSchema : registerClinicSchema;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  signType(params);
  if (await getSessionUser(request)) throw redirect("/");
  return null;
}

/** Registration: `sendCode` mails a verification code, `register` creates the account. */
export async function action({ request, params }: ActionFunctionArgs) {
  const type = signType(params);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const submission = parseWithZod(formData, { schema: schemaFor(type, intent) });
  if (submission.status !== "success")
    return data(
      { result: submission.reply({ hideFields: HIDDEN }), notice: null },
      { status: 400 },
    );
  const locale = await getLocale(request);
  const ip = clientIp(request);

  if (intent === "sendCode") {
    const { email } = submission.value as { email: string };
    const sent = await sendSignUpCode({ email, locale, ip });
    if (!sent.ok)
      return data(
        {
          result: submission.reply({ formErrors: [formError(sent)], hideFields: HIDDEN }),
          notice: null,
        },
        refusalInit(sent),
      );
    return { result: submission.reply({ hideFields: HIDDEN }), notice: "register.codeSent" };
  }

  const v = submission.value as ReturnType<typeof registerPersonSchema.parse>;
  const created = await registerAccount(
    type === "person"
      ? { ...v, lang: locale, identity: Identity.Person, profile: v }
      : {
          ...(submission.value as ReturnType<typeof registerClinicSchema.parse>),
          lang: locale,
          identity: Identity.Clinic,
        },
  );
  if (!created.ok) {
    const field = created.error === "errors.emailTaken" ? "email" : "code";
    return data(
      {
        result: submission.reply({ fieldErrors: { [field]: [created.error] }, hideFields: HIDDEN }),
        notice: null,
      },
      { status: 400 },
    );
  }
  return redirect("/", {
    headers: { "Set-Cookie": await createUserSession(request, created.userId) },
  });
}

export default function Register() {
  const { t } = useTranslation("auth");
  const type = useParams().type as SignType;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `register-${type}`,
    lastResult: actionData?.result,
    defaultValue: { unit: "0" },
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: schemaFor(type, formData.get("intent")) }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state !== "idle";
  const unit = String(fields.unit.value ?? fields.unit.initialValue ?? "0");
  const unitLabel = t(`common:units.${unit}`);

  return (
    <section className={s.card} aria-labelledby="register-title">
      <h1 id="register-title">{t(`register.title.${type}`)}</h1>
      <p>{t("register.intro")}</p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className={f.form}>
          {/* Enter in any field registers; it would otherwise press the first button, "Send code". */}
          <button
            type="submit"
            name="intent"
            value="register"
            className={f.defaultSubmit}
            tabIndex={-1}
            aria-hidden="true"
          />
          <FormMessages errors={form.errors} notice={actionData?.notice} />
          <Field
            meta={fields.email}
            label={t("fields.email")}
            type="email"
            autoComplete="email"
            inputMode="email"
            hint={t("register.emailHint")}
            required
          />
          <div>
            <button
              type="submit"
              name="intent"
              value="sendCode"
              className={s.buttonSecondary}
              disabled={busy}
              formNoValidate
            >
              {actionData?.notice ? t("register.resendCode") : t("register.sendCode")}
            </button>
          </div>
          <Field
            meta={fields.code}
            label={t("fields.code")}
            autoComplete="one-time-code"
            inputMode="numeric"
            hint={t("register.codeHint")}
            required
          />
          <NewPasswordFields password={fields.password} confirm={fields.confirmPassword} />
          <div className={f.wide}>
            <Field
              meta={fields.firstName}
              label={t("fields.firstName")}
              autoComplete="given-name"
              required
            />
            <Field
              meta={fields.lastName}
              label={t("fields.lastName")}
              autoComplete="family-name"
              required
            />
          </div>
          {type === "person" ? (
            <>
              <div className={f.wide}>
                <Field
                  meta={fields.birthDate}
                  label={t("fields.birthDate")}
                  type="date"
                  autoComplete="bday"
                  required
                />
                <Field
                  meta={fields.height}
                  label={t("fields.heightCm")}
                  type="number"
                  inputMode="decimal"
                  step="0.1"
                  required
                />
                <Field
                  meta={fields.weight}
                  label={t("fields.weightKg")}
                  type="number"
                  inputMode="decimal"
                  step="0.1"
                  required
                />
              </div>
              <fieldset className={f.fieldset}>
                <legend className={f.label}>{t("register.glucoseRange")}</legend>
                <p className={f.hint}>{t("register.glucoseRangeHint")}</p>
                <div className={f.choice}>
                  {["0", "1"].map((u) => (
                    <label key={u} className={f.choice}>
                      <input
                        type="radio"
                        name={fields.unit.name}
                        value={u}
                        defaultChecked={unit === u}
                      />
                      {t(`common:units.${u}`)}
                    </label>
                  ))}
                </div>
                <div className={f.wide}>
                  <Field
                    meta={fields.lowLimit}
                    label={t("fields.lowLimit", { unit: unitLabel })}
                    type="number"
                    inputMode="decimal"
                    step="0.1"
                    required
                  />
                  <Field
                    meta={fields.highLimit}
                    label={t("fields.highLimit", { unit: unitLabel })}
                    type="number"
                    inputMode="decimal"
                    step="0.1"
                    required
                  />
                </div>
              </fieldset>
            </>
          ) : null}
          <div className={f.field}>
            <label className={f.choice}>
              <input
                type="checkbox"
                name={fields.agree.name}
                aria-describedby={fields.agree.errorId}
                aria-invalid={fields.agree.errors ? true : undefined}
              />
              <span>
                {t("register.agree")} <Link to="/supports#terms">{t("register.terms")}</Link> ·{" "}
                <Link to="/supports#privacy">{t("register.privacy")}</Link>
              </span>
            </label>
            <FormMessages errors={fields.agree.errors} />
          </div>
          <div className={f.links}>
            <button
              type="submit"
              name="intent"
              value="register"
              className={s.button}
              disabled={busy}
              aria-busy={busy}
            >
              {t("register.submit")}
            </button>
            <Link to="/login">{t("register.haveAccount")}</Link>
          </div>
        </Form>
      </FormProvider>
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** With JavaScript, a lost request keeps the form and what was typed in it. */
export const clientAction = keepFormWhenLost();
export const shouldRevalidate = skipRevalidationWhenLost;
