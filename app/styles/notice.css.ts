import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "./theme.css";

export const overlay = style({
  position: "fixed",
  inset: 0,
  zIndex: 100,
  background: "rgba(16, 24, 40, 0.6)",
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  padding: vars.space.md,
  "@media": { print: { display: "none" } },
});

export const dialog = style({
  background: vars.color.surface,
  borderRadius: vars.radius.md,
  padding: vars.space.lg,
  maxWidth: "30rem",
  boxShadow: "0 10px 30px rgba(16, 24, 40, 0.3)",
});

export const button = style({
  display: "inline-block",
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.sm,
  background: vars.color.brand,
  color: vars.color.brandText,
  textDecoration: "none",
  selectors: { "&:hover": { color: vars.color.brandText, background: vars.color.brandDark } },
});

/** The language and sign-out choices under the dialog's main link. */
export const choices = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.xs,
  margin: `${vars.space.md} 0 ${vars.space.sm}`,
});

export const banner = style({
  maxWidth: "72rem",
  margin: `${vars.space.md} auto 0`,
  padding: vars.space.md,
  border: `1px solid ${vars.color.warning}`,
  borderRadius: vars.radius.sm,
  background: "#fff8e6",
  "@media": { print: { display: "none" } },
});

/** Hidden only when JavaScript runs (it reveals the notice after the delay). */
export const delayed = style({});
export const shown = style({});
globalStyle(`html.js ${delayed}`, { display: "none" });
