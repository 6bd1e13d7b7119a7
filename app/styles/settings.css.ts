import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { vars } from "./theme.css";

/** The settings page `/newsetting`: wider than the account forms, for the report header preview. */
export const page = style({ maxWidth: "48rem", margin: "0 auto" });

export const choices = style({
  display: "grid",
  gap: vars.space.md,
  gridTemplateColumns: "repeat(auto-fit, minmax(12rem, 1fr))",
  marginBottom: vars.space.md,
});

// Side-by-side groups share a height; their choices stay at the top.
globalStyle(`${choices} > fieldset`, { alignContent: "start" });

export const currentLogo = style({
  maxHeight: "4rem",
  maxWidth: "12rem",
  objectFit: "contain",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  padding: vars.space.xs,
});

const paper = style({
  border: `1px solid ${vars.color.border}`,
  boxShadow: vars.shadow.card,
  background: vars.color.surface,
  padding: vars.space.md,
  overflow: "hidden",
  // The header is drawn at print size and scaled down, so that it wraps as it does on paper.
  zoom: 0.6,
});

/** A sheet of A4 in the saved orientation, holding the header preview. */
export const sheet = styleVariants({
  portrait: [paper, { width: "35rem", aspectRatio: "210 / 297" }],
  landscape: [paper, { width: "49.5rem", aspectRatio: "297 / 210" }],
});
