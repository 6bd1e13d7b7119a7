import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { Agp } from "../../metrics/agp";
import type { GlucoseUnit } from "../../domain/glucose-unit";
import {
  agpChart,
  agpDailyChart,
  AGP_MARK_CLASS,
  dailyProfilesMax,
  MARK_CLASS,
  type AgpChartLabels,
} from "../charts.server";

const labels: AgpChartLabels = {
  glucoseAxis: "Lglucose",
  targetRange: "Ltarget",
  outerBand: "Louter",
  innerBand: "Linner",
  median: "Lmedian",
};

/** A synthetic AGP: 288 columns, the median a wave, 5-95 % wider than 25-75 % everywhere. */
function syntheticAgp(): Agp {
  const timeOfDayMin = Array.from({ length: 288 }, (_, i) => (i + 1) * 5);
  const p50 = timeOfDayMin.map((m) => 140 + 40 * Math.sin((m / 1440) * 2 * Math.PI));
  return {
    timeOfDayMin,
    p5: p50.map((v) => v - 50),
    p25: p50.map((v) => v - 20),
    p50,
    p75: p50.map((v) => v + 25),
    p95: p50.map((v) => v + 70),
    count: timeOfDayMin.map(() => 7),
  };
}

function parse(svg: string): Element {
  const { document } = parseHTML(`<!doctype html><html><body>${svg}</body></html>`);
  const root = document.body.firstElementChild as unknown as Element;
  expect(root.tagName.toLowerCase()).toBe("svg");
  return root;
}

function tickTexts(root: Element, axis: "x" | "y"): string[] {
  return [...root.querySelectorAll(`g[aria-label="${axis}-axis tick label"] text`)].map((t) =>
    [...t.childNodes]
      .filter((n) => n.nodeType === 3)
      .map((n) => n.textContent)
      .join(""),
  );
}

function vertices(d: string): [number, number][] {
  return [...d.matchAll(/[ML]([-\d.e]+),([-\d.e]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
}

/** The vertical extent of an area path at the x nearest to `x`. */
function spanAt(path: Element, x: number): number {
  const points = vertices(path.getAttribute("d") ?? "");
  const nearest = Math.min(...points.map(([px]) => Math.abs(px - x)));
  const ys = points.filter(([px]) => Math.abs(Math.abs(px - x) - nearest) < 1e-6).map(([, y]) => y);
  return Math.max(...ys) - Math.min(...ys);
}

const render = (unit: GlucoseUnit = 1, locale = "en") =>
  parse(agpChart(syntheticAgp(), { unit, locale, title: "AGP title", labels }));

describe("agpChart", () => {
  it("draws the median as one bold line over the 24 h axis with ticks every 3 h", () => {
    const root = render();
    const median = [...root.querySelectorAll(`g.${AGP_MARK_CLASS.median} path`)];
    expect(median).toHaveLength(1);
    expect(vertices(median[0]!.getAttribute("d")!)).toHaveLength(288);
    expect(
      Number(
        median[0]!.getAttribute("stroke-width") ??
          median[0]!.parentElement?.getAttribute("stroke-width"),
      ),
    ).toBeGreaterThan(2);
    expect(tickTexts(root, "x")).toEqual([
      "00:00",
      "03:00",
      "06:00",
      "09:00",
      "12:00",
      "15:00",
      "18:00",
      "21:00",
    ]);
    expect(root.getAttribute("aria-label")).toBe("AGP title");
    expect(root.querySelectorAll(`g.${MARK_CLASS.targetBand} rect`)).toHaveLength(1);
  });

  it("draws the 5-95 % band wider than the 25-75 % band", () => {
    const root = render();
    const outer = root.querySelector(`g.${AGP_MARK_CLASS.outerBand} path`)!;
    const inner = root.querySelector(`g.${AGP_MARK_CLASS.innerBand} path`)!;
    const median = vertices(
      root.querySelector(`g.${AGP_MARK_CLASS.median} path`)!.getAttribute("d")!,
    );
    for (const k of [0, 100, 200]) {
      const x = median[k]![0];
      expect(spanAt(outer, x)).toBeGreaterThan(spanAt(inner, x) + 1);
    }
  });

  it("writes the glucose axis in the reader's unit, the target band 70-180 mg/dL labelled", () => {
    const mgdl = tickTexts(render(1), "y");
    expect(mgdl).toEqual(expect.arrayContaining(["70", "180"]));
    const mmol = tickTexts(render(0, "pl"), "y");
    expect(mmol).toEqual(expect.arrayContaining(["3,9", "10,0"]));
    expect(mmol).not.toContain("180");
  });

  it("names each percentile at the right edge, top to bottom 95, 75, 50, 25, 5 %, and the target range on its band", () => {
    const root = render();
    const names = [...root.querySelectorAll(`g.${AGP_MARK_CLASS.percentileLabel} text`)];
    expect(names.map((n) => n.textContent)).toEqual(["95 %", "75 %", "50 %", "25 %", "5 %"]);
    const ys = names.map((n) =>
      Number(
        /translate\([-\d.e]+,([-\d.e]+)\)/.exec(n.getAttribute("transform") ?? "")?.[1] ??
          n.getAttribute("y"),
      ),
    );
    expect(ys.every((y) => Number.isFinite(y))).toBe(true);
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);
    expect(root.querySelector(`g.${AGP_MARK_CLASS.targetLabel} text`)?.textContent).toBe("Ltarget");
  });

  it("daily profiles share one scale: the highest glucose of all days", () => {
    const day = (top: number, date: string) => ({
      date,
      full: true,
      gridPoints: 3,
      points: [0, 1, 2].map((i) => ({
        time: i,
        minute: i * 5,
        mgdl: i === 1 ? top : 100,
        segment: 0,
      })),
    });
    const low = day(150, "2026-09-01");
    const high = day(300, "2026-09-02");
    expect(dailyProfilesMax([low, high])).toBe(300);
    const ticks = (profile: typeof low, sharedMaxMgdl?: number) =>
      tickTexts(
        parse(
          agpDailyChart(profile, { unit: 1, locale: "en", title: "Day", labels, sharedMaxMgdl }),
        ),
        "y",
      );
    expect(ticks(low)).not.toEqual(ticks(high));
    expect(ticks(low, 300)).toEqual(ticks(high, 300));
    expect(ticks(low, 300).at(-1)).toBe(ticks(high).at(-1));
  });

  it("draws a small daily profile, one line per segment", () => {
    const points = [0, 1, 2, 10, 11].map((i) => ({
      time: i,
      minute: i * 5,
      mgdl: 100 + i,
      segment: i < 5 ? 0 : 1,
    }));
    const root = parse(
      agpDailyChart(
        { date: "2026-09-01", full: false, gridPoints: 5, points },
        { unit: 1, locale: "en", title: "Day", labels },
      ),
    );
    expect(root.querySelectorAll(`g.${MARK_CLASS.trace} path`)).toHaveLength(2);
  });
});
