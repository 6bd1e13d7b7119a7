import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "./theme.css";

/**
 * The printable triage summary: small type and tight rows so that its most urgent patients fit
 * one page (A4 or US Letter); borders rather than colour, so that it reads the same on paper.
 */
export const summary = style({ fontSize: "9pt", lineHeight: 1.25, color: "#000" });
export const controls = style({ display: "flex", flexWrap: "wrap", gap: vars.space.md });
export const head = style({ margin: "0 0 4pt" });
globalStyle(`${head} h1`, { fontSize: "13pt", margin: 0 });
globalStyle(`${head} p`, { margin: "2pt 0 0" });
export const counts = style({ borderCollapse: "collapse", margin: "4pt 0 6pt", width: "100%" });
globalStyle(`${counts} caption`, { textAlign: "left", fontWeight: 700 });
globalStyle(`${counts} th, ${counts} td`, {
  border: "1px solid #777",
  padding: "1pt 3pt",
  textAlign: "center",
  fontSize: "8pt",
});
globalStyle(`${counts} td`, { fontSize: "11pt", fontWeight: 700 });
export const more = style({ margin: "2pt 0 4pt", fontStyle: "italic" });
/** A category's heading row inside the one table (its column heads are printed once a page). */
export const categoryTitle = style({});
export const rows = style({ borderCollapse: "collapse", width: "100%" });
globalStyle(`${rows} th, ${rows} td`, {
  borderBottom: "1px solid #bbb",
  padding: "0.5pt 3pt",
  textAlign: "right",
  fontSize: "8pt",
  whiteSpace: "nowrap",
});
globalStyle(`${rows} thead th`, { fontWeight: 600, whiteSpace: "normal", verticalAlign: "bottom" });
globalStyle(`${rows} tbody th, ${rows} thead th:first-child, ${rows} td:last-child`, {
  textAlign: "left",
});
globalStyle(`${rows} tr`, { breakInside: "avoid" });
globalStyle(`${rows} th.${categoryTitle}`, {
  fontSize: "9.5pt",
  fontWeight: 700,
  textAlign: "left",
  padding: "4pt 3pt 1pt",
  borderBottom: "1px solid #777",
  breakAfter: "avoid",
});
