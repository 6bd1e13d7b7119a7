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
