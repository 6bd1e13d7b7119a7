import {
  FormProvider,
  getFormProps,
  getSelectProps,
  useForm,
  type SubmissionResult,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { CheckboxField, ChoiceGroup, ErrorList, Field, FormMessages } from "~/components/form";
import { GlucoseUnit, toGlucoseUnit } from "~/domain/glucose-unit";
import { saveTargetRange } from "~/models/patient.server";
import { targetRangeSchema } from "~/schemas/patient";
import { ReportHeader } from "~/components/report/report-header";
import {
  removeReportLogo,
  saveAccountZone,
  saveReportLogo,
  saveSettings,
  userSettings,
} from "~/models/setting.server";
import { shiftDate, todayIn } from "~/report/day";
import {
  accountZoneSchema,
  LOGO_MAX_BYTES,
  logoSchema,
  NAME_STYLES,
  ORIENTATIONS,
  settingsSchema,
} from "~/schemas/setting";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import * as st from "~/styles/settings.css";
import { getLocale } from "~/services/locale.server";
import { readFileForm } from "~/utils/file-form.server";
import { requireUser } from "~/services/session.server";
import {
  ownDaySettings,
  saveZoneAndMeals,
  type TargetRange,
  type ZoneAndMeals,
  type ZoneAndMealsReply,
} from "~/services/zone-and-meals.server";
import { ImageUploadSection } from "~/components/image-upload";
import { ZoneAndMealsForm } from "~/components/zone-and-meals-form";
import { useZoneClock, ZoneOptions } from "~/components/zone-options";
import { supportedLngs } from "~/i18n";
import { PAPER_SIZES } from "~/utils/paper-size";
import { reportLogoSrc } from "~/utils/report-logo";
import { accountZone, isListedZone, timeZoneList } from "~/utils/time-zones";
import { formatDateRange, formatDateTime } from "~/report/locale-format";
import { FORM_LIMIT_MS, keepFormWhenLost, skipRevalidationWhenLost } from "~/utils/lost-request";

/**
 * `/newsetting` (signed-in only; `/setting` leads here): language and units for glucose, weight
 * and height; for a person with a health record, their time zone, meal times and glucose target
 * range; for an account without one, the zone of its own times (none: UTC); the print
 * reports' paper size (A4 or US Letter), orientation, title alignment and split line; the report
 * logo; and a preview of the report header on a sheet of the saved paper, with the saved
 * settings, made now on the account's clock. Every form works without JavaScript. Removing the
 * logo is confirmed on a second step (`?confirm=removeLogo`), as deleting a share is.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const now = Date.now();
  const zone = accountZone(user);
  const today = todayIn(zone, now);
  // Without saved settings the form offers the language the page is read in.
  const locale = await getLocale(request);
  const settings = await userSettings(user.id, locale);
  const chosen = settings.timeZone && isListedZone(settings.timeZone) ? settings.timeZone : null;
  return {
    settings,
    day: await ownDaySettings(user, toGlucoseUnit(user.setting?.unit)),
    accountZone: user.patient ? null : { chosen, zones: timeZoneList(now), now },
    confirmRemove: new URL(request.url).searchParams.get("confirm") === "removeLogo",
    /** The own patient record, whose Nightscout links the page points to. */
    ownPid: user.patient?.id ?? null,
    sample: {
      range: formatDateRange(shiftDate(today, -13), today, locale),
      generatedAt: formatDateTime(now, zone, locale),
      timeZone: zone,
    },
  };
}

const intentSchema = z.enum(["settings", "day", "range", "zone", "logo", "removeLogo"]);
type Intent = z.infer<typeof intentSchema>;
/** Room for the multipart boundaries and the intent field around one logo. */
const MULTIPART_OVERHEAD_BYTES = 16 * 1024;

function reply(
  intent: Intent,
  result: SubmissionResult<string[]> | null,
  notice: string | null,
  status = 200,
  day: ZoneAndMealsReply | null = null,
) {
  return data({ intent, result, notice, day }, { status });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await readFileForm(request, {
    maxFileBytes: LOGO_MAX_BYTES,
    overheadBytes: MULTIPART_OVERHEAD_BYTES,
  });
  if (formData === "tooLarge")
    return reply("logo", { status: "error", error: { logo: ["errors.logoTooLarge"] } }, null, 413);
  const intent = intentSchema.safeParse(formData.get("intent"));
  if (!intent.success) throw new Response("Bad Request", { status: 400 });
  const lang = await getLocale(request);

  switch (intent.data) {
    case "settings": {
      const submission = parseWithZod(formData, { schema: settingsSchema });
      if (submission.status !== "success") return reply("settings", submission.reply(), null, 400);
      const saved = await saveSettings(user.id, submission.value);
      if (!saved.ok)
        return reply("settings", submission.reply({ formErrors: [saved.error] }), null, 400);
      return reply("settings", submission.reply(), "notices.saved");
    }
    case "zone": {
      // A person with a health record reads their times in the record's zone (the day section).
      if (user.patient) throw new Response("Not Found", { status: 404 });
      const submission = parseWithZod(formData, { schema: accountZoneSchema });
      if (submission.status !== "success") return reply("zone", submission.reply(), null, 400);
      const saved = await saveAccountZone(user.id, submission.value.timeZone, lang);
      if (!saved.ok)
        return reply(
          "zone",
          submission.reply({ fieldErrors: { timeZone: [saved.error] } }),
          null,
          400,
        );
      return reply("zone", submission.reply(), "notices.zoneSaved");
    }
    case "day": {
      if (!user.patient) throw new Response("Not Found", { status: 404 });
      const fields = Object.fromEntries(
        [...formData].filter((entry): entry is [string, string] => typeof entry[1] === "string"),
      );
      const day = await saveZoneAndMeals(user, user.patient.id, fields);
      if (!day) throw new Response("Not Found", { status: 404 });
      return reply("day", null, null, day.saved ? 200 : 400, day);
    }
    case "range": {
      if (!user.patient) throw new Response("Not Found", { status: 404 });
      const submission = parseWithZod(formData, { schema: targetRangeSchema });
      if (submission.status !== "success") return reply("range", submission.reply(), null, 400);
      if (!(await saveTargetRange(user, user.patient.id, submission.value)))
        throw new Response("Not Found", { status: 404 });
      return reply("range", submission.reply(), "notices.rangeSaved");
    }
    case "logo": {
      const submission = parseWithZod(formData, { schema: logoSchema });
      if (submission.status !== "success") return reply("logo", submission.reply(), null, 400);
      const saved = await saveReportLogo(
        user.id,
        new Uint8Array(await submission.value.logo.arrayBuffer()),
        lang,
      );
      if (!saved.ok)
        return reply("logo", submission.reply({ fieldErrors: { logo: [saved.error] } }), null, 400);
      return reply("logo", submission.reply({ resetForm: true }), "notices.logoSaved");
    }
    case "removeLogo": {
      await removeReportLogo(user.id);
      return reply("removeLogo", null, "notices.logoRemoved");
    }
  }
}

type PageData = ReturnType<typeof useLoaderData<typeof loader>>;

/** The action's answer if it was for one of these intents. */
function useReply(...intents: Intent[]) {
  const answer = useActionData<typeof action>();
  return answer && intents.includes(answer.intent) ? answer : undefined;
}

export default function NewSetting() {
  const { t } = useTranslation("settings");
  const { t: tn } = useTranslation("nightscout");
  const { settings, day, accountZone, confirmRemove, sample, ownPid } =
    useLoaderData<typeof loader>();
  // The version changes with every save, so that a new logo is not hidden by the cached old one.
  const logoSrc = settings.logo ? reportLogoSrc(settings.logo.version) : null;
  return (
    <div className={st.page}>
      <h1>{t("title")}</h1>
      <p>
        {t("intro")} <Link to="/supports#printsettings">{t("print.help")}</Link>
      </p>
      <SettingsForm settings={settings} />
      {day ? <DaySection value={day.zoneAndMeals} range={day.targetRange} /> : null}
      {accountZone ? <AccountZoneSection value={accountZone} /> : null}
      {ownPid !== null ? (
        <section className={s.card} aria-labelledby="nightscout-title">
          <h2 id="nightscout-title">{tn("page.title")}</h2>
          <p>
            {tn("page.intro")}{" "}
            <Link to={`/patientShow/${ownPid}/nightscout`}>{tn("page.open")}</Link>
          </p>
        </section>
      ) : null}
      <LogoSection logoSrc={logoSrc} confirmRemove={confirmRemove} />
      <Preview settings={settings} sample={sample} logoSrc={logoSrc} />
    </div>
  );
}

function SettingsForm({ settings }: { settings: PageData["settings"] }) {
  const { t } = useTranslation("settings");
  const answer = useReply("settings");
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "settings",
    lastResult: answer?.result,
    defaultValue: {
      lang: settings.lang,
      unit: String(settings.unit),
      weightUnit: String(settings.weightUnit),
      heightUnit: String(settings.heightUnit),
      paperSize: settings.paperSize,
      orientation: settings.orientation,
      nameStyle: String(settings.nameStyle),
      splitLine: settings.splitLine ? "on" : undefined,
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: settingsSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <FormProvider context={form.context}>
      <Form method="post" action="/newsetting" {...getFormProps(form)}>
        <FormMessages errors={form.errors} notice={answer?.notice} ns="settings" />
        <section className={s.card} aria-labelledby="units-title">
          <h2 id="units-title">{t("units.title")}</h2>
          <div className={st.choices}>
            <ChoiceGroup
              meta={fields.lang}
              legend={t("language")}
              choices={supportedLngs.map((l) => ({
                value: l,
                label: t(`common:languages.${l}`),
                lang: l,
              }))}
              ns="settings"
            />
            <ChoiceGroup
              meta={fields.unit}
              legend={t("units.glucose")}
              choices={[0, 1].map((u) => ({ value: String(u), label: t(`common:units.${u}`) }))}
              ns="settings"
            />
            <ChoiceGroup
              meta={fields.weightUnit}
              legend={t("units.weight")}
              choices={[
                { value: "0", label: t("units.kg") },
                { value: "1", label: t("units.lb") },
              ]}
              ns="settings"
            />
            <ChoiceGroup
              meta={fields.heightUnit}
              legend={t("units.height")}
              choices={[
                { value: "0", label: t("units.cm") },
                { value: "1", label: t("units.ftIn") },
              ]}
              ns="settings"
            />
          </div>
        </section>
        <section className={s.card} aria-labelledby="print-title">
          <h2 id="print-title">{t("print.title")}</h2>
          <div className={st.choices}>
            <ChoiceGroup
              meta={fields.paperSize}
              legend={t("print.paperSize")}
              choices={PAPER_SIZES.map((p) => ({ value: p, label: t(`print.${p}`) }))}
              ns="settings"
            />
            <ChoiceGroup
              meta={fields.orientation}
              legend={t("print.orientation")}
              choices={ORIENTATIONS.map((o) => ({ value: o, label: t(`print.${o}`) }))}
              ns="settings"
            />
            <ChoiceGroup
              meta={fields.nameStyle}
              legend={t("print.nameStyle")}
              choices={NAME_STYLES.map((n, i) => ({ value: String(i), label: t(`print.${n}`) }))}
              ns="settings"
            />
          </div>
          <CheckboxField meta={fields.splitLine} label={t("print.splitLine")} ns="settings" />
          <div className={s.actions}>
            <button
              type="submit"
              name="intent"
              value="settings"
              className={s.button}
              disabled={navigation.state !== "idle"}
            >
              {t("save")}
            </button>
          </div>
        </section>
      </Form>
    </FormProvider>
  );
}

/**
 * The person's time zone and meal times (the same form, rules and saving as the upload centre's),
 * and their glucose target range (the health record's rules).
 */
function DaySection({ value, range }: { value: ZoneAndMeals; range: TargetRange }) {
  const { t } = useTranslation("settings");
  const answer = useReply("day");
  return (
    <section id="day" className={s.card} aria-labelledby="day-title">
      <h2 id="day-title">{t("day.title")}</h2>
      <p>
        {t("day.intro")} <Link to="/patient">{t("day.record")}</Link>
      </p>
      <ZoneAndMealsForm
        value={value}
        reply={answer?.day ?? undefined}
        zoneText={t("day.zone")}
        zoneHint={t("day.zoneHint")}
        action="/newsetting#day"
        intent="day"
      />
      <TargetRangeForm range={range} />
    </section>
  );
}

function TargetRangeForm({ range }: { range: TargetRange }) {
  const { t } = useTranslation("settings");
  const answer = useReply("range");
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "target-range",
    lastResult: answer?.result,
    defaultValue: { lowLimit: String(range.lowLimit), highLimit: String(range.highLimit) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: targetRangeSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const unitText = t(`common:units.${range.unit}`);
  const number = {
    type: "number",
    inputMode: "decimal",
    step: range.unit === GlucoseUnit.Mgdl ? "1" : "0.1",
    ns: "record",
    required: true,
  } as const;
  return (
    <FormProvider context={form.context}>
      <Form method="post" action="/newsetting#day" {...getFormProps(form)} className={f.form}>
        <h3>{t("day.range")}</h3>
        <p className={f.hint}>{t("record:fields.glucoseRangeHint", { unit: unitText })}</p>
        <FormMessages errors={form.errors} notice={answer?.notice} ns="settings" />
        <input type="hidden" name="unit" value={range.unit} />
        <div className={f.wide}>
          <Field
            meta={fields.lowLimit}
            label={t("record:fields.lowLimit", { unit: unitText })}
            {...number}
          />
          <Field
            meta={fields.highLimit}
            label={t("record:fields.highLimit", { unit: unitText })}
            {...number}
          />
        </div>
        <div>
          <button
            type="submit"
            name="intent"
            value="range"
            className={s.button}
            disabled={navigation.state !== "idle"}
          >
            {t("day.saveRange")}
          </button>
        </div>
      </Form>
    </FormProvider>
  );
}

/**
 * The zone of the account's own times, for an account without a health record: one of the 31, or
 * none (UTC). Each zone shows its offset, its name and the time there; with JavaScript those times
 * move on every 30 s.
 */
function AccountZoneSection({ value }: { value: NonNullable<PageData["accountZone"]> }) {
  const { t } = useTranslation("settings");
  const answer = useReply("zone");
  const navigation = useNavigation();
  const now = useZoneClock(value.now);
  const [form, fields] = useForm({
    id: "account-zone",
    lastResult: answer?.result,
    defaultValue: { timeZone: value.chosen ?? "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: accountZoneSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const hintId = `${fields.timeZone.id}-hint`;
  const select = getSelectProps(fields.timeZone, { ariaDescribedBy: hintId });
  return (
    <section id="zone" className={s.card} aria-labelledby="zone-title">
      <h2 id="zone-title">{t("zone.title")}</h2>
      <p>{t("zone.intro")}</p>
      <p data-testid="account-zone-now">
        {value.chosen ? t("zone.current", { zone: value.chosen }) : t("zone.currentNone")}
      </p>
      <Form method="post" action="/newsetting#zone" {...getFormProps(form)} className={f.form}>
        <FormMessages errors={form.errors} notice={answer?.notice} ns="settings" />
        <div className={f.field}>
          <label htmlFor={fields.timeZone.id} className={f.label}>
            {t("zone.label")}
          </label>
          <p id={hintId} className={f.hint}>
            {t("zone.hint")}
          </p>
          <select {...select} key={select.key} className={f.input}>
            <option value="">{t("zone.none")}</option>
            <ZoneOptions zones={value.zones} now={now} />
          </select>
          <ErrorList id={fields.timeZone.errorId} errors={fields.timeZone.errors} ns="settings" />
        </div>
        <div>
          <button
            type="submit"
            name="intent"
            value="zone"
            className={s.button}
            disabled={navigation.state !== "idle"}
          >
            {t("zone.save")}
          </button>
        </div>
      </Form>
    </section>
  );
}

function LogoSection({
  logoSrc,
  confirmRemove,
}: {
  logoSrc: string | null;
  confirmRemove: boolean;
}) {
  const { t } = useTranslation("settings");
  const answer = useReply("logo", "removeLogo");
  return (
    <ImageUploadSection
      field="logo"
      page="/newsetting"
      schema={logoSchema}
      src={logoSrc}
      confirmRemove={confirmRemove}
      answer={answer}
      ns="settings"
      imageClassName={st.currentLogo}
      texts={{
        title: t("logo.title"),
        current: t("logo.current"),
        none: t("logo.none"),
        file: t("logo.file"),
        hint: t("logo.hint", { size: LOGO_MAX_BYTES / 1024 }),
        upload: t("logo.upload"),
        remove: t("logo.remove"),
        removeConfirm: t("logo.removeConfirm"),
        removeYes: t("logo.removeYes"),
        removeNo: t("logo.removeNo"),
      }}
    />
  );
}

function Preview({
  settings,
  sample,
  logoSrc,
}: {
  settings: PageData["settings"];
  sample: PageData["sample"];
  logoSrc: string | null;
}) {
  const { t } = useTranslation("settings");
  return (
    <section className={s.card} aria-labelledby="preview-title">
      <h2 id="preview-title">{t("preview.title")}</h2>
      <p className={f.hint}>
        {t("preview.note", {
          paper: t(`print.${settings.paperSize}`),
          orientation: t(`print.${settings.orientation}`),
        })}
      </p>
      {/* A picture of the printed header: its own headings are not part of this page's outline. */}
      <div
        className={st.sheet[settings.paperSize][settings.orientation]}
        data-paper={settings.paperSize}
        role="img"
        aria-label={t("preview.title")}
        data-testid="settings-preview"
      >
        <ReportHeader
          title={t("reports:cgm.title")}
          patientName={t("preview.patient")}
          birthDate={null}
          range={sample.range}
          unitText={t(`common:units.${settings.unit}`)}
          generatedAt={sample.generatedAt}
          timeZone={sample.timeZone}
          nameStyle={NAME_STYLES[settings.nameStyle]}
          splitLine={settings.splitLine}
          logoSrc={logoSrc}
        />
      </div>
    </section>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";

/** With JavaScript, a lost request keeps the form and what was typed in it. */
export const clientAction = keepFormWhenLost(FORM_LIMIT_MS.settings);
export const shouldRevalidate = skipRevalidationWhenLost;
