import { useTranslation } from "react-i18next";
import type { DayNavigation } from "~/services/patient-view.server";
import { formatDate } from "~/report/locale-format";
import type { PumpDayModel, PumpTableRow } from "~/report/pump-day-model";
import type { GlucoseUnit } from "~/domain/glucose-unit";
import { formatGlucose, formatNumber, formatQuantity } from "~/report/units";
import type { ViewCharts } from "~/services/view-charts.server";
import * as s from "~/styles/patient-view.css";
import * as st from "~/styles/stack-table.css";
import { DateNavigator, EmptyDay } from "./date-navigator";
import { Chart, Notice, Stat } from "./parts";

type Props = {
  base: string;
  nav: DayNavigation;
  pump: Omit<PumpDayModel, "basal" | "boluses">;
  chart: ViewCharts;
  unit: GlucoseUnit;
};

/** DAILY: one day of pump data as a chart, day totals and a table. */
export function DailyView({ base, nav, pump, chart, unit }: Props) {
  const { t, i18n } = useTranslation("views");
  const locale = i18n.language;
  const n = (value: number | null, decimals: number) => formatNumber(value, decimals, locale);
  const totals = pump.insulinTotals;
  return (
    <section className={s.section} aria-labelledby="daily-heading">
      <h2 id="daily-heading">{t("daily.heading")}</h2>
      <DateNavigator base={base} tab="daily" nav={nav} />
      {!pump.hasData ? (
        <EmptyDay base={base} tab="daily" nav={nav} />
      ) : (
        <>
          <Chart
            chart={chart}
            caption={t("daily.chartCaption", {
              total: n(totals.total, 2),
              basal: n(totals.basal, 2),
              bolus: n(totals.bolus, 2),
              carbs: n(pump.totals.carbs, 0),
              count: pump.glucose.length,
            })}
          />
          {!pump.showBolusMarkers ? (
            <Notice kind="empty">
              {t("daily.manyBoluses", { count: pump.totals.bolusCount })}
            </Notice>
          ) : null}
          <h3>{t("daily.totals")}</h3>
          <dl className={s.stats} data-testid="daily-totals">
            <Stat label={t("daily.insulin")}>
              {n(totals.total, 2)} {t("units.u")}
            </Stat>
            <Stat label={t("daily.basal")}>
              {n(totals.basal, 2)} {t("units.u")}
              {totals.basalPercent !== null ? (
                <small> · {t("daily.percentOf", { value: n(totals.basalPercent, 1) })}</small>
              ) : null}
            </Stat>
            <Stat label={t("daily.bolus")}>
              {n(totals.bolus, 2)} {t("units.u")}
              {totals.bolusPercent !== null ? (
                <small> · {t("daily.percentOf", { value: n(totals.bolusPercent, 1) })}</small>
              ) : null}
            </Stat>
            <Stat label={t("daily.carbs")}>
              {n(pump.totals.carbs, 0)} {t("units.g")}
            </Stat>
            <Stat label={t("daily.boluses")}>{formatQuantity(pump.totals.bolusCount, locale)}</Stat>
          </dl>
          {pump.device ? (
            <p className={s.note}>
              {t("daily.device", {
                battery: pump.device.battery,
                reservoir: pump.device.reservoir,
              })}
            </p>
          ) : null}
          <table className={`${s.table} ${st.stackTable}`} data-testid="daily-table">
            <caption>
              {t("daily.tableCaption", { date: formatDate(nav.date, i18n.language) })}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t("daily.time")}</th>
                <th scope="col">{t("daily.event")}</th>
                <th scope="col">{t("daily.value")}</th>
                <th scope="col">{t("daily.detail")}</th>
              </tr>
            </thead>
            <tbody>
              {pump.table.map((row, i) => (
                <PumpRow key={i} row={row} unit={unit} locale={locale} />
              ))}
            </tbody>
          </table>
          {pump.flaggedCalculations.length > 0 ? (
            <p className={s.note} data-testid="check-legend">
              <CheckMark /> {t("daily.check.legend")}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

/** The mark of a bolus calculation flagged at upload: a word and a sign, not a colour alone (it prints). */
function CheckMark() {
  const { t } = useTranslation("views");
  return (
    <strong className={s.checkMark}>
      <span aria-hidden="true">⚠ </span>
      {t("daily.check.mark")}
    </strong>
  );
}

function PumpRow({ row, unit, locale }: { row: PumpTableRow; unit: GlucoseUnit; locale: string }) {
  const { t } = useTranslation("views");
  const n = (value: number, decimals: number) => formatNumber(value, decimals, locale);
  const cells = (event: string, value: string, detail = "", flagged = false) => (
    <tr className={flagged ? s.checkRow : undefined}>
      <td data-label={t("daily.time")}>{row.clock}</td>
      <td data-label={t("daily.event")}>
        {event}
        {flagged ? (
          <>
            {" "}
            <CheckMark />
          </>
        ) : null}
      </td>
      <td data-label={t("daily.value")}>{value}</td>
      <td data-label={t("daily.detail")}>{detail}</td>
    </tr>
  );
  switch (row.kind) {
    case "basal":
      return cells(t("daily.rows.basal"), `${n(row.rateUh, 3)} ${t("units.uh")}`);
    case "bolus": {
      const { bolus } = row;
      const minutes = bolus.extended ? Math.round(bolus.extended.durationMs / 60_000) : 0;
      const detail =
        bolus.kind === "dual" && bolus.immediate && bolus.extended
          ? t("daily.bolusDetail", {
              immediate: n(bolus.immediate.units, 2),
              extended: n(bolus.extended.units, 2),
              minutes,
            })
          : bolus.kind === "extended"
            ? t("daily.extendedDetail", { minutes })
            : "";
      return cells(
        t(`daily.bolusKind.${bolus.kind}`),
        `${n(bolus.unitsDisplay, 2)} ${t("units.u")}`,
        [detail, bolus.startsBeforeDay ? t("daily.continues") : ""].filter(Boolean).join("; "),
      );
    }
    case "carbs":
      return cells(
        t("daily.rows.carbs"),
        `${n(row.carbs.grams, 0)} ${t("units.g")}`,
        [t(`daily.carbSource.${row.carbs.source}`), row.carbs.flagged ? t("daily.check.carbs") : ""]
          .filter(Boolean)
          .join("; "),
        row.carbs.flagged,
      );
    case "check": {
      const { check } = row;
      const units = (value: number | null) => formatNumber(value, 2, locale);
      return cells(
        t("daily.rows.check"),
        t("daily.check.value", {
          suggested: units(check.suggestedU),
          confirmed: units(check.confirmedU),
        }),
        check.differenceU === null
          ? t("daily.check.detailUnknown")
          : t("daily.check.detail", { difference: units(check.differenceU) }),
        true,
      );
    }
    case "bg":
      return cells(
        t("daily.rows.bg"),
        `${formatGlucose(row.bg.mgdl, unit, locale)} ${t(`common:units.${unit}`)}`,
        t(`bg.sources.${row.bg.source}`),
      );
    case "alarm":
      return cells(
        t("daily.rows.alarm"),
        t(`daily.alarms.${row.alarm.kind}`),
        t(`daily.severity.${row.alarm.severity}`),
      );
  }
}
