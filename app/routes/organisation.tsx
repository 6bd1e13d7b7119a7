import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuditStatus } from "~/components/audit-status";
import { ErrorList, Field, FormMessages } from "~/components/form";
import { Identity } from "~/domain/codes";
import { getOrganisation, submitOrganisation } from "~/models/organisation.server";
import { organisationSchema } from "~/schemas/auth";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { countryList } from "~/utils/countries";
import { getLocale } from "~/services/locale.server";
import { requireUser } from "~/services/session.server";
import { keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

/** The clinic's organisation form (six required fields) and its audit state. */
async function requireClinic(request: Request) {
  const user = await requireUser(request);
  if (user.identity !== Identity.Clinic) throw new Response("Forbidden", { status: 403 });
  return user;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireClinic(request);
  const [organisation, locale] = await Promise.all([getOrganisation(user.id), getLocale(request)]);
  return {
    organisation,
    isPass: user.isPass,
    reason: user.auditReason,
    countries: countryList(locale),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireClinic(request);
  const submission = parseWithZod(await request.formData(), { schema: organisationSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), notice: null }, { status: 400 });
  const done = await submitOrganisation(user.id, submission.value);
  if (!done.ok)
    return data(
      { result: submission.reply({ formErrors: [done.error] }), notice: null },
      { status: 403 },
    );
  return { result: submission.reply(), notice: "audit.submitted" };
}

export default function Organisation() {
  const { t } = useTranslation("auth");
  const { organisation, isPass, reason, countries } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "organisation",
    lastResult: actionData?.result,
    defaultValue: organisation ?? undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: organisationSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className={f.narrow}>
      <section className={s.card} aria-labelledby="org-title">
        <h1 id="org-title">{t("audit.title")}</h1>
        <AuditStatus isPass={isPass} reason={reason} />
        <p>{t("audit.intro")}</p>
        <FormProvider context={form.context}>
          <Form method="post" {...getFormProps(form)} className={f.form}>
            <FormMessages errors={form.errors} notice={actionData?.notice} />
            <Field
              meta={fields.hospitalName}
              label={t("fields.hospitalName")}
              autoComplete="organization"
              required
            />
            <Field
              meta={fields.address}
              label={t("fields.address")}
              autoComplete="street-address"
              required
            />
            <Field
              meta={fields.area}
              label={t("fields.area")}
              autoComplete="address-level1"
              required
            />
            <div className={f.field}>
              <label htmlFor={fields.country.id} className={f.label}>
                {t("fields.country")}
                <span aria-hidden="true"> *</span>
              </label>
              <select
                id={fields.country.id}
                name={fields.country.name}
                defaultValue={String(fields.country.initialValue ?? "")}
                aria-invalid={fields.country.errors ? true : undefined}
                aria-describedby={fields.country.errors ? fields.country.errorId : undefined}
                aria-required
                className={f.input}
              >
                <option value="">{t("fields.chooseCountry")}</option>
                {countries.map((c) => (
                  <option key={c.code} value={c.name}>
                    {c.name}
                  </option>
                ))}
              </select>
              <ErrorList id={fields.country.errorId} errors={fields.country.errors} />
            </div>
            <Field
              meta={fields.connectName}
              label={t("fields.connectName")}
              autoComplete="name"
              required
            />
            <Field
              meta={fields.connectPhone}
              label={t("fields.connectPhone")}
              type="tel"
              autoComplete="tel"
              required
            />
            <div>
              <button type="submit" className={s.button} disabled={navigation.state !== "idle"}>
                {t("audit.submit")}
              </button>
            </div>
          </Form>
        </FormProvider>
      </section>
    </div>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** With JavaScript, a lost request keeps the form and what was typed in it. */
export const clientAction = keepFormWhenLost();
export const shouldRevalidate = skipRevalidationWhenLost;
