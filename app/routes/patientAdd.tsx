import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { NewPatientForm } from "~/components/new-patient-form";
import { Identity } from "~/domain/codes";
import { newPatientFormData, submitNewPatient } from "~/services/patient-add.server";
import { requireUser } from "~/services/session.server";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

/**
 * `/patientAdd`: a new patient, friend or relative by health file. A clinic must have passed its
 * organisation audit first. The creator's read share waits for the new owner's answer. The new
 * record's zone starts as the creator's own (their account's zone).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return {
    ...(await newPatientFormData(user, request)),
    isClinic: user.identity === Identity.Clinic,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return submitNewPatient(user, request, await request.formData());
}

export default function PatientAdd() {
  const { t } = useTranslation("record");
  const { allowed, isClinic, unit, options, timeZone, timeZones, bodyUnits } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();

  return (
    <div className={f.narrow}>
      <section className={s.card} aria-labelledby="add-title">
        <h1 id="add-title">{t("add.title")}</h1>
        {!allowed ? (
          <>
            <p role="alert">{t("add.notApproved")}</p>
            {isClinic ? <Link to="/organisation">{t("add.organisationLink")}</Link> : null}
          </>
        ) : (
          <>
            <p>{t("add.intro")}</p>
            <NewPatientForm
              // After a person is added the form starts afresh: nothing typed yet, nothing to lose.
              key={actionData?.added?.email ?? "new"}
              lastResult={actionData?.result}
              added={actionData?.added}
              openHref="/patientShow/patients"
              options={options}
              unit={unit}
              timeZone={timeZone}
              timeZones={timeZones}
              bodyUnits={bodyUnits}
            />
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
