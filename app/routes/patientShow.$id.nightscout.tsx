import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ConfirmStep } from "~/components/form";
import { idParam } from "~/schemas/fields";
import { nightscoutLinkForm, nightscoutRevokeForm } from "~/schemas/nightscout";
import { linkAddresses, linksFor, makeLink, revokeLinkFor } from "~/services/nightscout.server";
import { requireUser } from "~/services/session.server";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { displayName } from "~/utils/names";
import { qrSvgPath } from "~/utils/qr.server";
import { formatDateTime } from "~/report/locale-format";
import { getLocale } from "~/services/locale.server";

const params = z.object({ id: idParam });

/** The page's patient and the viewer, if the viewer may upload for the patient; else 404. */
async function linksPage(request: Request, raw: unknown) {
  const viewer = await requireUser(request);
  const parsed = params.safeParse(raw);
  if (!parsed.success) throw new Response("Not Found", { status: 404 });
  const found = await linksFor(viewer, parsed.data.id);
  if (!found) throw new Response("Not Found", { status: 404 });
  return { viewer, ...found };
}

/**
 * `/patientShow/{pid}/nightscout`: the patient's Nightscout links, for the patient and the
 * accounts that may upload for the patient. Making a link shows its secret once (in the answer to
 * the form, never in an address), with the URL forms the apps take and a QR code drawn on the
 * server; revoking asks first, in a second step that works without JavaScript (`?confirm=<id>`).
 */
export async function loader({ request, params: raw }: LoaderFunctionArgs) {
  const { viewer, patient, links } = await linksPage(request, raw);
  const locale = await getLocale(request);
  const url = new URL(request.url);
  const confirm = url.searchParams.get("confirm");
  return {
    pid: patient.id,
    name: displayName(patient.user),
    own: patient.userId === viewer.id,
    revoked: url.searchParams.get("revoked") === "1",
    confirm: links.find((l) => l.id === confirm && !l.revokedAt) ?? null,
    links: links.map((l) => ({
      id: l.id,
      name: l.name,
      kind: l.kind,
      base: linkAddresses(url.origin, l).base,
      createdAt: formatDateTime(l.createdAt.getTime(), patient.timeZone, locale),
      lastUsedAt: l.lastUsedAt
        ? formatDateTime(l.lastUsedAt.getTime(), patient.timeZone, locale)
        : null,
      revoked: l.revokedAt !== null,
      madeBy: displayName(l.createdBy),
    })),
  };
}

export async function action({ request, params: raw }: ActionFunctionArgs) {
  const { viewer, patient } = await linksPage(request, raw);
  const form = Object.fromEntries(await request.formData());
  if (form.intent === "revoke") {
    const parsed = nightscoutRevokeForm.safeParse(form);
    const done = parsed.success && (await revokeLinkFor(viewer, patient.id, parsed.data.id));
    if (!done) return data({ error: "errors.link", made: null }, { status: 400 });
    return redirect(`/patientShow/${patient.id}/nightscout?revoked=1`);
  }
  const parsed = nightscoutLinkForm.safeParse(form);
  if (!parsed.success)
    return data(
      { error: `errors.${String(parsed.error.issues[0]?.path[0] ?? "name")}`, made: null },
      { status: 400 },
    );
  const link = await makeLink(viewer, patient.id, parsed.data);
  if (!link) throw new Response("Not Found", { status: 404 });
  const addresses = linkAddresses(new URL(request.url).origin, link);
  return {
    error: null,
    made: {
      name: parsed.data.name,
      kind: link.kind,
      secret: link.secret,
      ...addresses,
      qr: qrSvgPath(link.kind === "upload" ? addresses.withSecret! : addresses.readerUrl!),
    },
  };
}

export default function NightscoutLinks() {
  const { t } = useTranslation("nightscout");
  const page = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const made = reply?.made ?? null;
  return (
    <article className={s.card} aria-labelledby="ns-title">
      <h1 id="ns-title">
        {t("page.title")}
        {page.own ? null : `: ${page.name}`}
      </h1>
      <p>{t("page.intro")}</p>
      {page.revoked ? (
        <p className={f.notice} role="status">
          {t("page.revokedDone")}
        </p>
      ) : null}
      {made ? (
        <section aria-labelledby="ns-made" className={f.notice}>
          <h2 id="ns-made">{t("page.created")}</h2>
          <dl>
            <dt>{t("page.secret")}</dt>
            <dd>
              <code data-testid="ns-secret">{made.secret}</code>
            </dd>
            <dt>{t("page.baseUrl")}</dt>
            <dd>
              <code data-testid="ns-base">{made.base}</code>
            </dd>
            {made.kind === "upload" ? (
              <>
                <dt>{t("page.urlWithSecret")}</dt>
                <dd>
                  <code data-testid="ns-url">{made.withSecret}</code>
                </dd>
              </>
            ) : (
              <>
                <dt>{t("page.readerUrl")}</dt>
                <dd>
                  <code data-testid="ns-url">{made.readerUrl}</code>
                </dd>
              </>
            )}
          </dl>
          <svg
            role="img"
            aria-label={t("page.qr")}
            viewBox={`0 0 ${made.qr.size} ${made.qr.size}`}
            width={made.qr.size * 5}
            height={made.qr.size * 5}
            shapeRendering="crispEdges"
          >
            <rect width={made.qr.size} height={made.qr.size} fill="#fff" />
            <path d={made.qr.d} fill="#000" />
          </svg>
        </section>
      ) : null}

      <Form method="post" className={f.form} aria-labelledby="ns-new">
        <h2 id="ns-new">{t("page.create")}</h2>
        <div className={f.field}>
          <label htmlFor="ns-name" className={f.label}>
            {t("page.name")}
          </label>
          <input
            id="ns-name"
            name="name"
            className={f.input}
            maxLength={60}
            aria-invalid={reply?.error === "errors.name" || undefined}
            aria-describedby={reply?.error ? "ns-error" : undefined}
          />
        </div>
        <fieldset className={f.fieldset}>
          <legend className={f.label}>{t("page.kind")}</legend>
          <label className={f.choice}>
            <input type="radio" name="kind" value="upload" defaultChecked />
            {t("page.kindUpload")}
          </label>
          <label className={f.choice}>
            <input type="radio" name="kind" value="read" />
            {t("page.kindRead")}
          </label>
        </fieldset>
        {reply?.error ? (
          <p id="ns-error" className={f.errors} role="alert">
            {t(reply.error)}
          </p>
        ) : null}
        <div className={s.actions}>
          <button type="submit" name="intent" value="create" className={s.button} disabled={busy}>
            {t("page.create")}
          </button>
        </div>
      </Form>

      <section aria-labelledby="ns-links">
        <h2 id="ns-links">{t("page.links")}</h2>
        {page.links.length === 0 ? <p>{t("page.none")}</p> : null}
        {page.links.map((link) => (
          <section key={link.id} aria-label={link.name} data-testid="ns-link">
            <h3>{link.name}</h3>
            <dl>
              <dt>{t("page.kind")}</dt>
              <dd>{t(link.kind === "upload" ? "page.kindUpload" : "page.kindRead")}</dd>
              <dt>{t("page.baseUrl")}</dt>
              <dd>
                <code>{link.base}</code>
              </dd>
              <dt>{t("page.createdAt")}</dt>
              <dd>{link.createdAt}</dd>
              <dt>{t("page.madeBy")}</dt>
              <dd>{link.madeBy}</dd>
              <dt>{t("page.lastUsed")}</dt>
              <dd>{link.lastUsedAt ?? t("page.never")}</dd>
              <dt>{t("page.state")}</dt>
              <dd>{t(link.revoked ? "page.revoked" : "page.active")}</dd>
            </dl>
            {link.revoked ? null : page.confirm?.id === link.id ? (
              <ConfirmStep
                id={`ns-confirm-${link.id}`}
                message={t("page.revokeConfirm", { name: link.name })}
                intent="revoke"
                confirm={t("page.revokeYes")}
                cancel={t("page.cancel")}
                cancelTo="?"
                fields={{ id: link.id }}
                busy={busy}
              />
            ) : (
              <Link to={`?confirm=${link.id}`} className={s.buttonSecondary}>
                {t("page.revoke")}
              </Link>
            )}
          </section>
        ))}
      </section>
    </article>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
