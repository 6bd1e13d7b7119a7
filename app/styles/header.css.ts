import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "./theme.css";

export const header = style({
  background: vars.color.brand,
  color: vars.color.brandText,
  "@media": { print: { display: "none" } },
});

export const bar = style({
  maxWidth: "72rem",
  margin: "0 auto",
  padding: `${vars.space.sm} ${vars.space.md}`,
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.md,
});

export const logo = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.sm,
  color: vars.color.brandText,
  fontWeight: 700,
  fontSize: "1.25rem",
  textDecoration: "none",
  selectors: { "&:hover": { color: vars.color.brandText } },
});

export const nav = style({ flex: "1 1 auto" });

export const navList = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.md,
});

export const navLink = style({
  color: vars.color.brandText,
  textDecoration: "none",
  padding: `${vars.space.xs} 0`,
  borderBottom: "2px solid transparent",
  selectors: {
    "&:hover, &[aria-current=page]": {
      color: vars.color.brandText,
      borderBottomColor: vars.color.brandText,
    },
  },
});

export const tools = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.sm,
});

/** A <details> dropdown: works without JavaScript and with the keyboard. */
export const menu = style({ position: "relative" });

export const menuSummary = style({
  listStyle: "none",
  cursor: "pointer",
  padding: `${vars.space.xs} ${vars.space.sm}`,
  border: `1px solid rgba(255,255,255,0.6)`,
  borderRadius: vars.radius.sm,
  color: vars.color.brandText,
  selectors: { "&::-webkit-details-marker": { display: "none" } },
});

/** The user's photo, small, beside their name in the user menu. */
export const avatar = style({
  width: "1.5rem",
  height: "1.5rem",
  objectFit: "cover",
  borderRadius: "50%",
  verticalAlign: "middle",
  marginRight: vars.space.xs,
});

export const menuPanel = style({
  position: "absolute",
  right: 0,
  top: "calc(100% + 4px)",
  minWidth: "12rem",
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  boxShadow: vars.shadow.card,
  padding: vars.space.xs,
  zIndex: 20,
});

export const menuItem = style({
  display: "block",
  width: "100%",
  textAlign: "start",
  padding: `${vars.space.sm} ${vars.space.md}`,
  background: "none",
  border: 0,
  borderRadius: vars.radius.sm,
  color: vars.color.text,
  textDecoration: "none",
  cursor: "pointer",
  selectors: {
    "&:hover, &:focus-visible": { background: vars.color.background, color: vars.color.text },
    "&[aria-current=true]": { fontWeight: 700 },
  },
});

export const authLink = style({
  color: vars.color.brandText,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  textDecoration: "none",
  selectors: { "&:hover": { color: vars.color.brandText, textDecoration: "underline" } },
});

/** A link without JavaScript, a button with it: the button must not take the browser's grey. */
export const signUp = style([
  authLink,
  {
    border: "1px solid rgba(255,255,255,0.8)",
    borderRadius: vars.radius.sm,
    background: "transparent",
    font: "inherit",
    cursor: "pointer",
  },
]);

globalStyle(`${menuPanel} form`, { margin: 0 });

const badgeBase = {
  display: "inline-block",
  minWidth: "1.25rem",
  padding: "0 0.3rem",
  borderRadius: "999px",
  color: "#fff",
  fontSize: "0.75rem",
  textAlign: "center",
} as const;
export const badgePending = style({ ...badgeBase, background: vars.color.warning });
export const badgeDanger = style({ ...badgeBase, background: vars.color.danger });
export const visuallyHidden = style({
  position: "absolute",
  width: "1px",
  height: "1px",
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
});
