import { globalStyle, style } from "@vanilla-extract/css";
import { NARROW_SECTION } from "./breakpoints";
import { vars } from "./theme.css";

/** The flag filter: a row of checkboxes and its button (a GET form, so it works without scripts). */
export const filter = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: `0 0 ${vars.space.md}`,
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
});
globalStyle(`${filter} legend`, { fontWeight: 600, padding: `0 ${vars.space.xs}` });

export const check = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
});

/** A column head that sorts: the whole head is the link; the arrow says the order in words too (aria-sort). */
export const sortLink = style({
  color: "inherit",
  fontWeight: 600,
});

/** Figures read as numbers, lined up on the right (over the tables' left alignment). */
export const number = style({});
globalStyle(`table td${number}`, { textAlign: "right", whiteSpace: "nowrap" });
globalStyle(`table th${number}`, { textAlign: "right" });

/** A flag: a bordered word, so it reads without colour and on paper. */
export const flag = style({
  display: "inline-block",
  margin: "0 0.25rem 0.15rem 0",
  padding: "0 0.35rem",
  border: `1px solid ${vars.color.warning}`,
  borderRadius: vars.radius.sm,
  color: vars.color.warning,
  fontSize: "0.8125rem",
  whiteSpace: "nowrap",
  "@media": { print: { color: "#000", borderColor: "#000" } },
});

export const muted = style({ color: vars.color.muted, fontSize: "0.8125rem" });

/**
 * The list stacks its rows as cards on a phone (stack-table.css.ts `stackTable`), where a table
 * hides its column heads; this one keeps them, as a row of sort links above the cards.
 */
export const sortHeads = style({});
const narrow = (rule: Parameters<typeof globalStyle>[1]) => ({
  "@media": { screen: { "@container": { [NARROW_SECTION]: rule } } },
});
globalStyle(
  `table${sortHeads} thead`,
  narrow({
    position: "static",
    display: "block",
    width: "auto",
    height: "auto",
    overflow: "visible",
    clip: "auto",
    whiteSpace: "normal",
  }),
);
globalStyle(
  `table${sortHeads} thead tr`,
  narrow({ display: "flex", flexWrap: "wrap", gap: `${vars.space.xs} ${vars.space.md}` }),
);
globalStyle(
  `table${sortHeads} thead th`,
  narrow({ display: "inline-block", border: 0, padding: 0, textAlign: "left" }),
);
// Stacked, each cell's column name stands on its own line above the value: the names are long.
globalStyle(
  `table${sortHeads} td, table${sortHeads} tbody th`,
  narrow({ padding: "0.15rem 0", textAlign: "left" }),
);
globalStyle(
  `table${sortHeads} td::before, table${sortHeads} tbody th::before`,
  narrow({ position: "static", display: "block", width: "auto" }),
);

/** The period links and the category counts: rows of links, the current one marked in words (aria-current) and by a border. */
export const choices = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.sm,
  margin: `0 0 ${vars.space.md}`,
});
export const choicesLabel = style({ fontWeight: 600 });
export const choice = style({
  padding: `0.1rem ${vars.space.sm}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  selectors: { '&[aria-current="page"]': { fontWeight: 700, borderColor: "currentColor" } },
});
export const countsTitle = style({ fontSize: "1rem", margin: `0 0 ${vars.space.xs}` });
export const counts = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.sm,
  listStyle: "none",
  margin: `0 0 ${vars.space.xs}`,
  padding: 0,
});
export const countLink = style([choice, { display: "inline-block" }]);
export const countNumber = style({ fontWeight: 700, fontVariantNumeric: "tabular-nums" });
export const links = style({ display: "flex", flexWrap: "wrap", gap: vars.space.md });
export const error = style({ color: vars.color.danger, fontWeight: 600 });

/** A category: a bordered word, readable without colour and on paper. */
export const category = style({
  display: "inline-block",
  padding: "0 0.35rem",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  fontSize: "0.8125rem",
  whiteSpace: "nowrap",
});

/** A row's tags and its small forms. */
export const tags = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.xs,
  alignItems: "center",
});
export const tagForm = style({
  display: "inline-flex",
  alignItems: "center",
  gap: "0.15rem",
  margin: 0,
});
export const tag = style({
  padding: "0 0.35rem",
  border: `1px dashed ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  fontSize: "0.8125rem",
});
export const tagRemove = style({
  minWidth: "1.5rem",
  minHeight: "1.5rem",
  padding: 0,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: "transparent",
  cursor: "pointer",
});

/** The tags page: one row of rename field, buttons and count per tag. */
export const tagList = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "grid",
  gap: vars.space.sm,
});
export const tagRow = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.sm,
});
export const visuallyHidden = style({
  position: "absolute",
  width: 1,
  height: 1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
});
