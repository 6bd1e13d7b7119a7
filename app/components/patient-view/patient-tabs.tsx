import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ViewTab } from "~/schemas/patient-view";
import * as s from "~/styles/patient-view.css";
import { viewHref } from "./links";

type Props = {
  /** The patient page's address (`.../patientHome`), the upload history's (`.../uploads`) and the CSV import's. */
  home: string;
  uploads: string;
  importHref: string;
  /** The upload centre's address. */
  uploadHref: string;
  tabs: readonly ViewTab[];
  current: ViewTab | "uploads" | "import" | "upload";
  /** The day a view tab keeps when switching (null: each view's default). */
  date: string | null;
};

/** The patient header's tabs: the data views DAILY, BG and CGMS, the upload history, the upload centre and the CSV import and export. */
export function PatientTabs({ home, uploads, importHref, uploadHref, tabs, current, date }: Props) {
  const { t } = useTranslation("views");
  return (
    <nav aria-label={t("tabs.label")}>
      <ul className={s.tabs}>
        {tabs.map((tab) => (
          <li key={tab}>
            <Link className={s.tab} to={viewHref(home, { tab, date })} aria-current={tab === current ? "page" : undefined}>
              {t(`tabs.${tab}`)}
            </Link>
          </li>
        ))}
        <li>
          <Link className={s.tab} to={uploads} aria-current={current === "uploads" ? "page" : undefined}>
            {t("tabs.uploads")}
          </Link>
        </li>
        <li>
          <Link className={s.tab} to={uploadHref} aria-current={current === "upload" ? "page" : undefined}>
            {t("tabs.upload")}
          </Link>
        </li>
        <li>
          <Link className={s.tab} to={importHref} aria-current={current === "import" ? "page" : undefined}>
            {t("tabs.import")}
          </Link>
        </li>
      </ul>
    </nav>
  );
}
