import { Link, NavLink } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CARING_STEP_HREF, type CaringStep } from "~/domain/caring";
import type { GlucoseUnit } from "~/domain/glucose-unit";
import type { AlarmClass, TrendLevel } from "~/metrics";
import { formatGlucose } from "~/report/units";
import * as c from "~/styles/caring.css";
import * as f from "~/styles/form.css";
import * as p from "~/styles/patient-area.css";
import { TREND_ARROWS } from "./patient-view/cgms-view";

/** The caring pages' own menu: overview, the people I care for, pending requests, add a person. */
export function CaringMenu() {
  const { t } = useTranslation("caring");
  const links = [
    ["/caring", "menu.hub"],
    ["/caringpatients", "menu.patients"],
    ["/caringpedding", "menu.pending"],
    ["/caringadd", "menu.add"],
  ] as const;
  return (
    <nav aria-label={t("menu.label")}>
      <ul className={c.menu}>
        {links.map(([to, key]) => (
          <li key={to}>
            <NavLink to={to} end className={p.tab}>
              {t(key)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** What to complete before remote caring, each with the link to the page where it is done. */
export function CaringMissing({ missing }: { missing: readonly CaringStep[] }) {
  const { t } = useTranslation("caring");
  return (
    <section className={f.notice} aria-labelledby="caring-missing" data-testid="caring-missing">
      <h2 id="caring-missing">{t("missing.title")}</h2>
      <p>{t("missing.intro")}</p>
      <ul>
        {missing.map((step) => (
          <li key={step}>
            {t(`missing.${step}`)}{" "}
            <Link to={CARING_STEP_HREF[step]}>{t(`missing.${step}Link`)}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A glucose value in the reader's unit with the unit's name. */
export function GlucoseValue({ mgdl, unit }: { mgdl: number; unit: GlucoseUnit }) {
  const { t, i18n } = useTranslation("views");
  return (
    <>
      {formatGlucose(mgdl, unit, i18n.language)} {t(`common:units.${unit}`)}
    </>
  );
}

/** The trend arrow and its words ("Not enough readings for a trend" without one). */
export function TrendText({ trend }: { trend: TrendLevel | null }) {
  const { t } = useTranslation("views");
  if (!trend) return <>{t("cgms.trends.unknown")}</>;
  return (
    <>
      <span aria-hidden="true">{TREND_ARROWS[trend]} </span>
      {t(`cgms.trends.${trend}`)}
    </>
  );
}

/** The alarm of a value: high, low, very low glucose or no alarm. */
export function AlarmText({ alarm }: { alarm: AlarmClass }) {
  const { t } = useTranslation("views");
  return <span className={c.alarm[alarm]}>{t(`cgms.alarms.${alarm}`)}</span>;
}
