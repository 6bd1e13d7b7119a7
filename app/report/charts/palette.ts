/**
 * Chart colours, defined once. Plain module (no `.server`), so the page's styles, legends and
 * tables use the same colours as the server-rendered charts. The five glucose classes follow the
 * AGP report's order (dark red, red, green, amber, orange) and each reaches 4.5:1 against white
 * (WCAG 2.1 AA for text, so the same colour may colour a value; 3:1 suffices for graphics).
 */
import type { AlarmSeverity } from "../pump-records";
import type { GlucoseClass } from "../units";

export const CHART_PALETTE = {
  veryLow: "#8b1a1a",
  low: "#d93025",
  inRange: "#2e8540",
  high: "#9a6700",
  veryHigh: "#c2410c",
  basal: "#1f6fb2",
  bolus: "#7b3fa8",
  carbs: "#8b5a2b",
  /** The CGM trace line (the dots carry the class colours). */
  trace: "#4b5563",
  /** Newest and oldest day of the 14-day overlay; days between are mixed linearly. */
  overlayNewest: "#1f4e8c",
  overlayOldest: "#c3d3e8",
  /** Meter readings without a class (no limits known). */
  neutral: "#6b7280",
  /** Fill of the target range band (drawn with {@link TARGET_BAND_OPACITY}). */
  targetBand: "#2e8540",
  alarm: "#d93025",
  warning: "#b35c00",
  event: "#6b7280",
} as const;

export const TARGET_BAND_OPACITY = 0.12;

/** The AGP chart's bands and median: the overlay's light-to-dark blues (also its page legend). */
export const AGP_BAND_COLORS = {
  outerBand: CHART_PALETTE.overlayOldest,
  innerBand: mixColor(CHART_PALETTE.overlayOldest, CHART_PALETTE.overlayNewest, 0.55),
  median: CHART_PALETTE.overlayNewest,
} as const;

export const GLUCOSE_CLASS_COLOR: Readonly<Record<GlucoseClass, string>> = {
  veryLow: CHART_PALETTE.veryLow,
  low: CHART_PALETTE.low,
  inRange: CHART_PALETTE.inRange,
  high: CHART_PALETTE.high,
  veryHigh: CHART_PALETTE.veryHigh,
};

export const ALARM_SEVERITY_COLOR: Readonly<Record<AlarmSeverity, string>> = {
  alarm: CHART_PALETTE.alarm,
  warning: CHART_PALETTE.warning,
  event: CHART_PALETTE.event,
};

/** Linear mix of two "#rrggbb" colours, t = 0 gives `from`, 1 gives `to`. */
export function mixColor(from: string, to: string, t: number): string {
  const k = Math.min(1, Math.max(0, t));
  let out = "#";
  for (let i = 1; i < 7; i += 2) {
    const a = parseInt(from.slice(i, i + 2), 16);
    const b = parseInt(to.slice(i, i + 2), 16);
    out += Math.round(a + (b - a) * k)
      .toString(16)
      .padStart(2, "0");
  }
  return out;
}
