import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { DriverDownloads } from "~/components/driver-downloads";
import { AcceptedFiles } from "~/components/upload/accepted-files";
import { patientLinks } from "~/components/patient-view/links";
import { PatientPageHeader, PatientTabs } from "~/components/patient-view/patient-tabs";
import { DeviceUpload } from "~/components/upload/device-upload";
import { ZoneAndMealsForm } from "~/components/zone-and-meals-form";
import { tabsFor } from "~/services/patient-view.server";
import { idParam } from "~/schemas/fields";
import { readPatient } from "~/services/patient-read.server";
import * as f from "~/styles/form.css";
import * as layout from "~/styles/layout.css";
import { placedDrivers } from "~/utils/drivers.server";
import { env } from "~/utils/env.server";
import { getLocale } from "~/services/locale.server";
import { displayName } from "~/utils/names";
import { requireUser } from "~/services/session.server";
import { saveZoneAndMeals, zoneAndMealsOf } from "~/services/zone-and-meals.server";
import { FORM_LIMIT_MS, keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

const params = z.object({ id: idParam });

async function patientFor(request: Request, raw: unknown, step: string) {
  const viewer = await requireUser(request);
  const parsed = params.safeParse(raw);
  if (!parsed.success) throw new Response("Not Found", { status: 404 });
  const read = await readPatient({
    viewer,
    pid: parsed.data.id,
    purpose: "uploadCentre",
    channel: "page",
    detail: { step },
  });
  if (!read.ok) throw new Response("Not Found", { status: 404 });
  return { viewer, patient: read.patient, now: read.now };
}

/**
 * `/patientShow/{pid}/upload`, the upload centre, for the patient and the readers the patient
 * shares with, in the four steps of the product: install the driver, connect the USB cable, check
 * the time zone and meal times (a form that works without JavaScript), choose the device and
 * upload (WebUSB or Web Serial: JavaScript and Chrome or Edge on a computer; elsewhere the page
 * says so and offers the CSV import).
 */
export async function loader({ request, params: raw }: LoaderFunctionArgs) {
  const { viewer, patient, now } = await patientFor(request, raw, "view");
  const locale = await getLocale(request);
  return {
    pid: patient.id,
    name: displayName(patient.user),
    own: patient.userId === viewer.id,
    operatorUserId: viewer.id,
    patientUserId: patient.userId,
    links: patientLinks(patient),
    tabs: tabsFor(locale),
    drivers: placedDrivers(),
    timeZone: patient.timeZone,
    zoneAndMeals: zoneAndMealsOf(patient, now),
    // Never in production: the demo, development and tests may try the upload with a simulated device.
    simulated: ["demo", "development", "test"].includes(env().DEPLOY_ENV ?? ""),
  };
}

export async function action({ request, params: raw }: ActionFunctionArgs) {
  const { viewer, patient } = await patientFor(request, raw, "settings");
  const reply = await saveZoneAndMeals(
    viewer,
    patient.id,
    Object.fromEntries(await request.formData()),
  );
  if (!reply) throw new Response("Not Found", { status: 404 });
  return data(reply, { status: reply.saved ? 200 : 400 });
}

export default function UploadCentre() {
  const { t } = useTranslation("upload");
  const { t: tp } = useTranslation("patients");
  const { t: tn } = useTranslation("nightscout");
  const page = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <article className={layout.card} aria-labelledby="patient-title">
      <PatientPageHeader title={page.own ? tp("myHome") : page.name} />
      <PatientTabs links={page.links} tabs={page.tabs} current="upload" date={null} />
      <h2>{t("centre.title")}</h2>
      <p>{t("centre.intro")}</p>
      <ol className={f.form}>
        <li>
          <h3>{t("centre.steps.driver")}</h3>
          <DriverDownloads drivers={page.drivers} />
        </li>
        <li>
          <h3>{t("centre.steps.cable")}</h3>
          <p>{t("centre.cable")}</p>
        </li>
        <li>
          <h3>{t("centre.steps.zone")}</h3>
          <ZoneAndMealsForm
            value={page.zoneAndMeals}
            reply={reply}
            zoneText={t("centre.zone")}
            zoneHint={t("centre.zoneHint")}
          />
        </li>
        <li>
          <h3>{t("centre.steps.device")}</h3>
          <DeviceUpload
            pid={page.pid}
            timeZone={page.timeZone}
            operatorUserId={page.operatorUserId}
            patientUserId={page.patientUserId}
            home={page.links.home}
            uploads={page.links.uploads}
            importHref={page.links.import}
            simulated={page.simulated}
          />
        </li>
      </ol>
      <section aria-labelledby="import-files-heading">
        <h2 id="import-files-heading">{t("centre.importTitle")}</h2>
        <p>
          {t("centre.importIntro")} <Link to={page.links.import}>{t("device.importInstead")}</Link>
        </p>
        <AcceptedFiles />
      </section>
      <section aria-labelledby="nightscout-heading">
        <h2 id="nightscout-heading">{tn("page.title")}</h2>
        <p>
          {tn("page.intro")}{" "}
          <Link to={`/patientShow/${page.pid}/nightscout`}>{tn("page.open")}</Link>
        </p>
      </section>
    </article>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** With JavaScript, a lost request keeps the form and what was typed in it. */
export const clientAction = keepFormWhenLost(FORM_LIMIT_MS.settings);
export const shouldRevalidate = skipRevalidationWhenLost;
