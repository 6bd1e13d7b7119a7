/**
 * The paper a reader's reports are printed on: ISO A4 (210 x 297 mm) or US Letter (8.5 x 11 in,
 * 215.9 x 279.4 mm: 5.9 mm wider and 17.6 mm shorter than A4). Stored in `Setting.paperSize`.
 */
export const PAPER_SIZES = ["a4", "letter"] as const;
export type PaperSize = (typeof PAPER_SIZES)[number];

/** The paper size of a stored value: Letter only when it says so, else A4 (also for no value). */
export function toPaperSize(value: unknown): PaperSize {
  return value === "letter" ? "letter" : "a4";
}

/** A sheet's width and height in millimetres, held in portrait. */
export const PAPER_MM: Readonly<Record<PaperSize, { width: number; height: number }>> = {
  a4: { width: 210, height: 297 },
  letter: { width: 215.9, height: 279.4 },
};

/** The CSS `@page` size of a sheet: its page-size keyword and orientation ("A4 portrait", "letter landscape"). */
export function cssPageSize(paper: PaperSize, orientation: "portrait" | "landscape"): string {
  return `${paper === "letter" ? "letter" : "A4"} ${orientation}`;
}

/** The PDF renderer's (Chromium's) paper format name. */
export function pdfPaperFormat(paper: PaperSize): "A4" | "Letter" {
  return paper === "letter" ? "Letter" : "A4";
}
