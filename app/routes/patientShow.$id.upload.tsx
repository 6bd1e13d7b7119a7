import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { DriverDownloads } from "~/components/driver-downloads";
import { AcceptedFiles } from "~/components/upload/accepted-files";
import { patientLinks } from "~/components/patient-view/links";
import { PatientPageHeader, PatientTabs } from "~/components/patient-view/patient-tabs";
import { DeviceUpload } from "~/components/upload/device-upload";
import { tabsFor } from "~/services/patient-view.server";
import { savePatientSettings } from "~/models/patient.server";
import { idParam } from "~/schemas/fields";
import { secondsToTime } from "~/schemas/patient";
import { zoneAndMealsForm } from "~/schemas/setting";
import { readPatient } from "~/services/patient-read.server";
import * as f from "~/styles/form.css";
import * as layout from "~/styles/layout.css";
import { driverAvailability } from "~/utils/drivers.server";
import { env } from "~/utils/env.server";
import { getLocale } from "~/services/locale.server";
import { displayName } from "~/utils/names";
import { requireUser } from "~/services/session.server";
import { uploadTimeZones } from "~/ingest/upload-time-zones";

const params = z.object({ id: idParam });
const MEALS = ["breakfast", "lunch", "supper"] as const;

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
  const zones = uploadTimeZones(now);
  const meal = (start: number, end: number) => ({
    start: secondsToTime(start, true),
    end: secondsToTime(end, true),
  });
  return {
    pid: patient.id,
    name: displayName(patient.user),
    own: patient.userId === viewer.id,
    operatorUserId: viewer.id,
    patientUserId: patient.userId,
    links: patientLinks(patient),
    tabs: tabsFor(locale),
    drivers: driverAvailability(),
    now,
    timeZone: patient.timeZone,
    zones: zones.some((z) => z.timezone === patient.timeZone)
      ? zones
      : [
          {
            timezone: patient.timeZone,
            name: patient.timeZone.replace(/_/g, " "),
            offsetName: "",
            offset: 0,
          },
          ...zones,
        ],
    meals: {
      breakfast: meal(patient.breakfastStart, patient.breakfastEnd),
      lunch: meal(patient.lunchStart, patient.lunchEnd),
      supper: meal(patient.supperStart, patient.supperEnd),
    },
    // Never in production: the demo, development and tests may try the upload with a simulated device.
    simulated: ["demo", "development", "test"].includes(env().DEPLOY_ENV ?? ""),
  };
}

export async function action({ request, params: raw }: ActionFunctionArgs) {
  const { viewer, patient } = await patientFor(request, raw, "settings");
  const form = Object.fromEntries(await request.formData());
  const parsed = zoneAndMealsForm.safeParse(form);
  if (!parsed.success) {
    // The times as typed come back with the message, so that nothing typed is lost.
    const typed = Object.fromEntries(
      Object.entries(form).flatMap(([k, v]) =>
        typeof v === "string" ? [[k, v.slice(0, 64)]] : [],
      ),
    );
    return data(
      { saved: false, error: parsed.error.issues[0]?.message ?? "errors.mealTime", typed },
      { status: 400 },
    );
  }
  const saved = await savePatientSettings(viewer, { pid: patient.id, ...parsed.data });
  if (!saved) throw new Response("Not Found", { status: 404 });
  return data({ saved: true, error: null, typed: {} as Record<string, string> });
}

type PageData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function UploadCentre() {
  const { t } = useTranslation("upload");
  const { t: tp } = useTranslation("patients");
  const page = useLoaderData<typeof loader>();
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
          <ZoneAndMeals page={page} />
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
    </article>
  );
}

/** "08:30" in a zone at `now`, on a 24-hour clock (the zone list shows each zone's current time). */
function clockIn(zone: string, now: number, locale: string) {
  return new Intl.DateTimeFormat(locale, {
    timeZone: zone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(now);
}

/** The zone and meal-times form; with JavaScript the zones' current times move on every 30 s. */
function ZoneAndMeals({ page }: { page: PageData }) {
  const { t, i18n } = useTranslation("upload");
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const [now, setNow] = useState(page.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <Form method="post" className={f.form}>
      <div className={f.field}>
        <label className={f.label} htmlFor="upload-zone">
          {t("centre.zone")}
        </label>
        <select
          id="upload-zone"
          name="timeZone"
          className={f.input}
          defaultValue={reply?.typed.timeZone ?? page.timeZone}
        >
          {page.zones.map((zone) => (
            <option key={zone.timezone} value={zone.timezone}>
              {`${zone.offsetName ? `(${zone.offsetName}) ` : ""}${zone.name} — ${clockIn(zone.timezone, now, i18n.language)}`}
            </option>
          ))}
        </select>
        <p className={f.hint}>{t("centre.zoneHint")}</p>
      </div>
      <fieldset className={f.fieldset}>
        <legend className={f.label}>{t("centre.meals")}</legend>
        <div className={f.wide}>
          {MEALS.map((meal) => (
            <div key={meal} className={f.field}>
              <span className={f.label}>{t(`centre.meal.${meal}`)}</span>
              <label className={f.hint} htmlFor={`${meal}-start`}>
                {t("centre.from")}
              </label>
              <input
                id={`${meal}-start`}
                className={f.input}
                type="time"
                step={1}
                name={`${meal}Start`}
                defaultValue={reply?.typed[`${meal}Start`] ?? page.meals[meal].start}
                required
              />
              <label className={f.hint} htmlFor={`${meal}-end`}>
                {t("centre.to")}
              </label>
              <input
                id={`${meal}-end`}
                className={f.input}
                type="time"
                step={1}
                name={`${meal}End`}
                defaultValue={reply?.typed[`${meal}End`] ?? page.meals[meal].end}
                required
              />
            </div>
          ))}
        </div>
      </fieldset>
      {reply?.error ? (
        <p className={f.errors} role="alert">
          {t(`settings:${reply.error}`)}
        </p>
      ) : null}
      {reply?.saved ? (
        <p className={f.notice} role="status">
          {t("centre.saved")}
        </p>
      ) : null}
      <div>
        <button
          type="submit"
          className={layout.button}
          disabled={navigation.state === "submitting"}
        >
          {t("centre.save")}
        </button>
      </div>
    </Form>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
