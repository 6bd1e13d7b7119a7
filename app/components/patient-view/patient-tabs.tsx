import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ViewTab } from "~/schemas/patient-view";
import * as s from "~/styles/patient-view.css";
import { viewHref, type PatientLinks } from "./links";

type Props = {
  links: PatientLinks;
  tabs: readonly ViewTab[];
  current: ViewTab | "uploads" | "import" | "upload";
  /** The day a view tab keeps when switching (null: each view's default). */
  date: string | null;
};

/** The patient header's tabs: the data views DAILY, BG and CGMS, the upload history, the upload centre and the CSV import and export. */
export function PatientTabs({ links, tabs, current, date }: Props) {
  const { t } = useTranslation("views");
  return (
    <nav aria-label={t("tabs.label")}>
      <ul className={s.tabs}>
        {tabs.map((tab) => (
          <li key={tab}>
            <Link
              className={s.tab}
              to={viewHref(links.home, { tab, date })}
              aria-current={tab === current ? "page" : undefined}
            >
              {t(`tabs.${tab}`)}
            </Link>
          </li>
        ))}
        <li>
          <Link
            className={s.tab}
            to={links.uploads}
            aria-current={current === "uploads" ? "page" : undefined}
          >
            {t("tabs.uploads")}
          </Link>
        </li>
        <li>
          <Link
            className={s.tab}
            to={links.upload}
            aria-current={current === "upload" ? "page" : undefined}
          >
            {t("tabs.upload")}
          </Link>
        </li>
        <li>
          <Link
            className={s.tab}
            to={links.import}
            aria-current={current === "import" ? "page" : undefined}
          >
            {t("tabs.import")}
          </Link>
        </li>
      </ul>
    </nav>
  );
}

/** The title of a patient's page: "My data" for the patient, else the patient's name. */
export function PatientPageHeader({ title }: { title: string }) {
  return (
    <header className={s.header}>
      <div>
        <h1 id="patient-title" className={s.title}>
          {title}
        </h1>
      </div>
    </header>
  );
}
