import { style, styleVariants } from "@vanilla-extract/css";
import { vars } from "./theme.css";

/** Remote caring's pages: the section menu, the hub's cards and the alarm words. */
export const menu = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.xs,
  margin: `0 0 ${vars.space.md}`,
  padding: 0,
  listStyle: "none",
  borderBottom: `1px solid ${vars.color.border}`,
});

export const cards = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(14rem, 1fr))",
  gap: vars.space.md,
  margin: `${vars.space.md} 0`,
});

export const hubCard = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
});

export const values = style({
  display: "grid",
  gridTemplateColumns: "max-content 1fr",
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: `${vars.space.md} 0`,
});
export const term = style({ fontWeight: 600 });
export const definition = style({ margin: 0 });

/** The alarm of the current glucose: a word, coloured and bold beyond "none", so it reads without colour too. */
export const alarm = styleVariants({
  veryLow: { color: vars.color.veryLow, fontWeight: 700 },
  low: { color: vars.color.low, fontWeight: 700 },
  high: { color: vars.color.warning, fontWeight: 700 },
  none: {},
});

export const small = style({ color: vars.color.muted, fontSize: "0.875rem" });
