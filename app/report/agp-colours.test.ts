import { describe, expect, it } from "vitest";
import { AGP_TIR_COLORS } from "./agp-colours";

/** WCAG 2.1 relative luminance and contrast ratio (the definitions of success criterion 1.4.3). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}
/** Hue in degrees (0 red, 60 yellow, 120 green) and lightness 0-1 of "#rrggbb". */
function hsl(hex: string): { hue: number; lightness: number } {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [
    number,
    number,
    number,
  ];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  let hue = 0;
  if (d > 0) {
    if (max === r) hue = 60 * (((g - b) / d) % 6);
    else if (max === g) hue = 60 * ((b - r) / d + 2);
    else hue = 60 * ((r - g) / d + 4);
  }
  return { hue: (hue + 360) % 360, lightness: (max + min) / 2 };
}

describe("the glucose profile's band colours", () => {
  it("the formula: black on white 21:1; #767676 on white 4.54:1 (the known AA grey)", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
  });

  it("each band reaches 3:1 (graphics) on the report's white and on the app's page grey", () => {
    for (const [band, color] of Object.entries(AGP_TIR_COLORS)) {
      expect([band, contrast(color, "#ffffff") >= 3]).toEqual([band, true]);
      expect([band, contrast(color, "#f5f7fa") >= 3]).toEqual([band, true]);
    }
  });

  it("are the colours clinicians know: very low dark red, low red, target green, high amber, very high orange", () => {
    const c = Object.fromEntries(
      Object.entries(AGP_TIR_COLORS).map(([band, color]) => [band, hsl(color)]),
    );
    const red = (h: number) => h < 12 || h > 348;
    expect(red(c.veryLow!.hue) && red(c.low!.hue)).toBe(true);
    expect(c.veryLow!.lightness).toBeLessThan(c.low!.lightness);
    expect(c.inRange!.hue).toBeGreaterThan(90);
    expect(c.inRange!.hue).toBeLessThan(150);
    // Orange 15-35 degrees, amber 35-50: very high lies between red and the amber of high.
    expect(c.veryHigh!.hue).toBeGreaterThanOrEqual(15);
    expect(c.veryHigh!.hue).toBeLessThan(35);
    expect(c.high!.hue).toBeGreaterThanOrEqual(35);
    expect(c.high!.hue).toBeLessThan(50);
    expect(new Set(Object.values(AGP_TIR_COLORS)).size).toBe(5);
  });
});
