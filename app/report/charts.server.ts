/**
 * Server-side SVG charts of the DAILY, BG and CGMS pages: Observable Plot rendered with a linkedom
 * document, so charts are made in loaders, work with JavaScript off and print crisply without a
 * browser. Each function takes a view model of app/report and returns one `<svg>` element's markup;
 * the caller embeds it with `dangerouslySetInnerHTML`.
 *
 * Every text a chart shows is a translated label passed in, or a number or time formatted here
 * (glucose converted to the display unit, locale decimal separator).
 */
export {
  agpChart,
  agpDailyChart,
  AGP_MARK_CLASS,
  AGP_PERCENTILE_LABELS,
  agpGlucoseScale,
  type AgpChartLabels,
  type AgpDailyChartLabels,
} from "./charts/agp.server";
export { bgRangeChart, type BgChartLabels } from "./charts/bg-range.server";
export {
  cgmDayChart,
  cgmOverlayChart,
  type CgmChartLabels,
  type OverlayChartLabels,
} from "./charts/cgm.server";
export {
  ALARM_SEVERITY_COLOR,
  CHART_PALETTE,
  GLUCOSE_CLASS_COLOR,
  TARGET_BAND_OPACITY,
} from "./charts/palette";
export { pumpDayChart, type PumpChartLabels } from "./charts/pump-day.server";
export {
  pumpRangeChart,
  pumpRangeFacts,
  RANGE_CHART_WIDTH,
  RANGE_MARK_CLASS,
  type PumpRangeChartLabels,
  type PumpRangeChartOptions,
  type PumpRangeFacts,
  type PumpRangeReport,
} from "./charts/pump-range.server";
export { MARK_CLASS, type ChartOptions } from "./charts/render.server";
