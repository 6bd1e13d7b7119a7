import {
  data as answer,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ConfirmStep } from "~/components/form";
import { parseTagForm, TAG_NAME_MAX, TAGS_PER_CLINIC } from "~/schemas/clinic-tags";
import { applyTagForm, clinicTags, mayTag } from "~/models/clinic-tags.server";
import { requireUser } from "~/services/session.server";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import * as tr from "~/styles/triage.css";

const query = z.object({
  delete: z.coerce.number().int().min(1).max(2_147_483_647).nullable().catch(null),
  done: z.enum(["created", "renamed", "deleted"]).nullable().catch(null),
});

/**
 * `/patientShow/tags`: an approved clinic's own patient tags: add one, rename one, delete one
 * (`?delete=<id>` asks first, with a POST form and a link back, so that it works without
 * JavaScript). Anyone else is sent to the patients page. Done: back here with `?done=`.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!mayTag(user)) throw redirect("/patientShow/patients");
  const search = new URL(request.url).searchParams;
  const q = query.parse({ delete: search.get("delete") || null, done: search.get("done") || null });
  const tags = await clinicTags(user);
  return {
    tags,
    confirm: tags.find((t) => t.id === q.delete) ?? null,
    done: q.done,
    limits: { length: TAG_NAME_MAX, tags: TAGS_PER_CLINIC },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseTagForm(await request.formData());
  if (!parsed.success)
    return answer({ error: parsed.error.issues[0]!.message, tagId: null }, { status: 400 });
  const form = parsed.data;
  if (form.intent !== "create" && form.intent !== "rename" && form.intent !== "delete")
    return answer({ error: "tags.errors.intentInvalid", tagId: null }, { status: 400 });
  const done = await applyTagForm(user, form);
  if (!done.ok)
    return answer(
      { error: done.error, tagId: form.intent === "create" ? null : form.tagId },
      { status: done.status },
    );
  const key = { create: "created", rename: "renamed", delete: "deleted" }[form.intent];
  return redirect(`/patientShow/tags?done=${key}`);
}

export default function Tags() {
  const { t } = useTranslation("triage");
  const { tags, confirm, done, limits } = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const error = acted?.error ? t(acted.error, { max: limits.tags, length: limits.length }) : null;
  return (
    <section className={s.card} aria-labelledby="tags-title" data-testid="tags-page">
      <h1 id="tags-title">{t("tags.title")}</h1>
      <p>{t("tags.intro", { max: limits.tags, length: limits.length })}</p>
      <p>
        <Link to="/patientShow/patients">{t("tags.back")}</Link>
      </p>
      {done ? (
        <p role="status" className={f.notice}>
          {t(`tags.done.${done}`)}
        </p>
      ) : null}
      {error && acted?.tagId == null ? (
        <p role="alert" className={tr.error}>
          {error}
        </p>
      ) : null}
      {confirm ? (
        <ConfirmStep
          id="tag-delete-question"
          message={t("tags.confirmDelete", { name: confirm.name, count: confirm.patients })}
          intent="delete"
          confirm={t("tags.confirm")}
          cancel={t("tags.cancel")}
          cancelTo="/patientShow/tags"
          action="/patientShow/tags"
          fields={{ tagId: String(confirm.id) }}
          busy={busy}
        />
      ) : null}
      <Form method="post" action="/patientShow/tags" className={f.form}>
        <div className={f.field}>
          <label htmlFor="tag-new" className={f.label}>
            {t("tags.name")}
          </label>
          <input
            id="tag-new"
            name="name"
            className={f.input}
            maxLength={limits.length}
            required
            aria-describedby="tag-new-hint"
          />
          <p id="tag-new-hint" className={f.hint}>
            {t("tags.limits", { max: limits.tags, length: limits.length })}
          </p>
        </div>
        <div className={s.actions}>
          <button type="submit" name="intent" value="create" className={s.button} disabled={busy}>
            {t("tags.add")}
          </button>
        </div>
      </Form>
      <h2>{t("tags.listTitle", { count: tags.length, max: limits.tags })}</h2>
      {tags.length === 0 ? (
        <p>{t("tags.empty")}</p>
      ) : (
        <ul className={tr.tagList} data-testid="tag-list">
          {tags.map((tag) => (
            <li key={tag.id} data-tag-id={tag.id}>
              <Form method="post" action="/patientShow/tags" className={tr.tagRow}>
                <input type="hidden" name="tagId" value={tag.id} />
                <label htmlFor={`tag-${tag.id}`} className={tr.visuallyHidden}>
                  {t("tags.renameLabel", { name: tag.name })}
                </label>
                <input
                  id={`tag-${tag.id}`}
                  name="name"
                  defaultValue={tag.name}
                  className={f.input}
                  maxLength={limits.length}
                  required
                />
                <button
                  type="submit"
                  name="intent"
                  value="rename"
                  className={s.buttonSecondary}
                  disabled={busy}
                >
                  {t("tags.rename")}
                </button>
                <Link to={`/patientShow/tags?delete=${tag.id}`} className={s.buttonSecondary}>
                  {t("tags.delete")}
                </Link>
                <span className={tr.muted}>{t("tags.patients", { count: tag.patients })}</span>
              </Form>
              {error && acted?.tagId === tag.id ? (
                <p role="alert" className={tr.error}>
                  {error}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
