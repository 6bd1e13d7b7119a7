import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { NARROW_SECTION, PHONE } from "./breakpoints";
import { vars } from "./theme.css";

/** The view dims while the next day or tab loads (client navigation with JavaScript). */
export const view = style({
  transition: "opacity 0.15s",
  selectors: { "&[aria-busy=true]": { opacity: 0.55 } },
});

export const visuallyHidden = style({
  position: "absolute",
  width: "1px",
  height: "1px",
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
});

export const header = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "baseline",
  justifyContent: "space-between",
  gap: vars.space.sm,
  marginBottom: vars.space.md,
});

export const title = style({ margin: 0, fontSize: "1.5rem" });

export const reportLinks = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.md,
  margin: `0 0 ${vars.space.sm}`,
  fontSize: "0.9375rem",
  "@media": { [PHONE]: { display: "none" }, print: { display: "none" } },
});

/** On a phone the report links fold into a disclosure (a native <details>: no script needed). */
export const reportMenu = style({
  display: "none",
  margin: `0 0 ${vars.space.sm}`,
  "@media": { [PHONE]: { display: "block" }, print: { display: "none" } },
});

export const reportMenuSummary = style({
  cursor: "pointer",
  fontWeight: 600,
  color: vars.color.brand,
  padding: `${vars.space.xs} 0`,
});

export const reportMenuLinks = style({
  display: "grid",
  gap: vars.space.xs,
  padding: `${vars.space.xs} 0 0 ${vars.space.md}`,
});

export const note = style({
  color: vars.color.muted,
  fontSize: "0.875rem",
  margin: `${vars.space.xs} 0 0`,
});

export const tabs = style({
  display: "flex",
  gap: vars.space.xs,
  borderBottom: `2px solid ${vars.color.border}`,
  margin: `0 0 ${vars.space.md}`,
  padding: 0,
  listStyle: "none",
  "@media": {
    // A phone: the tabs as a grid of buttons, so that six of them fit without sideways scrolling.
    [PHONE]: {
      display: "grid",
      gridTemplateColumns: "repeat(auto-fill, minmax(6.5rem, 1fr))",
      borderBottom: 0,
    },
    print: { display: "none" },
  },
});

export const tab = style({
  display: "inline-block",
  padding: `${vars.space.sm} ${vars.space.md}`,
  fontWeight: 600,
  color: vars.color.muted,
  textDecoration: "none",
  borderBottom: "3px solid transparent",
  marginBottom: "-2px",
  selectors: {
    "&[aria-current=page]": { color: vars.color.brand, borderBottomColor: vars.color.brand },
    "&:hover": { color: vars.color.brandDark },
  },
  "@media": {
    [PHONE]: {
      display: "block",
      height: "100%",
      padding: `${vars.space.sm} ${vars.space.xs}`,
      margin: 0,
      textAlign: "center",
      overflowWrap: "anywhere",
      border: `1px solid ${vars.color.border}`,
      borderRadius: vars.radius.sm,
    },
  },
});

globalStyle(`${tab}[aria-current=page]`, {
  "@media": {
    [PHONE]: {
      background: vars.color.brand,
      color: vars.color.brandText,
      borderColor: vars.color.brand,
    },
  },
});

export const toolbar = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "flex-end",
  gap: vars.space.sm,
  marginBottom: vars.space.md,
  "@media": { print: { display: "none" } },
});

export const toolbarForm = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "flex-end",
  gap: vars.space.sm,
});

export const disabledLink = style({ opacity: 0.5, cursor: "not-allowed" });

export const problem = style({
  border: `1px solid ${vars.color.danger}`,
  color: vars.color.danger,
  borderRadius: vars.radius.sm,
  padding: vars.space.sm,
  margin: `0 0 ${vars.space.md}`,
});

export const empty = style({
  background: vars.color.background,
  border: `1px dashed ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  padding: vars.space.md,
  margin: `0 0 ${vars.space.md}`,
});

export const chart = style({
  width: "100%",
  overflowX: "auto",
  margin: `0 0 ${vars.space.md}`,
  "@media": { print: { breakInside: "avoid" } },
});

globalStyle(`${chart} svg`, { width: "100%", height: "auto", display: "block" });

/** The chart drawn for wide screens, also the one printed. */
export const chartWide = style({
  "@container": { [NARROW_SECTION]: { display: "none" } },
  "@media": { print: { display: "block !important" } },
});

/**
 * The chart drawn for a phone (a narrower viewBox with larger text): shown in a narrow section,
 * at most about 1.5 times its viewBox so that its text does not grow huge.
 */
export const chartNarrow = style({
  display: "none",
  maxWidth: "32rem",
  marginInline: "auto",
  "@container": { [NARROW_SECTION]: { display: "block" } },
  "@media": { print: { display: "none !important" } },
});

export const stats = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(10rem, 1fr))",
  gap: vars.space.sm,
  margin: `0 0 ${vars.space.md}`,
});

export const stat = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  padding: vars.space.sm,
  margin: 0,
});

export const statLabel = style({ color: vars.color.muted, fontSize: "0.8125rem" });
export const statValue = style({
  fontSize: "1.25rem",
  fontWeight: 600,
  margin: 0,
  fontVariantNumeric: "tabular-nums",
});

export const table = style({
  width: "100%",
  borderCollapse: "collapse",
  fontSize: "0.875rem",
  fontVariantNumeric: "tabular-nums",
});

globalStyle(`${table} th, ${table} td`, {
  textAlign: "left",
  padding: `${vars.space.xs} ${vars.space.sm}`,
  borderBottom: `1px solid ${vars.color.border}`,
});
globalStyle(`${table} caption`, {
  textAlign: "left",
  fontWeight: 600,
  padding: `${vars.space.sm} 0`,
});

export const ranges = style({
  display: "grid",
  gap: vars.space.xs,
  margin: `0 0 ${vars.space.md}`,
  padding: 0,
  listStyle: "none",
});

export const rangeRow = style({
  display: "grid",
  gridTemplateColumns: "14rem 1fr 4rem",
  alignItems: "center",
  gap: vars.space.sm,
});

export const bar = style({
  height: "0.75rem",
  background: vars.color.background,
  borderRadius: vars.radius.sm,
  overflow: "hidden",
});

export const barFill = styleVariants({
  veryLow: { display: "block", height: "100%", background: vars.color.veryLow },
  low: { display: "block", height: "100%", background: vars.color.low },
  inRange: { display: "block", height: "100%", background: vars.color.inRange },
  high: { display: "block", height: "100%", background: vars.color.high },
  veryHigh: { display: "block", height: "100%", background: vars.color.veryHigh },
});

export const glucoseClass = styleVariants({
  veryLow: { color: vars.color.veryLow, fontWeight: 700 },
  low: { color: vars.color.low, fontWeight: 600 },
  inRange: {},
  high: { color: vars.color.warning, fontWeight: 600 },
  veryHigh: { color: vars.color.warning, fontWeight: 700 },
});

/** A view's section: charts and tables choose their layout by its width (container queries). */
export const section = style({ marginBottom: vars.space.lg, containerType: "inline-size" });

/** A bolus calculation flagged at upload: a bordered word, so that it reads without colour and on paper. */
export const checkMark = style({
  display: "inline-block",
  padding: "0 0.35rem",
  border: `1px solid ${vars.color.warning}`,
  borderRadius: vars.radius.sm,
  color: vars.color.warning,
  fontSize: "0.8125rem",
  whiteSpace: "nowrap",
  "@media": { print: { color: "#000", borderColor: "#000" } },
});

export const checkRow = style({
  background: "#fff8e6",
  "@media": { print: { background: "none" } },
});

/** A wide table scrolls inside its box on a narrow screen instead of widening the page. */
export const tableScroll = style({
  width: "100%",
  overflowX: "auto",
  margin: `0 0 ${vars.space.md}`,
});

/** An upload's record counts: label and number side by side, one per line. */
export const counts = style({ display: "grid", gap: "0.1rem", margin: 0, minWidth: "11rem" });
export const count = style({
  display: "flex",
  justifyContent: "space-between",
  gap: vars.space.sm,
});
globalStyle(`${count} dt`, { color: vars.color.muted });
globalStyle(`${count} dd`, { margin: 0, fontWeight: 600 });

/** A warning inside a table cell (words and a sign, not a colour alone). */
export const uploadWarning = style({
  margin: `${vars.space.xs} 0 0`,
  color: vars.color.warning,
  fontWeight: 600,
  fontSize: "0.8125rem",
});
