import { useLocation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { SessionNotice as Notice } from "~/services/session.server";
import * as f from "~/styles/form.css";

const MESSAGES: Record<Notice, string> = { signedIn: "app.signedIn" };

/**
 * The session's one-time notice, on the page it arrived with: a later page (a new document, or a
 * client-side navigation that keeps the root's data) does not show it.
 */
export function SessionNotice({ notice }: { notice: Notice }) {
  const { t } = useTranslation();
  const location = useLocation();
  const [arrivedAt] = useState(location.key);
  if (location.key !== arrivedAt) return null;
  return (
    <p className={f.notice} role="status">
      {t(MESSAGES[notice])}
    </p>
  );
}
