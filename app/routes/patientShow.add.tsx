import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ErrorList, FormMessages } from "~/components/form";
import { IdentityIcon } from "~/components/icons";
import { invitePatient, searchShareCandidates, shareWith } from "~/models/read-power.server";
import { findShareListQuery, inviteSchema, saveShareSchema } from "~/schemas/read-power";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/patient-area.css";
import { requireUser } from "~/utils/session.server";
import { formError, refusalInit } from "~/utils/throttle-response.server";

const EMAIL_SHOWN = 18;

/**
 * The "add share" (identity 1) and "add invite" (identity 2) drawer (spec 1 section 2): search
 * a user by their whole email, then share or invite. `find` is the search; without JavaScript
 * it is a page. Too many searches answer 429 with Retry-After.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  if (!params.has("find")) return { identity: user.identity, find: "", searched: false, results: [], count: 0, errors: [] as string[] };
  const parsed = findShareListQuery(user.identity).safeParse({ searchOption: params.get("find"), pageNum: params.get("findPage") ?? undefined });
  if (!parsed.success) return { identity: user.identity, find: params.get("find") ?? "", searched: false, results: [], count: 0, errors: parsed.error.issues.map((i) => `sharing:${i.message}`) };
  const found = await searchShareCandidates(user, { search: parsed.data.searchOption, page: parsed.data.pageNum });
  const answer = {
    identity: user.identity,
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
  const parsed = intent.data.intent === "share" ? saveShareSchema.safeParse(form) : inviteSchema.safeParse(form);
  if (!parsed.success) return data({ notice: null, errors: parsed.error.issues.map((i) => `sharing:${i.message}`) }, { status: 400 });
  const result =
    intent.data.intent === "share"
      ? await shareWith(user, parsed.data as z.infer<typeof saveShareSchema>)
      : await invitePatient(user, parsed.data as z.infer<typeof inviteSchema>);
  if (!result.ok) return data({ notice: null, errors: [result.error] }, { status: result.status });
  return { notice: intent.data.intent === "share" ? "sharing:messages.shareSuccess" : "sharing:messages.inviteSuccess", errors: [] as string[] };
}

function shortEmail(email: string) {
  return email.length > EMAIL_SHOWN ? `${email.slice(0, EMAIL_SHOWN)}…` : email;
}

export default function AddShare() {
  const { t } = useTranslation("sharing");
  const { identity, find, searched, results, errors } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const sharing = identity === 1;
  return (
    <section className={p.drawer} aria-labelledby="add-title">
      <h1 id="add-title">{sharing ? t("add.shareTitle") : t("add.inviteTitle")}</h1>
      <p>{sharing ? t("add.shareIntro") : t("add.inviteIntro")}</p>
      <Form method="get" className={f.form} role="search">
        <div className={f.field}>
          <label htmlFor="find" className={f.label}>
            {t("add.searchLabel")}
          </label>
          <div className={p.search}>
            <input id="find" name="find" type="search" inputMode="email" autoComplete="off" placeholder={t("add.searchPlaceholder")} defaultValue={find} className={p.searchInput} aria-invalid={errors.length ? true : undefined} aria-describedby={errors.length ? "find-errors" : undefined} />
            <button type="submit" className={s.buttonSecondary}>
              {t("panel.searchButton")}
            </button>
          </div>
          <ErrorList id="find-errors" errors={errors} ns="common" />
        </div>
      </Form>
      <FormMessages errors={actionData?.errors} notice={actionData?.notice} ns="common" />
      {searched && results.length === 0 ? <p>{t("add.noResults")}</p> : null}
      {results.length ? (
        <Form method="post" className={f.form} aria-busy={busy}>
          <input type="hidden" name="intent" value={sharing ? "share" : "invite"} />
          <div className={f.field}>
            <label htmlFor="message" className={f.label}>
              {t("add.message")}
            </label>
            <textarea id="message" name="message" rows={2} maxLength={500} className={f.input} />
          </div>
          <table className={p.table}>
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
                  <td className={p.nameCell} title={row.name}>
                    {row.name}
                  </td>
                  <td className={p.cell} title={row.email}>
                    {shortEmail(row.email)}
                  </td>
                  <td className={p.cell}>
                    <IdentityIcon identity={row.identity} label={row.identity === 1 ? t("add.person") : t("add.clinic")} />
                  </td>
                  <td className={p.cell}>
                    {row.readPowerId ? (
                      <button type="button" className={s.buttonSecondary} disabled>
                        {sharing ? t("add.shared") : t("add.invited")}
                      </button>
                    ) : (
                      <button type="submit" name={sharing ? "readId" : "provideId"} value={row.userId} className={s.button} disabled={busy} aria-label={`${sharing ? t("add.share") : t("add.invite")}: ${row.name}`}>
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
      <p>
        <Link to="/patientShow/patients">{t("add.close")}</Link>
      </p>
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
