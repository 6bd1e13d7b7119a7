import { globalStyle, style } from "@vanilla-extract/css";
import { ONE_COLUMN } from "./breakpoints";
import { vars } from "./theme.css";

/** The support, about and printable document pages: tables, step guides and their diagrams. */

/** A wide table scrolls inside its own keyboard-reachable region instead of the page. */
export const tableRegion = style({ overflowX: "auto", marginBottom: vars.space.md });

export const table = style({
  borderCollapse: "collapse",
  width: "100%",
  fontSize: "0.9375rem",
});
globalStyle(`${table} caption`, {
  textAlign: "start",
  fontWeight: 600,
  marginBottom: vars.space.sm,
});
globalStyle(`${table} th, ${table} td`, {
  textAlign: "start",
  verticalAlign: "top",
  padding: `${vars.space.xs} ${vars.space.sm}`,
  borderBottom: `1px solid ${vars.color.border}`,
});
globalStyle(`${table} thead th`, { borderBottom: `2px solid ${vars.color.text}` });

export const guides = style({
  display: "grid",
  gridTemplateColumns: "repeat(2, minmax(0, 1fr))",
  gap: vars.space.lg,
  "@media": { [ONE_COLUMN]: { gridTemplateColumns: "1fr" }, print: { display: "block" } },
});

export const steps = style({ paddingInlineStart: "1.5rem" });
globalStyle(`${steps} > li`, { marginBottom: vars.space.sm });

export const diagram = style({
  display: "block",
  width: "100%",
  maxWidth: "18rem",
  height: "auto",
  marginTop: vars.space.sm,
});

export const note = style({ color: vars.color.muted, fontSize: "0.875rem" });

/** A printable document (user guide, terms): one column, no card chrome on paper. */
export const document = style({
  maxWidth: "48rem",
  margin: "0 auto",
  "@media": { print: { maxWidth: "none" } },
});
globalStyle(`${document} section`, {
  "@media": { print: { border: "none", boxShadow: "none", padding: 0, breakInside: "auto" } },
});
globalStyle(`${document} h2, ${document} h3`, {
  "@media": { print: { breakAfter: "avoid" } },
});
globalStyle(`${document} li, ${document} tr, ${document} svg`, {
  "@media": { print: { breakInside: "avoid" } },
});

export const docMeta = style({ color: vars.color.muted, marginTop: `-${vars.space.sm}` });

export const linkList = style({
  display: "grid",
  gap: vars.space.xs,
  paddingInlineStart: "1.25rem",
});
