import { useState, type ReactNode } from "react";
import { Button, Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";
import * as s from "~/styles/dialog.css";

/**
 * A drawer sliding in from the right: a modal dialog that keeps the focus inside it and closes
 * on Escape, on a click beside it and with its close button. Closed, it gives the focus back to
 * the element that had it when it opened or, when that was none (the page was loaded with the
 * drawer open), to the element `returnFocusTo` names. `onClose` says what closing means, e.g.
 * leaving the drawer's address.
 */
export function Drawer({
  title,
  closeLabel,
  onClose,
  returnFocusTo,
  children,
}: {
  title: string;
  closeLabel: string;
  onClose: () => void;
  returnFocusTo?: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(true);
  const close = () => {
    setOpen(false);
    onClose();
    // The dialog gives the focus back one frame after it closes; only a focus left nowhere moves.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        const focused = document.activeElement;
        if (returnFocusTo && (!focused || focused === document.body))
          document.getElementById(returnFocusTo)?.focus();
      }),
    );
  };
  return (
    <ModalOverlay
      isOpen={open}
      onOpenChange={(next) => (next ? undefined : close())}
      isDismissable
      className={s.drawerOverlay}
    >
      <Modal className={s.drawer}>
        <Dialog className={s.dialog}>
          <div className={s.drawerHeader}>
            <Heading slot="title" level={1} className={s.title}>
              {title}
            </Heading>
            <Button className={s.closeButton} onPress={close} aria-label={closeLabel}>
              <span aria-hidden="true">×</span>
            </Button>
          </div>
          {children}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
