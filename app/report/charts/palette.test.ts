import { describe, expect, it } from "vitest";
import { CHART_PALETTE, GLUCOSE_CLASS_COLOR } from "./palette";

/** WCAG 2.1 relative luminance and contrast ratio (success criterion 1.4.3's definitions). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

describe("the glucose palette", () => {
  it("the formula: black on white is 21:1, white on white 1:1", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#ffffff", "#ffffff")).toBe(1);
  });

  it("every glucose class reaches 4.5:1 on white (text), and so the 3:1 of graphics", () => {
    for (const [name, color] of Object.entries(GLUCOSE_CLASS_COLOR))
      expect([name, contrast(color, "#ffffff") >= 4.5]).toEqual([name, true]);
  });

  it("the five classes are five colours, and 'in range' is one green in charts and bands", () => {
    expect(new Set(Object.values(GLUCOSE_CLASS_COLOR)).size).toBe(5);
    expect(CHART_PALETTE.targetBand).toBe(CHART_PALETTE.inRange);
  });

  it("alarm marks (alarm, warning) reach 3:1 on white", () => {
    expect(contrast(CHART_PALETTE.alarm, "#ffffff")).toBeGreaterThanOrEqual(3);
    expect(contrast(CHART_PALETTE.warning, "#ffffff")).toBeGreaterThanOrEqual(3);
  });
});
