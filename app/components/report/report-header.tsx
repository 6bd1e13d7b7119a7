import { useTranslation } from "react-i18next";
import * as s from "~/styles/report.css";

export type ReportHeaderProps = {
  title: string;
  patientName: string;
  /** YYYY/MM/DD or null. */
  birthDate: string | null;
  /** "YYYY/MM/DD – YYYY/MM/DD", or a report's own wording of its period. */
  range: string;
  unitText: string;
  /** Local "YYYY/MM/DD HH:mm" in the patient's zone, with the zone. */
  generatedAt: string;
  timeZone: string;
  nameStyle: "left" | "center" | "right";
  splitLine: boolean;
  logoSrc: string | null;
  /** A report's own facts after the common ones (a glucose profile's CGM wear and days with data). */
  more?: readonly HeaderFact[];
};

export type HeaderFact = { label: string; value: string; testId: string };

/**
 * The header of every print report, laid out by the reader's print settings (logo, title
 * alignment, line under the header): logo, title, patient and range.
 */
export function ReportHeader(props: ReportHeaderProps) {
  const { t } = useTranslation("reports");
  return (
    <header
      className={`${s.header} ${props.splitLine ? s.splitLine : ""}`}
      data-testid="report-header"
    >
      <div className={s.titleRow[props.nameStyle]}>
        {props.logoSrc ? (
          <img className={s.logo} src={props.logoSrc} alt={t("common.header.logo")} />
        ) : null}
        <h1 className={s.title}>{props.title}</h1>
      </div>
      <dl className={s.meta}>
        <div>
          <dt>{t("common.header.patient")}</dt>
          <dd data-testid="report-patient">{props.patientName}</dd>
        </div>
        <div>
          <dt>{t("common.header.birthDate")}</dt>
          <dd>{props.birthDate ?? "—"}</dd>
        </div>
        <div>
          <dt>{t("common.header.range")}</dt>
          <dd data-testid="report-range">{props.range}</dd>
        </div>
        <div>
          <dt>{t("common.header.unit")}</dt>
          <dd>{props.unitText}</dd>
        </div>
        <div>
          <dt>{t("common.header.generatedAt")}</dt>
          <dd>
            {t("common.header.generatedAtValue", { time: props.generatedAt, zone: props.timeZone })}
          </dd>
        </div>
        {props.more?.map((fact) => (
          <div key={fact.testId}>
            <dt>{fact.label}</dt>
            <dd data-testid={fact.testId}>{fact.value}</dd>
          </div>
        ))}
      </dl>
    </header>
  );
}
