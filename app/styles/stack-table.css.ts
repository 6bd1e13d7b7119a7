import { globalStyle, style } from "@vanilla-extract/css";
import { NARROW_SECTION, NARROW_SECTION_WIDE_TABLE } from "./breakpoints";
import { vars } from "./theme.css";

/**
 * A table whose rows become cards on a screen where its section (the nearest query container) is
 * narrow, a phone: each cell on its own line, named by its column (the cell's data-label). On
 * paper it stays a table.
 */
export const stackTable = style({});
/** The same for a table of many columns: it stacks in a section up to a tablet's width. */
export const stackTableWide = style({});

/** A box that a stacking table measures itself against, where no section around it does. */
export const stackContainer = style({ containerType: "inline-size" });

/** The share of a stacked row that its column labels take. */
const STACKED_LABEL_WIDTH = "38%";

for (const [table, width] of [
  [stackTable, NARROW_SECTION],
  [stackTableWide, NARROW_SECTION_WIDE_TABLE],
] as const) {
  const stacked = (rule: Parameters<typeof globalStyle>[1]) => ({
    "@media": { screen: { "@container": { [width]: rule } } },
  });
  globalStyle(
    `${table} thead`,
    stacked({
      position: "absolute",
      width: "1px",
      height: "1px",
      overflow: "hidden",
      clip: "rect(0 0 0 0)",
      whiteSpace: "nowrap",
    }),
  );
  globalStyle(
    `${table}, ${table} tbody, ${table} tr, ${table} caption`,
    stacked({ display: "block" }),
  );
  globalStyle(
    `${table} tr`,
    stacked({
      border: `1px solid ${vars.color.border}`,
      borderRadius: vars.radius.sm,
      padding: `${vars.space.xs} ${vars.space.sm}`,
      marginBottom: vars.space.sm,
    }),
  );
  // The label sits in the cell's start padding, so a cell of several parts (text, a line break, a note) stays one block.
  globalStyle(
    `${table} td, ${table} tbody th`,
    stacked({
      display: "block",
      position: "relative",
      padding: `0.15rem 0 0.15rem ${STACKED_LABEL_WIDTH}`,
      border: 0,
      overflowWrap: "anywhere",
    }),
  );
  globalStyle(
    `${table} td::before, ${table} tbody th::before`,
    stacked({
      content: "attr(data-label)",
      position: "absolute",
      insetInlineStart: 0,
      width: `calc(${STACKED_LABEL_WIDTH} - ${vars.space.sm})`,
      color: vars.color.muted,
      fontWeight: 600,
      // A long label wraps in its column even in a cell that keeps its value on one line.
      whiteSpace: "normal",
    }),
  );
  globalStyle(`${table} td:empty`, stacked({ display: "none" }));
}
