import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { Agp } from "../../metrics/agp";
import type { GlucoseUnit } from "../../domain/glucose-unit";
import {
  agpChart,
  agpDailyChart,
  AGP_MARK_CLASS,
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

  it("the AGP and every day share one fixed scale, 0-350 mg/dL, ticks at 54, the target band, 250 and 350", () => {
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
    const ticks = (top: number, unit: GlucoseUnit, locale: string) =>
      tickTexts(
        parse(agpDailyChart(day(top, "2026-09-01"), { unit, locale, title: "Day", labels })),
        "y",
      );
    expect(ticks(150, 1, "en")).toEqual(["54", "70", "180", "250", "350"]);
    expect(ticks(420, 1, "en")).toEqual(["54", "70", "180", "250", "350"]);
    expect(tickTexts(render(1), "y")).toEqual(["54", "70", "180", "250", "350"]);
    // mmol/L as the consensus writes the thresholds: 3.0, 3.9, 10.0, 13.9, 19.4.
    expect(ticks(150, 0, "pl")).toEqual(["3,0", "3,9", "10,0", "13,9", "19,4"]);
    // The pregnancy band 63-140 mg/dL (3.5-7.8 mmol/L).
    const pregnancy = tickTexts(
      parse(
        agpDailyChart(day(150, "2026-09-01"), {
          unit: 0,
          locale: "en",
          title: "Day",
          labels,
          targetBand: { low: 63, high: 140 },
        }),
      ),
      "y",
    );
    // 54 mg/dL lies 9 from the band's 63 and would print over it: left out.
    expect(pregnancy).toEqual(["3.5", "7.8", "13.9", "19.4"]);
  });

  it("draws values above 350 mg/dL at the top of the scale", () => {
    const agp = syntheticAgp();
    const high = { ...agp, p95: agp.p95.map(() => 500), p75: agp.p75.map(() => 400) };
    const root = parse(agpChart(high, { unit: 1, locale: "en", title: "AGP", labels }));
    const outer = root.querySelector(`g.${AGP_MARK_CLASS.outerBand} path`)!;
    const ys = vertices(outer.getAttribute("d")!).map(([, y]) => y);
    // The plot's top (350 mg/dL) is its top margin, 24 px: nothing is drawn above it.
    expect(Math.min(...ys)).toBeCloseTo(24, 6);
    const daily = parse(
      agpDailyChart(
        {
          date: "2026-09-01",
          full: true,
          gridPoints: 2,
          points: [
            { time: 0, minute: 0, mgdl: 500, segment: 0 },
            { time: 1, minute: 5, mgdl: 350, segment: 0 },
          ],
        },
        { unit: 1, locale: "en", title: "Day", labels },
      ),
    );
    const line = vertices(daily.querySelector(`g.${MARK_CLASS.trace} path`)!.getAttribute("d")!);
    expect(line[0]![1]).toBeCloseTo(line[1]![1], 6);
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
