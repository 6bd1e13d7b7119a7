import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormMessages } from "~/components/form";
import { ShareState } from "~/domain/codes";
import { describeInvitationLink, processFromEmail } from "~/models/read-power-answer.server";
import { processFromEmailSchema } from "~/schemas/read-power";
import { AnswerButtons } from "~/components/answer-buttons";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

/**
 * The invitation email's link: the doctor's name and Agree / Disagree, without signing in.
 * `data` is a signed, expiring, single-use token (app/utils/invite-token.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("data") ?? "";
  const found = await describeInvitationLink(token);
  return found.ok
    ? { token, doctorName: found.data.doctorName, error: null }
    : { token, doctorName: null, error: found.error };
}

export async function action({ request }: ActionFunctionArgs) {
  const parsed = processFromEmailSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success)
    return data(
      {
        done: null,
        doctorName: null,
        errors: parsed.error.issues.map((i) => `sharing:${i.message}`),
      },
      { status: 400 },
    );
  const result = await processFromEmail(parsed.data);
  if (!result.ok)
    return data(
      { done: null, doctorName: null, errors: [result.error] },
      { status: result.status },
    );
  return {
    done: parsed.data.state === ShareState.Accepted ? "invite.agreed" : "invite.disagreed",
    doctorName: result.data.name,
    errors: [] as string[],
  };
}

export default function InviteResult() {
  const { t } = useTranslation("sharing");
  const { token, doctorName, error } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className={f.narrow}>
      <section className={s.card} aria-labelledby="invite-title">
        <h1 id="invite-title">{t("invite.title")}</h1>
        {actionData?.done ? (
          <p role="status">{t(actionData.done, { doctorName: actionData.doctorName })}</p>
        ) : error ? (
          <FormMessages errors={[error]} ns="common" />
        ) : (
          <>
            <p>{t("invite.body", { doctorName })}</p>
            <FormMessages errors={actionData?.errors} ns="common" />
            <Form method="post">
              <input type="hidden" name="data" value={token} />
              <AnswerButtons
                name="state"
                yes={{ value: String(ShareState.Accepted), label: t("invite.agree") }}
                no={{ value: String(ShareState.Refused), label: t("invite.disagree") }}
                busy={busy}
                className={s.actions}
              />
            </Form>
          </>
        )}
      </section>
    </div>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** With JavaScript, a lost request keeps the form and what was typed in it. */
export const clientAction = keepFormWhenLost();
export const shouldRevalidate = skipRevalidationWhenLost;
