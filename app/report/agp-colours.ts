/**
 * The colours of the glucose profile's time-in-ranges bar, the ones clinicians know from the
 * consensus page: very low dark red, low red, target green, high amber, very high orange. They are
 * the app's glucose class colours (charts/palette.ts), so the bar, the charts and the tables agree;
 * each reaches the 3:1 contrast of graphics against the page (agp-colours.test.ts).
 */
import type { AgpBandKey } from "./agp-report";
import { CHART_PALETTE } from "./charts/palette";

export const AGP_TIR_COLORS: Readonly<Record<AgpBandKey, string>> = {
  veryHigh: CHART_PALETTE.veryHigh,
  high: CHART_PALETTE.high,
  inRange: CHART_PALETTE.inRange,
  low: CHART_PALETTE.low,
  veryLow: CHART_PALETTE.veryLow,
};
