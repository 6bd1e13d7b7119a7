import { style } from "@vanilla-extract/css";
import { vars } from "./theme.css";

export const status = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.sm,
  margin: `${vars.space.md} 0`,
});
export const badge = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  minWidth: "1.75rem",
  height: "1.75rem",
  borderRadius: "999px",
  fontWeight: 700,
  color: "#fff",
});
export const success = style({ background: vars.color.success });
export const danger = style({ background: vars.color.danger });
export const pending = style({ background: vars.color.warning });
export const neutral = style({ background: vars.color.muted });
export const reason = style({ color: vars.color.danger });
