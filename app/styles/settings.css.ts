import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { PAPER_MM, type PaperSize } from "~/utils/paper-size";
import { vars } from "./theme.css";

/** The settings page `/newsetting`: wider than the account forms, for the report header preview. */
export const page = style({ maxWidth: "48rem", margin: "0 auto" });

export const choices = style({
  display: "grid",
  gap: vars.space.md,
  gridTemplateColumns: "repeat(auto-fit, minmax(12rem, 1fr))",
  marginBottom: vars.space.md,
});

// Side-by-side groups share a height; their choices stay at the top.
globalStyle(`${choices} > fieldset`, { alignContent: "start" });

export const currentLogo = style({
  maxHeight: "4rem",
  maxWidth: "12rem",
  objectFit: "contain",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  padding: vars.space.xs,
});

const paper = style({
  border: `1px solid ${vars.color.border}`,
  boxShadow: vars.shadow.card,
  background: vars.color.surface,
  padding: vars.space.md,
  overflow: "hidden",
  // The header is drawn at print size and scaled down, so that it wraps as it does on paper.
  zoom: 0.6,
});

/** The preview's scale: a sheet's millimetres per rem (A4 portrait is 35rem wide). */
const MM_PER_REM = 6;

/** A sheet of the saved paper size in the saved orientation, in proportion, holding the header preview. */
function sheetOf(size: PaperSize, orientation: "portrait" | "landscape") {
  const { width, height } = PAPER_MM[size];
  const [across, down] = orientation === "portrait" ? [width, height] : [height, width];
  return [paper, { width: `${across / MM_PER_REM}rem`, aspectRatio: `${across} / ${down}` }];
}

export const sheet = {
  a4: styleVariants({ portrait: sheetOf("a4", "portrait"), landscape: sheetOf("a4", "landscape") }),
  letter: styleVariants({
    portrait: sheetOf("letter", "portrait"),
    landscape: sheetOf("letter", "landscape"),
  }),
};
