import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormMessages } from "~/components/form";
import { RecordFields, type RecordFieldsMeta } from "~/components/patient-record-fields";
import {
  cmToFeetInches,
  heightInCm,
  HeightUnit,
  weightIn,
  WeightUnit,
  type BodyUnits,
} from "~/domain/body-measures";
import { bodyUnitsOf } from "~/models/setting.server";
import { GlucoseUnit } from "~/domain/glucose-unit";
import { listOptions } from "~/models/option.server";
import {
  findPatientRecord,
  recordView,
  updatePatientRecord,
  type RecordView,
} from "~/models/patient.server";
import { readPatient } from "~/services/patient-read.server";
import {
  findOneQuery,
  MEALS,
  patientRecordSchema,
  timeToSeconds,
  secondsToTime,
} from "~/schemas/patient";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { getLocale } from "~/services/locale.server";
import { requireUser } from "~/services/session.server";
import { timeZoneOptions } from "~/utils/time-zones";
import { keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

/**
 * `/patient`: the signed-in person's own health record, as a form; `/patient?pid=N`: a record
 * shared with the viewer, read-only (access.server decides; anything else is a 404).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const raw = new URL(request.url).searchParams.get("pid");
  const parsed = raw === null ? null : findOneQuery.safeParse({ pid: raw });
  const pid = parsed ? (parsed.success ? parsed.data.pid : null) : (user.patient?.id ?? null);
  if (pid === null) throw new Response("Not Found", { status: 404 });
  const read = await readPatient({ viewer: user, pid, purpose: "record", channel: "page" });
  const record = read.ok ? await findPatientRecord(user, read.patient.id) : null;
  if (!record) throw new Response("Not Found", { status: 404 });
  const view = recordView(record, user.setting?.unit ?? GlucoseUnit.Mmol);
  const bodyUnits = await bodyUnitsOf(user.id);
  if (!record.own) return { view, bodyUnits, options: [], timeZones: [], defaults: null };
  return {
    view,
    bodyUnits,
    options: await listOptions(),
    timeZones: timeZoneOptions(record.timeZone, Date.now(), await getLocale(request)),
    defaults: formDefaults(view, bodyUnits),
  };
}

/** The form's initial values (strings, as the inputs hold them). */
function formDefaults(view: RecordView, units: BodyUnits): Record<string, string | string[]> {
  const meals = Object.fromEntries(
    MEALS.flatMap((meal) => {
      const [start, end] = view[`${meal}Time`];
      return [
        [`${meal}Start`, secondsToTime(timeToSeconds(start)!)],
        [`${meal}End`, secondsToTime(timeToSeconds(end)!)],
      ];
    }),
  );
  return {
    gender: view.gender ?? "",
    pronoun: view.pronoun ?? "",
    birthDate: view.birthDate?.replace(/\//g, "-") ?? "",
    ...bodyDefaults(view, units),
    diabetesType: view.diabetesType ? String(view.diabetesType.id) : "",
    cgmGoalSet: view.cgmGoalSet,
    basicDiseases: view.basicDiseases.map((o) => String(o.id)),
    complication: view.complications.map((o) => String(o.id)),
    lowLimit: String(view.lowLimit),
    highLimit: String(view.highLimit),
    timeZone: view.timeZone,
    ...meals,
  };
}

/** The height and weight fields' values in the user's units (empty when not known). */
function bodyDefaults(view: RecordView, units: BodyUnits): Record<string, string> {
  const fields: Record<string, string> = {
    heightUnit: String(units.height),
    weightUnit: String(units.weight),
    weight: view.weightKg === null ? "" : String(weightIn(view.weightKg, units.weight)),
  };
  if (view.heightCm === null) return fields;
  if (units.height === HeightUnit.Cm)
    return { ...fields, height: String(heightInCm(view.heightCm)) };
  const { feet, inches } = cmToFeetInches(view.heightCm);
  return { ...fields, heightFt: String(feet), heightIn: String(inches) };
}

/** The owner saves their own record (whatever `pid` the address names). */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (!user.patient) throw new Response("Not Found", { status: 404 });
  const submission = parseWithZod(await request.formData(), { schema: patientRecordSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), notice: null }, { status: 400 });
  const saved = await updatePatientRecord(user, user.patient.id, submission.value);
  if (!saved.ok) {
    const reply = saved.field
      ? submission.reply({ fieldErrors: { [saved.field]: [saved.error] } })
      : submission.reply({ formErrors: [saved.error] });
    return data({ result: reply, notice: null }, { status: saved.status });
  }
  return { result: submission.reply(), notice: "record.saved" };
}

/** A stored height and weight as the reader's units show them: "175.3 cm", "5 ft 9 in", "68 kg". */
function useBodyTexts(view: RecordView, units: BodyUnits) {
  const { t } = useTranslation("record");
  const height =
    view.heightCm === null
      ? t("record.notSet")
      : units.height === HeightUnit.FtIn
        ? t("record.feetInches", cmToFeetInches(view.heightCm))
        : t("record.centimetres", { value: heightInCm(view.heightCm) });
  const weight =
    view.weightKg === null
      ? t("record.notSet")
      : t(units.weight === WeightUnit.Lb ? "record.pounds" : "record.kilograms", {
          value: weightIn(view.weightKg, units.weight),
        });
  return { height, weight };
}

function ReadOnlyRecord({ view, units }: { view: RecordView; units: BodyUnits }) {
  const { t } = useTranslation("record");
  const unit = t(`common:units.${view.unit}`);
  const body = useBodyTexts(view, units);
  const names = (list: { code: string }[]) =>
    list.length ? list.map((o) => t(`options:names.${o.code}`)).join(", ") : t("record.none");
  const rows: [string, string][] = [
    [t("fields.gender"), view.gender ? t(`gender.${view.gender}`) : t("record.notSet")],
    [t("fields.pronoun"), view.pronoun ? t(`pronoun.${view.pronoun}`) : t("record.notSet")],
    [t("fields.birthDate"), view.birthDate ?? t("record.notSet")],
    [t("fields.height"), body.height],
    [t("fields.weight"), body.weight],
    [
      t("fields.diabetesType"),
      view.diabetesType ? t(`options:names.${view.diabetesType.code}`) : t("record.notSet"),
    ],
    [t("cgmGoalSet.label"), t(`cgmGoalSet.${view.cgmGoalSet}`)],
    [t("fields.basicDiseases"), names(view.basicDiseases)],
    [t("fields.complications"), names(view.complications)],
    [t("fields.glucoseRange"), `${view.lowLimit}–${view.highLimit} ${unit}`],
    [t("fields.timeZone"), view.timeZone],
    ...MEALS.map((meal): [string, string] => [
      t(`fields.${meal}`),
      view[`${meal}Time`].map((time) => time.slice(0, 5)).join("–"),
    ]),
  ];
  return (
    <dl>
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt className={f.label}>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export default function PatientRecord() {
  const { t } = useTranslation("record");
  const { view, bodyUnits, options, timeZones, defaults } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "patient-record",
    lastResult: actionData?.result,
    defaultValue: defaults ?? undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: patientRecordSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const home = `/patientShow/${view.pid}/${view.userId}/patientHome`;
  return (
    <div className={f.narrow}>
      <section className={s.card} aria-labelledby="record-title">
        <h1 id="record-title">
          {view.own ? t("record.title") : t("record.titleOf", { name: view.name })}
        </h1>
        {view.own ? (
          <>
            <p>{t("record.intro")}</p>
            <FormProvider context={form.context}>
              <Form method="post" {...getFormProps(form)} className={f.form}>
                <FormMessages errors={form.errors} notice={actionData?.notice} ns="record" />
                <RecordFields
                  fields={fields as unknown as RecordFieldsMeta}
                  options={options}
                  unit={view.unit}
                  bodyUnits={bodyUnits}
                  timeZones={timeZones}
                />
                <div className={f.links}>
                  <button type="submit" className={s.button} disabled={navigation.state !== "idle"}>
                    {t("record.submit")}
                  </button>
                  <Link to={home}>{t("common:nav.home")}</Link>
                </div>
              </Form>
            </FormProvider>
          </>
        ) : (
          <>
            <p>{t("record.readOnly")}</p>
            {view.active ? null : <p>{t("record.notActive")}</p>}
            <ReadOnlyRecord view={view} units={bodyUnits} />
            <Link to={home}>{view.name}</Link>
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
