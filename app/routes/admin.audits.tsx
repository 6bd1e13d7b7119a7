import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuditStatus } from "~/components/audit-status";
import { FormMessages } from "~/components/form";
import { AuditState } from "~/domain/codes";
import { decideAudit, listAudits } from "~/models/organisation.server";
import { auditDecisionSchema } from "~/schemas/auth";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { displayName } from "~/utils/names";
import { requireStaff } from "~/services/session.server";
import { keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

/** Organisation audit review for admins and editors: approve, or refuse with a reason. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request);
  const audits = await listAudits();
  return {
    audits: audits.map((a) => ({
      userId: a.userId,
      clinic: displayName(a.user),
      email: a.user.email,
      isPass: a.user.isPass,
      reason: a.user.auditReason,
      fields: {
        hospitalName: a.hospitalName,
        address: a.address,
        area: a.area,
        country: a.country,
        connectName: a.connectName,
        connectPhone: a.connectPhone,
      },
      submittedAt: a.submittedAt.toISOString(),
    })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const staff = await requireStaff(request);
  const submission = parseWithZod(await request.formData(), { schema: auditDecisionSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), notice: null }, { status: 400 });
  const v = submission.value;
  const done = await decideAudit({
    reviewerId: staff.id,
    userId: v.userId,
    approve: v.intent === "approve",
    reason: v.intent === "refuse" ? v.reason : undefined,
  });
  if (!done.ok)
    return data(
      { result: submission.reply({ formErrors: [done.error] }), notice: null },
      { status: 404 },
    );
  return {
    result: submission.reply({ resetForm: true }),
    notice: v.intent === "approve" ? "audit.approvedNotice" : "audit.refusedNotice",
  };
}

export default function Audits() {
  const { t } = useTranslation("auth");
  const { audits } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const errors = actionData?.result.error
    ? Object.values(actionData.result.error)
        .flat()
        .filter((e): e is string => typeof e === "string")
    : undefined;
  return (
    <section aria-labelledby="audits-title">
      <h1 id="audits-title">{t("audit.reviewTitle")}</h1>
      <FormMessages errors={errors} notice={actionData?.notice} />
      {audits.length === 0 ? <p className={s.card}>{t("audit.noneWaiting")}</p> : null}
      {audits.map((a) => (
        <article key={a.userId} className={s.card} aria-labelledby={`audit-${a.userId}`}>
          <h2 id={`audit-${a.userId}`}>{a.fields.hospitalName}</h2>
          <AuditStatus isPass={a.isPass} reason={a.reason} />
          <dl>
            {Object.entries(a.fields).map(([key, value]) => (
              <div key={key}>
                <dt>{t(`fields.${key}`)}</dt>
                <dd>{value}</dd>
              </div>
            ))}
            <dt>{t("fields.email")}</dt>
            <dd>
              {a.clinic} · {a.email}
            </dd>
          </dl>
          {a.isPass === AuditState.InReview ? (
            <div className={f.wide}>
              <Form method="post">
                <input type="hidden" name="userId" value={a.userId} />
                <button
                  type="submit"
                  name="intent"
                  value="approve"
                  className={s.button}
                  disabled={busy}
                >
                  {t("audit.approve")}
                </button>
              </Form>
              <Form method="post" className={f.form}>
                <input type="hidden" name="userId" value={a.userId} />
                <label className={f.label} htmlFor={`reason-${a.userId}`}>
                  {t("fields.reason")}
                </label>
                <textarea id={`reason-${a.userId}`} name="reason" rows={2} className={f.input} />
                <div>
                  <button
                    type="submit"
                    name="intent"
                    value="refuse"
                    className={s.buttonSecondary}
                    disabled={busy}
                  >
                    {t("audit.refuse")}
                  </button>
                </div>
              </Form>
            </div>
          ) : null}
        </article>
      ))}
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** With JavaScript, a lost request keeps the form and what was typed in it. */
export const clientAction = keepFormWhenLost();
export const shouldRevalidate = skipRevalidationWhenLost;
