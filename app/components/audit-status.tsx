import { useTranslation } from "react-i18next";
import * as s from "~/styles/badge.css";
import { ClockIcon } from "./icons";

/**
 * The organisation audit state (isPass) as a badge with its message: a clock for 3 (in review),
 * red with the reason for 2 (failed).
 */
export function AuditStatus({ isPass, reason }: { isPass: number; reason?: string | null }) {
  const { t } = useTranslation("auth");
  const tone =
    isPass === 1 ? s.success : isPass === 2 ? s.danger : isPass === 3 ? s.pending : s.neutral;
  const icon = isPass === 1 ? "✓" : isPass === 2 ? "!" : isPass === 3 ? <ClockIcon /> : "•";
  return (
    <div className={s.status} role="status">
      <span
        className={`${s.badge} ${tone}`}
        aria-hidden="true"
        title={isPass === 2 && reason ? reason : undefined}
      >
        {icon}
      </span>
      <span>
        <strong>{t(`audit.state${isPass}`)}</strong>
        {isPass === 2 && reason ? (
          <span className={s.reason}> {t("audit.reason", { reason })}</span>
        ) : null}
      </span>
    </div>
  );
}
