import { useTranslation } from "react-i18next";
import { AuditState } from "~/domain/codes";
import * as s from "~/styles/badge.css";
import { ClockIcon } from "./icons";

/**
 * The organisation audit state (isPass) as a badge with its message: a clock for 3 (in review),
 * red with the reason for 2 (failed).
 */
export function AuditStatus({ isPass, reason }: { isPass: number; reason?: string | null }) {
  const { t } = useTranslation("auth");
  const approved = isPass === AuditState.Approved;
  const refused = isPass === AuditState.Refused;
  const inReview = isPass === AuditState.InReview;
  const tone = approved ? s.success : refused ? s.danger : inReview ? s.pending : s.neutral;
  const icon = approved ? "✓" : refused ? "!" : inReview ? <ClockIcon /> : "•";
  return (
    <div className={s.status} role="status">
      <span
        className={`${s.badge} ${tone}`}
        aria-hidden="true"
        title={refused && reason ? reason : undefined}
      >
        {icon}
      </span>
      <span>
        <strong>{t(`audit.state${isPass}`)}</strong>
        {refused && reason ? (
          <span className={s.reason}> {t("audit.reason", { reason })}</span>
        ) : null}
      </span>
    </div>
  );
}
