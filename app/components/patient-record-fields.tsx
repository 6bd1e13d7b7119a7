import { getInputProps, getSelectProps, useField, type FieldMetadata } from "@conform-to/react";
import { useBeforeUnload, useBlocker } from "@remix-run/react";
import { useCallback, useEffect, useRef } from "react";
import { Button, Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { HeightUnit, WeightUnit, type BodyUnits } from "~/domain/body-measures";
import { GlucoseUnit } from "~/domain/glucose-unit";
import { CGM_GOAL_SETS } from "~/domain/cgm-goal-set";
import { GENDERS, MEALS, PRONOUNS } from "~/schemas/patient";
import * as s from "~/styles/dialog.css";
import * as f from "~/styles/form.css";
import * as layout from "~/styles/layout.css";
import type { TimeZoneOption } from "~/utils/time-zones";
import { ChoiceGroup, ErrorList, Field } from "./form";

/**
 * The fields of the patient health record shared by `/patient` and `/patientAdd`: gender and
 * pronoun, birth date, height and weight (in the user's units), type of diabetes, basic diseases,
 * complications, the CGM goal set of the glucose-profile report, glucose range (in the user's unit), time zone and meal times. Plain inputs, radios, checkboxes and selects: they work
 * without JavaScript. Messages are keys of the `record` namespace.
 */

export type RecordOption = { id: number; type: number; code: string };
type Meta = FieldMetadata<unknown>;
export type RecordFieldsMeta = Record<
  | "gender"
  | "pronoun"
  | "birthDate"
  | "height"
  | "heightFt"
  | "heightIn"
  | "weight"
  | "diabetesType"
  | "cgmGoalSet"
  | "basicDiseases"
  | "complication"
  | "lowLimit"
  | "highLimit"
  | "timeZone"
  | `${(typeof MEALS)[number]}${"Start" | "End"}`,
  Meta
>;

const NS = "record";

function Legend({ children, required }: { children: React.ReactNode; required?: boolean }) {
  return (
    <legend className={f.label}>
      {children}
      {required ? <span aria-hidden="true"> *</span> : null}
    </legend>
  );
}

/** A labelled <select>; `empty` is the text of a first, empty choice. */
function Select({
  meta: given,
  label,
  choices,
  empty,
  hint,
  required,
}: {
  meta: Meta;
  label: string;
  choices: { value: string; label: string }[];
  empty?: string;
  hint?: string;
  required?: boolean;
}) {
  const [meta] = useField<unknown>(given.name, { formId: given.formId });
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const props = getSelectProps(meta, { ariaDescribedBy: hintId });
  return (
    <div className={f.field}>
      <label htmlFor={meta.id} className={f.label}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {hint ? (
        <p id={hintId} className={f.hint}>
          {hint}
        </p>
      ) : null}
      <select
        {...props}
        key={props.key}
        required={undefined}
        aria-required={required || undefined}
        className={f.input}
      >
        {empty !== undefined ? <option value="">{empty}</option> : null}
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      <ErrorList id={meta.errorId} errors={meta.errors} ns={NS} />
    </div>
  );
}

function TimeField({ meta: given, label }: { meta: Meta; label: string }) {
  const [meta] = useField<unknown>(given.name, { formId: given.formId });
  const props = getInputProps(meta, { type: "time" });
  return (
    <div className={f.field}>
      <label htmlFor={meta.id} className={f.label}>
        {label}
      </label>
      <input {...props} key={props.key} required={undefined} className={f.input} />
      <ErrorList id={meta.errorId} errors={meta.errors} ns={NS} />
    </div>
  );
}

/** Height (cm, or feet and inches) and weight (kg or lb), as the user's settings choose. */
function BodyFields({ fields, units }: { fields: RecordFieldsMeta; units: BodyUnits }) {
  const { t } = useTranslation(NS);
  const number = { type: "number", inputMode: "decimal", step: "0.1", ns: NS } as const;
  return (
    <fieldset className={f.fieldset}>
      <Legend>{t("fields.body")}</Legend>
      <p className={f.hint}>{t("fields.bodyHint")}</p>
      <input type="hidden" name="heightUnit" value={units.height} />
      <input type="hidden" name="weightUnit" value={units.weight} />
      <div className={f.wide}>
        {units.height === HeightUnit.FtIn ? (
          <>
            <Field meta={fields.heightFt} label={t("fields.heightFt")} {...number} step="1" />
            <Field meta={fields.heightIn} label={t("fields.heightIn")} {...number} />
          </>
        ) : (
          <Field meta={fields.height} label={t("fields.heightCm")} {...number} />
        )}
        <Field
          meta={fields.weight}
          label={t(units.weight === WeightUnit.Lb ? "fields.weightLb" : "fields.weightKg")}
          {...number}
        />
      </div>
    </fieldset>
  );
}

export function RecordFields({
  fields,
  options,
  unit,
  bodyUnits,
  timeZones,
}: {
  fields: RecordFieldsMeta;
  options: RecordOption[];
  unit: number;
  bodyUnits: BodyUnits;
  timeZones: TimeZoneOption[];
}) {
  const { t } = useTranslation("record");
  const unitLabel = t(`common:units.${unit}`);
  const ofType = (type: number) =>
    options
      .filter((o) => o.type === type)
      .map((o) => ({ value: String(o.id), label: t(`options:names.${o.code}`) }));
  const step = unit === GlucoseUnit.Mgdl ? "1" : "0.1";
  return (
    <>
      <ChoiceGroup
        ns={NS}
        meta={fields.gender}
        legend={t("fields.gender")}
        choices={GENDERS.map((g) => ({ value: g, label: t(`gender.${g}`) }))}
        required
      />
      <Select
        meta={fields.pronoun}
        label={t("fields.pronoun")}
        empty={t("fields.pronounNone")}
        choices={PRONOUNS.map((p) => ({ value: p, label: t(`pronoun.${p}`) }))}
      />
      <Field
        meta={fields.birthDate}
        label={t("fields.birthDate")}
        type="date"
        autoComplete="bday"
        ns={NS}
      />
      <BodyFields fields={fields} units={bodyUnits} />
      <Select
        meta={fields.diabetesType}
        label={t("fields.diabetesType")}
        empty={t("fields.chooseDiabetesType")}
        choices={ofType(0)}
        required
      />
      <Select
        meta={fields.cgmGoalSet}
        label={t("cgmGoalSet.label")}
        hint={t("cgmGoalSet.hint")}
        choices={CGM_GOAL_SETS.map((set) => ({ value: set, label: t(`cgmGoalSet.${set}`) }))}
      />
      <ChoiceGroup
        ns={NS}
        type="checkbox"
        meta={fields.basicDiseases}
        legend={t("fields.basicDiseases")}
        choices={ofType(1)}
      />
      <ChoiceGroup
        ns={NS}
        type="checkbox"
        meta={fields.complication}
        legend={t("fields.complications")}
        choices={ofType(2)}
      />
      <fieldset className={f.fieldset}>
        <Legend required>{t("fields.glucoseRange")}</Legend>
        <p className={f.hint}>{t("fields.glucoseRangeHint", { unit: unitLabel })}</p>
        <input type="hidden" name="unit" value={unit} />
        <div className={f.wide}>
          <Field
            meta={fields.lowLimit}
            label={t("fields.lowLimit", { unit: unitLabel })}
            type="number"
            inputMode="decimal"
            step={step}
            ns={NS}
            required
          />
          <Field
            meta={fields.highLimit}
            label={t("fields.highLimit", { unit: unitLabel })}
            type="number"
            inputMode="decimal"
            step={step}
            ns={NS}
            required
          />
        </div>
      </fieldset>
      <Select
        meta={fields.timeZone}
        label={t("fields.timeZone")}
        hint={t("fields.timeZoneHint")}
        choices={timeZones}
      />
      <fieldset className={f.fieldset}>
        <Legend>{t("fields.mealTimes")}</Legend>
        <p className={f.hint}>{t("fields.mealTimesHint")}</p>
        {MEALS.map((meal) => (
          <div key={meal} className={f.wide}>
            <TimeField
              meta={fields[`${meal}Start`]}
              label={t("fields.start", { meal: t(`fields.${meal}`) })}
            />
            <TimeField
              meta={fields[`${meal}End`]}
              label={t("fields.end", { meal: t(`fields.${meal}`) })}
            />
          </div>
        ))}
      </fieldset>
    </>
  );
}

/**
 * With JavaScript, leaving a form with entered data asks first, because what was typed would be
 * lost: the browser's own prompt when the tab is closed or reloaded, a dialog for a link inside
 * the app. Without JavaScript nothing is shown.
 */
export function LeaveGuard({ dirty }: { dirty: boolean }) {
  const { t } = useTranslation("record");
  const dirtyRef = useRef(dirty);
  useEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty]);
  useBeforeUnload(
    useCallback((event: BeforeUnloadEvent) => {
      if (!dirtyRef.current) return;
      event.preventDefault();
      event.returnValue = "";
    }, []),
  );
  const blocker = useBlocker(
    useCallback(
      ({
        currentLocation,
        nextLocation,
      }: {
        currentLocation: { pathname: string };
        nextLocation: { pathname: string };
      }) => dirtyRef.current && currentLocation.pathname !== nextLocation.pathname,
      [],
    ),
  );
  const open = blocker.state === "blocked";
  return (
    <ModalOverlay
      className={s.overlay}
      isOpen={open}
      onOpenChange={(isOpen) =>
        !isOpen && blocker.state === "blocked" ? blocker.reset() : undefined
      }
      isDismissable
    >
      <Modal className={s.modal}>
        <Dialog className={s.dialog} role="alertdialog">
          <Heading slot="title" className={s.title}>
            {t("add.leaveTitle")}
          </Heading>
          <p>{t("add.leaveText")}</p>
          <div className={layout.actions}>
            <Button
              className={layout.button}
              onPress={() => blocker.state === "blocked" && blocker.reset()}
              // An alert dialog focuses its least destructive choice (WAI-ARIA APG).
              // eslint-disable-next-line jsx-a11y/no-autofocus
              autoFocus
            >
              {t("add.stay")}
            </Button>
            <Button
              className={layout.buttonSecondary}
              onPress={() => blocker.state === "blocked" && blocker.proceed()}
            >
              {t("add.leave")}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
