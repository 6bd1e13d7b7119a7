import { style } from "@vanilla-extract/css";
import { ONE_COLUMN } from "./breakpoints";
import { vars } from "./theme.css";

/** The page's wrapper: no box of its own, so the body lays out header, main and footer as before. */
export const page = style({ display: "contents" });

export const skipLink = style({
  position: "absolute",
  left: "-9999px",
  top: 0,
  padding: vars.space.sm,
  background: vars.color.surface,
  zIndex: 100,
  selectors: { "&:focus": { left: vars.space.sm } },
});

export const main = style({
  maxWidth: "72rem",
  margin: "0 auto",
  padding: `${vars.space.lg} ${vars.space.md}`,
  "@media": {
    // Narrow screens keep their width for the content: a tablet's card then holds a full-size chart.
    [ONE_COLUMN]: { padding: `${vars.space.md} ${vars.space.sm}` },
    print: { maxWidth: "none", padding: 0 },
  },
});

export const footer = style({
  maxWidth: "72rem",
  margin: "0 auto",
  padding: vars.space.md,
  color: vars.color.muted,
  fontSize: "0.875rem",
  borderTop: `1px solid ${vars.color.border}`,
});

export const footerNav = style({
  display: "flex",
  flexWrap: "wrap",
  gap: `${vars.space.xs} ${vars.space.lg}`,
  listStyle: "none",
  margin: 0,
  padding: 0,
});

export const card = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.card,
  padding: vars.space.lg,
  marginBottom: vars.space.lg,
  "@media": { [ONE_COLUMN]: { padding: "0.75rem" } },
});

export const button = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
  minHeight: "2.5rem",
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: `1px solid ${vars.color.brand}`,
  borderRadius: vars.radius.sm,
  background: vars.color.brand,
  color: vars.color.brandText,
  cursor: "pointer",
  textDecoration: "none",
  selectors: {
    "&:hover": { background: vars.color.brandDark, color: vars.color.brandText },
    "&[disabled], &[aria-disabled=true]": { opacity: 0.6, cursor: "not-allowed" },
  },
});

export const buttonSecondary = style([
  button,
  {
    background: vars.color.surface,
    color: vars.color.brand,
    selectors: { "&:hover": { background: vars.color.background, color: vars.color.brandDark } },
  },
]);

export const actions = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.sm,
  marginTop: vars.space.md,
});

export const errorPage = style({
  textAlign: "center",
  padding: `${vars.space.xl} ${vars.space.md}`,
});

/** A lost form request: kept in view at the foot of the window, above the form being filled in. */
export const lostRequest = style({
  position: "fixed",
  insetInline: vars.space.md,
  bottom: vars.space.md,
  zIndex: 10,
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.md,
  alignItems: "center",
  justifyContent: "space-between",
  maxWidth: "48rem",
  margin: "0 auto",
  padding: vars.space.md,
  border: `2px solid ${vars.color.danger}`,
  borderRadius: vars.radius.sm,
  background: vars.color.background,
  color: vars.color.danger,
  boxShadow: "0 2px 8px rgb(0 0 0 / 25%)",
  "@media": { print: { display: "none" } },
});

/** Long unbroken text (a file name, a checksum) wraps anywhere rather than running out of its box. */
export const breakAnywhere = style({ overflowWrap: "anywhere" });
