import { keyframes, style } from "@vanilla-extract/css";
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

const slideIn = keyframes({
  from: { transform: "translateX(100%)" },
  to: { transform: "translateX(0)" },
});

/** A drawer: the dimmed page, and a panel sliding in from the right edge (at once when motion is reduced). */
export const drawerOverlay = style({
  position: "fixed",
  inset: 0,
  background: "rgba(16, 24, 40, 0.45)",
  zIndex: 50,
});

export const drawer = style({
  position: "fixed",
  top: 0,
  right: 0,
  bottom: 0,
  width: "min(44rem, 100vw)",
  overflowY: "auto",
  background: vars.color.surface,
  color: vars.color.text,
  boxShadow: "-8px 0 30px rgba(16, 24, 40, 0.25)",
  selectors: { "&[data-entering]": { animation: `${slideIn} 200ms ease-out` } },
  "@media": {
    "(prefers-reduced-motion: reduce)": {
      selectors: { "&[data-entering]": { animation: "none" } },
    },
  },
});

export const drawerHeader = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.md,
});

export const closeButton = style({
  minWidth: "2.5rem",
  minHeight: "2.5rem",
  fontSize: "1.5rem",
  lineHeight: 1,
  background: "transparent",
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  cursor: "pointer",
});
