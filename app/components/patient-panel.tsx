import { Form, Link, NavLink, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Identity } from "~/domain/codes";
import * as s from "~/styles/patient-area.css";
import * as layout from "~/styles/layout.css";
import { Pager } from "~/components/pager";

export type PanelItem = {
  readPowerId: number;
  name: string;
  nickName: string | null;
  href: string;
  state: number;
  isNew: number;
  uploadIsNew: number;
  /** What the viewer may still have to do: a request to answer, one waiting, refused or expired. */
  status: "pending-for-me" | "waiting" | "refused" | "expired" | "accepted";
  /** For a patient whose data the viewer reads: the date of the newest upload (YYYY/MM/DD, the patient's zone), null without any. */
  lastUpload: { date: string | null } | null;
};

const PAGE_SIZE = 10;
/** The id of the "New user" link, which opens the add-share / add-invite drawer. */
export const ADD_USER_LINK_ID = "add-user";

/** The 313 px left panel of the patient area: search, New user, tabs, list, pages of 10. */
export function PatientPanel({
  identity,
  tab,
  items,
  total,
  page,
  folded = false,
}: {
  identity: number;
  tab: "mine" | "others";
  items: PanelItem[];
  total: number;
  page: number;
  folded?: boolean;
}) {
  const { t } = useTranslation("sharing");
  const [params] = useSearchParams();
  const q = params.get("q") ?? "";
  const withParams = (changes: Record<string, string | number | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === "") next.delete(key);
      else next.set(key, String(value));
    }
    const query = next.toString();
    return query ? `?${query}` : "";
  };
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <aside className={s.panel} aria-label={t("panel.label")}>
      {/* Folded on a patient's page where one column has no room beside it (patient-area.css.ts `disclosure`). */}
      <details className={s.disclosure} open={!folded} data-testid="patient-panel">
        <summary className={s.disclosureSummary}>{t("panel.label")}</summary>
        <div className={s.panelBody}>
          <Form method="get" action="/patientShow/patients" className={s.search} role="search">
            <input type="hidden" name="tab" value={tab} />
            <label htmlFor="panel-search" className={layout.skipLink}>
              {t("panel.search")}
            </label>
            <input
              id="panel-search"
              name="q"
              defaultValue={q}
              className={s.searchInput}
              placeholder={t("panel.searchPlaceholder")}
            />
            <button type="submit" className={layout.buttonSecondary}>
              {t("panel.searchButton")}
            </button>
          </Form>
          <Link
            id={ADD_USER_LINK_ID}
            to={`/patientShow/add${withParams({ page: null })}`}
            className={layout.button}
          >
            {identity === Identity.Person ? t("panel.newShare") : t("panel.newInvite")}
          </Link>
          <Link to={identity === Identity.Person ? "/patient" : "/patientAdd"}>
            {identity === Identity.Person
              ? t("record:links.healthRecord")
              : t("record:links.addPatient")}
          </Link>
          <nav className={s.tabs} aria-label={t("panel.tabs")}>
            <Link
              to={`/patientShow/patients${withParams({ tab: "mine", page: null })}`}
              className={s.tab}
              aria-current={tab === "mine" ? "page" : undefined}
            >
              {t("panel.sharedWithMe")}
            </Link>
            {identity === Identity.Person ? (
              <Link
                to={`/patientShow/patients${withParams({ tab: "others", page: null })}`}
                className={s.tab}
                aria-current={tab === "others" ? "page" : undefined}
              >
                {t("panel.sharedWithOthers")}
              </Link>
            ) : null}
          </nav>
          {items.length === 0 ? (
            <p>
              {q
                ? t("panel.noMatch")
                : tab === "others"
                  ? t("panel.emptyOthers")
                  : t("panel.emptyMine")}
            </p>
          ) : (
            <ul className={s.list}>
              {items.map((item) => (
                <li key={item.readPowerId}>
                  <NavLink to={`${item.href}${withParams({})}`} className={s.item}>
                    <span className={s.itemName}>{item.nickName || item.name}</span>
                    <span>
                      {item.uploadIsNew === 0 && item.status === "accepted" ? (
                        <span className={s.dot} role="img" aria-label={t("panel.newData")} />
                      ) : null}
                      {item.status !== "accepted" ? (
                        <span className={s.pill}>{t(`status.${item.status}`)}</span>
                      ) : null}
                    </span>
                    {item.nickName ? <span className={s.itemMeta}>{item.name}</span> : null}
                    {item.lastUpload ? (
                      <span className={s.itemMeta} data-testid="last-upload">
                        {item.lastUpload.date
                          ? t("panel.lastUpload", { date: item.lastUpload.date })
                          : t("panel.noUploads")}
                      </span>
                    ) : null}
                  </NavLink>
                </li>
              ))}
            </ul>
          )}
          <Pager
            page={page}
            pages={total > PAGE_SIZE ? pages : 1}
            href={(n) => withParams({ page: n })}
            labels={{
              nav: t("panel.pages"),
              back: t("panel.previous"),
              forward: t("panel.next"),
              pageOf: t("panel.pageOf", { page, pages }),
            }}
          />
          {identity === Identity.Person && tab === "others" ? (
            <Link to={`/patientShow/accessLog${withParams({})}`}>{t("panel.accessLog")}</Link>
          ) : null}
        </div>
      </details>
    </aside>
  );
}
