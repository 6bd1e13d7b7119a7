/**
 * CGMS charts: the day's trace ({@link cgmDayChart}) and the 14-day overlay on a wall-clock axis
 * ({@link cgmOverlayChart}). Models: app/report/cgm-day.ts.
 */
import * as Plot from "@observablehq/plot";
import type { CgmDayModel, CgmOverlayModel, CgmPointView } from "../cgm-day";
import { hourTicks } from "../day";
import { toUnit } from "../../domain/glucose-unit";
import { CHART_PALETTE, GLUCOSE_CLASS_COLOR, mixColor } from "./palette";
import {
  chartWidth,
  finishChart,
  glucoseScale,
  MARGIN_LEFT,
  MARGIN_RIGHT,
  MARK_CLASS,
  maxOf,
  minuteTicks,
  NARROW_TIME_TICK_HOURS,
  renderPanel,
  targetBandMark,
  TIME_TICK_HOURS,
  timeScale,
  type ChartOptions,
} from "./render.server";

export interface CgmChartLabels {
  /** y-axis label, naming the unit (e.g. "Glucose (mmol/L)"). */
  readonly glucoseAxis: string;
  /** Tooltip of the target band (e.g. "Target range 3.9-10.0"). */
  readonly targetRange: string;
}

export interface OverlayChartLabels {
  /** y-axis label, naming the unit. */
  readonly glucoseAxis: string;
  /** Tooltip of the target band. */
  readonly targetRange: string;
}

const CGM_DAY_HEIGHT = 280;
const OVERLAY_HEIGHT = 320;
/** Heights of the narrow charts: taller than wide. */
const NARROW_CGM_DAY_HEIGHT = 320;
const NARROW_OVERLAY_HEIGHT = 360;
const MARGINS = {
  marginLeft: MARGIN_LEFT,
  marginRight: MARGIN_RIGHT,
  marginTop: 24,
  marginBottom: 28,
} as const;

/** Readings below or above the target range. */
export function outsideTarget(points: readonly CgmPointView[]): CgmPointView[] {
  return points.filter((p) => p.class !== "inRange");
}

/** One local day of CGM readings: a line per segment, dots coloured by class where out of target, the target band. */
export function cgmDayChart(
  model: CgmDayModel,
  options: ChartOptions & { labels: CgmChartLabels },
): string {
  const { unit, labels } = options;
  const width = chartWidth(options);
  const { start, end } = model.window;
  const y = (p: CgmPointView) => toUnit(p.mgdl, unit);
  const svg = renderPanel({
    width,
    height: options.height ?? (options.narrow ? NARROW_CGM_DAY_HEIGHT : CGM_DAY_HEIGHT),
    ...MARGINS,
    x: timeScale(
      [start, end],
      options.narrow ? hourTicks(model.window, NARROW_TIME_TICK_HOURS) : model.ticks,
    ),
    y: glucoseScale(
      maxOf(model.points, (p) => p.mgdl),
      options,
      labels.glucoseAxis,
      { band: model.targetBand },
    ),
    // Values are CSS colours from the palette: no colour scale in between.
    color: { type: "identity" },
    marks: [
      targetBandMark(model.targetBand, start, end, unit, labels.targetRange),
      // z splits the line where the model starts a new segment (gaps over 15 min).
      Plot.lineY(model.points, {
        x: "time",
        y,
        z: "segment",
        stroke: CHART_PALETTE.trace,
        strokeWidth: 1.25,
        className: MARK_CLASS.trace,
      }),
      // Only readings outside the target get a dot: they are what a reader looks for, and a dot
      // per reading (288 a day) would double the chart's cost for no information.
      Plot.dot(outsideTarget(model.points), {
        x: "time",
        y,
        r: 1.8,
        fill: (p: CgmPointView) => GLUCOSE_CLASS_COLOR[p.class],
        className: MARK_CLASS.glucoseDots,
      }),
    ],
  });
  return finishChart(svg, options);
}

interface OverlayRow {
  readonly minute: number;
  readonly value: number;
  /** Series key: one line per day and segment. */
  readonly key: string;
  readonly color: string;
}

/** The overlay's points flattened into rows, coloured from light (oldest) to dark (newest). */
function overlayRows(model: CgmOverlayModel, unit: ChartOptions["unit"]): OverlayRow[] {
  const rows: OverlayRow[] = [];
  const last = Math.max(1, model.days.length - 1);
  for (const day of model.days) {
    const color = mixColor(
      CHART_PALETTE.overlayOldest,
      CHART_PALETTE.overlayNewest,
      day.index / last,
    );
    for (const p of day.points) {
      rows.push({
        minute: p.minute,
        value: toUnit(p.mgdl, unit),
        key: `${day.index}-${p.segment}`,
        color,
      });
    }
  }
  return rows;
}

/** 14 days (or the model's count) of CGM on one 00:00-24:00 wall-clock axis, one line per day. */
export function cgmOverlayChart(
  model: CgmOverlayModel,
  options: ChartOptions & { labels: OverlayChartLabels },
): string {
  const { unit, labels } = options;
  const width = chartWidth(options);
  const [from, to] = model.minuteDomain;
  const rows = overlayRows(model, unit);
  const ticks = minuteTicks(options.narrow ? NARROW_TIME_TICK_HOURS : TIME_TICK_HOURS);
  const tickLabels = new Map(ticks.map((t) => [t.minute, t.label]));
  const maxMgdl = maxOf(model.days, (d) => maxOf(d.points, (p) => p.mgdl));
  const svg = renderPanel({
    width,
    height: options.height ?? (options.narrow ? NARROW_OVERLAY_HEIGHT : OVERLAY_HEIGHT),
    ...MARGINS,
    x: {
      type: "linear",
      domain: [from, to],
      ticks: ticks.map((t) => t.minute),
      tickFormat: (m: number) => tickLabels.get(m) ?? "",
      grid: true,
      label: null,
    },
    y: glucoseScale(maxMgdl, options, labels.glucoseAxis, { band: model.targetBand }),
    color: { type: "identity" },
    marks: [
      targetBandMark(model.targetBand, from, to, unit, labels.targetRange),
      Plot.lineY(rows, {
        x: "minute",
        y: "value",
        z: "key",
        stroke: "color",
        strokeWidth: 1.1,
        className: MARK_CLASS.trace,
      }),
    ],
  });
  return finishChart(svg, options);
}
