import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FormMessages } from "~/components/form";
import {
  LeaveGuard,
  RecordFields,
  type RecordFieldsMeta,
} from "~/components/patient-record-fields";
import { Identity } from "~/domain/codes";
import { GlucoseUnit } from "~/domain/glucose-unit";
import { listOptions } from "~/models/option.server";
import { createPatientRecord, mayAddPatients } from "~/models/patient.server";
import { clientIp } from "~/models/rate-limit.server";
import { bodyUnitsOf } from "~/models/setting.server";
import { newPatientSchema } from "~/schemas/patient";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { getLocale } from "~/services/locale.server";
import { requireUser } from "~/services/session.server";
import { accountZone, timeZoneOptions } from "~/utils/time-zones";
import { keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

/**
 * `/patientAdd`: a new patient, friend or relative by health file. A clinic must have passed its
 * organisation audit first. The creator's read share waits for the new owner's answer. The new
 * record's zone starts as the creator's own (their account's zone).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const allowed = mayAddPatients(user);
  const zone = accountZone(user);
  return {
    allowed,
    isClinic: user.identity === Identity.Clinic,
    unit: user.setting?.unit ?? GlucoseUnit.Mmol,
    options: allowed ? await listOptions() : [],
    timeZone: zone,
    timeZones: allowed ? timeZoneOptions(zone, Date.now(), await getLocale(request)) : [],
    bodyUnits: await bodyUnitsOf(user.id),
  };
}

type Added = { name: string; email: string; mailed: boolean };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: newPatientSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), added: null as Added | null }, { status: 400 });
  const created = await createPatientRecord(user, submission.value, {
    locale: await getLocale(request),
    ip: clientIp(request),
  });
  if (!created.ok) {
    const reply = created.field
      ? submission.reply({ fieldErrors: { [created.field]: [created.error] } })
      : submission.reply({ formErrors: [created.error] });
    return data({ result: reply, added: null as Added | null }, { status: created.status });
  }
  const added: Added = { name: created.name, email: created.email, mailed: created.mailed };
  return { result: submission.reply({ resetForm: true }), added };
}

export default function PatientAdd() {
  const { t } = useTranslation("record");
  const { allowed, isClinic, unit, options, timeZone, timeZones, bodyUnits } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "patient-add",
    lastResult: actionData?.result,
    // Every value the untouched form holds, so that it is not "dirty" before anything is typed.
    defaultValue: {
      timeZone,
      unit: String(unit),
      heightUnit: String(bodyUnits.height),
      weightUnit: String(bodyUnits.weight),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newPatientSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const added = actionData?.added;

  return (
    <div className={f.narrow}>
      <section className={s.card} aria-labelledby="add-title">
        <h1 id="add-title">{t("add.title")}</h1>
        {!allowed ? (
          <>
            <p role="alert">{t("add.notApproved")}</p>
            {isClinic ? <Link to="/organisation">{t("add.organisationLink")}</Link> : null}
          </>
        ) : (
          <>
            <p>{t("add.intro")}</p>
            {added ? (
              <div className={f.notice} role="status">
                <p>
                  {t(added.mailed ? "add.success" : "add.successNoMail", {
                    name: added.name,
                    email: added.email,
                  })}
                </p>
                <p>{t("add.waiting", { name: added.name })}</p>
                <Link to="/patientShow/patients">{t("add.open")}</Link>
              </div>
            ) : null}
            <FormProvider context={form.context}>
              <Form method="post" {...getFormProps(form)} className={f.form}>
                <LeaveGuard dirty={form.dirty && navigation.state === "idle"} />
                <FormMessages errors={form.errors} ns="record" />
                <Field
                  meta={fields.email!}
                  label={t("fields.email")}
                  type="email"
                  autoComplete="off"
                  inputMode="email"
                  hint={t("fields.emailHint")}
                  ns="record"
                  required
                />
                <div className={f.wide}>
                  <Field
                    meta={fields.firstName!}
                    label={t("fields.firstName")}
                    autoComplete="off"
                    ns="record"
                  />
                  <Field
                    meta={fields.lastName!}
                    label={t("fields.lastName")}
                    autoComplete="off"
                    ns="record"
                  />
                </div>
                <RecordFields
                  fields={fields as unknown as RecordFieldsMeta}
                  options={options}
                  unit={unit}
                  bodyUnits={bodyUnits}
                  timeZones={timeZones}
                />
                <div>
                  <button type="submit" className={s.button} disabled={navigation.state !== "idle"}>
                    {t("add.submit")}
                  </button>
                </div>
              </Form>
            </FormProvider>
          </>
        )}
      </section>
    </div>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** With JavaScript, a lost request keeps the form and what was typed in it. */
export const clientAction = keepFormWhenLost();
export const shouldRevalidate = skipRevalidationWhenLost;
