import { styleVariants } from "@vanilla-extract/css";
import { vars } from "./theme.css";

/** A glucose value's class (app/report/units.ts `classify`): colour plus weight, so it never relies on colour alone. */
export const glucoseClass = styleVariants({
  veryLow: { color: vars.color.veryLow, fontWeight: 700 },
  low: { color: vars.color.low, fontWeight: 600 },
  inRange: {},
  high: { color: vars.color.warning, fontWeight: 600 },
  veryHigh: { color: vars.color.warning, fontWeight: 700 },
});
