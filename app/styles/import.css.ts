import { style } from "@vanilla-extract/css";
import { vars } from "./theme.css";

/** The file field; with JavaScript it is also where a file can be dropped. */
export const dropZone = style({
  display: "grid",
  gap: vars.space.xs,
  padding: vars.space.md,
  border: `2px dashed ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.background,
  selectors: {
    "&[data-dragging=true]": { borderColor: vars.color.brand, background: vars.color.surface },
  },
});

export const summary = style({
  display: "grid",
  gridTemplateColumns: "max-content 1fr",
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: `0 0 ${vars.space.md}`,
});
export const summaryTerm = style({ fontWeight: 600 });
export const summaryValue = style({ margin: 0 });
export const samples = style({ margin: `${vars.space.xs} 0 0`, paddingLeft: vars.space.lg });
export const steps = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.sm,
  alignItems: "center",
  marginTop: vars.space.md,
});
