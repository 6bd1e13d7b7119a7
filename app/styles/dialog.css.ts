import { style } from "@vanilla-extract/css";
import { vars } from "./theme.css";

export const overlay = style({
  position: "fixed",
  inset: 0,
  background: "rgba(16, 24, 40, 0.45)",
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  padding: vars.space.md,
  zIndex: 50,
});

export const modal = style({
  background: vars.color.surface,
  color: vars.color.text,
  borderRadius: vars.radius.md,
  boxShadow: "0 10px 30px rgba(16, 24, 40, 0.25)",
  maxWidth: "28rem",
  width: "100%",
});

export const dialog = style({ padding: vars.space.lg, outline: "none" });

export const title = style({ fontSize: "1.25rem", marginTop: 0 });
