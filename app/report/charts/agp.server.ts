/**
 * AGP charts of the AGP report (app/report/agp-report.ts): the percentile chart on a 24 h
 * wall-clock axis ({@link agpChart}: 5-95 % band light, 25-75 % band darker, the median bold,
 * the 70-180 mg/dL target band; Battelino et al., Diabetes Care 2019;42(8):1593-1603) and the
 * small per-day profiles ({@link agpDailyChart}). Glucose arrives in mg/dL and is shown in the
 * reader's unit; every text is a label passed in.
 */
import * as Plot from "@observablehq/plot";
import type { Agp } from "../../metrics/agp";
import type { GlucoseLimits } from "../../metrics/alarm";
import { AGP_TARGET_BAND, type DailyProfile } from "../agp-report";
import { toUnit } from "../units";
import { CHART_PALETTE, mixColor } from "./palette";
import { DEFAULT_CHART_WIDTH, finishChart, glucoseScale, MARGIN_LEFT, MARGIN_RIGHT, MARK_CLASS, maxOf, minuteTicks, renderPanel, targetBandMark, type ChartOptions } from "./render.server";

export interface AgpChartLabels {
  /** y-axis label, naming the unit. */
  readonly glucoseAxis: string;
  /** Tooltip of the target band. */
  readonly targetRange: string;
  /** Tooltips of the bands and the median line. */
  readonly outerBand: string;
  readonly innerBand: string;
  readonly median: string;
}

export interface AgpDailyChartLabels {
  readonly glucoseAxis: string;
  readonly targetRange: string;
}

/** Class names of the AGP marks (tests and page CSS may select them). */
export const AGP_MARK_CLASS = {
  outerBand: "diacare-agp-p5-p95",
  innerBand: "diacare-agp-p25-p75",
  median: "diacare-agp-median",
} as const;

/** Colours: the overlay's light-to-dark blues (palette.ts). */
export const AGP_COLORS = {
  outerBand: CHART_PALETTE.overlayOldest,
  innerBand: mixColor(CHART_PALETTE.overlayOldest, CHART_PALETTE.overlayNewest, 0.55),
  median: CHART_PALETTE.overlayNewest,
} as const;

const AGP_HEIGHT = 320;
const DAILY_WIDTH = 240;
const DAILY_HEIGHT = 130;
const MARGINS = { marginLeft: MARGIN_LEFT, marginRight: MARGIN_RIGHT, marginTop: 24, marginBottom: 28 } as const;
const DAILY_MARGINS = { marginLeft: 36, marginRight: 10, marginTop: 8, marginBottom: 20 } as const;
const DAY_MINUTES = 1440;

interface AgpRow {
  readonly minute: number;
  readonly p5: number;
  readonly p25: number;
  readonly p50: number;
  readonly p75: number;
  readonly p95: number;
}

/** One row per 5-minute column in the display unit; an empty column is NaN (a gap in the marks). */
function agpRows(agp: Agp, unit: ChartOptions["unit"]): AgpRow[] {
  const v = (x: number | null | undefined) => (x === null || x === undefined ? Number.NaN : toUnit(x, unit));
  return agp.timeOfDayMin.map((minute, i) => ({ minute, p5: v(agp.p5[i]), p25: v(agp.p25[i]), p50: v(agp.p50[i]), p75: v(agp.p75[i]), p95: v(agp.p95[i]) }));
}

function minuteScale(stepHours: number, showGrid = true): Plot.ScaleOptions {
  const ticks = minuteTicks(stepHours);
  const labels = new Map(ticks.map((t) => [t.minute, t.label]));
  return { type: "linear", domain: [0, DAY_MINUTES], ticks: ticks.map((t) => t.minute), tickFormat: (m: number) => labels.get(m) ?? "", grid: showGrid, label: null };
}

/** The AGP percentile chart: 00:00-24:00, ticks every 3 h, 5-95 % and 25-75 % bands, the median, the target band. */
export function agpChart(agp: Agp, options: ChartOptions & { labels: AgpChartLabels; targetBand?: GlucoseLimits }): string {
  const { unit, labels } = options;
  const band = options.targetBand ?? AGP_TARGET_BAND;
  const rows = agpRows(agp, unit);
  const svg = renderPanel({
    width: options.width ?? DEFAULT_CHART_WIDTH,
    height: options.height ?? AGP_HEIGHT,
    ...MARGINS,
    x: minuteScale(3),
    y: glucoseScale(maxOf(agp.p95, (x) => x ?? Number.NEGATIVE_INFINITY), options, labels.glucoseAxis, { band }),
    marks: [
      targetBandMark(band, 0, DAY_MINUTES, unit, labels.targetRange),
      Plot.areaY(rows, { x: "minute", y1: "p5", y2: "p95", fill: AGP_COLORS.outerBand, fillOpacity: 0.75, title: () => labels.outerBand, className: AGP_MARK_CLASS.outerBand }),
      Plot.areaY(rows, { x: "minute", y1: "p25", y2: "p75", fill: AGP_COLORS.innerBand, fillOpacity: 0.85, title: () => labels.innerBand, className: AGP_MARK_CLASS.innerBand }),
      Plot.lineY(rows, { x: "minute", y: "p50", stroke: AGP_COLORS.median, strokeWidth: 2.5, title: () => labels.median, className: AGP_MARK_CLASS.median }),
    ],
  });
  return finishChart(svg, options);
}

/** One day's glucose profile as a small multiple: 00:00-24:00 (ticks every 6 h), the trace and the target band. */
export function agpDailyChart(profile: DailyProfile, options: ChartOptions & { labels: AgpDailyChartLabels; targetBand?: GlucoseLimits }): string {
  const { unit, labels } = options;
  const band = options.targetBand ?? AGP_TARGET_BAND;
  const rows = profile.points.map((p) => ({ minute: p.minute, value: toUnit(p.mgdl, unit), segment: p.segment }));
  const svg = renderPanel({
    width: options.width ?? DAILY_WIDTH,
    height: options.height ?? DAILY_HEIGHT,
    ...DAILY_MARGINS,
    style: { fontSize: "9px" },
    x: minuteScale(6),
    y: { ...glucoseScale(maxOf(profile.points, (p) => p.mgdl), options, labels.glucoseAxis, { band, compact: true }), label: null },
    marks: [
      targetBandMark(band, 0, DAY_MINUTES, unit, labels.targetRange),
      Plot.lineY(rows, { x: "minute", y: "value", z: "segment", stroke: CHART_PALETTE.trace, strokeWidth: 1, className: MARK_CLASS.trace }),
    ],
  });
  return finishChart(svg, options);
}
