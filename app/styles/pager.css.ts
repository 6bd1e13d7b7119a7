import { style } from "@vanilla-extract/css";

export const pager = style({
  display: "flex",
  justifyContent: "space-between",
  alignItems: "center",
  fontSize: "0.875rem",
  "@media": { print: { display: "none" } },
});
