import { useTranslation } from "react-i18next";
import * as s from "~/styles/layout.css";

/**
 * The driver download section of the sign-in page. A <details> disclosure: it opens without
 * JavaScript and with the keyboard. Missing files are announced, not linked.
 */
export function DriverDownloads({ drivers }: { drivers: { id: string; available: boolean }[] }) {
  const { t } = useTranslation("auth");
  return (
    <details className={s.card} id="drivers">
      <summary>
        <strong>{t("drivers.title")}</strong>
      </summary>
      <ul>
        {drivers.map((driver) => (
          <li key={driver.id}>
            {driver.available ? (
              <a href={`/drivers/${driver.id}`} download>
                {t(`drivers.${driver.id}`)}
              </a>
            ) : (
              <span>
                {t(`drivers.${driver.id}`)} — {t("drivers.unavailable")}
              </span>
            )}
          </li>
        ))}
      </ul>
      <p>{t("drivers.macNote")}</p>
    </details>
  );
}
