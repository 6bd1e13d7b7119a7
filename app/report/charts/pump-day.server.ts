/**
 * DAILY page chart: one local day of pump data in three stacked panels sharing the time axis:
 * 1. an event strip (alarms, carbohydrate entries with grams),
 * 2. glucose: the day model's `glucose` (BG entered on the pump and meter readings; glucose axis
 *    in the display unit), each dot carrying its instant and mg/dL as data attributes,
 * 3. insulin: the basal rate as a step line (left axis, U/h) and boluses (right axis, U): the
 *    immediate part a narrow bar, the extended part a bar as long as its display duration.
 * Model: app/report/pump-day-model.ts. The panels are also the multi-day chart's (pump-range.server.ts):
 * they draw a {@link PumpSeries} on a {@link PumpTimeFrame} and return Plot options, which a chart
 * may extend with marks of its own before rendering.
 */
import * as Plot from "@observablehq/plot";
import type { GlucoseLimits } from "../../metrics/alarm";
import type {
  BolusEvent,
  CarbEntryView,
  GlucosePointView,
  PumpAlarmView,
  PumpDayModel,
  RateStep,
} from "../pump-day-model";
import type { PumpAlarmKind } from "../pump-records";
import { hourTicks, type TimeTick } from "../day";
import { toUnit } from "../../domain/glucose-unit";
import { formatGlucose, formatNumber } from "../units";
import { ALARM_SEVERITY_COLOR, CHART_PALETTE, GLUCOSE_CLASS_COLOR } from "./palette";
import {
  chartFontSize,
  chartWidth,
  decimalsOf,
  finishChart,
  glucoseScale,
  MARGIN_LEFT,
  MARGIN_RIGHT,
  MARK_CLASS,
  maxOf,
  NARROW_TIME_TICK_HOURS,
  niceStep,
  renderPanel,
  stackPanels,
  withDataAttributes,
  stepTicks,
  targetBandMark,
  TIME_TICK_HOURS,
  timeScale,
  type ChartOptions,
} from "./render.server";

export interface PumpChartLabels {
  /** Left axis of the insulin panel, naming U/h (e.g. "Basal (U/h)"). */
  readonly basalAxis: string;
  /** Right axis of the insulin panel, naming U (e.g. "Bolus (U)"). */
  readonly bolusAxis: string;
  /** Axis of the glucose panel, naming the glucose unit. */
  readonly glucoseAxis: string;
  /** Row label of the alarm markers in the event strip. */
  readonly alarms: string;
  /** Row label of the carbohydrate markers in the event strip. */
  readonly carbs: string;
  /** Insulin unit in tooltips (e.g. "U"). */
  readonly unitU: string;
  /** Carbohydrate unit in tooltips (e.g. "g"). */
  readonly unitG: string;
  /** Glucose unit in tooltips (e.g. "mmol/L"). */
  readonly glucoseUnit: string;
  /** Tooltip text of each alarm kind. */
  readonly alarmKinds: Readonly<Record<PumpAlarmKind, string>>;
}

type PumpChartOptions = ChartOptions & { labels: PumpChartLabels };

/** What the pump panels draw: one day's model, or the lists of consecutive days joined. */
export type PumpSeries = Pick<
  PumpDayModel,
  "alarms" | "carbs" | "glucose" | "boluses" | "showBolusMarkers"
> & {
  readonly basal: Pick<PumpDayModel["basal"], "steps">;
};

/** The time axis shared by stacked pump panels, and how a tooltip names an instant. */
export interface PumpTimeFrame {
  /** Epoch ms. */
  readonly domain: readonly [number, number];
  readonly ticks: readonly TimeTick[];
  readonly width: number;
  /** Tooltip prefix of an item at `time` whose local clock is `clock`. */
  readonly when: (time: number, clock: string) => string;
}

export interface PanelHeights {
  readonly events: number;
  readonly glucose: number;
  readonly insulin: number;
}

/** Default panel heights, px; a given `height` scales them proportionally. */
const PANEL_HEIGHTS: PanelHeights = { events: 56, glucose: 130, insulin: 214 };
/** Panel heights of a narrow chart: taller than wide, the glucose panel most of all. */
const NARROW_PANEL_HEIGHTS: PanelHeights = { events: 60, glucose: 190, insulin: 230 };
/** Basal axis covers at least 0-0.5 U/h, the bolus axis 0-1 U, with room for labels above. */
const MIN_BASAL_UH = 0.5;
const MIN_BOLUS_U = 1;
const HEADROOM = 1.25;
const INSULIN_TICK_COUNT = 5;

type EventRow = "alarm" | "carbs";
const EVENT_ROWS: readonly EventRow[] = ["alarm", "carbs"];

/** One local day of pump data as a single svg (three stacked panels). */
export function pumpDayChart(model: PumpDayModel, options: PumpChartOptions): string {
  const frame: PumpTimeFrame = {
    domain: [model.window.start, model.window.end],
    ticks: hourTicks(model.window, options.narrow ? NARROW_TIME_TICK_HOURS : TIME_TICK_HOURS),
    width: chartWidth(options),
    when: (_, clock) => clock,
  };
  const heights = panelHeights(
    options.narrow ? NARROW_PANEL_HEIGHTS : PANEL_HEIGHTS,
    options.height,
  );
  const panels = [
    eventPanel(model, frame, options, heights.events),
    glucosePanel(model, frame, options, heights.glucose),
    insulinPanel(model, frame, options, heights.insulin),
  ];
  return finishChart(stackPanels(panels.map(renderPanel), frame.width), options);
}

/** `defaults` scaled to a `total` height (unchanged without one), summing to it exactly. */
export function panelHeights(defaults: PanelHeights, total: number | undefined): PanelHeights {
  const sum = defaults.events + defaults.glucose + defaults.insulin;
  const k = total === undefined ? 1 : total / sum;
  const events = Math.round(defaults.events * k);
  const glucose = Math.round(defaults.glucose * k);
  return { events, glucose, insulin: Math.round(sum * k) - events - glucose };
}

/** Shared x scale and margins; only the bottom panel shows the time labels. */
function panelFrame(frame: PumpTimeFrame, height: number, showTimeAxis: boolean) {
  return {
    width: frame.width,
    height,
    marginLeft: MARGIN_LEFT,
    marginRight: MARGIN_RIGHT,
    x: timeScale(frame.domain, frame.ticks, showTimeAxis),
    color: { type: "identity" as const },
  };
}

function gramsText(c: CarbEntryView, locale: string): string {
  return formatNumber(c.grams, Number.isInteger(c.grams) ? 0 : 1, locale);
}

/** Event strip: alarms and carbohydrate entries (with grams) on two rows. */
export function eventPanel(
  series: PumpSeries,
  frame: PumpTimeFrame,
  options: PumpChartOptions,
  height: number,
): Plot.PlotOptions {
  const { labels, locale } = options;
  const rowLabel: Record<EventRow, string> = { alarm: labels.alarms, carbs: labels.carbs };
  return {
    ...panelFrame(frame, height, false),
    marginTop: 8,
    marginBottom: 8,
    y: { type: "point", domain: [...EVENT_ROWS], padding: 0.5, axis: null },
    marks: [
      // Row names are translations of any length: cut to the left margin (Plot text mark
      // lineWidth/textOverflow, https://observablehq.com/plot/marks/text).
      Plot.axisY([...EVENT_ROWS], {
        tickFormat: (row: EventRow) => rowLabel[row],
        tickSize: 0,
        lineWidth: (MARGIN_LEFT - 8) / chartFontSize(options),
        textOverflow: "ellipsis",
        label: null,
      }),
      Plot.dot(series.alarms, {
        x: "time",
        y: () => "alarm",
        symbol: "triangle",
        r: 4,
        fill: (a: PumpAlarmView) => ALARM_SEVERITY_COLOR[a.severity],
        title: (a: PumpAlarmView) => `${frame.when(a.time, a.clock)} ${labels.alarmKinds[a.kind]}`,
        className: MARK_CLASS.alarms,
      }),
      Plot.dot(series.carbs, {
        x: "time",
        y: () => "carbs",
        r: 3.5,
        fill: CHART_PALETTE.carbs,
        title: (c: CarbEntryView) =>
          `${frame.when(c.time, c.clock)} ${gramsText(c, locale)} ${labels.unitG}`,
        className: MARK_CLASS.carbs,
      }),
      Plot.text(series.carbs, {
        x: "time",
        y: () => "carbs",
        text: (c: CarbEntryView) => gramsText(c, locale),
        textAnchor: "start",
        dx: 6,
        fill: CHART_PALETTE.carbs,
        className: MARK_CLASS.carbs,
      }),
    ],
  };
}

/** The patient's target range drawn behind the meter BG, with its tooltip text. */
export interface TargetBand {
  readonly limits: GlucoseLimits;
  readonly title: string;
}

/** Data attributes of a glucose dot: its instant (epoch ms), mg/dL and source, the same on screen and paper. */
export function glucoseDotData(g: GlucosePointView): Record<string, string> {
  return { "data-time": String(g.time), "data-mgdl": String(g.mgdl), "data-source": g.source };
}

/** The series' glucose values as dots with their values above; the target band behind them when given. */
export function glucosePanel(
  series: PumpSeries,
  frame: PumpTimeFrame,
  options: PumpChartOptions,
  height: number,
  band?: TargetBand,
): Plot.PlotOptions {
  const { labels, unit, locale } = options;
  const value = (b: GlucosePointView) => toUnit(b.mgdl, unit);
  const text = (b: GlucosePointView) => formatGlucose(b.mgdl, unit, locale);
  return {
    ...panelFrame(frame, height, false),
    marginTop: 20,
    marginBottom: 6,
    y: glucoseScale(
      maxOf(series.glucose, (b) => b.mgdl),
      options,
      labels.glucoseAxis,
      band ? { band: band.limits, compact: true } : { compact: true },
    ),
    marks: [
      ...(band
        ? [targetBandMark(band.limits, frame.domain[0], frame.domain[1], unit, band.title)]
        : []),
      Plot.dot(series.glucose, {
        x: "time",
        y: value,
        r: 3.5,
        fill: (b: GlucosePointView) =>
          b.class === null ? CHART_PALETTE.neutral : GLUCOSE_CLASS_COLOR[b.class],
        title: (b: GlucosePointView) =>
          `${frame.when(b.time, b.clock)} ${text(b)} ${labels.glucoseUnit}`,
        className: MARK_CLASS.meterBg,
        render: withDataAttributes(series.glucose, glucoseDotData),
      }),
      Plot.text(series.glucose, {
        x: "time",
        y: value,
        text,
        dy: -9,
        className: MARK_CLASS.meterBg,
      }),
    ],
  };
}

/** A 0..top axis of nice steps (about {@link INSULIN_TICK_COUNT}) covering `max` with headroom. */
function insulinAxis(
  max: number,
  minimum: number,
): { top: number; ticks: number[]; decimals: number } {
  const needed = Math.max(max, minimum) * HEADROOM;
  const step = niceStep(needed / INSULIN_TICK_COUNT);
  const top = Number((Math.ceil(needed / step) * step).toPrecision(12));
  return { top, ticks: stepTicks(top, step), decimals: decimalsOf(step) };
}

/** Bolus units as shown: the 0.05 U display value with one or two decimals. */
function bolusText(units: number, locale: string): string {
  return formatNumber(units, Number.isInteger(Math.round(units * 100) / 10) ? 1 : 2, locale);
}

interface BasalPoint {
  readonly time: number;
  readonly rate: number;
  /** Contiguous run of steps; a gap in the known rate starts a new run (the line breaks). */
  readonly run: number;
}

/** Step-after vertices: each step's start, plus the end of each contiguous run. */
function basalPoints(steps: readonly RateStep[]): BasalPoint[] {
  const points: BasalPoint[] = [];
  let run = 0;
  steps.forEach((s, i) => {
    const prev = steps[i - 1];
    if (prev && prev.end !== s.start) {
      points.push({ time: prev.end, rate: prev.rateUh, run });
      run++;
    }
    points.push({ time: s.start, rate: s.rateUh, run });
  });
  const last = steps[steps.length - 1];
  if (last) points.push({ time: last.end, rate: last.rateUh, run });
  return points;
}

function bolusHeight(b: BolusEvent): number {
  return Math.max(b.immediate?.units ?? 0, b.extended?.units ?? 0);
}

/** Basal step line (U/h, left axis) and, when the series allows, bolus bars (U, right axis), with the time axis. */
export function insulinPanel(
  series: PumpSeries,
  frame: PumpTimeFrame,
  options: PumpChartOptions,
  height: number,
): Plot.PlotOptions {
  const { labels, locale } = options;
  const basal = insulinAxis(
    maxOf(series.basal.steps, (s) => s.rateUh),
    MIN_BASAL_UH,
  );
  const points = basalPoints(series.basal.steps);
  const basalMarks = [
    Plot.areaY(points, {
      x: "time",
      y: "rate",
      z: "run",
      curve: "step-after",
      fill: CHART_PALETTE.basal,
      fillOpacity: 0.15,
      className: MARK_CLASS.basal,
    }),
    Plot.lineY(points, {
      x: "time",
      y: "rate",
      z: "run",
      curve: "step-after",
      stroke: CHART_PALETTE.basal,
      strokeWidth: 1.5,
      className: MARK_CLASS.basal,
    }),
  ];
  return {
    ...panelFrame(frame, height, true),
    marginTop: 20,
    marginBottom: 26,
    y: { type: "linear", domain: [0, basal.top], axis: null },
    marks: [
      Plot.gridY(basal.ticks, { strokeOpacity: 0.1 }),
      Plot.axisY(basal.ticks, {
        anchor: "left",
        tickFormat: (v: number) => formatNumber(v, basal.decimals, locale),
        label: labels.basalAxis,
      }),
      ...basalMarks,
      ...(series.showBolusMarkers ? bolusMarks(series.boluses, basal.top, frame, options) : []),
      Plot.ruleY([0], { strokeOpacity: 0.4 }),
    ],
  };
}

/**
 * Bolus bars on the basal panel. Plot has one y scale per plot, so units are drawn at
 * U x (basal top / bolus top) and the right axis labels those positions in U (the dual-axis
 * approach of the Plot docs, https://observablehq.com/plot/marks/axis).
 */
function bolusMarks(
  boluses: readonly BolusEvent[],
  basalTop: number,
  frame: PumpTimeFrame,
  options: PumpChartOptions,
): Plot.Markish[] {
  const { labels, locale } = options;
  const bolus = insulinAxis(maxOf(boluses, bolusHeight), MIN_BOLUS_U);
  const k = basalTop / bolus.top;
  const unitsText = (b: BolusEvent) => bolusText(b.unitsDisplay, locale);
  const title = (b: BolusEvent) =>
    `${frame.when(b.start, b.clock)} ${unitsText(b)} ${labels.unitU}`;
  const immediate = boluses.filter((b) => b.immediate !== null);
  const extended = boluses.filter((b) => b.extended !== null);
  const common = { className: MARK_CLASS.bolus, title };
  return [
    Plot.axisY(
      bolus.ticks.map((t) => t * k),
      {
        anchor: "right",
        tickFormat: (v: number) => formatNumber(v / k, bolus.decimals, locale),
        label: labels.bolusAxis,
      },
    ),
    Plot.rect(extended, {
      x1: (b: BolusEvent) => b.extended!.start,
      x2: (b: BolusEvent) => b.extended!.start + b.extended!.displayDurationMs,
      y1: 0,
      y2: (b: BolusEvent) => b.extended!.units * k,
      fill: CHART_PALETTE.bolus,
      fillOpacity: 0.3,
      stroke: CHART_PALETTE.bolus,
      strokeWidth: 0.75,
      ...common,
    }),
    Plot.ruleX(immediate, {
      x: (b: BolusEvent) => b.immediate!.start,
      y1: 0,
      y2: (b: BolusEvent) => b.immediate!.units * k,
      stroke: CHART_PALETTE.bolus,
      strokeWidth: 3,
      ...common,
    }),
    Plot.text(boluses, {
      x: (b: BolusEvent) => b.start,
      y: (b: BolusEvent) => bolusHeight(b) * k,
      text: unitsText,
      dy: -7,
      fill: CHART_PALETTE.bolus,
      ...common,
    }),
  ];
}
