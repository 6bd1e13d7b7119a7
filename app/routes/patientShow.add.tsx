import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigate,
  useNavigation,
  useSearchParams,
} from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { Drawer } from "~/components/drawer";
import { FormMessages } from "~/components/form";
import { IdentityIcon } from "~/components/icons";
import { Pager } from "~/components/pager";
import { ADD_USER_LINK_ID } from "~/components/patient-panel";
import { ShareMessageField, ShareSearchForm } from "~/components/share-search";
import { useHydrated } from "~/components/use-hydrated";
import { Identity, ShareState } from "~/domain/codes";
import {
  listSentRequests,
  searchShareCandidates,
  type ShareCandidate,
} from "~/models/read-power-list.server";
import { invitePatient, shareWith } from "~/models/read-power-request.server";
import {
  findShareListQuery,
  inviteSchema,
  saveShareSchema,
  sentListQuery,
  SHARE_PAGE_SIZE,
} from "~/schemas/read-power";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/patient-area.css";
import { requireUser } from "~/services/session.server";
import { formError, refusalInit } from "~/services/throttle-response.server";
import { keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

const EMAIL_SHOWN = 18;
/** What the list beside the drawer keeps when the drawer opens and closes: its tab and search. */
const LIST_PARAMS = ["tab", "q"] as const;

/**
 * The "add share" (identity 1) and "add invite" (identity 2) drawer: search a user by their whole
 * email, then share or invite; below, the viewer's own shares or invitations, 10 a page
 * (`sentPage`), each with its answer, and "share again" / "invite again" for a refused or
 * expired one. With JavaScript it is a drawer over the list, without it a
 * page; the address is the same. Too many searches answer 429 with Retry-After.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const { sentPage } = sentListQuery.parse({ sentPage: params.get("sentPage") ?? undefined });
  const sentList = await listSentRequests(user, { page: sentPage });
  const sent = {
    page: sentPage,
    total: sentList.count,
    items: sentList.data.map((item) => ({
      ...item,
      status:
        item.state === ShareState.Accepted
          ? "accepted"
          : item.state === ShareState.Refused
            ? "refused"
            : item.state === ShareState.Invalid
              ? "expired"
              : "waiting",
    })),
  };
  const base = {
    identity: user.identity,
    sent,
    find: params.get("find") ?? "",
    searched: false,
    results: [] as ShareCandidate[],
    count: 0,
    errors: [] as string[],
  };
  if (!params.has("find")) return base;
  const parsed = findShareListQuery(user.identity).safeParse({
    searchOption: params.get("find"),
    pageNum: params.get("findPage") ?? undefined,
  });
  if (!parsed.success)
    return { ...base, errors: parsed.error.issues.map((i) => `sharing:${i.message}`) };
  const found = await searchShareCandidates(user, {
    search: parsed.data.searchOption,
    page: parsed.data.pageNum,
  });
  const answer = {
    ...base,
    find: parsed.data.searchOption,
    searched: found.ok,
    results: found.ok ? found.data.data : [],
    count: found.ok ? found.data.count : 0,
    errors: found.ok ? [] : [formError(found)],
  };
  return found.ok ? answer : data(answer, refusalInit(found, found.status));
}

const intentSchema = z.object({ intent: z.enum(["share", "invite"]) });

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = Object.fromEntries(await request.formData());
  const intent = intentSchema.safeParse(form);
  if (!intent.success) throw new Response("Bad Request", { status: 400 });
  const parsed =
    intent.data.intent === "share" ? saveShareSchema.safeParse(form) : inviteSchema.safeParse(form);
  if (!parsed.success)
    return data(
      { notice: null, errors: parsed.error.issues.map((i) => `sharing:${i.message}`) },
      { status: 400 },
    );
  const result =
    intent.data.intent === "share"
      ? await shareWith(user, parsed.data as z.infer<typeof saveShareSchema>)
      : await invitePatient(user, parsed.data as z.infer<typeof inviteSchema>);
  if (!result.ok) return data({ notice: null, errors: [result.error] }, { status: result.status });
  return {
    notice:
      intent.data.intent === "share"
        ? "sharing:messages.shareSuccess"
        : "sharing:messages.inviteSuccess",
    errors: [] as string[],
  };
}

function shortEmail(email: string) {
  return email.length > EMAIL_SHOWN ? `${email.slice(0, EMAIL_SHOWN)}…` : email;
}

/** The list's address with the list's own parameters of `params`. */
function listHref(params: URLSearchParams) {
  const kept = new URLSearchParams();
  for (const key of LIST_PARAMS) if (params.get(key)) kept.set(key, params.get(key)!);
  const query = kept.toString();
  return `/patientShow/patients${query ? `?${query}` : ""}`;
}

function AddUser() {
  const { t } = useTranslation("sharing");
  const { identity, find, searched, results, errors, sent } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state === "submitting";
  const sharing = identity === Identity.Person;
  const pages = Math.max(1, Math.ceil(sent.total / SHARE_PAGE_SIZE));
  const sentPageHref = (page: number) => {
    const next = new URLSearchParams(params);
    if (page > 1) next.set("sentPage", String(page));
    else next.delete("sentPage");
    const query = next.toString();
    return `/patientShow/add${query ? `?${query}` : ""}`;
  };
  return (
    <>
      <p>{sharing ? t("add.shareIntro") : t("add.inviteIntro")}</p>
      <ShareSearchForm
        action="/patientShow/add"
        label={t("add.searchLabel")}
        placeholder={t("add.searchPlaceholder")}
        find={find}
        errors={errors}
        hidden={Object.fromEntries(
          LIST_PARAMS.flatMap((key) => (params.get(key) ? [[key, params.get(key)!]] : [])),
        )}
      />
      <FormMessages errors={actionData?.errors} notice={actionData?.notice} ns="common" />
      {searched && results.length === 0 ? <p>{t("add.noResults")}</p> : null}
      {results.length ? (
        <Form method="post" className={f.form} aria-busy={busy}>
          <input type="hidden" name="intent" value={sharing ? "share" : "invite"} />
          <ShareMessageField />
          <table className={p.table} aria-label={t("add.results")}>
            <thead>
              <tr>
                <th className={p.nameCell}>{t("add.name")}</th>
                <th className={p.cell}>{t("add.email")}</th>
                <th className={p.cell}>
                  <span className={s.skipLink}>{t("add.identity")}</span>
                </th>
                <th className={p.cell}>{t("add.action")}</th>
              </tr>
            </thead>
            <tbody>
              {results.map((row) => (
                <tr key={row.userId}>
                  <PersonCells name={row.name} email={row.email} />
                  <td className={p.cell}>
                    <IdentityIcon
                      identity={row.identity}
                      label={row.identity === Identity.Person ? t("add.person") : t("add.clinic")}
                    />
                  </td>
                  <td className={p.cell}>
                    {row.readPowerId ? (
                      <button type="button" className={s.buttonSecondary} disabled>
                        {sharing ? t("add.shared") : t("add.invited")}
                      </button>
                    ) : (
                      <button
                        type="submit"
                        name={sharing ? "readId" : "provideId"}
                        value={row.userId}
                        className={s.button}
                        disabled={busy}
                        aria-label={`${sharing ? t("add.share") : t("add.invite")}: ${row.name}`}
                      >
                        {sharing ? t("add.share") : t("add.invite")}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Form>
      ) : null}
      <section aria-labelledby="sent-title">
        <h2 id="sent-title">{sharing ? t("add.sentShares") : t("add.sentInvites")}</h2>
        {sent.items.length === 0 ? (
          <p>
            {sent.total > 0
              ? t("add.sentPageEmpty")
              : sharing
                ? t("add.noSentShares")
                : t("add.noSentInvites")}
          </p>
        ) : (
          <Form method="post" aria-busy={busy}>
            <input type="hidden" name="intent" value={sharing ? "share" : "invite"} />
            <table className={p.table} aria-labelledby="sent-title">
              <thead>
                <tr>
                  <th className={p.nameCell}>{t("add.name")}</th>
                  <th className={p.cell}>{t("add.email")}</th>
                  <th className={p.cell}>{t("add.status")}</th>
                  <th className={p.cell}>{t("add.action")}</th>
                </tr>
              </thead>
              <tbody>
                {sent.items.map((row) => (
                  <tr key={row.readPowerId}>
                    <PersonCells name={row.name} email={row.email} />
                    <td className={p.cell}>{t(`status.${row.status}`)}</td>
                    <td className={p.cell}>
                      {row.status === "refused" || row.status === "expired" ? (
                        <button
                          type="submit"
                          name={sharing ? "readId" : "provideId"}
                          value={row.userId}
                          className={s.buttonSecondary}
                          disabled={busy}
                          aria-label={`${sharing ? t("add.shareAgain") : t("add.inviteAgain")}: ${row.name}`}
                        >
                          {sharing ? t("add.shareAgain") : t("add.inviteAgain")}
                        </button>
                      ) : (
                        <Link
                          to={`/patientShow/share/${row.readPowerId}`}
                          aria-label={`${t("add.details")}: ${row.name}`}
                        >
                          {t("add.details")}
                        </Link>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Form>
        )}
        <Pager
          page={sent.page}
          pages={pages}
          href={sentPageHref}
          labels={{
            nav: t("add.sentPages"),
            back: t("panel.previous"),
            forward: t("panel.next"),
            pageOf: t("panel.pageOf", { page: sent.page, pages }),
          }}
        />
      </section>
    </>
  );
}

export default function AddShare() {
  const { t } = useTranslation("sharing");
  const { identity } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const title = identity === Identity.Person ? t("add.shareTitle") : t("add.inviteTitle");
  const back = listHref(params);
  if (hydrated) {
    return (
      <Drawer
        title={title}
        closeLabel={t("add.close")}
        onClose={() => navigate(back)}
        returnFocusTo={ADD_USER_LINK_ID}
      >
        <AddUser />
      </Drawer>
    );
  }
  return (
    <section className={p.drawer} aria-labelledby="add-title">
      <h1 id="add-title">{title}</h1>
      <AddUser />
      <p>
        <Link to={back}>{t("add.close")}</Link>
      </p>
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** A person's name and email in a row of the drawer's tables (the email shortened, whole in its title). */
function PersonCells({ name, email }: { name: string; email: string }) {
  return (
    <>
      <td className={p.nameCell} title={name}>
        {name}
      </td>
      <td className={p.cell} title={email}>
        {shortEmail(email)}
      </td>
    </>
  );
}

/** With JavaScript, a lost request keeps the form and what was typed in it. */
export const clientAction = keepFormWhenLost();
export const shouldRevalidate = skipRevalidationWhenLost;
