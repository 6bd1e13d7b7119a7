import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { PatientPanel, type PanelItem } from "~/components/patient-panel";
import { Identity, ShareState } from "~/domain/codes";
import {
  listSharedWithMeEntries,
  listSharedWithOthers,
  type PatientListEntry,
} from "~/models/read-power-list.server";
import { recipientOf } from "~/models/read-power.server";
import { formatDate } from "~/report/locale-format";
import * as s from "~/styles/patient-area.css";
import { getLocale } from "~/services/locale.server";
import { requireUser } from "~/services/session.server";
import { skipRevalidationWhenLost } from "~/utils/lost-request";

const query = z.object({
  tab: z.enum(["mine", "others"]).catch("mine"),
  q: z.string().trim().max(100).catch(""),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

/** Where an entry leads: an accepted patient's page for a reader, else the entry's own page. */
function toPanelItem(
  item: PatientListEntry,
  viewerId: number,
  tab: "mine" | "others",
  locale: string,
): PanelItem {
  const readable = tab === "mine" && item.state === ShareState.Accepted && item.pid !== null;
  const status: PanelItem["status"] =
    item.state === ShareState.Accepted
      ? "accepted"
      : item.state === ShareState.Refused
        ? "refused"
        : item.state === ShareState.Invalid
          ? "expired"
          : recipientOf({
                sourceType: item.sourceType,
                providerId: item.provideId,
                readerId: item.readId,
              }) === viewerId
            ? "pending-for-me"
            : "waiting";
  return {
    readPowerId: item.readPowerId,
    name: item.name,
    nickName: item.nickName,
    href: readable
      ? `/patientShow/${item.pid}/${item.userId}/patientHome`
      : `/patientShow/share/${item.readPowerId}`,
    state: item.state,
    isNew: item.isNew,
    uploadIsNew: item.uploadIsNew,
    status,
    lastUpload: readable
      ? { date: item.lastUploadDate ? formatDate(item.lastUploadDate, locale) : null }
      : null,
  };
}

/** The patient area: the left panel and, on the right, the child route. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const parsed = query.parse(Object.fromEntries(new URL(request.url).searchParams));
  const tab = user.identity === Identity.Person ? parsed.tab : "mine";
  const options = { page: parsed.page, search: parsed.q || undefined };
  const list =
    tab === "others"
      ? await listSharedWithOthers(user, options)
      : { ok: true as const, data: await listSharedWithMeEntries(user, options) };
  const page = list.ok ? list.data : { count: 0, data: [] };
  const locale = await getLocale(request);
  return {
    identity: user.identity,
    tab,
    page: parsed.page,
    total: page.count,
    items: page.data.map((item) => toPanelItem(item, user.id, tab, locale)),
  };
}

export default function PatientShow() {
  const data = useLoaderData<typeof loader>();
  // A patient's own pages (/patientShow/{pid}/...) fold the list away where it cannot stand beside them.
  const onPatientPage = /^\/patientShow\/\d+\//.test(useLocation().pathname);
  return (
    <div className={s.area}>
      <PatientPanel
        identity={data.identity}
        tab={data.tab}
        items={data.items}
        total={data.total}
        page={data.page}
        folded={onPatientPage}
      />
      <div className={s.content}>
        <Outlet />
      </div>
    </div>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** A lost form request on a page below keeps that page (see app/utils/lost-request.ts). */
export const shouldRevalidate = skipRevalidationWhenLost;
