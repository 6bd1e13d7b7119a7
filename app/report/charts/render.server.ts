/**
 * Shared pieces of the server-side charts: Observable Plot rendered into a linkedom document
 * (Plot's `document` option, https://observablehq.com/plot/features/plots "document"), the
 * finishing of the SVG (accessible name, viewBox-only sizing), panel stacking, and the glucose,
 * time and insulin axes.
 *
 * Glucose arrives in mg/dL and is converted to the display unit here (units.ts `toUnit`); every
 * tick label is formatted with the locale's decimal separator (units.ts `formatNumber`). Times
 * are epoch ms on a linear scale whose tick labels come from the report models (local "HH:mm"),
 * never from Plot's time formatting, which would use the server's zone.
 */
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import type { GlucoseLimits } from "../../metrics/alarm";
import type { TimeTick } from "../day";
import { toUnit, type GlucoseUnit } from "../../domain/glucose-unit";
import { formatNumber, unitDecimals } from "../units";
import { CHART_PALETTE, TARGET_BAND_OPACITY } from "./palette";

export interface ChartOptions {
  /** 0 = mmol/L, 1 = mg/dL (units.ts). */
  readonly unit: GlucoseUnit;
  /** BCP 47 locale of the page, for number formatting. */
  readonly locale: string;
  /** viewBox width in px (the SVG itself scales to its container). */
  readonly width?: number;
  /** viewBox height in px. */
  readonly height?: number;
  /** Accessible name: the svg's aria-label and <title>. */
  readonly title: string;
  /**
   * Hover titles on the marks (default true). A printed document leaves them out: paper cannot
   * show them, and each one costs the PDF renderer time.
   */
  readonly tooltips?: boolean;
  /**
   * Drawn for a narrow screen (a phone): a narrow viewBox, larger text, fewer time ticks and
   * taller panels, so that the chart shown about as wide as its viewBox keeps its text readable.
   */
  readonly narrow?: boolean;
}

export const DEFAULT_CHART_WIDTH = 720;
/** viewBox width of a narrow chart: shown on a phone at about 300-360 CSS px, text near 1:1. */
export const NARROW_CHART_WIDTH = 340;
/** Plot's text size, and the larger one of a narrow chart (viewBox px). */
export const CHART_FONT_SIZE = 10;
export const NARROW_CHART_FONT_SIZE = 11;
/** Hours between the labelled ticks of a day's time axis, and on a narrow chart. */
export const TIME_TICK_HOURS = 3;
export const NARROW_TIME_TICK_HOURS = 6;

/** Text size of a chart drawn with these options (viewBox px). */
export function chartFontSize(options: Pick<ChartOptions, "narrow">): number {
  return options.narrow ? NARROW_CHART_FONT_SIZE : CHART_FONT_SIZE;
}

/** viewBox width of a chart drawn with these options: the given width, else the wide or narrow default. */
export function chartWidth(options: Pick<ChartOptions, "narrow" | "width">): number {
  return options.width ?? (options.narrow ? NARROW_CHART_WIDTH : DEFAULT_CHART_WIDTH);
}
/** Left and right margins shared by every chart, so stacked panels line up. */
export const MARGIN_LEFT = 64;
export const MARGIN_RIGHT = 44;

const SVG_NS = "http://www.w3.org/2000/svg";

/** Class names of the marks (tests and page CSS may select them; they are not shown). */
export const MARK_CLASS = {
  targetBand: "diacare-target-band",
  trace: "diacare-trace",
  glucoseDots: "diacare-glucose",
  basal: "diacare-basal",
  bolus: "diacare-bolus",
  carbs: "diacare-carbs",
  alarms: "diacare-alarms",
  meterBg: "diacare-meter-bg",
} as const;

let sharedDocument: Document | null = null;

/** One linkedom document for every render: Plot only creates detached nodes in it. */
function chartDocument(): Document {
  sharedDocument ??= parseHTML("<!doctype html><html><body></body></html>")
    .document as unknown as Document;
  return sharedDocument;
}

/**
 * A render transform (Plot's mark `render` option) that writes `attributes(data[i])` on the
 * element drawn for datum i, so that a page or a test can read what each mark stands for. Plot
 * draws one child element per index entry, in index order; anything else is a programming error
 * and throws.
 */
export function withDataAttributes<T>(
  data: readonly T[],
  attributes: (datum: T) => Record<string, string>,
): Plot.RenderFunction {
  return (index, scales, values, dimensions, context, next) => {
    const g = next!(index, scales, values, dimensions, context);
    if (!g) return g;
    const drawn = [...g.children];
    if (drawn.length !== index.length)
      throw new Error(`expected ${index.length} mark elements, got ${drawn.length}`);
    index.forEach((i, k) => {
      for (const [name, value] of Object.entries(attributes(data[i]!)))
        drawn[k]!.setAttribute(name, value);
    });
    return g;
  };
}

/** Renders one Plot panel to a detached SVG element. */
export function renderPanel(options: Plot.PlotOptions): SVGSVGElement {
  const node = Plot.plot({ ...options, document: chartDocument() }) as unknown as Element;
  // Plot wraps the svg in a <figure> only with a title, caption or legend, which we never pass.
  if (node.tagName.toLowerCase() !== "svg")
    throw new Error(`expected an svg from Plot, got <${node.tagName}>`);
  return node as SVGSVGElement;
}

/**
 * Makes a rendered svg the chart's root: accessible name (role img, aria-label, <title>) and
 * sizing by viewBox only, so it fills its container's width with the height following the
 * aspect ratio (Plot's own inline style sets `height: auto; max-width: 100%`).
 */
export function finishChart(
  svg: SVGSVGElement,
  { title, tooltips = true, narrow = false }: Pick<ChartOptions, "title" | "tooltips" | "narrow">,
): string {
  const doc = svg.ownerDocument;
  if (!tooltips) for (const markTitle of svg.querySelectorAll("title")) markTitle.remove();
  // Every text inherits the root's size (Plot writes 10 there); a narrow chart's is larger.
  svg.setAttribute("font-size", String(chartFontSize({ narrow })));
  svg.setAttribute("xmlns", SVG_NS);
  svg.setAttribute("role", "img");
  svg.setAttribute("width", "100%");
  svg.removeAttribute("height");
  roundCoordinates(svg, narrow ? NARROW_COORDINATE_DECIMALS : COORDINATE_DECIMALS);
  // The chart is one image named by its title: its parts (Plot labels some of them) are hidden from assistive technology.
  for (const part of svg.children) part.setAttribute("aria-hidden", "true");
  const titleElement = doc.createElementNS(SVG_NS, "title");
  titleElement.textContent = title;
  svg.insertBefore(titleElement, svg.firstChild);
  // linkedom escapes only quotes in attribute values, so the one attribute holding caller text
  // is written here, escaped for both HTML and XML parsers.
  return svg.outerHTML.replace(/^<svg/, `<svg aria-label="${escapeAttribute(title)}"`);
}

function escapeAttribute(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll('"', "&quot;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}

/** Attributes holding coordinates; their numbers are rounded to {@link COORDINATE_DECIMALS}. */
const GEOMETRY_ATTRIBUTES = [
  "d",
  "x",
  "y",
  "x1",
  "x2",
  "y1",
  "y2",
  "cx",
  "cy",
  "r",
  "width",
  "height",
  "transform",
  "points",
] as const;
const COORDINATE_DECIMALS = 2;
/** A narrow chart is shown near 1:1 on a phone: 0.1 px is below what a screen shows, and its lines cost a fifth less. */
const NARROW_COORDINATE_DECIMALS = 1;
/** A decimal number with more digits than `decimals`, possibly in exponent form (Plot writes 49.99999999999999, 1e-14). */
function longNumber(decimals: number): RegExp {
  return new RegExp(
    `-?\\d*\\.\\d{${decimals + 1},}(?:e[-+]?\\d+)?|-?\\d+(?:\\.\\d+)?e[-+]?\\d+`,
    "gi",
  );
}
const LONG_NUMBER: Readonly<Record<number, RegExp>> = {
  [COORDINATE_DECIMALS]: longNumber(COORDINATE_DECIMALS),
  [NARROW_COORDINATE_DECIMALS]: longNumber(NARROW_COORDINATE_DECIMALS),
};

function roundNumber(text: string, decimals: number): string {
  const rounded = Number(Number(text).toFixed(decimals));
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/**
 * Rounds coordinates to 0.01 px (a narrow chart's to 0.1 px): Plot writes full doubles
 * (49.99999999999999), which only inflate the page (the 14-day overlay by about an eighth)
 * without visible difference.
 */
function roundCoordinates(svg: SVGSVGElement, decimals: number): void {
  const pattern = LONG_NUMBER[decimals]!;
  const round = (text: string) => roundNumber(text, decimals);
  for (const element of svg.querySelectorAll("*")) {
    for (const name of GEOMETRY_ATTRIBUTES) {
      const value = element.getAttribute(name);
      if (value !== null) element.setAttribute(name, value.replace(pattern, round));
    }
  }
}

/** Presentation attributes Plot puts on its svg root; kept on each panel's group. */
const PANEL_ATTRIBUTES = ["text-anchor", "font-size", "font-family", "fill"] as const;

/**
 * Stacks panels (rendered at the same width) vertically into one svg. Each panel's content is
 * moved into a translated <g>, rather than nesting <svg> elements, because Plot's stylesheet
 * (`height: auto` on its class) would resize nested svg viewports.
 */
export function stackPanels(panels: readonly SVGSVGElement[], width: number): SVGSVGElement {
  const first = panels[0];
  if (!first) throw new Error("stackPanels needs at least one panel");
  const doc = first.ownerDocument;
  const root = doc.createElementNS(SVG_NS, "svg") as SVGSVGElement;
  for (const name of [...PANEL_ATTRIBUTES, "class"]) {
    const value = first.getAttribute(name);
    if (value !== null) root.setAttribute(name, value);
  }
  const style = first.querySelector("style");
  if (style) root.appendChild(style);
  let y = 0;
  for (const panel of panels) {
    const group = doc.createElementNS(SVG_NS, "g");
    if (y > 0) group.setAttribute("transform", `translate(0,${y})`);
    for (const name of PANEL_ATTRIBUTES) {
      const value = panel.getAttribute(name);
      if (value !== null && value !== root.getAttribute(name)) group.setAttribute(name, value);
    }
    for (const child of [...panel.childNodes]) {
      if ((child as Element).tagName?.toLowerCase() !== "style") group.appendChild(child);
    }
    root.appendChild(group);
    y += Number(panel.getAttribute("height"));
  }
  root.setAttribute("viewBox", `0 0 ${width} ${y}`);
  return root;
}

// ---------------------------------------------------------------------------------------------
// Ticks

/** The nearest "nice" step (1, 2, 2.5 or 5 x 10^n) at or above `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const m = raw / power;
  const factor = m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10;
  return Number((factor * power).toPrecision(12));
}

/** 0, step, 2 step, ... up to `top` (inclusive), free of binary noise. */
export function stepTicks(top: number, step: number): number[] {
  const ticks: number[] = [];
  for (let i = 0; i * step <= top + step * 1e-9; i++)
    ticks.push(Number((i * step).toPrecision(12)));
  return ticks;
}

/** Decimals needed to write `step` exactly (0.25 -> 2, 0.5 -> 1, 5 -> 0). */
export function decimalsOf(step: number): number {
  const text = String(Number(step.toPrecision(6)));
  const dot = text.indexOf(".");
  return dot < 0 ? 0 : text.length - dot - 1;
}

// ---------------------------------------------------------------------------------------------
// Axes

/** x scale for epoch-ms times with the model's local-clock ticks (DST days: 23/25 h domains). */
export function timeScale(
  domain: readonly [number, number],
  ticks: readonly TimeTick[],
  showAxis = true,
): Plot.ScaleOptions {
  const labels = new Map(ticks.map((t) => [t.time, t.label]));
  return {
    type: "linear",
    domain: [domain[0], domain[1]],
    ticks: ticks.map((t) => t.time),
    tickFormat: (t: number) => labels.get(t) ?? "",
    grid: true,
    label: null,
    ...(showAxis ? {} : { axis: null }),
  };
}

/** Lowest top of a glucose axis, mg/dL (keeps the 250 mg/dL very-high threshold in view). */
export const GLUCOSE_AXIS_MIN_TOP_MGDL = 300;
/** Regular glucose tick step in the display unit (mmol/L, mg/dL), and for short panels. */
const GLUCOSE_TICK_STEP: Readonly<Record<GlucoseUnit, number>> = { 0: 2, 1: 50 };
const COMPACT_GLUCOSE_TICK_STEP: Readonly<Record<GlucoseUnit, number>> = { 0: 5, 1: 100 };
/** A regular tick this close to a target-limit tick (fraction of the axis) is left out. */
const TICK_CLEARANCE = 0.08;

/**
 * The y scale of a glucose panel in the display unit: 0 up to a whole tick step above the
 * highest value (at least 300 mg/dL), regular ticks plus ticks at the target limits so the
 * band's edges are labelled ("3,9" and "10,0" in pl with mmol/L).
 */
export function glucoseScale(
  maxMgdl: number,
  options: ChartOptions,
  label: string,
  { band, compact = false }: { band?: GlucoseLimits; compact?: boolean } = {},
): Plot.ScaleOptions {
  const { unit, locale } = options;
  const step = (compact ? COMPACT_GLUCOSE_TICK_STEP : GLUCOSE_TICK_STEP)[unit];
  const topMgdl = Math.max(
    GLUCOSE_AXIS_MIN_TOP_MGDL,
    Number.isFinite(maxMgdl) ? maxMgdl * 1.05 : 0,
  );
  const top = Math.ceil(toUnit(topMgdl, unit) / step) * step;
  const limitTicks = band ? [toUnit(band.low, unit), toUnit(band.high, unit)] : [];
  const regular = stepTicks(top, step).filter((t) =>
    limitTicks.every((l) => Math.abs(t - l) >= TICK_CLEARANCE * top),
  );
  const decimals = unitDecimals(unit);
  return {
    type: "linear",
    domain: [0, top],
    ticks: [...regular, ...limitTicks].sort((a, b) => a - b),
    tickFormat: (v: number) => formatNumber(v, decimals, locale),
    grid: true,
    label,
  };
}

/** The patient's target range as a shaded band across [x1, x2], in the display unit. */
export function targetBandMark(
  band: GlucoseLimits,
  x1: number,
  x2: number,
  unit: GlucoseUnit,
  title: string,
): Plot.Markish {
  return Plot.rect([band], {
    x1: () => x1,
    x2: () => x2,
    y1: (b: GlucoseLimits) => toUnit(b.low, unit),
    y2: (b: GlucoseLimits) => toUnit(b.high, unit),
    fill: CHART_PALETTE.targetBand,
    fillOpacity: TARGET_BAND_OPACITY,
    title: () => title,
    className: MARK_CLASS.targetBand,
  });
}

/** Largest value of a list (or -Infinity), without spreading large arrays into Math.max. */
export function maxOf<T>(items: Iterable<T>, value: (item: T) => number): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const item of items) {
    const v = value(item);
    if (v > max) max = v;
  }
  return max;
}

/** Local "HH:mm" labels of the overlay's wall-clock minute axis, every `stepHours`. */
export function minuteTicks(stepHours = 3): { minute: number; label: string }[] {
  const ticks: { minute: number; label: string }[] = [];
  for (let h = 0; h < 24; h += stepHours)
    ticks.push({ minute: h * 60, label: `${h < 10 ? "0" : ""}${h}:00` });
  return ticks;
}
