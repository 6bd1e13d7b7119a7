/** Reading the server-rendered chart SVGs in unit tests (not used by the app). */
import { parseHTML } from "linkedom";
import { expect } from "vitest";
import type { PumpAlarmKind } from "../pump-records";
import type { PumpChartLabels } from "./pump-day.server";

// Unique tokens, so a test can tell them from anything the module might hard-code.
const alarmKinds = Object.fromEntries(
  (
    [
      "low_insulin",
      "no_insulin",
      "occlusion",
      "suspend",
      "auto_off",
      "low_power",
      "no_power",
      "rewind",
      "prime",
    ] as PumpAlarmKind[]
  ).map((k) => [k, `Lkind_${k}`]),
) as Record<PumpAlarmKind, string>;

/** The pump charts' labels as unique tokens. */
export const TEST_PUMP_LABELS: PumpChartLabels = {
  basalAxis: "Lbasal",
  bolusAxis: "Lbolus",
  glucoseAxis: "Lglucose",
  alarms: "Lalarms",
  carbs: "Lcarbs",
  unitU: "LU",
  unitG: "Lg",
  glucoseUnit: "Lunit",
  alarmKinds,
};

/** Parses the markup the way the page embeds it: inside an HTML body. */
export function parseSvg(svg: string): Element {
  const { document } = parseHTML(`<!doctype html><html><body>${svg}</body></html>`);
  expect(document.body.children).toHaveLength(1);
  const root = document.body.firstElementChild as unknown as Element;
  expect(root.tagName.toLowerCase()).toBe("svg");
  return root;
}

export function all(root: Element, selector: string): Element[] {
  return [...root.querySelectorAll(selector)];
}

/** Text of an element without its <title> child (Plot adds one to truncated labels). */
export function ownText(e: Element): string {
  return [...e.childNodes]
    .filter((n) => n.nodeType === 3)
    .map((n) => n.textContent)
    .join("");
}

export function translate(e: Element): { x: number; y: number } {
  const m = /translate\(([-\d.e]+),([-\d.e]+)\)/.exec(e.getAttribute("transform") ?? "");
  if (!m) throw new Error(`no translate on ${e.outerHTML}`);
  return { x: Number(m[1]), y: Number(m[2]) };
}

export interface Tick {
  readonly text: string;
  readonly x: number;
  readonly y: number;
}

/** An axis' tick labels with their positions. */
export function ticks(root: Element, axis: "x" | "y"): Tick[] {
  return all(root, `g[aria-label="${axis}-axis tick label"] text`).map((t) => ({
    text: ownText(t),
    ...translate(t),
  }));
}

export function tick(list: readonly Tick[], text: string): Tick {
  const t = list.find((x) => x.text === text);
  if (!t) throw new Error(`no tick "${text}" among ${list.map((x) => x.text).join(" ")}`);
  return t;
}

export function num(e: Element, name: string): number {
  return Number(e.getAttribute(name));
}

/** Vertices of a path made of M/L commands. */
export function vertices(d: string): [number, number][] {
  return [...d.matchAll(/[ML]([-\d.e]+),([-\d.e]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
}
