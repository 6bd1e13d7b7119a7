import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { BodyUnits } from "~/domain/body-measures";
import { newPatientSchema } from "~/schemas/patient";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import type { TimeZoneOption } from "~/utils/time-zones";
import { Field, FormMessages } from "./form";
import {
  LeaveGuard,
  RecordFields,
  type RecordFieldsMeta,
  type RecordOption,
} from "./patient-record-fields";

/**
 * The health-file form of a new person (email, names and the health record, gender and type of
 * diabetes required), with the notice of the person just added. Typed values come back after a
 * refused submission, with or without JavaScript; with JavaScript, leaving the page with typed
 * values asks first. `hidden` fields go with the submission (a page's own `intent`).
 */
export function NewPatientForm({
  lastResult,
  added,
  openHref,
  openLabel,
  options,
  unit,
  timeZone,
  timeZones,
  bodyUnits,
  hidden = {},
}: {
  lastResult: SubmissionResult<string[]> | null | undefined;
  added: { name: string; email: string; mailed: boolean } | null | undefined;
  /** Where the notice of a person just added leads (their waiting request), and its words. */
  openHref: string;
  openLabel?: string;
  options: RecordOption[];
  unit: number;
  timeZone: string;
  timeZones: TimeZoneOption[];
  bodyUnits: BodyUnits;
  hidden?: Readonly<Record<string, string>>;
}) {
  const { t } = useTranslation("record");
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "patient-add",
    lastResult,
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
  return (
    <>
      {added ? (
        <div className={f.notice} role="status">
          <p>
            {t(added.mailed ? "add.success" : "add.successNoMail", {
              name: added.name,
              email: added.email,
            })}
          </p>
          <p>{t("add.waiting", { name: added.name })}</p>
          <Link to={openHref}>{openLabel ?? t("add.open")}</Link>
        </div>
      ) : null}
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className={f.form}>
          {Object.entries(hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
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
  );
}
