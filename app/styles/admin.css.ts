import { style } from "@vanilla-extract/css";
import { cell } from "./patient-area.css";
import { vars } from "./theme.css";

/** A table cell at the top of its row (a report may run over many lines). */
export const topCell = style([cell, { verticalAlign: "top" }]);

/** A reported text as it was sent: line breaks kept, long lines wrapped, at most 16 lines before it scrolls. */
export const report = style({
  margin: 0,
  fontFamily: vars.font.mono,
  fontSize: "0.8125rem",
  whiteSpace: "pre-wrap",
  overflowWrap: "anywhere",
  maxHeight: "20em",
  overflowY: "auto",
});
