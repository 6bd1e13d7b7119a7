import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { toGlucoseUnit } from "~/domain/glucose-unit";
import { localDate } from "~/report/day";
import { formatDate, formatDateRange } from "~/report/locale-format";
import { quickRange } from "~/report/quick-ranges";
import { TRIAGE_CATEGORIES } from "~/report/triage";
import { mayTag } from "~/models/clinic-tags.server";
import { paperSizeOf } from "~/models/setting.server";
import { getLocale } from "~/services/locale.server";
import { requireUser } from "~/services/session.server";
import { clinicTriage } from "~/services/triage.server";
import {
  parseSummaryQuery,
  SUMMARY_ONE_PAGE_ROWS,
  summaryClaim,
  summaryParams,
} from "~/services/triage-print.server";
import * as tr from "~/styles/triage-print.css";
import { errorPageAnswer } from "~/utils/error-page";
import { displayName } from "~/utils/names";
import { cssPageSize } from "~/utils/paper-size";
import { verifyRenderToken } from "~/utils/render-token.server";

/**
 * `/triageprint?period&cat&tag&all`: the one-page summary of an approved clinic's triage view, to
 * print on a portrait page of the clinic's paper size (A4 or US Letter): the count of each
 * category and, category by category, the most urgent patients in one compact row each (name,
 * time in range and its change, below 70 and 54, above 180, wear, GMI, tags), as many as fit one
 * page; how many more there are, and a link to print every patient (`all=1`: the list continues
 * on the next pages with the column heads repeated). Every patient printed is one access-log read
 * (`read:triage`), channel `pdf` when the page is the rendering of `/triageprint.pdf` (its render
 * token), else `page`. Anyone but an approved clinic: 404.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!mayTag(user)) throw errorPageAnswer(404);
  const url = new URL(request.url);
  const query = parseSummaryQuery(url.searchParams);
  const token = url.searchParams.get("render");
  const rendering = token !== null && verifyRenderToken(token, summaryClaim(user, query));
  const locale = await getLocale(request);
  const now = Date.now();
  const zone = user.setting?.timeZone ?? "UTC";
  const paperSize = await paperSizeOf(user.id);
  const list = (await clinicTriage(user, query, {
    unit: toGlucoseUnit(user.setting?.unit),
    locale,
    now,
    pageSize: query.everyPatient ? null : SUMMARY_ONE_PAGE_ROWS,
    channel: rendering ? "pdf" : "page",
  }))!;
  const range = quickRange(query.period, zone, now);
  return {
    list,
    clinic: displayName(user),
    range: formatDateRange(range.start, range.end, locale),
    printed: formatDate(localDate(now, zone), locale),
    print: url.searchParams.get("print") === "1",
    pageSize: cssPageSize(paperSize, "portrait"),
    params: summaryParams(query).toString(),
    everyPatientParams: summaryParams({ ...query, everyPatient: true }).toString(),
    onePageParams: summaryParams({ ...query, everyPatient: false }).toString(),
    everyPatient: query.everyPatient,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: `${data.clinic} – ${data.range}` }] : [];

export default function TriagePrint() {
  const { t } = useTranslation("triage");
  const { t: tp } = useTranslation("patients");
  const {
    list,
    clinic,
    range,
    printed,
    print,
    pageSize,
    params,
    everyPatientParams,
    onePageParams,
    everyPatient,
  } = useLoaderData<typeof loader>();
  const left = list.total - list.items.length;
  const unit = tp(`common:units.${list.unit}`);
  const tagName = list.tag === null ? null : list.tags.find((tag) => tag.id === list.tag)?.name;
  const percent = (value: string | null) =>
    value === null ? "–" : tp("triage.percent", { value });
  const shown = list.category ? [list.category] : TRIAGE_CATEGORIES;
  return (
    <article className={tr.summary} data-testid="triage-summary">
      <style>{`@page { size: ${pageSize}; margin: 10mm; }`}</style>
      {print ? null : (
        <p className={tr.controls} data-print-hide>
          <Link to={`/patientShow/patients?${params}`}>{t("print.back")}</Link>
          <a href={`/triageprint.pdf?${params}`} download>
            {t("print.pdf")}
          </a>
          <span>{t("print.howTo")}</span>
        </p>
      )}
      <header className={tr.head}>
        <h1>{t("print.title", { count: list.period })}</h1>
        <p>
          {t("print.subtitle", { clinic, range, printed })}
          {list.category ? ` · ${t(`categories.${list.category}`)}` : ""}
          {tagName ? ` · ${t("filter.tag")}: ${tagName}` : ""}
        </p>
      </header>
      <table className={tr.counts} data-testid="summary-counts">
        <caption>{t("counts.title", { count: list.period })}</caption>
        <tbody>
          <tr>
            {TRIAGE_CATEGORIES.map((c) => (
              <th key={c} scope="col">
                {t(`categories.${c}`)}
              </th>
            ))}
          </tr>
          <tr>
            {TRIAGE_CATEGORIES.map((c) => (
              <td key={c} data-category={c}>
                {list.counts[c]}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
      {list.items.length === 0 ? <p>{tp("triage.emptyFiltered")}</p> : null}
      {left > 0 ? (
        <p className={tr.more} data-testid="summary-more">
          {t("print.mostUrgent", { shown: list.items.length, count: list.total })}{" "}
          {print ? null : (
            <Link to={`/triageprint?${everyPatientParams}`} data-print-hide>
              {t("print.everyPatient", { total: list.total })}
            </Link>
          )}
        </p>
      ) : null}
      {everyPatient && !print ? (
        <p className={tr.controls} data-print-hide>
          <Link to={`/triageprint?${onePageParams}`}>{t("print.onePage")}</Link>
        </p>
      ) : null}
      {list.items.length === 0 ? null : (
        <table className={tr.rows}>
          <thead>
            <tr>
              <th scope="col">{tp("triage.columns.name")}</th>
              <th scope="col">
                {tp("triage.columns.tir", { low: list.bands.low, high: list.bands.high, unit })}
              </th>
              <th scope="col">{t("columns.change", { count: list.period })}</th>
              <th scope="col">{tp("triage.columns.below", { limit: list.bands.low, unit })}</th>
              <th scope="col">{tp("triage.columns.below", { limit: list.bands.veryLow, unit })}</th>
              <th scope="col">{t("columns.above", { limit: list.bands.high, unit })}</th>
              <th scope="col">{t("columns.wear")}</th>
              <th scope="col">{tp("triage.columns.gmi")}</th>
              <th scope="col">{t("columns.tags")}</th>
            </tr>
          </thead>
          {shown.map((category) => {
            const items = list.items.filter((i) => i.category === category);
            if (items.length === 0) return null;
            const inCategory = list.counts[category];
            return (
              <tbody key={category} data-category={category}>
                <tr>
                  <th colSpan={9} scope="rowgroup" className={tr.categoryTitle}>
                    {t(`categories.${category}`)} (
                    {items.length < inCategory
                      ? t("print.ofCount", { shown: items.length, count: inCategory })
                      : items.length}
                    )
                  </th>
                </tr>
                {items.map((item) => (
                  <tr key={item.patientId} data-testid="summary-row">
                    <th scope="row">{item.name}</th>
                    <td>{percent(item.tir)}</td>
                    <td>{item.change ?? "–"}</td>
                    <td>{percent(item.below70)}</td>
                    <td>{percent(item.below54)}</td>
                    <td>{percent(item.above180)}</td>
                    <td>{percent(item.wear)}</td>
                    <td>{percent(item.gmi)}</td>
                    <td>{item.tags.map((tag) => tag.name).join(", ")}</td>
                  </tr>
                ))}
              </tbody>
            );
          })}
        </table>
      )}
    </article>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
