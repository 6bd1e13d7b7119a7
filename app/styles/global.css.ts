import { globalStyle } from "@vanilla-extract/css";
import { vars } from "./theme.css";

globalStyle("*, *::before, *::after", { boxSizing: "border-box" });
globalStyle("html", { fontSize: "100%", WebkitTextSizeAdjust: "100%" });
globalStyle("body", {
  margin: 0,
  fontFamily: vars.font.body,
  lineHeight: 1.5,
  color: vars.color.text,
  background: vars.color.background,
});
globalStyle("a", { color: vars.color.brand });
globalStyle("a:hover", { color: vars.color.brandDark });
globalStyle(":focus-visible", {
  outline: `3px solid ${vars.color.focus}`,
  outlineOffset: "2px",
  boxShadow: `0 0 0 2px ${vars.color.focusHalo}`,
});
globalStyle("h1, h2, h3", { lineHeight: 1.25, margin: `0 0 ${vars.space.md}` });
globalStyle("button, input, select, textarea", { font: "inherit" });

globalStyle("body", { "@media": { print: { background: "#fff" } } });
globalStyle("[data-print-hide]", { "@media": { print: { display: "none !important" } } });
