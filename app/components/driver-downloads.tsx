import { useTranslation } from "react-i18next";
import * as s from "~/styles/layout.css";
import type { PlacedDriver } from "~/utils/drivers.server";

/** "1.2 MB", "840 KB": a file size for people. */
function fileSize(bytes: number, locale: string): string {
  const format = (value: number) =>
    new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(value);
  return bytes >= 1024 * 1024
    ? `${format(bytes / (1024 * 1024))} MB`
    : `${format(Math.max(bytes, 1) / 1024)} KB`;
}

/**
 * The driver downloads (sign-in page, upload centre, support): only the driver files the operator
 * has placed, each with its file name, size and SHA-256 so that a download can be checked. A
 * <details> disclosure: it opens without JavaScript and with the keyboard.
 */
export function DriverDownloads({ drivers }: { drivers: PlacedDriver[] }) {
  const { t, i18n } = useTranslation("auth");
  return (
    <details className={s.card} id="drivers">
      <summary>
        <strong>{t("drivers.title")}</strong>
      </summary>
      {drivers.length ? (
        <ul>
          {drivers.map((driver) => (
            <li key={driver.id} data-testid={`driver-${driver.id}`}>
              <a href={`/drivers/${driver.id}`} download>
                {t(`drivers.${driver.id}`)}
              </a>{" "}
              <span className={s.breakAnywhere}>
                ({driver.file}, {fileSize(driver.bytes, i18n.language)})
              </span>
              <br />
              <span>
                {t("drivers.sha256")} <code className={s.breakAnywhere}>{driver.sha256}</code>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t("drivers.none")}</p>
      )}
      <p>{t("drivers.macNote")}</p>
    </details>
  );
}
