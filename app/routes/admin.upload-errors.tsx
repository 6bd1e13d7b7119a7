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

const PAGE_SIZE = 50;
const query = z.object({ page: wholeNumber(MESSAGES.invalid, { min: 1 }).catch(1) });

/** The upload wizard's error reports for admins and editors: newest first, 50 a page. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request);
  const { page } = query.parse(Object.fromEntries(new URL(request.url).searchParams));
  return listUploadErrors({ page, pageSize: PAGE_SIZE });
}

export default function UploadErrors() {
  const { t, i18n } = useTranslation("admin");
  const { items, page, pages, total } = useLoaderData<typeof loader>();
  // UTC, so that the server's and the browser's rendering agree.
  const format = new Intl.DateTimeFormat(i18n.language, {
    dateStyle: "medium",
    timeStyle: "long",
    timeZone: "UTC",
  });
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
              <th className={p.cell}>{t("uploadErrors.when")}</th>
              <th className={p.cell}>{t("uploadErrors.operator")}</th>
              <th className={p.cell}>{t("uploadErrors.patient")}</th>
              <th className={p.cell}>{t("uploadErrors.content")}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id}>
                <td className={a.topCell}>
                  <time dateTime={item.at}>{format.format(new Date(item.at))}</time>
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
