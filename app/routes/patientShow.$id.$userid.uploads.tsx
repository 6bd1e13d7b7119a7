import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { useTranslation } from "react-i18next";
import { formatQuantity } from "~/report/units";
import { patientLinks } from "~/components/patient-view/links";
import { PatientPageHeader, PatientTabs } from "~/components/patient-view/patient-tabs";
import { Notice } from "~/components/patient-view/parts";
import { tabsFor } from "~/services/patient-view.server";
import { pageHref } from "~/domain/keyset";
import { idParam } from "~/schemas/fields";
import { uploadHistoryQuery } from "~/schemas/patient-view";
import { readPatient } from "~/services/patient-read.server";
import { uploadHistory, type UploadHistoryItem } from "~/services/upload-history.server";
import * as layout from "~/styles/layout.css";
import * as s from "~/styles/patient-view.css";
import * as st from "~/styles/stack-table.css";
import { getLocale } from "~/services/locale.server";
import { displayName } from "~/utils/names";
import { requireUser } from "~/services/session.server";
import { Pager } from "~/components/pager";

const params = z.object({ id: idParam, userid: idParam });

/**
 * A patient's upload history, newest first, 20 to a page (the links to the neighbouring pages
 * carry the edge upload's key: keyset paging): for the patient and the readers the
 * patient shares with; anyone else gets a 404. Every view is a read in the patient's access log.
 */
export async function loader({ request, params: raw }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const parsed = params.safeParse(raw);
  if (!parsed.success) throw new Response("Not Found", { status: 404 });
  const { page, after, before } = uploadHistoryQuery.parse(
    Object.fromEntries(new URL(request.url).searchParams),
  );
  const read = await readPatient({
    viewer,
    pid: parsed.data.id,
    userId: parsed.data.userid,
    purpose: "uploads",
    channel: "page",
    detail: { page },
  });
  if (!read.ok) throw new Response("Not Found", { status: 404 });
  const { patient } = read;
  const locale = await getLocale(request);
  return {
    links: patientLinks(patient),
    name: displayName(patient.user),
    own: patient.userId === viewer.id,
    timeZone: patient.timeZone,
    tabs: tabsFor(locale),
    history: await uploadHistory(viewer, patient, { page, after, before }, locale),
  };
}

export default function Uploads() {
  const { t } = useTranslation("views");
  const { t: tp } = useTranslation("patients");
  const data = useLoaderData<typeof loader>();
  const { items, page, pages, first, last } = data.history;
  return (
    <article className={layout.card} aria-labelledby="patient-title">
      <PatientPageHeader title={data.own ? tp("myHome") : data.name} />
      <PatientTabs links={data.links} tabs={data.tabs} current="uploads" date={null} />
      <section className={s.section} aria-labelledby="uploads-heading">
        <h2 id="uploads-heading">{t("uploads.title")}</h2>
        <p className={s.note}>{t("uploads.intro", { zone: data.timeZone })}</p>
        {items.length === 0 ? (
          <Notice kind="empty">{t("uploads.empty")}</Notice>
        ) : (
          // Up to a tablet's width the rows stack as cards; a table still wider than its box scrolls, and the keyboard reaches the scrolling region too.
          <div
            className={s.tableScroll}
            tabIndex={0}
            role="region"
            aria-label={t("uploads.caption")}
          >
            <table className={`${s.table} ${st.stackTableWide}`} data-testid="upload-history">
              <caption>{t("uploads.caption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("uploads.columns.when")}</th>
                  <th scope="col">{t("uploads.columns.device")}</th>
                  <th scope="col">{t("uploads.columns.channel")}</th>
                  <th scope="col">{t("uploads.columns.operator")}</th>
                  <th scope="col">{t("uploads.columns.dates")}</th>
                  <th scope="col">{t("uploads.columns.records")}</th>
                  <th scope="col">{t("uploads.columns.status")}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <UploadRow key={item.id} item={item} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager
          page={page}
          pages={pages}
          href={(n) => pageHref("page", page, n, { first, last })}
          labels={{
            nav: t("uploads.pages"),
            back: t("uploads.newer"),
            forward: t("uploads.older"),
            pageOf: t("uploads.pageOf", { page, pages }),
          }}
        />
      </section>
    </article>
  );
}

/** What an upload did with its records, in the order the page lists them. */
const COUNTS = ["added", "duplicates", "flagged", "skipped", "dstAdjusted"] as const;

function UploadRow({ item }: { item: UploadHistoryItem }) {
  const { t, i18n } = useTranslation("views");
  const label = (
    column: "when" | "device" | "channel" | "operator" | "dates" | "records" | "status",
  ) => t(`uploads.columns.${column}`);
  return (
    <tr>
      <th scope="row" data-label={label("when")}>
        {item.when}
      </th>
      <td data-label={label("device")}>
        {t(`uploads.kinds.${item.deviceKind}`)}
        <br />
        <small>{t("uploads.serial", { serial: item.deviceSn })}</small>
        {item.otherPatientDevice ? (
          <p className={s.uploadWarning} role="note">
            <span aria-hidden="true">⚠ </span>
            {t("uploads.otherPatientDevice")}
          </p>
        ) : null}
      </td>
      <td data-label={label("channel")}>{t(`uploads.channels.${item.channel}`)}</td>
      <td data-label={label("operator")}>
        {item.operator.you ? t("uploads.you") : item.operator.name}
      </td>
      <td data-label={label("dates")}>{item.dates ?? "—"}</td>
      <td data-label={label("records")}>
        <dl className={s.counts}>
          {COUNTS.map((count) => (
            <div key={count} className={s.count}>
              <dt>{t(`uploads.counts.${count}`)}</dt>
              <dd data-count={count}>{formatQuantity(item[count], i18n.language)}</dd>
            </div>
          ))}
        </dl>
      </td>
      <td data-label={label("status")}>
        {t(`uploads.status.${item.status}`)}
        {item.status === "done" && item.added === 0 ? (
          <>
            <br />
            <small>{t("upload:noNewRecords")}</small>
          </>
        ) : null}
        {item.failure ? (
          <>
            <br />
            <small>{t(`upload:${item.failure.key}`, item.failure.values)}</small>
          </>
        ) : null}
      </td>
    </tr>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
