/**
 * The institution dashboard's charts: one horizontal bar per category (a gender, an age band, a
 * type of diabetes) with its count written at the bar's end. Category names are translations of
 * any length, so they sit in a wide left margin and are cut with an ellipsis when too long; the
 * page lists the same numbers in a table.
 */
import * as Plot from "@observablehq/plot";
import { formatNumber } from "../units";
import { CHART_PALETTE } from "./palette";
import { chartFontSize, chartWidth, finishChart, renderPanel, stepTicks } from "./render.server";

export interface CountBar {
  /** The category's stable key (written on the bar as `data-key`). */
  readonly key: string;
  /** The category's name as the chart shows it. */
  readonly label: string;
  readonly count: number;
}

export interface CountChartOptions {
  /** BCP 47 locale of the page, for number formatting. */
  readonly locale: string;
  /** Accessible name: the svg's aria-label and <title>. */
  readonly title: string;
  /** The count axis's label ("Patients"). */
  readonly countLabel: string;
  /** Drawn for a narrow screen: narrower viewBox, larger text, a narrower name margin. */
  readonly narrow?: boolean;
}

/** Class name of the bars (tests select them). */
export const COUNT_BAR_CLASS = "diacare-count-bar";

const BAR_HEIGHT = 24;
const NARROW_BAR_HEIGHT = 28;
const NAME_MARGIN = 200;
const NARROW_NAME_MARGIN = 120;

/** The count axis: whole numbers only, at most about six ticks, at least up to 1. */
function countTicks(max: number): number[] {
  const top = Math.max(1, max);
  const step = Math.max(1, Math.ceil(top / 5));
  return stepTicks(Math.ceil(top / step) * step, step);
}

/** A bar per category, in the order given, the count at each bar's end. */
export function countBarChart(bars: readonly CountBar[], options: CountChartOptions): string {
  const narrow = options.narrow ?? false;
  const width = chartWidth({ narrow });
  const nameMargin = narrow ? NARROW_NAME_MARGIN : NAME_MARGIN;
  const ticks = countTicks(Math.max(0, ...bars.map((b) => b.count)));
  const top = ticks[ticks.length - 1]!;
  const format = (n: number) => formatNumber(n, 0, options.locale);
  const svg = renderPanel({
    width,
    height: 48 + bars.length * (narrow ? NARROW_BAR_HEIGHT : BAR_HEIGHT),
    marginLeft: nameMargin,
    marginRight: 36,
    marginTop: 12,
    marginBottom: 36,
    x: {
      type: "linear",
      domain: [0, top],
      ticks,
      tickFormat: format,
      grid: true,
      label: options.countLabel,
      labelAnchor: "center",
      labelArrow: "none",
    },
    y: { type: "band", domain: bars.map((b) => b.key), padding: 0.25, axis: null },
    marks: [
      Plot.axisY(
        bars.map((b) => b.key),
        {
          tickFormat: (key: string) => bars.find((b) => b.key === key)?.label ?? key,
          tickSize: 0,
          lineWidth: (nameMargin - 8) / chartFontSize({ narrow }),
          textOverflow: "ellipsis",
          label: null,
        },
      ),
      Plot.barX(bars, {
        x: "count",
        y: "key",
        fill: CHART_PALETTE.basal,
        className: COUNT_BAR_CLASS,
        ...(narrow ? {} : { title: (b: CountBar) => `${b.label}: ${format(b.count)}` }),
      }),
      Plot.text(bars, {
        x: "count",
        y: "key",
        text: (b: CountBar) => format(b.count),
        textAnchor: "start",
        dx: 4,
        fill: "currentColor",
      }),
    ],
  });
  return finishChart(svg, { title: options.title, narrow, tooltips: !narrow });
}
