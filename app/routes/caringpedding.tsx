import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CaringMenu, CaringMissing } from "~/components/caring";
import { ConfirmStep, FormMessages } from "~/components/form";
import { Pager } from "~/components/pager";
import { ShareSource, ShareState } from "~/domain/codes";
import { listCaringRequests } from "~/models/read-power-list.server";
import { clientIp } from "~/models/rate-limit.server";
import { caringConfirmQuery, caringPageQuery, caringRequestAction } from "~/schemas/caring";
import { SHARE_PAGE_SIZE } from "~/schemas/read-power";
import {
  deleteCaringRequest,
  requireCaring,
  sendCaringRequestAgain,
} from "~/services/caring-account.server";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/patient-area.css";
import * as pv from "~/styles/patient-view.css";
import * as st from "~/styles/stack-table.css";
import { keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

type Status = "waiting" | "expired" | "refused";

/**
 * `/caringpedding`: the viewer's caring requests not yet accepted: invitations (waiting, expired
 * or refused) and health files the viewer filled in for someone (waiting for the new owner's
 * activation and answer, or refused), 10 a page. Each can be sent again or deleted; deleting asks
 * first (`?confirm=<id>`, a page step that works without JavaScript).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user, missing } = await requireCaring(request);
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const { page } = caringPageQuery.parse(query);
  const { confirm } = caringConfirmQuery.parse(query);
  const deleted = query.deleted === "1";
  if (missing.length) return { missing, page, count: 0, items: [], confirm: null, deleted };
  const list = await listCaringRequests(user, { page });
  const items = list.data.map((item) => ({
    id: item.readPowerId,
    name: item.nickName || item.name,
    email: item.email,
    kind: item.sourceType === ShareSource.Created ? ("created" as const) : ("invitation" as const),
    status: (item.state === ShareState.Refused
      ? "refused"
      : item.state === ShareState.Invalid
        ? "expired"
        : "waiting") as Status,
    active: item.active,
  }));
  const confirming = items.find((item) => item.id === confirm) ?? null;
  return { missing, page, count: list.count, items, confirm: confirming, deleted };
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, locale, missing } = await requireCaring(request);
  if (missing.length) throw new Response("Forbidden", { status: 403 });
  const parsed = caringRequestAction.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success)
    return data(
      { notice: null, errors: parsed.error.issues.map((i) => `sharing:${i.message}`) },
      { status: 400 },
    );
  const { intent, id } = parsed.data;
  if (intent === "delete") {
    const done = await deleteCaringRequest(user, id);
    if (done.ok) return redirect("/caringpedding?deleted=1");
    return data({ notice: null, errors: [done.error] }, { status: done.status });
  }
  const done = await sendCaringRequestAgain(user, id, { locale, ip: clientIp(request) });
  return done.ok
    ? { notice: done.notice, errors: [] as string[] }
    : data({ notice: null, errors: [done.error] }, { status: done.status });
}

export default function CaringPending() {
  const { t } = useTranslation("caring");
  const { missing, page, count, items, confirm, deleted } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const pages = Math.max(1, Math.ceil(count / SHARE_PAGE_SIZE));
  const here = (n: number) => (n > 1 ? `/caringpedding?page=${n}` : "/caringpedding");
  return (
    <section className={`${s.card} ${pv.section}`} aria-labelledby="pending-title">
      <h1 id="pending-title">{t("pending.title")}</h1>
      <CaringMenu />
      {missing.length ? (
        <CaringMissing missing={missing} />
      ) : (
        <>
          <p>{t("pending.intro")}</p>
          <FormMessages
            errors={actionData?.errors}
            notice={actionData?.notice ?? (deleted ? "caring:pending.deleted" : null)}
            ns="common"
          />
          {confirm ? (
            <ConfirmStep
              id="delete-title"
              message={t("pending.deleteConfirm", { name: confirm.name })}
              intent="delete"
              fields={{ id: String(confirm.id) }}
              confirm={t("pending.deleteYes")}
              cancel={t("pending.deleteNo")}
              cancelTo={here(page)}
              busy={busy}
            />
          ) : null}
          {items.length === 0 ? (
            <p>
              {count > 0 ? t("pending.pageEmpty") : t("pending.empty")}{" "}
              <Link to="/caringadd">{t("menu.add")}</Link>
            </p>
          ) : (
            <table className={`${p.table} ${st.stackTable}`} aria-labelledby="pending-title">
              <thead>
                <tr>
                  <th className={p.nameCell}>{t("patients.name")}</th>
                  <th className={p.cell}>{t("patients.email")}</th>
                  <th className={p.cell}>{t("pending.kind")}</th>
                  <th className={p.cell}>{t("pending.status")}</th>
                  <th className={p.cell}>{t("pending.actions")}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={item.id}>
                    <th scope="row" className={p.nameCell} data-label={t("patients.name")}>
                      {item.name}
                    </th>
                    <td className={p.cell} data-label={t("patients.email")}>
                      {item.email}
                    </td>
                    <td className={p.cell} data-label={t("pending.kind")}>
                      {t(`pending.kinds.${item.kind}`)}
                    </td>
                    <td className={p.cell} data-label={t("pending.status")}>
                      {t(`sharing:status.${item.status}`)}
                      {item.kind === "created" && !item.active ? (
                        <>
                          <br />
                          {t("pending.notActivated")}
                        </>
                      ) : null}
                    </td>
                    <td className={p.cell} data-label={t("pending.actions")}>
                      <div className={s.actions}>
                        {item.kind === "created" &&
                        item.status === "waiting" &&
                        item.active ? null : (
                          <Form method="post">
                            <input type="hidden" name="id" value={item.id} />
                            <button
                              type="submit"
                              name="intent"
                              value="sendAgain"
                              className={s.buttonSecondary}
                              disabled={busy}
                              aria-label={`${t(sendAgainKey(item))}: ${item.name}`}
                            >
                              {t(sendAgainKey(item))}
                            </button>
                          </Form>
                        )}
                        <Link
                          to={`${here(page)}${page > 1 ? "&" : "?"}confirm=${item.id}`}
                          className={s.buttonSecondary}
                          aria-label={`${t("pending.delete")}: ${item.name}`}
                        >
                          {t("pending.delete")}
                        </Link>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pager
            page={page}
            pages={pages}
            href={here}
            labels={{
              nav: t("pending.pages"),
              back: t("sharing:panel.previous"),
              forward: t("sharing:panel.next"),
              pageOf: t("sharing:panel.pageOf", { page, pages }),
            }}
          />
        </>
      )}
    </section>
  );
}

/** The words of "send again" for a request: a made record not yet activated gets its activation email again. */
function sendAgainKey(item: { kind: "created" | "invitation"; status: Status; active: boolean }) {
  return item.kind === "created" && item.status === "waiting" && !item.active
    ? "pending.sendActivation"
    : "pending.sendAgain";
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** With JavaScript, a lost request keeps the form and what was typed in it. */
export const clientAction = keepFormWhenLost();
export const shouldRevalidate = skipRevalidationWhenLost;
