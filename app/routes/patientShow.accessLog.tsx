import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { useTranslation } from "react-i18next";
import { Identity } from "~/domain/codes";
import { cursorParam, pageHref } from "~/domain/keyset";
import { listAccessToMyData } from "~/models/audit-log.server";
import { formatDateRange } from "~/report/locale-format";
import { getLocale } from "~/services/locale.server";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/patient-area.css";
import * as st from "~/styles/stack-table.css";
import { requireUser } from "~/services/session.server";
import { Pager } from "~/components/pager";

const PAGE_SIZE = 20;
const query = z.object({
  logPage: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  after: cursorParam,
  before: cursorParam,
});

/**
 * "Who viewed my data": the access log of the signed-in person's own record, newest first, 20 a
 * page; the links to the neighbouring pages carry the edge entry's key (keyset paging). Times are written on the server on the clock of the record's time zone, so the page reads
 * the same before and after hydration in any browser.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (user.identity !== Identity.Person) throw new Response("Forbidden", { status: 403 });
  const { logPage, after, before } = query.parse(
    Object.fromEntries(new URL(request.url).searchParams),
  );
  return listAccessToMyData(user.id, {
    page: logPage,
    after,
    before,
    pageSize: PAGE_SIZE,
    locale: await getLocale(request),
  });
}

export default function AccessLog() {
  const { t, i18n } = useTranslation("sharing");
  const { items, page, pages, timeZone, first, last } = useLoaderData<typeof loader>();
  return (
    <section className={s.card} aria-labelledby="log-title">
      <h1 id="log-title">{t("accessLog.title")}</h1>
      <p>{t("accessLog.intro")}</p>
      {items.length === 0 ? (
        <p>{t("accessLog.empty")}</p>
      ) : (
        <div className={st.stackContainer}>
          <table className={`${p.table} ${st.stackTable}`}>
            <thead>
              <tr>
                <th className={p.cell}>
                  {timeZone ? t("accessLog.whenIn", { zone: timeZone }) : t("accessLog.when")}
                </th>
                <th className={p.cell}>{t("accessLog.who")}</th>
                <th className={p.cell}>{t("accessLog.what")}</th>
                <th className={p.cell}>{t("accessLog.dates")}</th>
                <th className={p.cell}>{t("accessLog.how")}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id} data-testid="access-log-entry">
                  <td className={p.cell} data-label={t("accessLog.when")}>
                    <time dateTime={item.at}>{item.when}</time>
                  </td>
                  <td className={p.cell} data-label={t("accessLog.who")}>
                    {item.who ?? t("accessLog.deletedAccount")}
                    {item.role ? <span className={p.itemMeta}> · {t(item.role)}</span> : null}
                  </td>
                  <td className={p.cell} data-label={t("accessLog.what")}>
                    {t(item.what)}
                  </td>
                  <td className={p.cell} data-label={t("accessLog.dates")}>
                    {item.range
                      ? formatDateRange(item.range.start, item.range.end, i18n.language)
                      : ""}
                  </td>
                  <td className={p.cell} data-label={t("accessLog.how")}>
                    {item.channel ? t(`accessLog.channels.${item.channel}`) : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        page={page}
        pages={pages}
        href={(n) => pageHref("logPage", page, n, { first, last })}
        labels={{
          nav: t("panel.pages"),
          back: t("panel.previous"),
          forward: t("panel.next"),
          pageOf: t("panel.pageOf", { page, pages }),
        }}
      />
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
