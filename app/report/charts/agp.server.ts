/**
 * AGP charts of the AGP report (app/report/agp-report.ts): the percentile chart on a 24 h
 * wall-clock axis ({@link agpChart}: 5-95 % band light, 25-75 % band darker, the median bold,
 * the target band; Battelino et al., Diabetes Care 2019;42(8):1593-1603) on a fixed 0-350 mg/dL
 * scale (higher values drawn at the top), each
 * percentile named at the chart's right edge and the target range named on its band; and the
 * small per-day profiles ({@link agpDailyChart}), which share that scale so that days can be
 * compared. Glucose arrives in mg/dL and is shown in the reader's unit; every text is a label
 * passed in.
 */
import * as Plot from "@observablehq/plot";
import type { Agp } from "../../metrics/agp";
import type { GlucoseLimits } from "../../metrics/alarm";
import {
  AGP_CLAMP_MGDL,
  AGP_TARGET_BAND,
  consensusGlucose,
  type DailyProfile,
} from "../agp-report";
import { toUnit, type GlucoseUnit } from "../../domain/glucose-unit";
import { formatNumber, unitDecimals } from "../units";
import { AGP_BAND_COLORS, CHART_PALETTE } from "./palette";
import {
  DEFAULT_CHART_WIDTH,
  finishChart,
  MARGIN_LEFT,
  MARGIN_RIGHT,
  MARK_CLASS,
  minuteTicks,
  renderPanel,
  targetBandMark,
  type ChartOptions,
} from "./render.server";

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

/** The percentiles named at the right edge of the AGP chart, with their labels. */
export const AGP_PERCENTILE_LABELS = [
  { key: "p95", text: "95 %" },
  { key: "p75", text: "75 %" },
  { key: "p50", text: "50 %" },
  { key: "p25", text: "25 %" },
  { key: "p5", text: "5 %" },
] as const;

export interface AgpDailyChartLabels {
  readonly glucoseAxis: string;
  readonly targetRange: string;
}

/** Class names of the AGP marks (tests and page CSS may select them). */
export const AGP_MARK_CLASS = {
  outerBand: "diacare-agp-p5-p95",
  innerBand: "diacare-agp-p25-p75",
  median: "diacare-agp-median",
  percentileLabel: "diacare-agp-percentile-label",
  targetLabel: "diacare-agp-target-label",
} as const;

const AGP_HEIGHT = 320;
const DAILY_WIDTH = 240;
const DAILY_HEIGHT = 130;
/** Room on the right for the percentile names. */
const MARGINS = {
  marginLeft: MARGIN_LEFT,
  marginRight: Math.max(MARGIN_RIGHT, 48),
  marginTop: 24,
  marginBottom: 28,
} as const;
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

/** The least distance between a threshold tick and a target-band tick, mg/dL. */
const TICK_CLEARANCE_MGDL = 15;

/** mg/dL in the display unit, drawn at most at {@link AGP_CLAMP_MGDL} (the top of the scale). */
function clamped(mgdl: number, unit: GlucoseUnit): number {
  return mgdl >= AGP_CLAMP_MGDL ? consensusGlucose(AGP_CLAMP_MGDL, unit) : toUnit(mgdl, unit);
}

/**
 * The glucose axis of the AGP and the daily profiles: 0 to 350 mg/dL (19.4 mmol/L) whatever the
 * data, so that every report and every day reads on the same scale, with ticks at the consensus
 * thresholds (54 and 250 mg/dL, each unless within 15 mg/dL of a band limit), the target band's
 * limits and the top; a value above the top is
 * drawn at it. The thresholds are written as the consensus writes them in mmol/L (3.0, 13.9).
 */
export function agpGlucoseScale(
  options: ChartOptions,
  band: GlucoseLimits,
  label: string | null,
): Plot.ScaleOptions {
  const { unit, locale } = options;
  // A threshold tick closer than 15 mg/dL to a limit of the band would print over its label
  // (54 beside pregnancy's 63): the band's limit is kept.
  const thresholds = [54, 250].filter((t) =>
    [band.low, band.high].every((limit) => Math.abs(t - limit) >= TICK_CLEARANCE_MGDL),
  );
  const ticksMgdl = [...new Set([...thresholds, band.low, band.high, AGP_CLAMP_MGDL])].sort(
    (a, b) => a - b,
  );
  const ticks = ticksMgdl.map((mgdl) => consensusGlucose(mgdl, unit));
  const decimals = unitDecimals(unit);
  return {
    type: "linear",
    domain: [0, consensusGlucose(AGP_CLAMP_MGDL, unit)],
    ticks,
    tickFormat: (v: number) => formatNumber(v, decimals, locale),
    grid: true,
    label,
  };
}

/** One row per 5-minute column in the display unit; an empty column is NaN (a gap in the marks). */
function agpRows(agp: Agp, unit: ChartOptions["unit"]): AgpRow[] {
  const v = (x: number | null | undefined) =>
    x === null || x === undefined ? Number.NaN : clamped(x, unit);
  return agp.timeOfDayMin.map((minute, i) => ({
    minute,
    p5: v(agp.p5[i]),
    p25: v(agp.p25[i]),
    p50: v(agp.p50[i]),
    p75: v(agp.p75[i]),
    p95: v(agp.p95[i]),
  }));
}

function minuteScale(stepHours: number, showGrid = true): Plot.ScaleOptions {
  const ticks = minuteTicks(stepHours);
  const labels = new Map(ticks.map((t) => [t.minute, t.label]));
  return {
    type: "linear",
    domain: [0, DAY_MINUTES],
    ticks: ticks.map((t) => t.minute),
    tickFormat: (m: number) => labels.get(m) ?? "",
    grid: showGrid,
    label: null,
  };
}

/** The AGP percentile chart: 00:00-24:00, ticks every 3 h, 5-95 % and 25-75 % bands, the median, the target band. */
export function agpChart(
  agp: Agp,
  options: ChartOptions & { labels: AgpChartLabels; targetBand?: GlucoseLimits },
): string {
  const { unit, labels } = options;
  const band = options.targetBand ?? AGP_TARGET_BAND;
  const rows = agpRows(agp, unit);
  const svg = renderPanel({
    width: options.width ?? DEFAULT_CHART_WIDTH,
    height: options.height ?? AGP_HEIGHT,
    ...MARGINS,
    x: minuteScale(3),
    y: agpGlucoseScale(options, band, labels.glucoseAxis),
    marks: [
      targetBandMark(band, 0, DAY_MINUTES, unit, labels.targetRange),
      Plot.areaY(rows, {
        x: "minute",
        y1: "p5",
        y2: "p95",
        fill: AGP_BAND_COLORS.outerBand,
        fillOpacity: 0.75,
        title: () => labels.outerBand,
        className: AGP_MARK_CLASS.outerBand,
      }),
      Plot.areaY(rows, {
        x: "minute",
        y1: "p25",
        y2: "p75",
        fill: AGP_BAND_COLORS.innerBand,
        fillOpacity: 0.85,
        title: () => labels.innerBand,
        className: AGP_MARK_CLASS.innerBand,
      }),
      Plot.lineY(rows, {
        x: "minute",
        y: "p50",
        stroke: AGP_BAND_COLORS.median,
        strokeWidth: 2.5,
        title: () => labels.median,
        className: AGP_MARK_CLASS.median,
      }),
      Plot.text(percentileLabels(rows), {
        x: () => DAY_MINUTES,
        y: "value",
        text: "text",
        textAnchor: "start",
        dx: 4,
        fontSize: 10,
        fill: "#1b2430",
        className: AGP_MARK_CLASS.percentileLabel,
      }),
      Plot.text([band], {
        x: () => 0,
        y: () => toUnit(band.high, unit),
        text: () => labels.targetRange,
        textAnchor: "start",
        dx: 4,
        dy: -6,
        fontSize: 10,
        fill: CHART_PALETTE.inRange,
        className: AGP_MARK_CLASS.targetLabel,
      }),
    ],
  });
  return finishChart(svg, options);
}

/** Where each percentile ends on the right: its last column with a value (none when the AGP is empty). */
function percentileLabels(rows: readonly AgpRow[]): { value: number; text: string }[] {
  const last = rows.findLast((row) => Number.isFinite(row.p50));
  return last ? AGP_PERCENTILE_LABELS.map(({ key, text }) => ({ value: last[key], text })) : [];
}

/**
 * One day's glucose profile as a small multiple: 00:00-24:00 (ticks every 6 h), the trace and the
 * target band, on the one fixed scale of every day and of the AGP ({@link agpGlucoseScale}), so
 * that the days compare at a glance.
 */
export function agpDailyChart(
  profile: DailyProfile,
  options: ChartOptions & {
    labels: AgpDailyChartLabels;
    targetBand?: GlucoseLimits;
  },
): string {
  const { unit, labels } = options;
  const band = options.targetBand ?? AGP_TARGET_BAND;
  const rows = profile.points.map((p) => ({
    minute: p.minute,
    value: clamped(p.mgdl, unit),
    segment: p.segment,
  }));
  const svg = renderPanel({
    width: options.width ?? DAILY_WIDTH,
    height: options.height ?? DAILY_HEIGHT,
    ...DAILY_MARGINS,
    style: { fontSize: "9px" },
    x: minuteScale(6),
    y: agpGlucoseScale(options, band, null),
    marks: [
      targetBandMark(band, 0, DAY_MINUTES, unit, labels.targetRange),
      Plot.lineY(rows, {
        x: "minute",
        y: "value",
        z: "segment",
        stroke: CHART_PALETTE.trace,
        strokeWidth: 1,
        className: MARK_CLASS.trace,
      }),
    ],
  });
  return finishChart(svg, options);
}
