import { createHash } from "node:crypto";
import type { TFunction } from "i18next";
import type { PatientView } from "./patient-view.server";
import {
  bgRangeChart,
  cgmDayChart,
  cgmOverlayChart,
  pumpDayChart,
  type PumpChartLabels,
  type PumpRangeChartLabels,
} from "~/report/charts.server";
import { formatDate } from "~/report/locale-format";
import { PUMP_ALARM_CODES, type PumpAlarmKind } from "~/report/pump-records";
import type { GlucoseUnit } from "~/domain/glucose-unit";
import { formatGlucose, formatNumber } from "~/report/units";

type Options = { unit: GlucoseUnit; locale: string; t: TFunction };

/**
 * A page's chart in two drawings: `wide` for screens wider than a phone and for print, `narrow`
 * for a phone (narrower viewBox, larger text, fewer ticks, taller). The page holds both and its
 * CSS shows one, so the choice needs no JavaScript. The narrow one has no hover titles: a touch
 * screen cannot show them, and they would make it cost as much as the wide one.
 */
export interface ViewCharts {
  readonly wide: string;
  readonly narrow: string;
}

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
    alarmKinds: Object.fromEntries(
      PUMP_ALARM_CODES.map((c) => [c.kind, t(`views:daily.alarms.${c.kind}`)]),
    ) as Record<PumpAlarmKind, string>,
  };
}

/** The pump report's multi-day chart texts: the day chart's, the target band, the left-out bolus note and the text summary. */
export function pumpRangeChartLabels(
  t: TFunction,
  unit: GlucoseUnit,
  locale: string,
  limits: { low: number; high: number },
): PumpRangeChartLabels {
  const unitText = t(`common:units.${unit}`);
  const amount = (value: number, digits: number, unitKey: "u" | "g") =>
    `${formatNumber(value, digits, locale)} ${t(`views:units.${unitKey}`)}`;
  return {
    ...pumpChartLabels(t, unit),
    targetRange: `${t("views:chart.target")} ${formatGlucose(limits.low, unit, locale)}–${formatGlucose(limits.high, unit, locale)} ${unitText}`,
    bolusMarkersOmitted: (count) => t("reports:pump.bolusMarkersOmitted", { count }),
    summary: (facts) =>
      t("reports:pump.chartSummary", {
        count: facts.dayCount,
        daysWithData: facts.daysWithData,
        basal: amount(facts.basalUnits, 2, "u"),
        bolusCount: facts.bolusCount,
        bolus: amount(facts.bolusUnits, 2, "u"),
        carbCount: facts.carbCount,
        carbs: amount(facts.carbGrams, 0, "g"),
        bgCount: facts.bgCount,
        alarmCount: facts.alarmCount,
      }),
  };
}

/** Charts kept, each a wide and a narrow drawing (the narrow one a little smaller than the wide). */
const DRAWN_CHARTS = 200;
const drawn = new Map<string, ViewCharts>();

/**
 * The chart of a patient page view, with its texts in the reader's language (namespace `views`).
 * A chart is a function of the view's model, the unit and the language only, and drawing one
 * (Observable Plot on a server-side DOM) costs 10-20 ms of CPU: the last charts drawn are kept,
 * named by a hash of exactly those inputs, so that new data (a different model) is never
 * answered with an old chart.
 */
export function viewChart(view: PatientView, options: Options): ViewCharts {
  const key = createHash("sha256")
    .update(JSON.stringify([view, options.unit, options.locale]))
    .digest("base64");
  const kept = drawn.get(key);
  if (kept !== undefined) {
    // Most recently used last, so the oldest goes first when the cache is full.
    drawn.delete(key);
    drawn.set(key, kept);
    return kept;
  }
  const charts: ViewCharts = {
    wide: drawViewChart(view, options, false),
    narrow: drawViewChart(view, options, true),
  };
  if (drawn.size >= DRAWN_CHARTS) drawn.delete(drawn.keys().next().value!);
  drawn.set(key, charts);
  return charts;
}

function drawViewChart(view: PatientView, { unit, locale, t }: Options, narrow: boolean): string {
  const unitText = t(`common:units.${unit}`);
  const glucoseAxis = t("views:chart.glucose", { unit: unitText });
  const band = (low: number, high: number) =>
    `${t("views:chart.target")} ${formatGlucose(low, unit, locale)}–${formatGlucose(high, unit, locale)} ${unitText}`;
  const base = narrow ? { unit, locale, narrow, tooltips: false } : { unit, locale };
  if (view.tab === "daily") {
    return pumpDayChart(view.pump, {
      ...base,
      title: t("views:daily.chartTitle", { date: formatDate(view.nav.date, locale) }),
      labels: pumpChartLabels(t, unit),
    });
  }
  if (view.tab === "bg") {
    const { model } = view;
    return bgRangeChart(model, {
      ...base,
      title: t("views:bg.chartTitle", {
        from: formatDate(model.from, locale),
        to: formatDate(model.to, locale),
      }),
      labels: {
        glucoseAxis,
        targetRange: band(model.limits.low, model.limits.high),
        glucoseUnit: unitText,
      },
    });
  }
  if (view.view === "day") {
    const { day } = view;
    return cgmDayChart(day, {
      ...base,
      title: t("views:cgms.chartTitle", { date: formatDate(view.nav.date, locale) }),
      labels: { glucoseAxis, targetRange: band(day.targetBand.low, day.targetBand.high) },
    });
  }
  const { overlay } = view;
  return cgmOverlayChart(overlay, {
    ...base,
    title: t("views:cgms.overlayTitle", {
      from: formatDate(overlay.from, locale),
      to: formatDate(overlay.to, locale),
    }),
    labels: { glucoseAxis, targetRange: band(overlay.targetBand.low, overlay.targetBand.high) },
  });
}
