import { Form, Link, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Pager } from "~/components/pager";
import { FIRST_DIRECTION, TRIAGE_FLAGS, type TriageSort } from "~/schemas/triage";
import type { TriageList as TriageListData } from "~/services/triage.server";
import * as layout from "~/styles/layout.css";
import * as s from "~/styles/patient-view.css";
import * as st from "~/styles/stack-table.css";
import * as tr from "~/styles/triage.css";

/** The list's own query parameters; the panel's (`tab`, `q`, `page`) are kept beside them. */
const TRIAGE_PARAMS = ["sort", "dir", "flag", "tpage"] as const;

type Column = { sort: TriageSort; numeric: boolean };
const COLUMNS: readonly Column[] = [
  { sort: "name", numeric: false },
  { sort: "lastUpload", numeric: false },
  { sort: "days", numeric: true },
  { sort: "tir", numeric: true },
  { sort: "below70", numeric: true },
  { sort: "below54", numeric: true },
  { sort: "gmi", numeric: true },
  { sort: "flags", numeric: false },
];

/**
 * The clinic's triage list: each patient sharing with the clinic, with the last 14 days' figures
 * and flags. The column heads are links that sort (aria-sort names the order), the flags filter is
 * a GET form and the pages are links, so everything works without JavaScript.
 */
export function TriageList({ data }: { data: TriageListData }) {
  const { t } = useTranslation("patients");
  const [params] = useSearchParams();
  const unit = t(`common:units.${data.unit}`);
  const href = (changes: Record<string, string | number | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, String(value));
    }
    const query = next.toString();
    return query ? `?${query}` : "?";
  };
  const heading = (sort: TriageSort) => {
    switch (sort) {
      case "tir":
        return t("triage.columns.tir", { low: data.bands.low, high: data.bands.high, unit });
      case "below70":
        return t("triage.columns.below", { limit: data.bands.low, unit });
      case "below54":
        return t("triage.columns.below", { limit: data.bands.veryLow, unit });
      case "days":
        return t("triage.columns.days", { days: data.days });
      default:
        return t(`triage.columns.${sort}`);
    }
  };
  // Hidden fields carry everything but the filter itself, so that applying it keeps the order and the panel.
  const kept = [...params.entries()].filter(
    ([key]) => !(TRIAGE_PARAMS as readonly string[]).includes(key),
  );

  return (
    <section className={s.section} aria-labelledby="triage-title" data-testid="triage">
      <h2 id="triage-title">{t("triage.title", { days: data.days })}</h2>
      <p className={s.note}>{t("triage.intro", { days: data.days })}</p>
      <Form method="get" action="/patientShow/patients" preventScrollReset>
        {kept.map(([key, value], i) => (
          <input key={`${key}-${i}`} type="hidden" name={key} value={value} />
        ))}
        <input type="hidden" name="sort" value={data.sort} />
        <input type="hidden" name="dir" value={data.dir} />
        <fieldset className={tr.filter}>
          <legend>{t("triage.filter.legend")}</legend>
          {TRIAGE_FLAGS.map((flag) => (
            <label key={flag} className={tr.check}>
              <input
                type="checkbox"
                name="flag"
                value={flag}
                defaultChecked={data.flags.includes(flag)}
              />
              {t(`triage.flags.${flag}`, data.flagValues[flag])}
            </label>
          ))}
          <button type="submit" className={layout.buttonSecondary}>
            {t("triage.filter.apply")}
          </button>
          {data.flags.length > 0 ? (
            <Link to={href({ flag: null, tpage: null })}>{t("triage.filter.clear")}</Link>
          ) : null}
        </fieldset>
      </Form>
      <p role="status" data-testid="triage-count">
        {data.flags.length > 0
          ? t("triage.countFiltered", { count: data.total })
          : t("triage.count", { count: data.total })}
      </p>
      {data.items.length === 0 ? (
        <p className={s.empty}>
          {data.flags.length > 0 ? t("triage.emptyFiltered") : t("triage.empty")}
        </p>
      ) : (
        // On a phone the rows stack as cards under a row of sort links; a table wider than its box scrolls.
        <div
          className={s.tableScroll}
          tabIndex={0}
          role="region"
          aria-label={t("triage.caption", { days: data.days })}
        >
          <table
            className={`${s.table} ${st.stackTable} ${tr.sortHeads}`}
            data-testid="triage-table"
          >
            <caption>{t("triage.caption", { days: data.days })}</caption>
            <thead>
              <tr>
                {COLUMNS.map(({ sort, numeric }) => {
                  const current = data.sort === sort;
                  const dir = current
                    ? data.dir === "asc"
                      ? "desc"
                      : "asc"
                    : FIRST_DIRECTION[sort];
                  return (
                    <th
                      key={sort}
                      scope="col"
                      className={numeric ? tr.number : undefined}
                      aria-sort={
                        current ? (data.dir === "asc" ? "ascending" : "descending") : undefined
                      }
                      data-sort={sort}
                    >
                      <Link
                        to={href({ sort, dir, tpage: null })}
                        className={tr.sortLink}
                        preventScrollReset
                      >
                        {heading(sort)}
                        {current ? (
                          <span aria-hidden="true">{data.dir === "asc" ? " ▲" : " ▼"}</span>
                        ) : null}
                      </Link>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {data.items.map((item) => (
                <tr key={item.patientId} data-testid="triage-row">
                  <th scope="row" data-label={heading("name")}>
                    <Link to={item.href}>{item.name}</Link>
                    {item.fullName ? (
                      <>
                        <br />
                        <span className={tr.muted}>{item.fullName}</span>
                      </>
                    ) : null}
                  </th>
                  <td data-label={heading("lastUpload")} data-col="lastUpload">
                    {item.lastUpload ?? t("triage.noUpload")}
                  </td>
                  <td data-label={heading("days")} data-col="days" className={tr.number}>
                    {item.daysWithData}
                  </td>
                  <Figure label={heading("tir")} col="tir" value={item.tir} />
                  <Figure label={heading("below70")} col="below70" value={item.below70} />
                  <Figure label={heading("below54")} col="below54" value={item.below54} />
                  <Figure label={heading("gmi")} col="gmi" value={item.gmi} />
                  <td data-label={heading("flags")} data-col="flags">
                    {item.flags.length === 0 ? (
                      <span className={tr.muted}>{t("triage.noFlags")}</span>
                    ) : (
                      item.flags.map((flag) => (
                        <span key={flag} className={tr.flag} data-flag={flag}>
                          {t(`triage.flags.${flag}`, data.flagValues[flag])}
                        </span>
                      ))
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        page={data.page}
        pages={data.pages}
        href={(n) => href({ tpage: n })}
        labels={{
          nav: t("triage.pages"),
          back: t("triage.previous"),
          forward: t("triage.next"),
          pageOf: t("triage.pageOf", { page: data.page, pages: data.pages }),
        }}
      />
    </section>
  );
}

/** A percentage cell; "no data" without readings in the window. */
function Figure({ label, col, value }: { label: string; col: string; value: string | null }) {
  const { t } = useTranslation("patients");
  return (
    <td data-label={label} data-col={col} className={tr.number}>
      {value === null ? (
        <span className={tr.muted}>{t("triage.noData")}</span>
      ) : (
        t("triage.percent", { value })
      )}
    </td>
  );
}
