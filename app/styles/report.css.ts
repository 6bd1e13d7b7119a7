import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { vars } from "./theme.css";

/** A screen narrower than the hour matrix's readable width. */
const NARROW_SCREEN = "screen and (max-width: 50rem)";

/**
 * The print reports (docs/decisions/009-report-pages.md): one document for the screen, the
 * browser's print and the server's PDF. Controls are hidden in print; charts never split.
 */
export const report = style({
  background: vars.color.surface,
  color: vars.color.text,
  "@media": { print: { fontSize: "10pt" } },
});

export const controls = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  marginBottom: vars.space.lg,
  "@media": { print: { display: "none" } },
});

export const form = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "flex-end",
  gap: vars.space.sm,
});

export const note = style({
  color: vars.color.muted,
  fontSize: "0.875rem",
  margin: `${vars.space.sm} 0 0`,
});

export const actions = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.sm,
  marginTop: vars.space.md,
});

export const status = style({ fontSize: "0.875rem", color: vars.color.muted });

export const popover = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: "0 10px 30px rgba(16, 24, 40, 0.25)",
  maxWidth: "22rem",
});

export const popoverDialog = style({ padding: vars.space.md, outline: "none" });

export const problem = style({
  border: `1px solid ${vars.color.danger}`,
  color: vars.color.danger,
  borderRadius: vars.radius.sm,
  padding: vars.space.sm,
  margin: `${vars.space.sm} 0 0`,
});

/** An empty range's pointer to the latest data: a notice, not an error. */
export const latest = style({
  border: `1px solid ${vars.color.warning}`,
  borderRadius: vars.radius.sm,
  padding: vars.space.sm,
  margin: `${vars.space.sm} 0 0`,
});

export const header = style({
  display: "grid",
  gap: vars.space.xs,
  paddingBottom: vars.space.sm,
  marginBottom: vars.space.md,
});

export const splitLine = style({ borderBottom: `2px solid ${vars.color.text}` });

export const titleRow = styleVariants({
  left: {
    display: "flex",
    alignItems: "center",
    gap: vars.space.md,
    justifyContent: "flex-start",
    textAlign: "left",
  },
  center: {
    display: "flex",
    alignItems: "center",
    gap: vars.space.md,
    justifyContent: "center",
    textAlign: "center",
  },
  right: {
    display: "flex",
    alignItems: "center",
    gap: vars.space.md,
    justifyContent: "flex-end",
    textAlign: "right",
    flexDirection: "row-reverse",
  },
});

export const logo = style({ maxHeight: "3rem", maxWidth: "10rem", objectFit: "contain" });

export const title = style({
  margin: 0,
  fontSize: "1.5rem",
  "@media": { print: { fontSize: "16pt" } },
});

export const meta = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(12rem, 1fr))",
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: 0,
  fontSize: "0.875rem",
});

globalStyle(`${meta} dt`, { color: vars.color.muted, fontSize: "0.75rem" });
globalStyle(`${meta} dd`, { margin: 0, fontWeight: 600 });

export const figures = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(11rem, 1fr))",
  gap: vars.space.sm,
  margin: `0 0 ${vars.space.md}`,
  breakInside: "avoid",
});

export const figure = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  padding: vars.space.sm,
  margin: 0,
});
export const figureLabel = style({ color: vars.color.muted, fontSize: "0.8125rem" });
export const figureValue = style({
  fontSize: "1.125rem",
  fontWeight: 600,
  margin: 0,
  fontVariantNumeric: "tabular-nums",
});
export const figureNote = style({ fontSize: "0.8125rem", color: vars.color.muted, margin: 0 });

/** A report section: on screen its tables choose their layout by its width (container queries). */
export const section = style({ marginBottom: vars.space.lg, containerType: "inline-size" });

export const sectionTitle = style({
  fontSize: "1.125rem",
  margin: `0 0 ${vars.space.sm}`,
  breakAfter: "avoid",
});

/** One day's chart: about three fit on an A4 portrait page. */
export const dayChart = style({
  margin: `0 0 ${vars.space.sm}`,
  breakInside: "avoid",
  pageBreakInside: "avoid",
});

globalStyle(`${dayChart} svg`, {
  width: "100%",
  height: "auto",
  display: "block",
  "@media": { print: { maxHeight: "66mm" } },
});

/** The date above a day chart: on paper the chart's own title is not shown. */
export const chartCaption = style({
  fontWeight: 600,
  fontSize: "0.875rem",
  margin: `0 0 ${vars.space.xs}`,
});

/**
 * A multi-day chart group: one per printed page (the section's pages are landscape,
 * `data-page="wide"`); the one-line notes of days without data follow on the page before it.
 */
export const rangeChartGroup = style({
  breakInside: "avoid",
  marginBottom: vars.space.md,
  selectors: { "& ~ &": { breakBefore: "page" } },
});

/** The one line printed for a run of days without data, in place of an empty chart. */
export const noDataLine = style({
  margin: `0 0 ${vars.space.sm}`,
  fontStyle: "italic",
  breakInside: "avoid",
});

export const rangeChart = style({ margin: 0 });

globalStyle(`${rangeChart} svg`, {
  width: "100%",
  height: "auto",
  display: "block",
  "@media": { print: { maxHeight: "165mm" } },
});

/** Days x clock hours: one compact table (a row per day fits A4 portrait at print size). */
export const hourMatrix = style({
  tableLayout: "fixed",
  fontSize: "0.75rem",
  textAlign: "center",
  // On a narrow screen each hour keeps room for a bold "12.5" or "225" (about 2 rem with padding).
  "@media": { [NARROW_SCREEN]: { minWidth: "54rem" }, print: { fontSize: "6.5pt" } },
});

/** The hour matrix's box: on a screen narrower than the matrix's readable width it scrolls sideways inside it. */
export const matrixScroll = style({ "@media": { screen: { overflowX: "auto" } } });

globalStyle(`${hourMatrix} th:first-child`, {
  width: "5.5rem",
  textAlign: "start",
  whiteSpace: "nowrap",
});
globalStyle(`${hourMatrix} td, ${hourMatrix} th`, { paddingInline: "1px" });

/** A block per day (the pump records of the day as lines of text: far lighter to lay out and print than a table per day). */
export const dayBlocks = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(20rem, 1fr))",
  gap: `${vars.space.xs} ${vars.space.lg}`,
  fontSize: "0.8125rem",
  "@media": { print: { fontSize: "8pt" } },
});

export const dayBlock = style({ breakInside: "avoid" });

globalStyle(`${dayBlock} p`, { margin: "0 0 0.125rem" });

export const dayBlockTitle = style({ fontSize: "0.875rem", margin: `${vars.space.xs} 0 0.125rem` });

/**
 * Short tables (at most 12 rows) side by side to keep paper short: a grid, which Chromium lays out
 * and prints far faster than CSS columns over many tables.
 */
export const tableGrid = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(15rem, 1fr))",
  gap: `${vars.space.sm} ${vars.space.lg}`,
  alignItems: "start",
  "@media": { print: { gridTemplateColumns: "repeat(3, 1fr)" } },
});

globalStyle(`${tableGrid} > table`, { breakInside: "avoid" });

export const table = style({
  width: "100%",
  borderCollapse: "collapse",
  fontSize: "0.8125rem",
  fontVariantNumeric: "tabular-nums",
});

globalStyle(`${table} th, ${table} td`, {
  textAlign: "left",
  padding: `1px ${vars.space.xs}`,
  borderBottom: `1px solid ${vars.color.border}`,
});
globalStyle(`${table} tr`, { breakInside: "avoid" });

export const empty = style({
  border: `1px dashed ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  padding: vars.space.md,
  margin: `0 0 ${vars.space.md}`,
});

export const glucoseClass = styleVariants({
  veryLow: { color: vars.color.veryLow, fontWeight: 700 },
  low: { color: vars.color.low, fontWeight: 600 },
  inRange: {},
  high: { color: vars.color.warning, fontWeight: 600 },
  veryHigh: { color: vars.color.warning, fontWeight: 700 },
});

/**
 * The glucose profile's page: in print the header's facts four to a row and the sections close
 * together, so that the whole profile of 14 days fits one portrait page, A4 or US Letter.
 */
export const agpPage = style({});
globalStyle(`${agpPage} ${meta}`, {
  "@media": { print: { gridTemplateColumns: "repeat(4, minmax(0, 1fr))", fontSize: "8pt" } },
});
globalStyle(`${agpPage} ${header}`, {
  "@media": { print: { marginBottom: "2mm", paddingBottom: "1mm" } },
});
globalStyle(`${agpPage} ${section}`, { "@media": { print: { marginBottom: "2.5mm" } } });
globalStyle(`${agpPage} ${sectionTitle}`, {
  "@media": { print: { fontSize: "10.5pt", marginBottom: "1mm" } },
});
globalStyle(`${agpPage} ${figure}`, { "@media": { print: { padding: "1mm 2mm" } } });
globalStyle(`${agpPage} ${figureValue}`, { "@media": { print: { fontSize: "10pt" } } });
globalStyle(`${agpPage} ${figureNote}`, { "@media": { print: { fontSize: "7.5pt" } } });

/**
 * The glucose profile: one portrait page (A4 or US Letter) in print. Time in ranges (bar, bands,
 * goals) and the glucose metrics side by side, the AGP chart under them, then the daily profiles seven to a row.
 */
export const agpTop = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 3fr) minmax(0, 2fr)",
  gap: vars.space.md,
  "@media": {
    [NARROW_SCREEN]: { gridTemplateColumns: "minmax(0, 1fr)" },
    print: { gap: "4mm" },
  },
});
/** The time-in-ranges stacked bar beside its bands and the goals (Battelino 2019 layout). */
export const agpTir = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.md,
  alignItems: "stretch",
  breakInside: "avoid",
  marginBottom: vars.space.sm,
  "@media": { print: { flexWrap: "nowrap", gap: "3mm" } },
});
export const agpTirBar = style({
  display: "flex",
  flexDirection: "column",
  width: "2.5rem",
  minHeight: "12rem",
  border: `1px solid ${vars.color.border}`,
  printColorAdjust: "exact",
  WebkitPrintColorAdjust: "exact",
  "@media": { print: { width: "7mm", minHeight: "36mm" } },
});
export const agpTirList = style({
  display: "grid",
  gap: vars.space.xs,
  margin: 0,
  alignContent: "space-between",
  fontVariantNumeric: "tabular-nums",
  "@media": { print: { fontSize: "8pt", gap: "1mm" } },
});
export const agpTirRow = style({
  display: "flex",
  justifyContent: "space-between",
  gap: vars.space.md,
});
globalStyle(`${agpTirRow} dd`, { margin: 0, fontWeight: 600, whiteSpace: "nowrap" });
/** A band's bounds, on its own line under the band's name. */
export const agpBounds = style({
  display: "block",
  color: vars.color.muted,
  fontSize: "0.8em",
  marginLeft: "1.1rem",
});
/** The goals of the patient's goal set, beside the bands. */
export const agpGoals = style({
  flex: "1 1 14rem",
  fontSize: "0.8125rem",
  "@media": { print: { fontSize: "7.5pt", flex: "1 1 0" } },
});
globalStyle(`${agpGoals} ul`, { margin: 0, paddingLeft: "1rem" });
globalStyle(`${agpGoals} li`, { marginBottom: "2px" });
export const agpGoalsTitle = style({
  fontSize: "0.875rem",
  margin: `0 0 ${vars.space.xs}`,
  "@media": { print: { fontSize: "8.5pt" } },
});
/** The glucose metrics, one under the other. */
export const agpFigures = style({
  display: "grid",
  gap: vars.space.xs,
  margin: 0,
  "@media": { print: { fontSize: "8pt" } },
});
export const agpSwatch = style({
  display: "inline-block",
  width: "0.75rem",
  height: "0.75rem",
  marginRight: vars.space.xs,
  verticalAlign: "middle",
  printColorAdjust: "exact",
  WebkitPrintColorAdjust: "exact",
});
/**
 * The AGP chart: its full width on screen, at most 54 mm tall on A4 and 46 mm on US Letter, whose
 * page is 17.6 mm shorter (the report's article names its paper in `data-paper`).
 */
export const agpChart = style({ margin: 0, breakInside: "avoid" });
globalStyle(`${agpChart} svg`, {
  width: "100%",
  height: "auto",
  display: "block",
  "@media": { print: { maxHeight: "54mm" } },
});
globalStyle(`${agpPage}[data-paper=letter] ${agpChart} svg`, {
  "@media": { print: { maxHeight: "46mm" } },
});
/** The one line that says how to read a chart. */
export const agpHowTo = style({
  fontSize: "0.8125rem",
  margin: `0 0 ${vars.space.xs}`,
  "@media": { print: { fontSize: "7.5pt" } },
});
/** The AGP chart's legend: the bands, the median and the target range, in one row under the chart. */
export const agpLegend = style({
  display: "flex",
  flexWrap: "wrap",
  gap: `${vars.space.xs} ${vars.space.md}`,
  listStyle: "none",
  margin: `${vars.space.xs} 0 0`,
  padding: 0,
  fontSize: "0.85rem",
  "@media": { print: { fontSize: "7.5pt" } },
});
/** Daily glucose profiles: small multiples, seven to a row on paper (a week a row). */
export const agpDays = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(10rem, 1fr))",
  gap: vars.space.sm,
  "@media": { print: { gridTemplateColumns: "repeat(7, minmax(0, 1fr))", gap: "1.5mm" } },
});
export const agpDay = style({
  margin: 0,
  fontSize: "0.75rem",
  breakInside: "avoid",
  "@media": { print: { fontSize: "6.5pt" } },
});
globalStyle(`${agpDay} svg`, { width: "100%", height: "auto", display: "block" });
/** The consensus source under the page. */
export const agpSource = style({
  color: vars.color.muted,
  fontSize: "0.75rem",
  margin: 0,
  "@media": { print: { fontSize: "7pt" } },
});

/** Text for screen readers only (e.g. what a printed mark means). */
export const visuallyHidden = style({
  position: "absolute",
  width: "1px",
  height: "1px",
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
});

/** Statistics report: the mark of a value computed from too little data (explained by a legend). */
export const flag = style({ fontWeight: 700, marginLeft: "0.15em" });
/** A right-aligned number column, kept apart from a left-aligned neighbour. */
export const numeric = style({});
globalStyle(`${table} th${numeric}, ${table} td${numeric}`, {
  textAlign: "right",
  paddingRight: vars.space.md,
});
globalStyle(`${table} td${numeric}`, { whiteSpace: "nowrap" });
export const metricName = style({ display: "block", fontWeight: 600 });
export const metricNote = style({
  display: "block",
  color: vars.color.muted,
  fontSize: "0.75rem",
  fontWeight: 400,
});
export const subNote = style({
  display: "block",
  color: vars.color.muted,
  fontSize: "0.75rem",
  whiteSpace: "normal",
});
export const statisticsTable = style({ marginBottom: vars.space.md });
globalStyle(`${statisticsTable} tbody th`, { fontWeight: 400 });
/** Fixed columns, so that the two tables of metrics line up with each other. */
export const statisticsColumns = style({ tableLayout: "fixed" });
/**
 * Column widths wide enough for the longest word of each column in every language and both units
 * on A4 portrait (the Russian "Изменение" and "Предыдущий", the Italian "mmol/L·h/giorno"): a
 * word wider than its fixed column would run over the page edge.
 */
const STATISTICS_COLUMN_WIDTHS = ["24%", "12%", "16%", "17%", "16%", "15%"];
STATISTICS_COLUMN_WIDTHS.forEach((width, i) =>
  globalStyle(`${statisticsColumns} thead th:nth-child(${i + 1})`, { width }),
);
/** The last column has no right-hand neighbour to keep apart from. */
globalStyle(`${statisticsTable} th:last-child, ${statisticsTable} td:last-child`, {
  paddingRight: vars.space.xs,
});
/** The notes under the method lines, in the same small print. */
export const methodsNote = style({
  color: vars.color.muted,
  fontSize: "0.8125rem",
  margin: `${vars.space.sm} 0 0`,
  "@media": { print: { fontSize: "8pt" } },
});
/** The method lines under the table: two columns on paper. */
export const methods = style({
  listStyle: "none",
  padding: 0,
  margin: `0 0 ${vars.space.sm}`,
  fontSize: "0.8125rem",
  "@media": { print: { columnCount: 2, columnGap: vars.space.lg, fontSize: "8pt" } },
});
globalStyle(`${methods} li`, { breakInside: "avoid", marginBottom: vars.space.xs });

/** A chart's text alternative under it: its key figures, or where its values are in a table. */
export const chartFigures = style({
  display: "block",
  fontSize: "0.8rem",
  color: vars.color.muted,
});

/**
 * Blood tests report: the logbook, a row per day and a column per meal period. Fixed columns so
 * that eight fit A4 portrait; values stack in their cell, each with its clock time.
 */
export const logbook = style({
  tableLayout: "fixed",
  "@media": { [NARROW_SCREEN]: { minWidth: "46rem" }, print: { fontSize: "7.5pt" } },
});
globalStyle(`${logbook} th:first-child`, { width: "5.5rem", whiteSpace: "nowrap" });
globalStyle(`${logbook} td, ${logbook} th`, { verticalAlign: "top", paddingInline: "2px" });
/** The column summaries print once, under the last day, not as a footer on every page. */
globalStyle(`${logbook} tfoot`, { "@media": { print: { display: "table-row-group" } } });
globalStyle(`${logbook} tfoot tr:first-child > *`, {
  borderTop: `2px solid ${vars.color.text}`,
});
globalStyle(`${logbook} tfoot th`, { fontWeight: 600 });
export const logbookCaption = style({
  captionSide: "top",
  textAlign: "left",
  color: vars.color.muted,
  fontSize: "0.8125rem",
  paddingBottom: vars.space.xs,
});
/** A column's heading: the period's name and, under it, its clock times in smaller print. */
export const logbookPeriodName = style({ display: "block" });
export const logbookPeriodTime = style({
  display: "block",
  color: vars.color.muted,
  fontSize: "0.85em",
  fontWeight: 400,
});
/** One value of a cell and its clock time, on a line of its own. */
export const logbookValue = style({ display: "block", whiteSpace: "nowrap" });
export const logbookClock = style({ color: vars.color.muted, fontSize: "0.85em" });
/** The mark that tells a value's class without colour (↓ below, ↑ above the range). */
export const logbookMark = style({ marginRight: "0.1em" });
/** A value's colour by its class against the patient's range, printed as on screen. */
const printExact = { printColorAdjust: "exact", WebkitPrintColorAdjust: "exact" } as const;
export const logbookClass = styleVariants({
  veryLow: { ...printExact, color: vars.color.veryLow, fontWeight: 700 },
  low: { ...printExact, color: vars.color.low, fontWeight: 700 },
  inRange: { ...printExact, color: vars.color.inRange },
  high: { ...printExact, color: vars.color.high, fontWeight: 700 },
  veryHigh: { ...printExact, color: vars.color.veryHigh, fontWeight: 700 },
});
