import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ShareSource, ShareState } from "~/domain/codes";
import { SHARE_REQUEST_DAYS } from "~/domain/share-expiry";
import { idParam } from "~/schemas/fields";
import { ConfirmStep, FormMessages } from "~/components/form";
import { processShare } from "~/models/read-power-answer.server";
import { deleteShare, updateShare } from "~/models/read-power-change.server";
import { findShareForViewer } from "~/models/read-power-list.server";
import { reinvite, shareWith } from "~/models/read-power-request.server";
import { recipientOf } from "~/models/read-power.server";
import {
  processShareSchema,
  reinviteSchema,
  saveShareSchema,
  updateShareSchema,
} from "~/schemas/read-power";
import { AnswerButtons } from "~/components/answer-buttons";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { requireUser } from "~/services/session.server";
import { keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

/**
 * One share or invitation, with what the viewer may do: answer a pending request (approve with an
 * optional nickname, or refuse), rename, send a refused or expired request again (a clinic its
 * invitation, a patient their share), or delete after confirming.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = idParam.safeParse(params.id);
  const share = id.success ? await findShareForViewer(user, id.data) : null;
  if (!share) throw new Response("Not Found", { status: 404 });
  const isReader = share.readId === user.id;
  const confirmDelete = new URL(request.url).searchParams.get("confirm") === "delete";
  const canAnswer =
    share.state === ShareState.Pending &&
    recipientOf({
      sourceType: share.sourceType,
      providerId: share.provideId,
      readerId: share.readId,
    }) === user.id;
  return {
    share,
    isReader,
    canAnswer,
    stateKey:
      share.state === ShareState.Accepted
        ? "accepted"
        : share.state === ShareState.Refused
          ? "refused"
          : share.state === ShareState.Invalid
            ? "expired"
            : canAnswer
              ? "pending-for-me"
              : "waiting",
    canReinvite:
      share.state !== ShareState.Accepted &&
      share.sourceType === ShareSource.Invitation &&
      isReader,
    canShareAgain:
      (share.state === ShareState.Refused || share.state === ShareState.Invalid) &&
      share.sourceType === ShareSource.Share &&
      share.provideId === user.id,
    canRename: isReader && share.state === ShareState.Accepted,
    patientHref:
      isReader && share.state === ShareState.Accepted && share.pid
        ? `/patientShow/${share.pid}/${share.userId}/patientHome`
        : null,
    confirmDelete,
  };
}

const intents = z.object({
  intent: z.enum(["approve", "refuse", "rename", "reinvite", "shareAgain", "delete"]),
});

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = idParam.safeParse(params.id);
  if (!id.success) throw new Response("Not Found", { status: 404 });
  const form = Object.fromEntries(await request.formData());
  const intent = intents.safeParse(form);
  if (!intent.success) throw new Response("Bad Request", { status: 400 });
  const fail = (errors: string[], status: number) => data({ errors, notice: null }, { status });
  const schemaErrors = (error: z.ZodError) =>
    fail(
      error.issues.map((i) => `sharing:${i.message}`),
      400,
    );

  switch (intent.data.intent) {
    case "approve":
    case "refuse": {
      const parsed = processShareSchema.safeParse({
        ...form,
        id: id.data,
        state: intent.data.intent === "approve" ? ShareState.Accepted : ShareState.Refused,
      });
      if (!parsed.success) return schemaErrors(parsed.error);
      const done = await processShare(user, parsed.data);
      return done.ok
        ? { errors: [] as string[], notice: "sharing:messages.operateSuccess" }
        : fail([done.error], done.status);
    }
    case "rename": {
      const parsed = updateShareSchema.safeParse({
        readPowerId: id.data,
        nickName: form.nickName ?? "",
      });
      if (!parsed.success) return schemaErrors(parsed.error);
      const done = await updateShare(user, parsed.data);
      return done.ok
        ? { errors: [] as string[], notice: "sharing:messages.operateSuccess" }
        : fail([done.error], done.status);
    }
    case "reinvite": {
      const parsed = reinviteSchema.safeParse({ id: id.data });
      if (!parsed.success) return schemaErrors(parsed.error);
      const done = await reinvite(user, parsed.data);
      return done.ok
        ? { errors: [] as string[], notice: "sharing:messages.inviteSuccess" }
        : fail([done.error], done.status);
    }
    case "shareAgain": {
      // The patient sends their share request to the same reader again, with its message.
      const share = await findShareForViewer(user, id.data);
      if (!share) throw new Response("Not Found", { status: 404 });
      if (share.provideId !== user.id) return fail(["api:forbidden"], 403);
      const parsed = saveShareSchema.safeParse({ readId: share.readId, message: share.message });
      if (!parsed.success) return schemaErrors(parsed.error);
      const done = await shareWith(user, parsed.data);
      return done.ok
        ? { errors: [] as string[], notice: "sharing:messages.shareSuccess" }
        : fail([done.error], done.status);
    }
    case "delete": {
      const done = await deleteShare(user, { readPowerId: id.data });
      return done.ok ? redirect("/patientShow/patients") : fail([done.error], done.status);
    }
  }
}

export default function Share() {
  const { t } = useTranslation("sharing");
  const {
    share,
    isReader,
    canAnswer,
    stateKey,
    canReinvite,
    canShareAgain,
    canRename,
    patientHref,
    confirmDelete,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const kind =
    share.sourceType === ShareSource.Invitation
      ? isReader
        ? "inviteSent"
        : "inviteReceived"
      : isReader
        ? "shareReceived"
        : "shareSent";

  return (
    <section className={s.card} aria-labelledby="share-title">
      <h1 id="share-title">{share.nickName || share.name}</h1>
      <p>{t(`share.${kind}`, { name: share.name, email: share.email })}</p>
      <p>
        <strong>{t("share.status")}</strong> {t(`status.${stateKey}`)}
      </p>
      {stateKey === "expired" ? (
        <p>{t("share.expiredHint", { count: SHARE_REQUEST_DAYS })}</p>
      ) : null}
      {share.message ? (
        <blockquote>
          <strong>{t("share.message")}</strong> {share.message}
        </blockquote>
      ) : null}
      <FormMessages errors={actionData?.errors} notice={actionData?.notice} ns="common" />
      {patientHref ? (
        <p>
          <Link to={patientHref} className={s.button}>
            {t("share.openPatient")}
          </Link>
        </p>
      ) : null}

      {canAnswer ? (
        <Form method="post" className={f.form} aria-labelledby="answer-title">
          <h2 id="answer-title">{t("share.answerTitle")}</h2>
          {isReader ? (
            <div className={f.field}>
              <label htmlFor="nickName" className={f.label}>
                {t("share.nickName")}
              </label>
              <p className={f.hint}>{t("share.nickNameHint")}</p>
              <input
                id="nickName"
                name="nickName"
                maxLength={50}
                defaultValue={share.nickName ?? ""}
                className={f.input}
              />
            </div>
          ) : null}
          <AnswerButtons
            name="intent"
            yes={{ value: "approve", label: t("share.approve") }}
            no={{ value: "refuse", label: t("share.refuse") }}
            busy={busy}
            className={s.actions}
          />
        </Form>
      ) : null}

      {canRename ? (
        <Form method="post" className={f.form}>
          <div className={f.field}>
            <label htmlFor="rename" className={f.label}>
              {t("share.nickName")}
            </label>
            <p className={f.hint}>{t("share.nickNameHint")}</p>
            <input
              id="rename"
              name="nickName"
              maxLength={50}
              defaultValue={share.nickName ?? ""}
              className={f.input}
            />
          </div>
          <div>
            <button
              type="submit"
              name="intent"
              value="rename"
              className={s.buttonSecondary}
              disabled={busy}
            >
              {t("share.saveNickName")}
            </button>
          </div>
        </Form>
      ) : null}

      {canReinvite ? (
        <Form method="post">
          <button type="submit" name="intent" value="reinvite" className={s.button} disabled={busy}>
            {t("share.reinvite")}
          </button>
        </Form>
      ) : null}

      {canShareAgain ? (
        <Form method="post">
          <button
            type="submit"
            name="intent"
            value="shareAgain"
            className={s.button}
            disabled={busy}
          >
            {t("add.shareAgain")}
          </button>
        </Form>
      ) : null}

      <div className={s.actions}>
        {confirmDelete ? (
          <ConfirmStep
            id="delete-title"
            message={t("share.deleteConfirm", { name: share.nickName || share.name })}
            intent="delete"
            confirm={t("share.deleteYes")}
            cancel={t("share.deleteNo")}
            cancelTo="?"
            busy={busy}
          />
        ) : (
          <Link to="?confirm=delete" className={s.buttonSecondary}>
            {t("share.delete")}
          </Link>
        )}
      </div>
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** With JavaScript, a lost request keeps the form and what was typed in it. */
export const clientAction = keepFormWhenLost();
export const shouldRevalidate = skipRevalidationWhenLost;
