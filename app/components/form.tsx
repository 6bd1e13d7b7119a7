import { getCollectionProps, getInputProps, useField, type FieldMetadata } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as s from "~/styles/form.css";
import * as layout from "~/styles/layout.css";
import { translateError } from "~/utils/error-message";

/** Translates conform/zod messages, which are i18n keys of `ns`; `field`, the field's label, for the messages that name it. */
export function ErrorList({
  id,
  errors,
  ns = "auth",
  field,
}: {
  id?: string;
  errors?: string[];
  ns?: string;
  field?: string;
}) {
  const { t } = useTranslation(ns);
  if (!errors?.length) return null;
  return (
    <ul id={id} className={s.errors} role="alert">
      {errors.map((error) => (
        <li key={error}>{translateError(t, error, field)}</li>
      ))}
    </ul>
  );
}

type FieldProps = {
  meta: FieldMetadata<unknown>;
  label: string;
  type?: "text" | "email" | "password" | "date" | "number" | "tel";
  autoComplete?: string;
  hint?: string;
  required?: boolean;
  inputMode?: "numeric" | "decimal" | "email" | "text";
  step?: string;
  prefix?: string;
  ns?: string;
};

/**
 * A labelled input with its hint and translated errors. Required fields are marked with
 * `aria-required` (not the `required` attribute) so that without JavaScript the server's
 * translated message, not the browser's own, explains what is missing. It must sit inside the
 * form's <FormProvider>: `useField` makes the field re-render when its own errors change.
 */
export function Field({
  meta: given,
  label,
  type = "text",
  autoComplete,
  hint,
  required,
  inputMode,
  step,
  prefix,
  ns,
}: FieldProps) {
  const [meta] = useField<unknown>(given.name, { formId: given.formId });
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const props = getInputProps(meta, { type, ariaDescribedBy: hintId });
  return (
    <div className={s.field}>
      <label htmlFor={meta.id} className={s.label}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {hint ? (
        <p id={hintId} className={s.hint}>
          {hint}
        </p>
      ) : null}
      <div className={prefix ? s.prefixed : undefined}>
        {prefix ? <span className={s.prefix}>{prefix}</span> : null}
        <input
          {...props}
          key={props.key}
          required={undefined}
          aria-required={required || undefined}
          autoComplete={autoComplete}
          inputMode={inputMode}
          step={step}
          className={s.input}
        />
      </div>
      <ErrorList id={meta.errorId} errors={meta.errors} ns={ns} field={label} />
    </div>
  );
}

/** A new password with its rule, and its repetition: every form that sets a password asks the same. */
export function NewPasswordFields({
  password,
  confirm,
}: {
  password: FieldMetadata<unknown>;
  confirm: FieldMetadata<unknown>;
}) {
  const { t } = useTranslation("auth");
  return (
    <>
      <Field
        meta={password}
        label={t("fields.newPassword")}
        type="password"
        autoComplete="new-password"
        hint={t("register.passwordHint")}
        required
      />
      <Field
        meta={confirm}
        label={t("fields.confirmPassword")}
        type="password"
        autoComplete="new-password"
        required
      />
    </>
  );
}

/** Messages for the whole form (e.g. wrong credentials), and a success notice. */
export function FormMessages({
  errors,
  notice,
  ns = "auth",
}: {
  errors?: string[];
  notice?: string | null;
  ns?: string;
}) {
  const { t } = useTranslation(ns);
  return (
    <>
      <ErrorList errors={errors} ns={ns} />
      {notice ? (
        <p className={s.notice} role="status">
          {t(notice)}
        </p>
      ) : null}
    </>
  );
}

/** A fieldset of radio buttons (or checkboxes) for one field, with its legend and translated errors. */
export function ChoiceGroup({
  meta: given,
  legend,
  choices,
  ns,
  type = "radio",
  required,
}: {
  meta: FieldMetadata<unknown>;
  legend: string;
  /** `lang`: the language a label is in, when not the page's (a language's own name). */
  choices: { value: string; label: string; lang?: string }[];
  ns?: string;
  type?: "radio" | "checkbox";
  required?: boolean;
}) {
  const [meta] = useField<unknown>(given.name, { formId: given.formId });
  const inputs = getCollectionProps(meta, { type, options: choices.map((c) => c.value) });
  return (
    // A radio group may say it is required (a plain fieldset may not); a checkbox group says it with the legend's mark.
    <fieldset
      className={s.fieldset}
      role={type === "radio" ? "radiogroup" : undefined}
      aria-describedby={meta.errors ? meta.errorId : undefined}
      aria-required={(type === "radio" && required) || undefined}
    >
      <legend className={s.label}>
        {legend}
        {required ? <span aria-hidden="true"> *</span> : null}
      </legend>
      {inputs.map((props, i) => (
        <label key={props.key} className={s.choice}>
          <input
            {...props}
            key={props.key}
            required={undefined}
            aria-describedby={undefined}
            aria-invalid={undefined}
          />
          {choices[i]!.lang ? (
            <span lang={choices[i]!.lang}>{choices[i]!.label}</span>
          ) : (
            choices[i]!.label
          )}
        </label>
      ))}
      <ErrorList id={meta.errorId} errors={meta.errors} ns={ns} />
    </fieldset>
  );
}

/** A labelled checkbox (sent as "on" when ticked) with its translated errors. */
export function CheckboxField({
  meta: given,
  label,
  ns,
}: {
  meta: FieldMetadata<unknown>;
  label: string;
  ns?: string;
}) {
  const [meta] = useField<unknown>(given.name, { formId: given.formId });
  const props = getInputProps(meta, { type: "checkbox" });
  return (
    <div className={s.field}>
      <label className={s.choice}>
        <input {...props} key={props.key} />
        {label}
      </label>
      <ErrorList id={meta.errorId} errors={meta.errors} ns={ns} />
    </div>
  );
}

/**
 * The second step of a destructive action, which works without JavaScript: the question, a
 * submit (`intent`) that confirms and a link back that cancels.
 */
export function ConfirmStep(props: {
  id: string;
  message: string;
  intent: string;
  confirm: string;
  cancel: string;
  cancelTo: string;
  action?: string;
  /** Hidden fields the confirmed action needs (the id of what it acts on). */
  fields?: Readonly<Record<string, string>>;
  busy: boolean;
}) {
  return (
    <Form method="post" action={props.action} className={s.form} aria-labelledby={props.id}>
      {Object.entries(props.fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <p id={props.id} role="alert">
        {props.message}
      </p>
      <div className={layout.actions}>
        <button
          type="submit"
          name="intent"
          value={props.intent}
          className={layout.button}
          disabled={props.busy}
        >
          {props.confirm}
        </button>
        <Link to={props.cancelTo} className={layout.buttonSecondary}>
          {props.cancel}
        </Link>
      </div>
    </Form>
  );
}
