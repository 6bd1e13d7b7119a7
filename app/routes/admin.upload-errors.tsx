import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { listUploadErrors } from "~/models/upload-error-log.server";
import { MESSAGES, wholeNumber } from "~/schemas/fields";
import * as a from "~/styles/admin.css";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/patient-area.css";
import { requireStaff } from "~/services/session.server";
import { Pager } from "~/components/pager";
import { formatDateTime } from "~/report/locale-format";
import { getLocale } from "~/services/locale.server";
import { accountZone } from "~/utils/time-zones";

const PAGE_SIZE = 50;
const query = z.object({ page: wholeNumber(MESSAGES.invalid, { min: 1 }).catch(1) });

/**
 * The upload wizard's error reports for admins and editors: newest first, 50 a page. Each time is
 * written on the server, to the second, on the clock of the reader's own zone (the zone of their
 * account), so that the page reads the same before and after hydration in any browser.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const staff = await requireStaff(request);
  const { page } = query.parse(Object.fromEntries(new URL(request.url).searchParams));
  const zone = accountZone(staff);
  const list = await listUploadErrors({ page, pageSize: PAGE_SIZE });
  const locale = await getLocale(request);
  return {
    ...list,
    timeZone: zone,
    items: list.items.map((item) => ({
      ...item,
      when: formatDateTime(Date.parse(item.at), zone, locale, { seconds: true }),
    })),
  };
}

export default function UploadErrors() {
  const { t } = useTranslation("admin");
  const { items, page, pages, total, timeZone } = useLoaderData<typeof loader>();
  return (
    <section className={s.card} aria-labelledby="upload-errors-title">
      <h1 id="upload-errors-title">{t("uploadErrors.title")}</h1>
      <p>{t("uploadErrors.intro", { total })}</p>
      {items.length === 0 ? (
        <p>{t("uploadErrors.empty")}</p>
      ) : (
        <table className={p.table}>
          <thead>
            <tr>
              <th className={p.cell}>{t("uploadErrors.when", { zone: timeZone })}</th>
              <th className={p.cell}>{t("uploadErrors.operator")}</th>
              <th className={p.cell}>{t("uploadErrors.patient")}</th>
              <th className={p.cell}>{t("uploadErrors.content")}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id}>
                <td className={a.topCell}>
                  <time dateTime={item.at}>{item.when}</time>
                </td>
                <td className={a.topCell}>
                  {item.operatorEmail ?? t("uploadErrors.deletedAccount")}
                </td>
                <td className={a.topCell}>
                  {item.patientUserId === null
                    ? ""
                    : (item.patientEmail ?? t("uploadErrors.deletedAccount"))}
                </td>
                <td className={a.topCell}>
                  <pre className={a.report}>{item.content}</pre>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        page={page}
        pages={pages}
        href={(n) => `?page=${n}`}
        labels={{
          nav: t("uploadErrors.pages"),
          back: t("uploadErrors.previous"),
          forward: t("uploadErrors.next"),
          pageOf: t("uploadErrors.pageOf", { page, pages }),
        }}
      />
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
