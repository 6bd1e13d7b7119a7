import { style } from "@vanilla-extract/css";
import { vars } from "./theme.css";

export const form = style({ display: "grid", gap: vars.space.md, maxWidth: "32rem" });
export const wide = style({
  display: "grid",
  gap: vars.space.md,
  gridTemplateColumns: "repeat(auto-fit, minmax(14rem, 1fr))",
});
export const field = style({ display: "grid", gap: vars.space.xs });
export const label = style({ fontWeight: 600 });
export const hint = style({ margin: 0, color: vars.color.muted, fontSize: "0.875rem" });
export const input = style({
  width: "100%",
  minHeight: "2.75rem",
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: vars.color.surface,
  selectors: { "&[aria-invalid=true]": { borderColor: vars.color.danger } },
});
export const prefixed = style({ display: "flex", alignItems: "stretch" });
export const prefix = style({
  display: "inline-flex",
  alignItems: "center",
  padding: `0 ${vars.space.md}`,
  border: `1px solid ${vars.color.border}`,
  borderRight: 0,
  borderRadius: `${vars.radius.sm} 0 0 ${vars.radius.sm}`,
  background: vars.color.background,
  fontFamily: vars.font.mono,
  fontWeight: 700,
});
export const errors = style({ margin: 0, paddingLeft: vars.space.md, color: vars.color.danger });
export const notice = style({
  margin: 0,
  padding: vars.space.sm,
  borderRadius: vars.radius.sm,
  background: "#e8f4ea",
  color: vars.color.success,
});
export const fieldset = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  padding: vars.space.md,
  display: "grid",
  gap: vars.space.sm,
});
export const choice = style({ display: "flex", alignItems: "center", gap: vars.space.sm });
export const links = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.md,
  alignItems: "center",
});
export const narrow = style({ maxWidth: "34rem", margin: "0 auto" });
/** Off-screen but still the form's default button (display: none would not be). */
export const defaultSubmit = style({
  position: "absolute",
  left: "-9999px",
  width: "1px",
  height: "1px",
  overflow: "hidden",
});

/** A compact labelled field of an inline toolbar (date pickers of the data views and reports). */
export const inlineField = style({ display: "grid", gap: vars.space.xs, fontSize: "0.875rem" });
export const inlineInput = style({
  minHeight: "2.5rem",
  padding: `0 ${vars.space.sm}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  font: "inherit",
  selectors: { "&[aria-invalid=true]": { borderColor: vars.color.danger } },
});

/** The quick-range buttons of a date-range form ("the last N days"): a row under a small legend. */
export const quickRanges = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.xs,
  border: 0,
  margin: 0,
  padding: 0,
});
export const quickLegend = style({
  float: "left",
  marginRight: vars.space.xs,
  padding: 0,
  fontSize: "0.875rem",
  color: vars.color.muted,
});
