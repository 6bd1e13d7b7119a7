import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ErrorList, Field, FormMessages, NewPasswordFields } from "~/components/form";
import { Identity, ShareState } from "~/domain/codes";
import { activateAccount, sendActivationCode } from "~/models/account.server";
import { clientIp } from "~/models/rate-limit.server";
import {
  findPendingCreatorShare,
  processShare,
  type CreatorShare,
} from "~/models/read-power-answer.server";
import { activateSchema, claimAccountSchema, sendCodeSchema } from "~/schemas/auth";
import { getLocale } from "~/services/locale.server";
import { AnswerButtons } from "~/components/answer-buttons";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { createOriginToken, verifyOriginToken } from "~/utils/origin-token.server";
import {
  createUserSession,
  getSessionUser,
  homePath,
  type SessionUser,
} from "~/services/session.server";
import { formError, refusalInit } from "~/services/throttle-response.server";
import { keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

/**
 * Activation of an account created for someone else. A signed-in inactive user types only the
 * emailed code; someone arriving from the email also gives the email and a password. Once
 * active, the owner sees who created the account and accepts or refuses that person's read
 * share; until then the creator reads nothing.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  if (user?.active) {
    const creatorShare = await findPendingCreatorShare(user.id);
    if (!creatorShare) throw redirect("/");
    return { step: "creatorShare" as const, creatorShare, origin: null, signedIn: true, email: "" };
  }
  const email = new URL(request.url).searchParams.get("email") ?? "";
  return {
    step: "activate" as const,
    creatorShare: null,
    origin: createOriginToken(),
    signedIn: Boolean(user),
    email,
  };
}

const creatorShareSchema = z.object({
  readPowerId: z.coerce.number().int().positive().max(2_147_483_647),
  decision: z.enum(["accept", "refuse"]),
});

/** The owner's answer to the creator's share: accepted gives the creator read access, refused keeps the row as refused. */
async function answerCreatorShare(user: SessionUser, formData: FormData) {
  const parsed = creatorShareSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success)
    return data(
      { result: null, notice: null, errors: ["errors.decisionRequired"] },
      { status: 400 },
    );
  const done = await processShare(user, {
    id: parsed.data.readPowerId,
    state: parsed.data.decision === "accept" ? ShareState.Accepted : ShareState.Refused,
  });
  if (!done.ok)
    return data({ result: null, notice: null, errors: [done.error] }, { status: done.status });
  return redirect(homePath(user));
}

const HIDDEN = ["password", "confirmPassword"];

function schemaFor(signedIn: boolean, intent: FormDataEntryValue | null) {
  if (intent === "sendCode") return signedIn ? z.object({}) : sendCodeSchema;
  return signedIn ? activateSchema : claimAccountSchema;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await getSessionUser(request);
  const formData = await request.formData();
  if (user?.active) {
    if (formData.get("intent") !== "creatorShare") throw redirect("/");
    return answerCreatorShare(user, formData);
  }
  const intent = formData.get("intent");
  const submission = parseWithZod(formData, { schema: schemaFor(Boolean(user), intent) });
  if (submission.status !== "success")
    return data(
      { result: submission.reply({ hideFields: HIDDEN }), notice: null },
      { status: 400 },
    );
  const value = submission.value as {
    code?: string;
    email?: string;
    password?: string;
    origin?: string;
  };

  if (intent === "sendCode") {
    const sent = await sendActivationCode({
      email: user?.email ?? value.email!,
      locale: await getLocale(request),
      ip: clientIp(request),
    });
    if (!sent.ok)
      return data(
        {
          result: submission.reply({ formErrors: [formError(sent)], hideFields: HIDDEN }),
          notice: null,
        },
        refusalInit(sent),
      );
    return { result: submission.reply({ hideFields: HIDDEN }), notice: "active.codeSent" };
  }
  if (!verifyOriginToken(value.origin ?? "")) {
    return data(
      {
        result: submission.reply({ formErrors: ["errors.originExpired"], hideFields: HIDDEN }),
        notice: null,
      },
      { status: 400 },
    );
  }
  const result = await activateAccount({
    email: user?.email ?? value.email!,
    code: value.code!,
    password: value.password,
  });
  if (!result.ok)
    return data(
      {
        result: submission.reply({ fieldErrors: { code: [result.error] }, hideFields: HIDDEN }),
        notice: null,
      },
      { status: 400 },
    );
  // /active then shows the creator's share, if any, or goes home.
  return redirect("/active", {
    headers: { "Set-Cookie": await createUserSession(request, result.userId) },
  });
}

function CreatorShareStep({ share }: { share: CreatorShare }) {
  const { t } = useTranslation("auth");
  const actionData = useActionData<typeof action>();
  const errors = actionData && "errors" in actionData ? actionData.errors : undefined;
  const busy = useNavigation().state !== "idle";
  return (
    <div className={f.narrow}>
      <section className={s.card} aria-labelledby="creator-title">
        <h1 id="creator-title">{t("active.creatorTitle")}</h1>
        <p>
          {t(
            share.creatorIdentity === Identity.Clinic
              ? "active.creatorIntroClinic"
              : "active.creatorIntroPerson",
            { name: share.creatorName, email: share.creatorEmail },
          )}
        </p>
        <p>{t("active.creatorQuestion", { name: share.creatorName })}</p>
        <Form method="post" className={f.form}>
          <ErrorList errors={errors} />
          <input type="hidden" name="intent" value="creatorShare" />
          <input type="hidden" name="readPowerId" value={share.readPowerId} />
          <AnswerButtons
            name="decision"
            yes={{ value: "accept", label: t("active.creatorAccept") }}
            no={{ value: "refuse", label: t("active.creatorRefuse") }}
            busy={busy}
            className={f.links}
          />
        </Form>
      </section>
    </div>
  );
}

export default function Active() {
  const loaded = useLoaderData<typeof loader>();
  return loaded.step === "creatorShare" ? (
    <CreatorShareStep share={loaded.creatorShare} />
  ) : (
    <ActivateStep origin={loaded.origin} signedIn={loaded.signedIn} email={loaded.email} />
  );
}

function ActivateStep({
  origin,
  signedIn,
  email,
}: {
  origin: { prefix: string; token: string };
  signedIn: boolean;
  email: string;
}) {
  const { t } = useTranslation("auth");
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm<Record<string, string>>({
    id: "active",
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    defaultValue: { email },
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: schemaFor(signedIn, formData.get("intent")) }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className={f.narrow}>
      <section className={s.card} aria-labelledby="active-title">
        <h1 id="active-title">{t("active.title")}</h1>
        <p>{signedIn ? t("active.introSignedIn") : t("active.intro")}</p>
        <FormProvider context={form.context}>
          <Form method="post" {...getFormProps(form)} className={f.form}>
            <button
              type="submit"
              name="intent"
              value="activate"
              className={f.defaultSubmit}
              tabIndex={-1}
              aria-hidden="true"
            />
            <FormMessages
              errors={form.errors}
              notice={actionData && "notice" in actionData ? actionData.notice : null}
            />
            <input type="hidden" name="origin" value={origin.token} />
            {signedIn ? null : (
              <Field
                meta={fields.email!}
                label={t("fields.email")}
                type="email"
                autoComplete="username"
                required
              />
            )}
            <div>
              <button type="submit" name="intent" value="sendCode" className={s.buttonSecondary}>
                {t("active.sendCode")}
              </button>
            </div>
            <Field
              meta={fields.code!}
              label={t("fields.activationCode")}
              prefix={origin.prefix}
              autoComplete="one-time-code"
              inputMode="numeric"
              required
            />
            {signedIn ? null : (
              <>
                <NewPasswordFields password={fields.password!} confirm={fields.confirmPassword!} />
              </>
            )}
            <div>
              <button
                type="submit"
                name="intent"
                value="activate"
                className={s.button}
                disabled={navigation.state !== "idle"}
              >
                {t("active.submit")}
              </button>
            </div>
          </Form>
        </FormProvider>
      </section>
    </div>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** With JavaScript, a lost request keeps the form and what was typed in it. */
export const clientAction = keepFormWhenLost();
export const shouldRevalidate = skipRevalidationWhenLost;
