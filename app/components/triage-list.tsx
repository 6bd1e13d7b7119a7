import { Form, Link, useNavigation, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Pager } from "~/components/pager";
import { TRIAGE_CATEGORIES, TRIAGE_PERIODS } from "~/report/triage";
import { TAG_NAME_MAX, TAGS_PER_CLINIC } from "~/schemas/clinic-tags";
import { FIRST_DIRECTION, TRIAGE_FLAGS, type TriageSort } from "~/schemas/triage";
import type { TriageList as TriageListData } from "~/services/triage.server";
import * as layout from "~/styles/layout.css";
import * as s from "~/styles/patient-view.css";
import * as st from "~/styles/stack-table.css";
import * as tr from "~/styles/triage.css";

/** The list's own query parameters; the panel's (`tab`, `q`, `page`) are kept beside them. */
const TRIAGE_PARAMS = ["sort", "dir", "flag", "tpage", "tag"] as const;

type Column = { sort: TriageSort; numeric: boolean };
const COLUMNS: readonly Column[] = [
  { sort: "name", numeric: false },
  { sort: "category", numeric: false },
  { sort: "lastUpload", numeric: false },
  { sort: "days", numeric: true },
  { sort: "wear", numeric: true },
  { sort: "tir", numeric: true },
  { sort: "change", numeric: true },
  { sort: "below70", numeric: true },
  { sort: "below54", numeric: true },
  { sort: "above180", numeric: true },
  { sort: "gmi", numeric: true },
  { sort: "flags", numeric: false },
];

/**
 * The clinic's triage view: each patient sharing with the clinic, with the chosen period's
 * figures, category, flags and the clinic's tags. The periods and the category counts are links,
 * the column heads are links that sort (aria-sort names the order), the flag and tag filter is a
 * GET form, the pages are links, and each row's tags are small POST forms, so everything works
 * without JavaScript.
 */
export function TriageList({ data, error }: { data: TriageListData; error?: string | null }) {
  const { t } = useTranslation("patients");
  const { t: tt } = useTranslation("triage");
  const busy = useNavigation().state === "submitting";
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
      case "above180":
        return tt("columns.above", { limit: data.bands.high, unit });
      case "category":
      case "wear":
        return tt(`columns.${sort}`);
      case "change":
        return tt("columns.change", { count: data.days });
      default:
        return t(`triage.columns.${sort}`);
    }
  };
  // Hidden fields carry everything but the filter itself, so that applying it keeps the order and the panel.
  const kept = [...params.entries()].filter(
    ([key]) => !(TRIAGE_PARAMS as readonly string[]).includes(key),
  );

  const categoryRule = (category: (typeof TRIAGE_CATEGORIES)[number]) => {
    const values = data.categoryValues[category];
    const limit =
      category === "veryLow"
        ? data.bands.veryLow
        : category === "low"
          ? data.bands.low
          : category === "veryHigh"
            ? data.bands.veryHigh
            : data.bands.high;
    return tt(`rules.${category}`, { ...values, limit, unit, count: data.days });
  };
  const allCount = TRIAGE_CATEGORIES.reduce((sum, c) => sum + data.counts[c], 0);
  const printQuery = new URLSearchParams({ period: String(data.period) });
  if (data.category) printQuery.set("cat", data.category);
  if (data.tag !== null) printQuery.set("tag", String(data.tag));

  return (
    <section className={s.section} aria-labelledby="triage-title" data-testid="triage">
      <h2 id="triage-title">{t("triage.title", { count: data.days })}</h2>
      <p className={s.note}>{t("triage.intro", { count: data.days })}</p>
      <nav aria-label={tt("period.legend")} className={tr.choices} data-testid="triage-periods">
        <span className={tr.choicesLabel}>{tt("period.legend")}</span>
        {TRIAGE_PERIODS.map((days) => (
          <Link
            key={days}
            to={href({ period: days === 14 ? null : days, tpage: null })}
            aria-current={days === data.period ? "page" : undefined}
            className={tr.choice}
            preventScrollReset
          >
            {tt("period.days", { count: days })}
          </Link>
        ))}
      </nav>
      <nav aria-labelledby="triage-counts-title" data-testid="triage-counts">
        <h3 id="triage-counts-title" className={tr.countsTitle}>
          {tt("counts.title", { count: data.days })}
        </h3>
        <ul className={tr.counts}>
          <li>
            <Link
              to={href({ cat: null, tpage: null })}
              aria-current={data.category === null ? "page" : undefined}
              className={tr.countLink}
              data-category="all"
              preventScrollReset
            >
              <span className={tr.countNumber}>{allCount}</span> {tt("counts.all")}
            </Link>
          </li>
          {TRIAGE_CATEGORIES.map((category) => (
            <li key={category}>
              <Link
                to={href({ cat: category, tpage: null })}
                aria-current={data.category === category ? "page" : undefined}
                className={tr.countLink}
                data-category={category}
                title={categoryRule(category)}
                preventScrollReset
              >
                <span className={tr.countNumber}>{data.counts[category]}</span>{" "}
                {tt(`categories.${category}`)}
              </Link>
            </li>
          ))}
        </ul>
        <p className={tr.muted}>
          {tt("counts.rule")}{" "}
          {TRIAGE_CATEGORIES.map((c) => `${tt(`categories.${c}`)}: ${categoryRule(c)}`).join("; ")}.
        </p>
      </nav>
      <p className={tr.links} data-print-hide>
        <Link to={`/triageprint?${printQuery}`}>{tt("print.link")}</Link>
        <a href={`/triageprint.pdf?${printQuery}`} download>
          {tt("print.pdf")}
        </a>
        <Link to="/patientShow/tags">{tt("tags.manage")}</Link>
      </p>
      {error ? (
        <p role="alert" className={tr.error}>
          {tt(error, { max: TAGS_PER_CLINIC, length: TAG_NAME_MAX })}
        </p>
      ) : null}
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
          {data.tags.length > 0 ? (
            <label className={tr.check}>
              {tt("filter.tag")}
              <select name="tag" defaultValue={data.tag ?? ""}>
                <option value="">{tt("filter.anyTag")}</option>
                {data.tags.map((tag) => (
                  <option key={tag.id} value={tag.id}>
                    {tag.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <button type="submit" className={layout.buttonSecondary}>
            {t("triage.filter.apply")}
          </button>
          {data.flags.length > 0 || data.tag !== null ? (
            <Link to={href({ flag: null, tag: null, tpage: null })}>
              {t("triage.filter.clear")}
            </Link>
          ) : null}
        </fieldset>
      </Form>
      <p role="status" data-testid="triage-count">
        {data.flags.length > 0 || data.category !== null || data.tag !== null
          ? t("triage.countFiltered", { count: data.total })
          : t("triage.count", { count: data.total })}
      </p>
      {data.items.length === 0 ? (
        <p className={s.empty}>
          {data.flags.length > 0 || data.category !== null || data.tag !== null
            ? t("triage.emptyFiltered")
            : t("triage.empty")}
        </p>
      ) : (
        // On a phone the rows stack as cards under a row of sort links; a table wider than its box scrolls.
        <div
          className={s.tableScroll}
          tabIndex={0}
          role="region"
          aria-label={t("triage.caption", { count: data.days })}
        >
          <table
            className={`${s.table} ${st.stackTable} ${tr.sortHeads}`}
            data-testid="triage-table"
          >
            <caption>{t("triage.caption", { count: data.days })}</caption>
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
                <th scope="col">{tt("columns.tags")}</th>
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
                  <td data-label={heading("category")} data-col="category">
                    <span className={tr.category} data-category={item.category}>
                      {tt(`categories.${item.category}`)}
                    </span>
                  </td>
                  <td data-label={heading("lastUpload")} data-col="lastUpload">
                    {item.lastUpload ?? t("triage.noUpload")}
                  </td>
                  <td data-label={heading("days")} data-col="days" className={tr.number}>
                    {item.daysWithData}
                  </td>
                  <td data-label={heading("wear")} data-col="wear" className={tr.number}>
                    {t("triage.percent", { value: item.wear })}
                  </td>
                  <Figure label={heading("tir")} col="tir" value={item.tir} />
                  <td data-label={heading("change")} data-col="change" className={tr.number}>
                    {item.change === null ? (
                      <span className={tr.muted}>{t("triage.noData")}</span>
                    ) : (
                      item.change
                    )}
                  </td>
                  <Figure label={heading("below70")} col="below70" value={item.below70} />
                  <Figure label={heading("below54")} col="below54" value={item.below54} />
                  <Figure label={heading("above180")} col="above180" value={item.above180} />
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
                  <td data-label={tt("columns.tags")} data-col="tags">
                    <RowTags item={item} tags={data.tags} busy={busy} />
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

/**
 * A row's tags: each with a button that removes it, and a choice of the clinic's other tags with
 * a button that adds one (POST forms to the list's own address, which answers with the same list).
 */
function RowTags({
  item,
  tags,
  busy,
}: {
  item: TriageListData["items"][number];
  tags: TriageListData["tags"];
  busy: boolean;
}) {
  const { t } = useTranslation("triage");
  const onRow = new Set(item.tags.map((tag) => tag.id));
  const free = tags.filter((tag) => !onRow.has(tag.id));
  return (
    <div className={tr.tags}>
      {item.tags.map((tag) => (
        <Form method="post" key={tag.id} className={tr.tagForm} preventScrollReset>
          <input type="hidden" name="tagId" value={tag.id} />
          <input type="hidden" name="patientId" value={item.patientId} />
          <span className={tr.tag} data-tag={tag.name}>
            {tag.name}
          </span>
          <button
            type="submit"
            name="intent"
            value="detach"
            className={tr.tagRemove}
            aria-label={t("tags.detach", { tag: tag.name, name: item.name })}
            disabled={busy}
          >
            ×
          </button>
        </Form>
      ))}
      {free.length > 0 ? (
        <Form method="post" className={tr.tagForm} preventScrollReset>
          <input type="hidden" name="patientId" value={item.patientId} />
          <select name="tagId" aria-label={t("tags.attachLabel", { name: item.name })}>
            {free.map((tag) => (
              <option key={tag.id} value={tag.id}>
                {tag.name}
              </option>
            ))}
          </select>
          <button
            type="submit"
            name="intent"
            value="attach"
            className={layout.buttonSecondary}
            aria-label={t("tags.attachButton", { name: item.name })}
            disabled={busy}
          >
            {t("tags.attach")}
          </button>
        </Form>
      ) : null}
    </div>
  );
}
