/**
 * Multi-day pump chart of the print report: one continuous chart over a chart group of
 * app/report/pump-report.ts (up to 5 consecutive local days), made of the day chart's panels
 * (pump-day.server.ts) on a real-time x axis: alarms and carbohydrate, the days' glucose (each day
 * model's `glucose`: BG entered on the pump and meter readings, the list the DAILY chart draws)
 * over the target band, the basal step line and the boluses.
 *
 * The x ticks and their labels are the group's (`multiDayTicks`, local wall-clock hours), so a
 * 23 or 25 h day takes its real share of the width. Day boundaries are rules through every
 * panel, and each day's date is written under its span. Bolus markers follow the group's flag
 * (at most 25 boluses); without them the insulin panel says so in a note.
 */
import * as Plot from "@observablehq/plot";
import type { IsoDate } from "../day";
import { formatDate, formatDateClock } from "../locale-format";
import type { PumpDayModel } from "../pump-day-model";
import type { PumpChartGroup } from "../pump-report-layout";
import type { PumpReport } from "../pump-report-model";
import { roundHalfUp } from "../units";
import {
  eventPanel,
  glucosePanel,
  insulinPanel,
  panelHeights,
  type PanelHeights,
  type PumpChartLabels,
  type PumpSeries,
  type PumpTimeFrame,
} from "./pump-day.server";
import { finishChart, renderPanel, stackPanels, type ChartOptions } from "./render.server";

export interface PumpRangeChartLabels extends PumpChartLabels {
  /** Tooltip of the target band (e.g. "Target range 3.9-10.0 mmol/L"). */
  readonly targetRange: string;
  /** Note shown instead of bolus markers when the chart has more than 25 boluses, given their number. */
  readonly bolusMarkersOmitted: (bolusCount: number) => string;
  /** The chart's text summary (its accessible description, `<desc>`). */
  readonly summary: (facts: PumpRangeFacts) => string;
  /**
   * Date written under each day and in tooltips; default the language's medium date (with the
   * time, the language's date and time: locale-format.ts).
   */
  readonly formatDay?: (date: IsoDate) => string;
}

export type PumpRangeChartOptions = ChartOptions & { readonly labels: PumpRangeChartLabels };

/** What the chart reads from the pump report (pump-report.ts `buildPumpReport`). */
export type PumpRangeReport = Pick<PumpReport, "days" | "limits">;

/** What the chart shows, for its text summary. Units are rounded to 0.01 U. */
export interface PumpRangeFacts {
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly dayCount: number;
  /** Days with at least one pump record. */
  readonly daysWithData: number;
  readonly basalUnits: number;
  readonly bolusUnits: number;
  readonly bolusCount: number;
  readonly bolusMarkersShown: boolean;
  readonly carbCount: number;
  readonly carbGrams: number;
  /** Glucose values drawn: BG entered on the pump and meter readings. */
  readonly bgCount: number;
  readonly alarmCount: number;
}

/** Class names of this chart's own marks (tests and page CSS may select them). */
export const RANGE_MARK_CLASS = {
  dayBoundary: "diacare-day-boundary",
  dayLabel: "diacare-day-label",
  bolusOmitted: "diacare-bolus-omitted",
} as const;

/**
 * viewBox width: about the width of landscape A4 at 96 px/in, so that text prints near its
 * nominal size and the 36 labels of a 6-day axis do not touch.
 */
export const RANGE_CHART_WIDTH = 1120;
const RANGE_PANEL_HEIGHTS: PanelHeights = { events: 56, glucose: 150, insulin: 250 };
/** The row of dates under the time labels: extra bottom margin of the insulin panel, and its offset below the frame. */
const DATE_ROW_PX = 18;
const DATE_ROW_DY = 30;
const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * One chart over the days of `group`, one of `report.charts`. A day of the group missing from
 * the report's `days` is a programming error and throws.
 */
export function pumpRangeChart(
  report: PumpRangeReport,
  group: PumpChartGroup,
  options: PumpRangeChartOptions,
): string {
  const { labels } = options;
  const models = groupDays(report, group);
  const { limits } = report;
  const formatDay = labels.formatDay ?? ((date: IsoDate) => formatDate(date, options.locale));
  const frame: PumpTimeFrame = {
    domain: [group.start, group.end],
    ticks: group.ticks,
    width: options.width ?? RANGE_CHART_WIDTH,
    when: (time, clock) => {
      const date = dayAt(models, time).window.date;
      return labels.formatDay
        ? `${labels.formatDay(date)} ${clock}`
        : formatDateClock(date, clock, options.locale);
    },
  };
  const series = joinDays(models, group.showBolusMarkers);
  const heights = panelHeights(RANGE_PANEL_HEIGHTS, options.height);
  const boundaries = Plot.ruleX(
    models.slice(1).map((m) => m.window.start),
    { stroke: "currentColor", strokeOpacity: 0.6, className: RANGE_MARK_CLASS.dayBoundary },
  );
  const withBoundaries = (panel: Plot.PlotOptions): Plot.PlotOptions => ({
    ...panel,
    marks: [boundaries, ...(panel.marks ?? [])],
  });

  const insulin = insulinPanel(series, frame, options, heights.insulin);
  const panels = [
    withBoundaries(eventPanel(series, frame, options, heights.events)),
    withBoundaries(
      glucosePanel(series, frame, options, heights.glucose, { limits, title: labels.targetRange }),
    ),
    withBoundaries({
      ...insulin,
      marginBottom: (insulin.marginBottom ?? 0) + DATE_ROW_PX,
      marks: [
        ...(insulin.marks ?? []),
        Plot.text(models, {
          x: (m: PumpDayModel) => (m.window.start + m.window.end) / 2,
          text: (m: PumpDayModel) => formatDay(m.window.date),
          frameAnchor: "bottom",
          dy: DATE_ROW_DY,
          fontWeight: "bold",
          className: RANGE_MARK_CLASS.dayLabel,
        }),
        ...(group.showBolusMarkers
          ? []
          : [
              Plot.text([labels.bolusMarkersOmitted(group.bolusCount)], {
                frameAnchor: "top-right",
                textAnchor: "end",
                dy: -10,
                fontStyle: "italic",
                className: RANGE_MARK_CLASS.bolusOmitted,
              }),
            ]),
      ],
    }),
  ];
  const svg = stackPanels(panels.map(renderPanel), frame.width);
  const desc = svg.ownerDocument.createElementNS(SVG_NS, "desc");
  desc.textContent = labels.summary(factsOf(group, models));
  svg.insertBefore(desc, svg.firstChild);
  return finishChart(svg, options);
}

/** The facts of the chart's summary: counts and totals over the group's days. */
export function pumpRangeFacts(report: PumpRangeReport, group: PumpChartGroup): PumpRangeFacts {
  return factsOf(group, groupDays(report, group));
}

function factsOf(group: PumpChartGroup, models: readonly PumpDayModel[]): PumpRangeFacts {
  const sum = (value: (m: PumpDayModel) => number) => models.reduce((s, m) => s + value(m), 0);
  return {
    from: group.dates[0]!,
    to: group.dates[group.dates.length - 1]!,
    dayCount: models.length,
    daysWithData: models.filter((m) => m.hasData).length,
    basalUnits: roundHalfUp(
      sum((m) => m.totals.basal),
      2,
    ),
    bolusUnits: roundHalfUp(
      sum((m) => m.totals.bolus),
      2,
    ),
    bolusCount: group.bolusCount,
    bolusMarkersShown: group.showBolusMarkers,
    carbCount: sum((m) => m.carbs.length),
    carbGrams: sum((m) => m.totals.carbs),
    bgCount: sum((m) => m.glucose.length),
    alarmCount: sum((m) => m.alarms.length),
  };
}

function groupDays(report: PumpRangeReport, group: PumpChartGroup): PumpDayModel[] {
  if (group.dates.length === 0) throw new RangeError("a chart group needs at least one date");
  const byDate = new Map(report.days.map((d) => [d.window.date, d]));
  return group.dates.map((date) => {
    const day = byDate.get(date);
    if (!day) throw new RangeError(`no day model for ${date} of the chart group`);
    return day;
  });
}

/** The day whose window holds `time` (the last one for the group's end). */
function dayAt(models: readonly PumpDayModel[], time: number): PumpDayModel {
  return models.find((m) => time < m.window.end) ?? models[models.length - 1]!;
}

/** The days' lists joined in time order (each day's are ordered and days do not overlap). */
function joinDays(models: readonly PumpDayModel[], showBolusMarkers: boolean): PumpSeries {
  return {
    alarms: models.flatMap((m) => m.alarms),
    carbs: models.flatMap((m) => m.carbs),
    glucose: models.flatMap((m) => m.glucose),
    boluses: models.flatMap((m) => m.boluses),
    showBolusMarkers,
    basal: { steps: models.flatMap((m) => m.basal.steps) },
  };
}
