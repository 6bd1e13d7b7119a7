import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useZoneClock, ZoneOptions } from "~/components/zone-options";
import { MEALS } from "~/schemas/patient";
import type { ZoneAndMeals, ZoneAndMealsReply } from "~/services/zone-and-meals.server";
import * as f from "~/styles/form.css";
import * as layout from "~/styles/layout.css";

/**
 * A patient's time zone and meal windows, posted as `timeZone`, `{meal}Start` and `{meal}End`
 * (with `intent` when given). Each zone shows its offset, its name and the time there; with
 * JavaScript those times move on every 30 s. Works without JavaScript.
 */
export function ZoneAndMealsForm({
  value,
  reply,
  zoneText,
  zoneHint,
  action,
  intent,
}: {
  value: ZoneAndMeals;
  reply: ZoneAndMealsReply | undefined;
  zoneText: string;
  zoneHint: string;
  action?: string;
  intent?: string;
}) {
  const { t } = useTranslation("upload");
  const navigation = useNavigation();
  const now = useZoneClock(value.now);
  const typed = reply?.typed ?? {};
  return (
    <Form method="post" action={action} className={f.form}>
      <div className={f.field}>
        <label className={f.label} htmlFor="zone-select">
          {zoneText}
        </label>
        <select
          id="zone-select"
          name="timeZone"
          className={f.input}
          defaultValue={typed.timeZone ?? value.timeZone}
          aria-describedby="zone-select-hint"
        >
          <ZoneOptions zones={value.zones} now={now} />
        </select>
        <p id="zone-select-hint" className={f.hint}>
          {zoneHint}
        </p>
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
                defaultValue={typed[`${meal}Start`] ?? value.meals[meal].start}
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
                defaultValue={typed[`${meal}End`] ?? value.meals[meal].end}
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
          name={intent ? "intent" : undefined}
          value={intent}
          className={layout.button}
          disabled={navigation.state === "submitting"}
        >
          {t("centre.save")}
        </button>
      </div>
    </Form>
  );
}
