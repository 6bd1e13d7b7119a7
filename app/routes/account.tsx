import { FormProvider, getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { useTranslation } from "react-i18next";
import { ConfirmStep, Field, FormMessages, NewPasswordFields } from "~/components/form";
import { ImageUploadSection } from "~/components/image-upload";
import { Identity } from "~/domain/codes";
import { deleteAccount } from "~/models/account-deletion.server";
import {
  changeEmail,
  changePassword,
  requestPasswordReset,
  resetPassword,
  sendChangeEmailCode,
  signOutEverywhere,
} from "~/models/account.server";
import {
  accountProfile,
  removeProfilePhoto,
  saveProfile,
  saveProfilePhoto,
} from "~/models/profile.server";
import { clientIp } from "~/models/rate-limit.server";
import { shiftDate, todayIn } from "~/report/day";
import { EXPORT_MAX_DAYS } from "~/report/report-range";
import {
  changeEmailSchema,
  changePasswordSchema,
  deleteAccountSchema,
  photoSchema,
  PHOTO_MAX_BYTES,
  profileSchema,
  resetPasswordSchema,
  sendCodeSchema,
  type ProfileInput,
} from "~/schemas/auth";
import * as ac from "~/styles/account.css";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { getLocale } from "~/services/locale.server";
import { destroySession, getSession, getSessionUser } from "~/services/session.server";
import { formError, refusalInit } from "~/services/throttle-response.server";
import { readFileForm } from "~/utils/file-form.server";
import { profilePhotoSrc } from "~/utils/profile-photo";
import { keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

/**
 * `/account`, open to everyone. Signed in: the profile (names and photo), change password, change
 * email, sign out everywhere else, and delete the account. Signed out: reset a forgotten password
 * with an emailed code. Removing the photo, signing out everywhere and deleting the account each
 * ask again on a second step (`?confirm=`), which works without JavaScript.
 */
const NO_FIELDS = z.object({});
const SCHEMAS = {
  profile: profileSchema,
  photo: photoSchema,
  removePhoto: NO_FIELDS,
  password: changePasswordSchema,
  sendEmailCode: sendCodeSchema,
  email: changeEmailSchema,
  signOutEverywhere: NO_FIELDS,
  deleteAccount: deleteAccountSchema,
  sendResetCode: sendCodeSchema,
  reset: resetPasswordSchema,
} as const;
type Intent = keyof typeof SCHEMAS;
const intentSchema = z.enum(Object.keys(SCHEMAS) as [Intent, ...Intent[]]);
const SIGNED_IN: Intent[] = [
  "profile",
  "photo",
  "removePhoto",
  "password",
  "sendEmailCode",
  "email",
  "signOutEverywhere",
  "deleteAccount",
];
const HIDDEN = ["currentPassword", "password", "confirmPassword"];
const CONFIRMS = ["removePhoto", "signOutEverywhere", "deleteAccount"] as const;
const confirmSchema = z.enum(CONFIRMS);
/** Room for the multipart boundaries and the intent field around one photo. */
const MULTIPART_OVERHEAD_BYTES = 16 * 1024;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  if (user && !user.active) throw redirect("/active");
  if (!user) return { signedIn: false as const };
  const profile = await accountProfile(user.id);
  const confirm = confirmSchema.safeParse(new URL(request.url).searchParams.get("confirm"));
  const patient = profile.identity === Identity.Person ? profile.patient : null;
  const today = patient ? todayIn(patient.timeZone, Date.now()) : null;
  return {
    signedIn: true as const,
    email: profile.email,
    identity: profile.identity,
    profile: {
      firstName: profile.firstName ?? "",
      middleName: profile.middleName ?? "",
      lastName: profile.lastName ?? "",
      userName: profile.userName ?? "",
    },
    photoSrc: profile.photoVersion === null ? null : profilePhotoSrc(profile.photoVersion),
    confirm: confirm.success ? confirm.data : null,
    // A person's records of the last year (the most one export holds), and the page that
    // exports other ranges.
    dataExport:
      patient && today
        ? {
            file: `/patientShow/${patient.id}/export.csv?${new URLSearchParams({
              start: shiftDate(today, -(EXPORT_MAX_DAYS - 1)),
              end: today,
            })}`,
            page: `/patientShow/${patient.id}/import#export-heading`,
          }
        : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readFileForm(request, {
    maxFileBytes: PHOTO_MAX_BYTES,
    overheadBytes: MULTIPART_OVERHEAD_BYTES,
  });
  if (formData === "tooLarge")
    return data(
      {
        intent: "photo" as Intent,
        result: { status: "error", error: { photo: ["errors.photoTooLarge"] } } as SubmissionResult<
          string[]
        >,
        notice: null,
      },
      { status: 413 },
    );
  const intent = intentSchema.safeParse(formData.get("intent"));
  if (!intent.success) throw new Response("Bad Request", { status: 400 });
  const user = await getSessionUser(request);
  if (SIGNED_IN.includes(intent.data) !== Boolean(user?.active))
    throw redirect(user ? "/account" : "/login?redirectTo=/account");
  const submission = parseWithZod(formData, { schema: SCHEMAS[intent.data] });
  const reply = (
    extra: Parameters<typeof submission.reply>[0] = {},
    notice: string | null = null,
    status = 400,
  ) =>
    data(
      { intent: intent.data, result: submission.reply({ hideFields: HIDDEN, ...extra }), notice },
      { status },
    );
  const refused = (refusal: { error: string; retryAfterSeconds?: number }) =>
    data(
      {
        intent: intent.data,
        result: submission.reply({ hideFields: HIDDEN, formErrors: [formError(refusal)] }),
        notice: null,
      },
      refusalInit(refusal),
    );
  if (submission.status !== "success") return reply();
  const locale = await getLocale(request);
  const ip = clientIp(request);
  const v = submission.value as Record<string, string>;

  switch (intent.data) {
    case "profile": {
      await saveProfile(user!.id, submission.value as ProfileInput);
      return reply({}, "account.profileSaved", 200);
    }
    case "photo": {
      const photo = (submission.value as z.infer<typeof photoSchema>).photo;
      const saved = await saveProfilePhoto(user!.id, new Uint8Array(await photo.arrayBuffer()));
      return saved.ok
        ? reply({ resetForm: true }, "account.photoSaved", 200)
        : reply({ fieldErrors: { photo: [saved.error] } });
    }
    case "removePhoto": {
      await removeProfilePhoto(user!.id);
      return reply({}, "account.photoRemoved", 200);
    }
    case "password": {
      const session = await getSession(request);
      const done = await changePassword({
        userId: user!.id,
        currentPassword: v.currentPassword!,
        password: v.password!,
        keepSessionId: session.id,
      });
      return done.ok
        ? reply({ resetForm: true }, "account.passwordChanged", 200)
        : reply({ fieldErrors: { currentPassword: [done.error] } });
    }
    case "sendEmailCode": {
      const sent = await sendChangeEmailCode({ userId: user!.id, email: v.email!, locale, ip });
      return sent.ok ? reply({}, "account.codeSent", 200) : refused(sent);
    }
    case "email": {
      const done = await changeEmail({
        userId: user!.id,
        email: v.email!,
        code: v.code!,
        currentPassword: v.currentPassword!,
      });
      return done.ok
        ? reply({ resetForm: true }, "account.emailChanged", 200)
        : reply({ formErrors: [done.error] });
    }
    case "signOutEverywhere": {
      const session = await getSession(request);
      await signOutEverywhere({ userId: user!.id, keepSessionId: session.id });
      return reply({}, "account.signedOutEverywhere", 200);
    }
    case "deleteAccount": {
      const done = await deleteAccount({ userId: user!.id, currentPassword: v.currentPassword! });
      if (!done.ok) return reply({ fieldErrors: { currentPassword: [done.error] } });
      return redirect("/login?deleted=1", {
        headers: { "Set-Cookie": await destroySession(request) },
      });
    }
    case "sendResetCode": {
      const sent = await requestPasswordReset({ email: v.email!, locale, ip });
      return sent.ok ? reply({}, "account.resetCodeSent", 200) : refused(sent);
    }
    case "reset": {
      const done = await resetPassword({ email: v.email!, code: v.code!, password: v.password! });
      return done.ok ? redirect("/login?reset=1") : reply({ fieldErrors: { code: [done.error] } });
    }
  }
}

type SignedIn = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { signedIn: true }>;

/** The action's answer if it was for one of these intents. */
function useReply(intents: Intent[]) {
  const actionData = useActionData<typeof action>();
  return actionData && intents.includes(actionData.intent) ? actionData : undefined;
}

function AccountForm({
  id,
  intents,
  title,
  action,
  defaultValue,
  children,
}: {
  id: string;
  intents: Intent[];
  title: string;
  action?: string;
  defaultValue?: Record<string, string>;
  children: (fields: ReturnType<typeof useAccountForm>[1]) => React.ReactNode;
}) {
  const mine = useReply(intents);
  const [form, fields] = useAccountForm(id, mine?.result, defaultValue);
  const navigation = useNavigation();
  return (
    <section className={s.card} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <FormProvider context={form.context}>
        <Form
          method="post"
          action={action}
          {...getFormProps(form)}
          className={f.form}
          aria-busy={navigation.state !== "idle"}
        >
          <FormMessages errors={form.errors} notice={mine?.notice} />
          {children(fields)}
        </Form>
      </FormProvider>
    </section>
  );
}

function useAccountForm(
  id: string,
  lastResult: SubmissionResult<string[]> | undefined,
  defaultValue?: Record<string, string>,
) {
  return useForm<Record<string, unknown>>({
    id,
    lastResult,
    defaultValue,
    onValidate: ({ formData }) => {
      const intent = intentSchema.safeParse(formData.get("intent"));
      return parseWithZod(formData, { schema: SCHEMAS[intent.success ? intent.data : "password"] });
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
}

function Submit({
  intent,
  label,
  secondary = false,
}: {
  intent: Intent;
  label: string;
  secondary?: boolean;
}) {
  return (
    <div>
      <button
        type="submit"
        name="intent"
        value={intent}
        className={secondary ? s.buttonSecondary : s.button}
      >
        {label}
      </button>
    </div>
  );
}

export default function Account() {
  const { t } = useTranslation("auth");
  const page = useLoaderData<typeof loader>();

  if (!page.signedIn) {
    return (
      <div className={f.narrow}>
        <h1>{t("account.resetTitle")}</h1>
        <AccountForm
          id="reset"
          intents={["sendResetCode", "reset"]}
          title={t("account.resetIntro")}
        >
          {(fields) => (
            <>
              <Field
                meta={fields.email!}
                label={t("fields.email")}
                type="email"
                autoComplete="username"
                required
              />
              <Submit intent="sendResetCode" label={t("register.sendCode")} secondary />
              <Field
                meta={fields.code!}
                label={t("fields.code")}
                autoComplete="one-time-code"
                inputMode="numeric"
                required
              />
              <NewPasswordFields password={fields.password!} confirm={fields.confirmPassword!} />
              <Submit intent="reset" label={t("account.resetSubmit")} />
            </>
          )}
        </AccountForm>
      </div>
    );
  }

  return (
    <div className={f.narrow}>
      <h1>{t("account.title")}</h1>
      <p>{t("account.signedInAs", { email: page.email })}</p>
      <AccountForm
        id="profile"
        intents={["profile"]}
        title={t("account.profileTitle")}
        action="/account#profile"
        defaultValue={page.profile}
      >
        {(fields) => (
          <>
            <Field
              meta={fields.firstName!}
              label={t("fields.firstName")}
              autoComplete="given-name"
              required
            />
            <Field
              meta={fields.middleName!}
              label={t("fields.middleName")}
              autoComplete="additional-name"
            />
            <Field
              meta={fields.lastName!}
              label={t("fields.lastName")}
              autoComplete="family-name"
              required
            />
            <Field
              meta={fields.userName!}
              label={t("fields.userName")}
              autoComplete="nickname"
              hint={t("account.userNameHint")}
            />
            <Submit intent="profile" label={t("account.profileSubmit")} />
          </>
        )}
      </AccountForm>
      <PhotoSection photoSrc={page.photoSrc} confirmRemove={page.confirm === "removePhoto"} />
      <AccountForm
        id="password"
        intents={["password"]}
        title={t("account.passwordTitle")}
        action="/account#password"
      >
        {(fields) => (
          <>
            <Field
              meta={fields.currentPassword!}
              label={t("fields.currentPassword")}
              type="password"
              autoComplete="current-password"
              required
            />
            <NewPasswordFields password={fields.password!} confirm={fields.confirmPassword!} />
            <Submit intent="password" label={t("account.passwordSubmit")} />
          </>
        )}
      </AccountForm>
      <AccountForm
        id="email"
        intents={["sendEmailCode", "email"]}
        title={t("account.emailTitle")}
        action="/account#email"
      >
        {(fields) => (
          <>
            <Field
              meta={fields.email!}
              label={t("fields.newEmail")}
              type="email"
              autoComplete="email"
              required
            />
            <Submit intent="sendEmailCode" label={t("register.sendCode")} secondary />
            <Field
              meta={fields.code!}
              label={t("fields.code")}
              autoComplete="one-time-code"
              inputMode="numeric"
              required
            />
            <Field
              meta={fields.currentPassword!}
              label={t("fields.currentPassword")}
              type="password"
              autoComplete="current-password"
              required
            />
            <Submit intent="email" label={t("account.emailSubmit")} />
          </>
        )}
      </AccountForm>
      <SessionsSection confirm={page.confirm === "signOutEverywhere"} />
      <DeleteSection page={page} />
    </div>
  );
}

function PhotoSection({
  photoSrc,
  confirmRemove,
}: {
  photoSrc: string | null;
  confirmRemove: boolean;
}) {
  const { t } = useTranslation("auth");
  const answer = useReply(["photo", "removePhoto"]);
  return (
    <ImageUploadSection
      field="photo"
      page="/account"
      schema={photoSchema}
      src={photoSrc}
      confirmRemove={confirmRemove}
      answer={answer}
      ns="auth"
      imageClassName={ac.photo}
      texts={{
        title: t("account.photoTitle"),
        current: t("account.photoCurrent"),
        none: t("account.photoNone"),
        file: t("account.photoFile"),
        hint: t("account.photoHint", { size: PHOTO_MAX_BYTES / 1024 }),
        upload: t("account.photoUpload"),
        remove: t("account.photoRemove"),
        removeConfirm: t("account.photoRemoveConfirm"),
        removeYes: t("account.photoRemoveYes"),
        removeNo: t("account.cancel"),
      }}
    />
  );
}

function SessionsSection({ confirm }: { confirm: boolean }) {
  const { t } = useTranslation("auth");
  const answer = useReply(["signOutEverywhere"]);
  const navigation = useNavigation();
  return (
    <section id="sessions" className={s.card} aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t("account.sessionsTitle")}</h2>
      <FormMessages notice={answer?.notice} />
      <p>{t("account.sessionsIntro")}</p>
      {confirm ? (
        <ConfirmStep
          id="sessions-question"
          message={t("account.sessionsConfirm")}
          intent="signOutEverywhere"
          action="/account#sessions"
          confirm={t("account.sessionsYes")}
          cancel={t("account.cancel")}
          cancelTo="/account#sessions"
          busy={navigation.state !== "idle"}
        />
      ) : (
        <div className={s.actions}>
          <Link to="/account?confirm=signOutEverywhere#sessions" className={s.buttonSecondary}>
            {t("account.sessionsSubmit")}
          </Link>
        </div>
      )}
    </section>
  );
}

function DeleteSection({ page }: { page: SignedIn }) {
  const { t } = useTranslation("auth");
  const clinic = page.identity === Identity.Clinic;
  return (
    <section id="delete" className={s.card} aria-labelledby="delete-title">
      <h2 id="delete-title">{t("account.deleteTitle")}</h2>
      {page.dataExport ? (
        <>
          <p>{t("account.exportIntro")}</p>
          <div className={s.actions}>
            <a href={page.dataExport.file} className={s.buttonSecondary}>
              {t("account.exportLastYear")}
            </a>
            <Link to={page.dataExport.page} className={s.buttonSecondary}>
              {t("account.exportOther")}
            </Link>
          </div>
        </>
      ) : null}
      {page.confirm === "deleteAccount" ? (
        <DeleteStep clinic={clinic} />
      ) : (
        <>
          <p>{t("account.deleteIntro")}</p>
          <div className={s.actions}>
            <Link to="/account?confirm=deleteAccount#delete" className={s.buttonSecondary}>
              {t("account.deleteStart")}
            </Link>
          </div>
        </>
      )}
    </section>
  );
}

/** The second step of deleting the account: what goes, and the current password to confirm it. */
function DeleteStep({ clinic }: { clinic: boolean }) {
  const { t } = useTranslation("auth");
  const answer = useReply(["deleteAccount"]);
  const [form, fields] = useAccountForm("delete-account", answer?.result);
  const navigation = useNavigation();
  const consequences = clinic
    ? [
        "deleteClinicAccount",
        "deleteClinicShares",
        "deleteClinicUploads",
        "deleteSessions",
        "deleteFinal",
      ]
    : [
        "deletePersonAccount",
        "deletePersonRecords",
        "deletePersonShares",
        "deleteSessions",
        "deleteFinal",
      ];
  return (
    <FormProvider context={form.context}>
      <Form
        method="post"
        action="/account?confirm=deleteAccount#delete"
        {...getFormProps(form)}
        className={f.form}
        aria-labelledby="delete-question"
      >
        <p id="delete-question" role="alert">
          {t("account.deleteQuestion")}
        </p>
        <ul className={ac.consequences}>
          {consequences.map((key) => (
            <li key={key}>{t(`account.${key}`)}</li>
          ))}
        </ul>
        <FormMessages errors={form.errors} />
        <Field
          meta={fields.currentPassword!}
          label={t("fields.currentPassword")}
          type="password"
          autoComplete="current-password"
          required
        />
        <div className={s.actions}>
          <button
            type="submit"
            name="intent"
            value="deleteAccount"
            className={`${s.button} ${ac.danger}`}
            disabled={navigation.state !== "idle"}
          >
            {t("account.deleteSubmit")}
          </button>
          <Link to="/account#delete" className={s.buttonSecondary}>
            {t("account.cancel")}
          </Link>
        </div>
      </Form>
    </FormProvider>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** With JavaScript, a lost request keeps the form and what was typed in it. */
export const clientAction = keepFormWhenLost();
export const shouldRevalidate = skipRevalidationWhenLost;
