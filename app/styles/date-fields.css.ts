import { style } from "@vanilla-extract/css";
import { vars } from "./theme.css";

/**
 * The date pickers of the reports and data views once JavaScript runs (react-aria date fields and
 * calendars). Without JavaScript the same forms show the text fields of form.css.ts.
 */

/**
 * The picker lays its parts out in the form's own row of fields and buttons: the label with the
 * limits beside it on a line of their own, the fields with their calendar button in the row with
 * the form's buttons, and an error on a line of its own after them (where the server's refusal
 * of a sent range appears too), so that an error showing up never moves a button.
 */
export const picker = style({ display: "contents", fontSize: "0.875rem" });

export const labelRow = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "baseline",
  columnGap: vars.space.sm,
  flexBasis: "100%",
});

export const label = style({ fontSize: "0.875rem" });

/** The field row: looks like the inline text fields (form.css.ts `inlineInput`). */
export const group = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
  minHeight: "2.5rem",
  padding: `0 0 0 ${vars.space.sm}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: vars.color.surface,
  fontSize: "1rem",
  width: "max-content",
  selectors: { "&[data-invalid]": { borderColor: vars.color.danger } },
});

export const dateInput = style({ display: "inline-flex", alignItems: "center" });

export const segment = style({
  padding: "0 1px",
  borderRadius: "2px",
  fontVariantNumeric: "tabular-nums",
  selectors: {
    "&[data-type=literal]": { padding: 0, color: vars.color.muted },
    "&[data-placeholder]": { color: vars.color.muted },
    "&:focus, &[data-focused]": { background: vars.color.brand, color: vars.color.brandText },
  },
});

export const dash = style({ color: vars.color.muted, padding: `0 ${vars.space.xs}` });

/** The button that opens the calendar, at the right end of the field row. */
export const calendarButton = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  alignSelf: "stretch",
  minWidth: "2.5rem",
  marginLeft: vars.space.xs,
  border: 0,
  borderLeft: `1px solid ${vars.color.border}`,
  borderRadius: `0 ${vars.radius.sm} ${vars.radius.sm} 0`,
  background: vars.color.background,
  color: vars.color.brand,
  cursor: "pointer",
  selectors: {
    "&[data-hovered], &[data-pressed]": { background: vars.color.border },
  },
});

export const description = style({ color: vars.color.muted, fontSize: "0.8125rem" });

export const errorRow = style({ order: 1, flexBasis: "100%" });

export const error = style({ color: vars.color.danger, fontSize: "0.875rem", maxWidth: "24rem" });

export const popover = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: "0 10px 30px rgba(16, 24, 40, 0.25)",
  zIndex: 60,
});

export const dialog = style({ padding: vars.space.md, outline: "none" });

export const calendarHeader = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.sm,
  marginBottom: vars.space.sm,
});

export const calendarHeading = style({ fontSize: "1rem", margin: 0, textTransform: "capitalize" });

export const navButton = style({
  minWidth: "2.25rem",
  minHeight: "2.25rem",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: vars.color.surface,
  color: vars.color.brand,
  fontSize: "1.125rem",
  cursor: "pointer",
  selectors: {
    "&[data-disabled]": { color: vars.color.muted, cursor: "default", borderStyle: "dashed" },
  },
});

export const grid = style({ borderCollapse: "collapse" });

export const weekday = style({
  width: "2.25rem",
  padding: `0 0 ${vars.space.xs}`,
  color: vars.color.muted,
  fontSize: "0.8125rem",
  fontWeight: 600,
  textAlign: "center",
});

export const cell = style({
  width: "2.25rem",
  height: "2.25rem",
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  borderRadius: vars.radius.sm,
  cursor: "pointer",
  fontVariantNumeric: "tabular-nums",
  outline: "none",
  selectors: {
    "&[data-outside-month]": { visibility: "hidden" },
    "&[data-hovered]": { background: vars.color.background },
    "&[data-selected]": { background: "#dbe8f6", borderRadius: 0 },
    "&[data-selection-start], &[data-selection-end]": {
      background: vars.color.brand,
      color: vars.color.brandText,
      borderRadius: vars.radius.sm,
    },
    "&[data-disabled]": {
      color: vars.color.muted,
      textDecoration: "line-through",
      cursor: "default",
      background: "transparent",
    },
    "&[data-focus-visible]": {
      outline: `3px solid ${vars.color.focus}`,
      outlineOffset: "1px",
      boxShadow: `0 0 0 2px ${vars.color.focusHalo}`,
      position: "relative",
      zIndex: 1,
    },
  },
});

/** A cell of the one-day calendar: the chosen day is filled like a range's ends. */
export const dayCell = style([
  cell,
  {
    selectors: {
      "&[data-selected]": {
        background: vars.color.brand,
        color: vars.color.brandText,
        borderRadius: vars.radius.sm,
      },
    },
  },
]);
