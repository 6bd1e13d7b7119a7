import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { CaringMenu, CaringMissing } from "~/components/caring";
import { FormMessages } from "~/components/form";
import { NewPatientForm } from "~/components/new-patient-form";
import { ShareMessageField, ShareSearchForm } from "~/components/share-search";
import { Identity } from "~/domain/codes";
import { searchShareCandidates, type ShareCandidate } from "~/models/read-power-list.server";
import { invitePatient } from "~/models/read-power-request.server";
import { caringAddQuery } from "~/schemas/caring";
import { findShareListQuery, inviteSchema } from "~/schemas/read-power";
import { requireCaring } from "~/services/caring-account.server";
import { newPatientFormData, submitNewPatient } from "~/services/patient-add.server";
import { formError, refusalInit } from "~/services/throttle-response.server";
import * as c from "~/styles/caring.css";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/patient-area.css";
import { keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

/**
 * `/caringadd`: add a patient, friend or relative to care for, in one of two ways (`?by=`):
 * by the email they registered with (search the whole email, then invite them: they decide, in
 * the app or from the emailed link), or by filling in their health file (`?by=file`: an inactive
 * account is made for them, which they activate with the emailed code before confirming the
 * share). Both are the app's sharing: nothing is readable until the person accepts.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user, missing } = await requireCaring(request);
  const params = new URL(request.url).searchParams;
  const { by } = caringAddQuery.parse({ by: params.get("by") ?? undefined });
  const base = {
    missing,
    by,
    find: params.get("find") ?? "",
    searched: false,
    results: [] as ShareCandidate[],
    errors: [] as string[],
    file: null as Awaited<ReturnType<typeof newPatientFormData>> | null,
  };
  if (missing.length) return base;
  if (by === "file") return { ...base, file: await newPatientFormData(user, request) };
  if (!params.has("find")) return base;
  // The search of an invitation: a whole email of a person with a health record.
  const parsed = findShareListQuery(Identity.Clinic).safeParse({
    searchOption: params.get("find"),
  });
  if (!parsed.success)
    return { ...base, errors: parsed.error.issues.map((i) => `sharing:${i.message}`) };
  const found = await searchShareCandidates(user, {
    search: parsed.data.searchOption,
    page: 1,
    invite: true,
  });
  const answer = {
    ...base,
    find: parsed.data.searchOption,
    searched: found.ok,
    results: found.ok ? found.data.data : [],
    errors: found.ok ? [] : [formError(found)],
  };
  return found.ok ? answer : data(answer, refusalInit(found, found.status));
}

const intentSchema = z.object({ intent: z.enum(["invite", "file"]) });

export async function action({ request }: ActionFunctionArgs) {
  const { user, missing } = await requireCaring(request);
  if (missing.length) throw new Response("Forbidden", { status: 403 });
  const formData = await request.formData();
  const intent = intentSchema.safeParse(Object.fromEntries(formData));
  if (!intent.success) throw new Response("Bad Request", { status: 400 });
  if (intent.data.intent === "file") return submitNewPatient(user, request, formData);
  const parsed = inviteSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success)
    return data(
      { notice: null, errors: parsed.error.issues.map((i) => `sharing:${i.message}`) },
      { status: 400 },
    );
  const result = await invitePatient(user, parsed.data);
  if (!result.ok) return data({ notice: null, errors: [result.error] }, { status: result.status });
  return data(
    { notice: "sharing:messages.inviteSuccess", errors: [] as string[] },
    { status: 200 },
  );
}

export default function CaringAdd() {
  const { t } = useTranslation("caring");
  const { missing, by, file } = useLoaderData<typeof loader>();
  return (
    <section className={s.card} aria-labelledby="add-title">
      <h1 id="add-title">{t("add.title")}</h1>
      <CaringMenu />
      {missing.length ? (
        <CaringMissing missing={missing} />
      ) : (
        <>
          <nav aria-label={t("add.ways")}>
            <ul className={c.menu}>
              <li>
                <Link
                  to="/caringadd"
                  className={p.tab}
                  aria-current={by === "email" ? "page" : undefined}
                >
                  {t("add.byEmail")}
                </Link>
              </li>
              <li>
                <Link
                  to="/caringadd?by=file"
                  className={p.tab}
                  aria-current={by === "file" ? "page" : undefined}
                >
                  {t("add.byFile")}
                </Link>
              </li>
            </ul>
          </nav>
          {by === "file" && file ? <ByFile file={file} /> : <ByEmail />}
          <p className={c.small}>{t("hub.cgmNote")}</p>
        </>
      )}
    </section>
  );
}

function ByEmail() {
  const { t } = useTranslation("caring");
  const { t: ts } = useTranslation("sharing");
  const { find, searched, results, errors } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const notice = actionData && "notice" in actionData ? actionData : null;
  return (
    <>
      <p>{t("add.emailIntro")}</p>
      <ShareSearchForm
        action="/caringadd"
        label={t("add.searchLabel")}
        find={find}
        errors={errors}
      />
      <FormMessages errors={notice?.errors} notice={notice?.notice} ns="common" />
      {searched && results.length === 0 ? <p>{t("add.noResults")}</p> : null}
      {results.length ? (
        <Form method="post" className={f.form} aria-busy={busy}>
          <input type="hidden" name="intent" value="invite" />
          <ShareMessageField />
          <table className={p.table} aria-label={t("add.results")}>
            <thead>
              <tr>
                <th className={p.nameCell}>{t("patients.name")}</th>
                <th className={p.cell}>{t("patients.email")}</th>
                <th className={p.cell}>{ts("add.action")}</th>
              </tr>
            </thead>
            <tbody>
              {results.map((row) => (
                <tr key={row.userId}>
                  <td className={p.nameCell}>{row.name}</td>
                  <td className={p.cell}>{row.email}</td>
                  <td className={p.cell}>
                    {row.readPowerId ? (
                      <Link to="/caringpedding">{ts("add.invited")}</Link>
                    ) : (
                      <button
                        type="submit"
                        name="provideId"
                        value={row.userId}
                        className={s.button}
                        disabled={busy}
                        aria-label={`${ts("add.invite")}: ${row.name}`}
                      >
                        {ts("add.invite")}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Form>
      ) : null}
    </>
  );
}

function ByFile({ file }: { file: NonNullable<Awaited<ReturnType<typeof newPatientFormData>>> }) {
  const { t } = useTranslation("caring");
  const actionData = useActionData<typeof action>();
  const submitted = actionData && "result" in actionData ? actionData : null;
  return (
    <>
      <p>{t("add.fileIntro")}</p>
      <NewPatientForm
        // After a person is added the form starts afresh: nothing typed yet, nothing to lose.
        key={submitted?.added?.email ?? "new"}
        lastResult={submitted?.result}
        added={submitted?.added}
        openHref="/caringpedding"
        openLabel={t("add.openPending")}
        options={file.options}
        unit={file.unit}
        timeZone={file.timeZone}
        timeZones={file.timeZones}
        bodyUnits={file.bodyUnits}
        hidden={{ intent: "file" }}
      />
    </>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** With JavaScript, a lost request keeps the form and what was typed in it. */
export const clientAction = keepFormWhenLost();
export const shouldRevalidate = skipRevalidationWhenLost;
