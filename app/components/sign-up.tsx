import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { Button, Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { signTypes } from "~/schemas/auth";
import * as s from "~/styles/dialog.css";
import * as f from "~/styles/form.css";
import * as layout from "~/styles/layout.css";
import { FormMessages } from "./form";
import { useHydrated } from "./use-hydrated";

/** The sign-up choice: person (default) or clinic; posts to /signup. */
export function SignUpForm({ errors, onCancel }: { errors?: string[]; onCancel?: () => void }) {
  const { t } = useTranslation("auth");
  const [clientError, setClientError] = useState<string[] | undefined>();
  return (
    <Form
      method="post"
      action="/signup"
      className={f.form}
      onSubmit={(event) => {
        if (!new FormData(event.currentTarget).get("signType")) {
          event.preventDefault();
          setClientError(["errors.signTypeFirst"]);
        }
      }}
    >
      <FormMessages errors={clientError ?? errors} />
      <fieldset className={f.fieldset}>
        <legend className={f.label}>{t("signup.choose")}</legend>
        {signTypes.map((type) => (
          <label key={type} className={f.choice}>
            <input
              type="radio"
              name="signType"
              value={type}
              defaultChecked={type === "person"}
              onChange={() => setClientError(undefined)}
            />
            <span>
              <strong>{t(`signup.${type}`)}</strong> — {t(`signup.${type}Hint`)}
            </span>
          </label>
        ))}
      </fieldset>
      <div className={layout.actions}>
        <button type="submit" className={layout.button}>
          {t("signup.confirm")}
        </button>
        {onCancel ? (
          <button type="button" className={layout.buttonSecondary} onClick={onCancel}>
            {t("common:logout.cancel")}
          </button>
        ) : null}
      </div>
    </Form>
  );
}

/** "Sign up" in the header: a link to /signup without JavaScript, a dialog with it. */
export function SignUpButton({ className }: { className: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  if (!hydrated) {
    return (
      <Link to="/signup" className={className}>
        {t("nav.signUp")}
      </Link>
    );
  }
  return (
    <DialogTrigger>
      <Button className={className}>{t("nav.signUp")}</Button>
      <ModalOverlay className={s.overlay} isDismissable>
        <Modal className={s.modal}>
          <Dialog className={s.dialog}>
            {({ close }) => (
              <>
                <Heading slot="title" className={s.title}>
                  {t("auth:signup.title")}
                </Heading>
                <SignUpForm onCancel={close} />
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
