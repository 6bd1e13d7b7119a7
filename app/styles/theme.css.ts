import { createGlobalTheme } from "@vanilla-extract/css";
import { GLUCOSE_CLASS_COLOR } from "~/report/charts/palette";

/**
 * Design tokens. Colours meet WCAG AA contrast on white; the glucose classes are the charts' own
 * colours. The focus indicator is two-tone (a dark ring around a white one), so it shows on the
 * white page and on the blue header alike.
 */
export const vars = createGlobalTheme(":root", {
  color: {
    text: "#1b2430",
    muted: "#556070",
    border: "#d5dbe3",
    surface: "#ffffff",
    background: "#f5f7fa",
    brand: "#0b5cab",
    brandDark: "#083f75",
    brandText: "#ffffff",
    focus: "#1b2430",
    focusHalo: "#ffffff",
    danger: "#b3261e",
    success: "#1e7b34",
    warning: "#8a5300",
    ...GLUCOSE_CLASS_COLOR,
  },
  font: {
    body: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Helvetica Neue', Arial, sans-serif",
    mono: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  },
  space: { xs: "0.25rem", sm: "0.5rem", md: "1rem", lg: "1.5rem", xl: "2.5rem" },
  radius: { sm: "4px", md: "8px" },
  shadow: { card: "0 1px 2px rgba(16, 24, 40, 0.08), 0 1px 3px rgba(16, 24, 40, 0.06)" },
});
