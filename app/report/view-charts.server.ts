import type { TFunction } from "i18next";
import type { PatientView } from "~/models/patient-view.server";
import { bgRangeChart, cgmDayChart, cgmOverlayChart, pumpDayChart, type PumpChartLabels } from "./charts.server";
import { displayDate } from "./day";
import { PUMP_ALARM_CODES, type PumpAlarmKind } from "./pump-day";
import { formatGlucose, type GlucoseUnit } from "./units";

type Options = { unit: GlucoseUnit; locale: string; t: TFunction };

/** The pump day chart's texts in the reader's language (namespace `views`); also used by the pump report. */
export function pumpChartLabels(t: TFunction, unit: GlucoseUnit): PumpChartLabels {
  const unitText = t(`common:units.${unit}`);
  return {
    basalAxis: t("views:chart.basal"),
    bolusAxis: t("views:chart.bolus"),
    glucoseAxis: t("views:chart.glucose", { unit: unitText }),
    alarms: t("views:chart.alarms"),
    carbs: t("views:chart.carbs"),
    unitU: t("views:units.u"),
    unitG: t("views:units.g"),
    glucoseUnit: unitText,
    alarmKinds: Object.fromEntries(PUMP_ALARM_CODES.map((c) => [c.kind, t(`views:daily.alarms.${c.kind}`)])) as Record<PumpAlarmKind, string>,
  };
}

/** The chart of a patient page view, with its texts in the reader's language (namespace `views`). */
export function viewChart(view: PatientView, { unit, locale, t }: Options): string {
  const unitText = t(`common:units.${unit}`);
  const glucoseAxis = t("views:chart.glucose", { unit: unitText });
  const band = (low: number, high: number) => `${t("views:chart.target")} ${formatGlucose(low, unit, locale)}–${formatGlucose(high, unit, locale)} ${unitText}`;
  const base = { unit, locale };
  if (view.tab === "daily") {
    return pumpDayChart(view.pump, { ...base, title: t("views:daily.chartTitle", { date: displayDate(view.nav.date) }), labels: pumpChartLabels(t, unit) });
  }
  if (view.tab === "bg") {
    const { model } = view;
    return bgRangeChart(model, {
      ...base,
      title: t("views:bg.chartTitle", { from: displayDate(model.from), to: displayDate(model.to) }),
      labels: { glucoseAxis, targetRange: band(model.limits.low, model.limits.high), glucoseUnit: unitText },
    });
  }
  if (view.view === "day") {
    const { day } = view;
    return cgmDayChart(day, {
      ...base,
      title: t("views:cgms.chartTitle", { date: displayDate(view.nav.date) }),
      labels: { glucoseAxis, targetRange: band(day.targetBand.low, day.targetBand.high) },
    });
  }
  const { overlay } = view;
  return cgmOverlayChart(overlay, {
    ...base,
    title: t("views:cgms.overlayTitle", { from: displayDate(overlay.from), to: displayDate(overlay.to) }),
    labels: { glucoseAxis, targetRange: band(overlay.targetBand.low, overlay.targetBand.high) },
  });
}
