import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ErrorList } from "~/components/form";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/patient-area.css";

/**
 * The search of someone to share with or invite: the whole email they registered with, sent as a
 * GET form (`find`) to `action`, with the refusal of a malformed search under it. `hidden` keeps
 * other parameters of the page's address.
 */
export function ShareSearchForm({
  action,
  label,
  placeholder,
  find,
  errors,
  hidden = {},
}: {
  action: string;
  label: string;
  placeholder?: string;
  find: string;
  errors: readonly string[];
  hidden?: Readonly<Record<string, string>>;
}) {
  const { t } = useTranslation("sharing");
  return (
    <Form method="get" action={action} className={f.form} role="search">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className={f.field}>
        <label htmlFor="find" className={f.label}>
          {label}
        </label>
        <div className={p.search}>
          <input
            id="find"
            name="find"
            type="search"
            inputMode="email"
            autoComplete="off"
            placeholder={placeholder}
            defaultValue={find}
            className={p.searchInput}
            aria-invalid={errors.length ? true : undefined}
            aria-describedby={errors.length ? "find-errors" : undefined}
          />
          <button type="submit" className={s.buttonSecondary}>
            {t("panel.searchButton")}
          </button>
        </div>
        <ErrorList id="find-errors" errors={[...errors]} ns="common" />
      </div>
    </Form>
  );
}

/** The optional message sent with a share request or an invitation. */
export function ShareMessageField() {
  const { t } = useTranslation("sharing");
  return (
    <div className={f.field}>
      <label htmlFor="message" className={f.label}>
        {t("add.message")}
      </label>
      <textarea id="message" name="message" rows={2} maxLength={500} className={f.input} />
    </div>
  );
}
