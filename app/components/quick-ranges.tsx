import { useTranslation } from "react-i18next";
import { QUICK_RANGE_PARAM, quickRangeLabelKey } from "~/report/quick-ranges";
import * as f from "~/styles/form.css";
import * as layout from "~/styles/layout.css";

/**
 * The quick-range buttons of a GET date-range form: each submits `days=N`, and the server answers
 * the last N days ending today in the patient's zone (app/report/quick-ranges.ts). Plain submit
 * buttons, so they work without JavaScript; they skip the form's field checks, since the typed
 * dates do not matter to them. Put them after the form's own submit button, which stays the one
 * Enter presses.
 */
export function QuickRangeButtons({ days }: { days: readonly number[] }) {
  const { t } = useTranslation();
  if (days.length === 0) return null;
  return (
    <fieldset className={f.quickRanges}>
      <legend className={f.quickLegend}>{t("quickRanges.legend")}</legend>
      {days.map((n) => (
        <button
          key={n}
          type="submit"
          name={QUICK_RANGE_PARAM}
          value={n}
          className={layout.buttonSecondary}
          formNoValidate
        >
          {t(quickRangeLabelKey(n))}
        </button>
      ))}
    </fieldset>
  );
}
