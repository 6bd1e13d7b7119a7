import { useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as s from "~/styles/layout.css";
import { dismissLostRequest, useLostRequest } from "~/utils/lost-request";

/** Says that a form's request was lost and that what was typed is still on the page. */
export function LostRequestNotice() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const lost = useLostRequest(pathname);
  if (!lost) return null;
  return (
    <div className={s.lostRequest} role="alert">
      <p>{t(`lostRequest.${lost}`)}</p>
      <button type="button" onClick={dismissLostRequest}>
        {t("lostRequest.dismiss")}
      </button>
    </div>
  );
}
