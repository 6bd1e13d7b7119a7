import { style } from "@vanilla-extract/css";
import { vars } from "./theme.css";

export const photo = style({
  width: "6rem",
  height: "6rem",
  objectFit: "cover",
  borderRadius: "50%",
  border: `1px solid ${vars.color.border}`,
});

export const consequences = style({ margin: `${vars.space.sm} 0`, paddingLeft: vars.space.lg });

export const danger = style({
  borderColor: vars.color.danger,
  background: vars.color.danger,
  selectors: { "&:hover": { background: vars.color.danger, filter: "brightness(0.9)" } },
});
