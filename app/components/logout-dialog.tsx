import { Form, Link } from "@remix-run/react";
import { Button, Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from "react-aria-components";
import { useTranslation } from "react-i18next";
import * as layout from "~/styles/layout.css";
import * as s from "~/styles/dialog.css";
import { useHydrated } from "./use-hydrated";

/** The confirmation form of sign-out, shared by the /logout page and the dialog. */
export function LogoutForm({ onCancel }: { onCancel?: () => void }) {
  const { t } = useTranslation();
  return (
    <Form method="post" action="/logout" reloadDocument>
      <p>{t("logout.confirm")}</p>
      <div className={layout.actions}>
        <button type="submit" className={layout.button}>
          {t("logout.submit")}
        </button>
        {onCancel ? (
          <button type="button" className={layout.buttonSecondary} onClick={onCancel}>
            {t("logout.cancel")}
          </button>
        ) : (
          <Link to="/" className={layout.buttonSecondary}>
            {t("logout.cancel")}
          </Link>
        )}
      </div>
    </Form>
  );
}

/**
 * Sign-out in the user menu: without JavaScript a link to the /logout confirmation page, with
 * JavaScript a modal dialog asking the same question.
 */
export function LogoutMenuItem({ className }: { className: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  if (!hydrated) {
    return (
      <Link to="/logout" className={className}>
        {t("nav.logout")}
      </Link>
    );
  }
  return (
    <DialogTrigger>
      <Button className={className}>{t("nav.logout")}</Button>
      <ModalOverlay className={s.overlay} isDismissable>
        <Modal className={s.modal}>
          <Dialog className={s.dialog} role="alertdialog">
            {({ close }) => (
              <>
                <Heading slot="title" className={s.title}>
                  {t("logout.title")}
                </Heading>
                <LogoutForm onCancel={close} />
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
