import { describe, expect, it } from "vitest";
import { cssPageSize, PAPER_MM, pdfPaperFormat, toPaperSize } from "./paper-size";

describe("paper sizes", () => {
  it("US Letter is 8.5 x 11 in: 215.9 x 279.4 mm, 5.9 mm wider and 17.6 mm shorter than A4", () => {
    expect(PAPER_MM.letter.width).toBeCloseTo(8.5 * 25.4, 9);
    expect(PAPER_MM.letter.height).toBeCloseTo(11 * 25.4, 9);
    expect(PAPER_MM.letter.width - PAPER_MM.a4.width).toBeCloseTo(5.9, 9);
    expect(PAPER_MM.a4.height - PAPER_MM.letter.height).toBeCloseTo(17.6, 9);
  });

  it("names the CSS @page size and Chromium's format of each", () => {
    expect(cssPageSize("a4", "portrait")).toBe("A4 portrait");
    expect(cssPageSize("letter", "landscape")).toBe("letter landscape");
    expect(pdfPaperFormat("a4")).toBe("A4");
    expect(pdfPaperFormat("letter")).toBe("Letter");
  });

  it("reads a stored value as Letter only when it says so", () => {
    expect(toPaperSize("letter")).toBe("letter");
    for (const stored of ["a4", "Letter", "legal", null, undefined])
      expect(toPaperSize(stored)).toBe("a4");
  });
});
