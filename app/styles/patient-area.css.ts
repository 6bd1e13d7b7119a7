import { globalStyle, style } from "@vanilla-extract/css";
import { ONE_COLUMN, TWO_COLUMNS } from "./breakpoints";
import { vars } from "./theme.css";

/** The patient area: a 313 px left panel listing patients and a right content area. */
export const area = style({
  display: "grid",
  gridTemplateColumns: "313px minmax(0, 1fr)",
  gap: vars.space.lg,
  alignItems: "start",
  "@media": {
    [ONE_COLUMN]: { gridTemplateColumns: "minmax(0, 1fr)", gap: vars.space.md },
    print: { display: "block" },
  },
});

export const panel = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  "@media": {
    [ONE_COLUMN]: { padding: `${vars.space.sm} ${vars.space.md}` },
    print: { display: "none" },
  },
});

/**
 * The panel's contents in a native <details>, so that it folds without JavaScript. It is closed on
 * a patient's page, where in one column it would push the patient's data down; beside the page
 * (two columns) its contents always show and the summary is hidden, where the browser can style
 * a closed <details>' contents (::details-content); elsewhere the summary stays to open it.
 */
export const disclosure = style({});

export const disclosureSummary = style({
  cursor: "pointer",
  fontWeight: 600,
  padding: `${vars.space.xs} 0`,
  color: vars.color.brand,
  "@supports": {
    "selector(::details-content)": { "@media": { [TWO_COLUMNS]: { display: "none" } } },
  },
});

export const panelBody = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: vars.space.md,
  "@media": {
    [ONE_COLUMN]: { selectors: { [`${disclosure}[open] &`]: { marginTop: vars.space.sm } } },
  },
});

globalStyle(`${disclosure}::details-content`, {
  "@media": { [TWO_COLUMNS]: { contentVisibility: "visible" } },
});

export const content = style({ minWidth: 0 });

export const search = style({ display: "flex", gap: vars.space.xs });
export const searchInput = style({
  flex: 1,
  minWidth: 0,
  width: "100%",
  minHeight: "2.5rem",
  padding: `0 ${vars.space.sm}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
});

export const tabs = style({
  display: "flex",
  gap: vars.space.xs,
  borderBottom: `1px solid ${vars.color.border}`,
});
export const tab = style({
  padding: `${vars.space.sm} ${vars.space.md}`,
  textDecoration: "none",
  color: vars.color.muted,
  borderBottom: "3px solid transparent",
  selectors: {
    "&[aria-current=page]": {
      color: vars.color.brand,
      borderBottomColor: vars.color.brand,
      fontWeight: 600,
    },
  },
});

export const list = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "grid",
  gap: vars.space.xs,
});
export const item = style({
  display: "grid",
  gridTemplateColumns: "1fr auto",
  alignItems: "center",
  gap: vars.space.xs,
  padding: vars.space.sm,
  borderRadius: vars.radius.sm,
  textDecoration: "none",
  color: vars.color.text,
  selectors: {
    "&:hover, &[aria-current=page]": { background: vars.color.background, color: vars.color.text },
  },
});
export const itemName = style({
  fontWeight: 600,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap",
});
export const itemMeta = style({
  color: vars.color.muted,
  fontSize: "0.8125rem",
  gridColumn: "1 / -1",
});
export const dot = style({
  width: "0.6rem",
  height: "0.6rem",
  borderRadius: "50%",
  background: vars.color.danger,
  display: "inline-block",
});
export const pill = style({
  fontSize: "0.75rem",
  padding: "0 0.4rem",
  borderRadius: "999px",
  background: "#fff4d6",
  color: vars.color.warning,
});

export const table = style({ width: "100%", borderCollapse: "collapse" });
export const cell = style({
  textAlign: "start",
  padding: vars.space.sm,
  borderBottom: `1px solid ${vars.color.border}`,
  verticalAlign: "middle",
});
export const nameCell = style([
  cell,
  {
    width: "150px",
    maxWidth: "150px",
    overflow: "hidden",
    textOverflow: "ellipsis",
    whiteSpace: "nowrap",
  },
]);
export const drawer = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: "-4px 0 16px rgba(16, 24, 40, 0.08)",
  padding: vars.space.lg,
});
