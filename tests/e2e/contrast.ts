import type { Locator } from "@playwright/test";

/**
 * The WCAG 2.x contrast ratio of an element's text colour against the background it is drawn
 * on: the first ancestor-or-self whose background is not transparent (white when none is).
 * Relative luminance and ratio as defined by WCAG 2.1 (success criterion 1.4.3).
 */
export function textContrast(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    const rgb = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number);
    const channel = (c: number) => {
      const s = c / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    const luminance = ([r, g, b]: number[]) => 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
    let background = [255, 255, 255];
    for (let node: Element | null = element; node; node = node.parentElement) {
      const [r, g, b, a = 1] = rgb(getComputedStyle(node).backgroundColor);
      if (a > 0) {
        background = [r!, g!, b!];
        break;
      }
    }
    const [l1, l2] = [luminance(rgb(getComputedStyle(element).color)), luminance(background)];
    return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
  });
}
