import type { Locator } from "@playwright/test";

/** The red, green and blue of a computed CSS colour ("rgb(…)" or "rgba(…)"). */
export function rgbOf(css: string): [number, number, number] {
  const [r = 0, g = 0, b = 0] = (css.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  return [r, g, b];
}

/** The WCAG 2.x contrast ratio of two colours: relative luminance and ratio as WCAG 2.1 (1.4.3) defines them. */
export function contrastRatio(a: readonly number[], b: readonly number[]): number {
  const channel = (c: number) =>
    c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4;
  const luminance = ([r, g, b]: readonly number[]) =>
    0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/**
 * The background an element is drawn on: its own, else that of the first ancestor whose
 * background is not transparent (white when none is).
 */
export function backgroundBehind(locator: Locator): Promise<string> {
  return locator.evaluate((element) => {
    for (let node: Element | null = element; node; node = node.parentElement) {
      const background = getComputedStyle(node).backgroundColor;
      if (background !== "rgba(0, 0, 0, 0)" && background !== "transparent") return background;
    }
    return "rgb(255, 255, 255)";
  });
}

/** The contrast ratio of an element's text colour against the background it is drawn on. */
export async function textContrast(locator: Locator): Promise<number> {
  const color = await locator.evaluate((element) => getComputedStyle(element).color);
  return contrastRatio(rgbOf(color), rgbOf(await backgroundBehind(locator)));
}
