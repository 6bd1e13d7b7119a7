import { useTranslation } from "react-i18next";
import { CSV_FORMATS } from "~/csv";
import * as st from "~/styles/import.css";
import * as s from "~/styles/patient-view.css";

/** Sample files of every accepted format, served from public/samples/. */
const SAMPLES: Readonly<Record<(typeof CSV_FORMATS)[number], string>> = {
  clarity: "/samples/clarity-export.csv",
  libreview: "/samples/libreview-export.csv",
  diacare: "/samples/diacare-export.csv",
  generic: "/samples/generic-readings.csv",
};

/** The files the CSV import accepts, each with a sample to download, and the size limit. */
export function AcceptedFiles() {
  const { t } = useTranslation("import");
  return (
    <>
      <h3>{t("accepted.title")}</h3>
      <ul className={st.samples} data-testid="accepted-files">
        {CSV_FORMATS.map((format) => (
          <li key={format}>
            {t(`accepted.${format}`)}{" "}
            <a href={SAMPLES[format]} download>
              {t("accepted.sample")}
            </a>
          </li>
        ))}
      </ul>
      <p className={s.note}>{t("accepted.limit")}</p>
    </>
  );
}
