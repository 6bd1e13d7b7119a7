import { DOMParser } from "linkedom";
import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import type { Reading } from "../metrics/types";
import { buildBgRange, type BgReadingInput } from "./bg-range";
import { buildCgmDay, buildCgmOverlay } from "./cgm-day";
import {
  bgRangeChart,
  cgmDayChart,
  cgmOverlayChart,
  GLUCOSE_CLASS_COLOR,
  MARK_CLASS,
  pumpDayChart,
  type BgChartLabels,
  type ChartOptions,
  type CgmChartLabels,
  type OverlayChartLabels,
} from "./charts.server";
import { dayWindow, hourTicks } from "./day";
import { buildPumpDay } from "./pump-day";
import type { PumpDayModel } from "./pump-day-model";
import { pumpRecord } from "./test-records";
import { toUnit, type GlucoseUnit } from "../domain/glucose-unit";
import {
  all,
  num,
  ownText,
  parseSvg,
  tick,
  ticks,
  vertices,
  TEST_PUMP_LABELS,
} from "./charts/svg-test-support";

const WAW = "Europe/Warsaw";
const MIN = 60_000;
const H = 60 * MIN;
const limits = { low: 70, high: 180 };
/** The 25 h day (clocks go back at 03:00). */
const LONG_DAY = "2026-10-25";

// Labels are unique tokens, so a test can tell them from anything the module might hard-code.
const cgmLabels: CgmChartLabels = { glucoseAxis: "Lglucose", targetRange: "Ltarget" };
const overlayLabels: OverlayChartLabels = { glucoseAxis: "Lglucose", targetRange: "Ltarget" };
const bgLabels: BgChartLabels = {
  glucoseAxis: "Lglucose",
  targetRange: "Ltarget",
  glucoseUnit: "Lunit",
};
const pumpLabels = TEST_PUMP_LABELS;
const ALL_LABELS = [
  ...new Set([
    ...Object.values(pumpLabels).filter((v) => typeof v === "string"),
    ...Object.values(TEST_PUMP_LABELS.alarmKinds),
    ...Object.values(bgLabels),
  ]),
];

function opts(unit: GlucoseUnit = 0, locale = "en", title = "Chart title"): ChartOptions {
  return { unit, locale, title };
}

/** Epoch ms of a local wall time in Warsaw (the earlier instant of a repeated hour). */
function waw(date: string, hh: number, mm = 0): number {
  return Temporal.PlainDateTime.from(
    `${date}T${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}`,
  ).toZonedDateTime(WAW).epochMilliseconds;
}

// ---------------------------------------------------------------------------------------------
// SVG reading helpers

// ---------------------------------------------------------------------------------------------
// Fixtures

/** 5-min readings over the 25 h day with two gaps (> 15 min): three line segments. */
function longDayReadings(): Reading[] {
  const { start, end } = dayWindow(LONG_DAY, WAW);
  const gaps = [
    [start + 6 * H, start + 6 * H + 25 * MIN],
    [start + 15 * H, start + 15 * H + 40 * MIN],
  ];
  const readings: Reading[] = [];
  for (let i = 0, t = start; t < end; i++, t += 5 * MIN) {
    if (gaps.some(([a, b]) => t >= a! && t < b!)) continue;
    readings.push({ time: t, mgdl: 40 + ((i * 7) % 260) }); // 40-299: every class; i = 20 gives 180
  }
  return readings;
}

const rec = pumpRecord;

/** A pump day: basal 0.8 then 1.0 U/h, a normal bolus (5 U), an extended one (2 U/h for 1 h), carbs, a BG entry, an alarm. */
function pumpDay(date = "2026-11-20"): PumpDayModel {
  const at = (hh: number, mm = 0) => waw(date, hh, mm);
  const records = [
    rec(at(6), { basal: 1 }),
    rec(at(6, 58), { basal: 1, port: 3, type: 1, carbs: 60 }),
    rec(at(7), { basal: 1, bolus: 60 }),
    rec(at(7, 5), { basal: 1 }),
    rec(at(8), { port: 3, type: 0, bg: 150 }),
    rec(at(9), { basal: 1, port: 4, type: 1, urgency: 1 }),
    rec(at(12), { basal: 1, bolus: 2 }),
    rec(at(13), { basal: 1 }),
  ];
  const previous = rec(waw(date, 0) - H, { basal: 0.8 });
  return buildPumpDay({ date, timeZone: WAW, records, previous, pdaVersion: "5.3.0", limits });
}

/** The 14 days ending on the 25 h day, 5-min readings; day 3 has a 1 h gap. */
function overlayModel() {
  const first = waw("2026-10-12", 0);
  const end = dayWindow(LONG_DAY, WAW).end;
  const gapStart = waw("2026-10-15", 10);
  const readings: Reading[] = [];
  for (let t = first, i = 0; t < end; t += 5 * MIN, i++) {
    if (t >= gapStart && t < gapStart + H) continue;
    readings.push({ time: t, mgdl: 90 + ((i * 13) % 150) });
  }
  return buildCgmOverlay({ endDate: LONG_DAY, timeZone: WAW, readings, limits });
}

// ---------------------------------------------------------------------------------------------

describe("cgmDayChart", () => {
  const model = buildCgmDay({ date: LONG_DAY, timeZone: WAW, readings: longDayReadings(), limits });

  it("draws one line path per segment and a dot, coloured by class, for each reading outside the target", () => {
    const root = parseSvg(cgmDayChart(model, { ...opts(), labels: cgmLabels }));
    const segments = new Set(model.points.map((p) => p.segment)).size;
    expect(segments).toBe(3);
    expect(all(root, `g.${MARK_CLASS.trace} path`)).toHaveLength(segments);
    const outside = model.points.filter((p) => p.class !== "inRange");
    expect(outside.length).toBeGreaterThan(0);
    expect(outside.length).toBeLessThan(model.points.length);
    const dots = all(root, `g.${MARK_CLASS.glucoseDots} circle`);
    expect(dots.map((d) => d.getAttribute("fill"))).toEqual(
      outside.map((p) => GLUCOSE_CLASS_COLOR[p.class]),
    );
    expect(new Set(outside.map((p) => p.class)).size).toBe(4);
  });

  it.each([
    [0 as GlucoseUnit, "en", "3.9", "10.0"],
    [1 as GlucoseUnit, "en", "70", "180"],
    [0 as GlucoseUnit, "pl", "3,9", "10,0"],
  ])(
    "unit %i, %s: the target band sits at the ticks labelled %s and %s, and a reading where the axis puts it",
    (unit, locale, lowText, highText) => {
      const root = parseSvg(cgmDayChart(model, { ...opts(unit, locale), labels: cgmLabels }));
      const y = ticks(root, "y");
      const band = all(root, `g.${MARK_CLASS.targetBand} rect`);
      expect(band).toHaveLength(1);
      expect(num(band[0]!, "y")).toBeCloseTo(tick(y, highText).y, 1);
      expect(num(band[0]!, "y") + num(band[0]!, "height")).toBeCloseTo(tick(y, lowText).y, 1);
      // The first dot (a reading outside the target) sits where the axis puts its value.
      const first = model.points.find((p) => p.class !== "inRange")!;
      const [lowTick, highTick] = [tick(y, lowText), tick(y, highText)];
      const value = (text: string) => Number(text.replace(",", "."));
      const perUnit = (highTick.y - lowTick.y) / (value(highText) - value(lowText));
      const expected = lowTick.y + (toUnit(first.mgdl, unit) - value(lowText)) * perUnit;
      expect(num(all(root, `g.${MARK_CLASS.glucoseDots} circle`)[0]!, "cy")).toBeCloseTo(
        expected,
        0,
      );
      const top = Math.max(...y.map((t) => Number(t.text.replace(",", "."))));
      if (unit === 0) expect(top).toBeLessThan(30);
      else expect(top).toBeGreaterThanOrEqual(300);
    },
  );

  it("labels the x axis with the model's local ticks on a 25 h day, spaced by real time", () => {
    const root = parseSvg(cgmDayChart(model, { ...opts(), labels: cgmLabels }));
    const x = ticks(root, "x");
    expect(x.map((t) => t.text)).toEqual(model.ticks.map((t) => t.label));
    expect(x.map((t) => t.text)).toEqual([
      "00:00",
      "03:00",
      "06:00",
      "09:00",
      "12:00",
      "15:00",
      "18:00",
      "21:00",
    ]);
    // 00:00-03:00 lasts 4 h that night (02:00-03:00 happens twice), 03:00-06:00 3 h.
    const first = tick(x, "03:00").x - tick(x, "00:00").x;
    const second = tick(x, "06:00").x - tick(x, "03:00").x;
    expect(first / second).toBeCloseTo(4 / 3, 2);
  });

  it("uses the locale's decimal separator in mmol/L", () => {
    const pl = ticks(
      parseSvg(cgmDayChart(model, { ...opts(0, "pl"), labels: cgmLabels })),
      "y",
    ).map((t) => t.text);
    expect(pl.some((t) => /^\d+,\d$/.test(t))).toBe(true);
    expect(pl.some((t) => t.includes("."))).toBe(false);
    const en = ticks(
      parseSvg(cgmDayChart(model, { ...opts(0, "en"), labels: cgmLabels })),
      "y",
    ).map((t) => t.text);
    expect(en.every((t) => /^\d+\.\d$/.test(t))).toBe(true);
  });

  it("renders a frame with axes for a day without readings", () => {
    const empty = buildCgmDay({ date: "2026-11-20", timeZone: WAW, readings: [], limits });
    const root = parseSvg(cgmDayChart(empty, { ...opts(), labels: cgmLabels }));
    expect(ticks(root, "x")).toHaveLength(8);
    expect(ticks(root, "y").length).toBeGreaterThan(3);
    expect(all(root, `g.${MARK_CLASS.trace} path`)).toHaveLength(0);
  });
});

describe("cgmOverlayChart", () => {
  const model = overlayModel();

  it("draws one line per day and segment, older days lighter, on a 00:00-24:00 axis", () => {
    const root = parseSvg(cgmOverlayChart(model, { ...opts(), labels: overlayLabels }));
    const expected = model.days.reduce(
      (n, d) => n + new Set(d.points.map((p) => p.segment)).size,
      0,
    );
    expect(model.days).toHaveLength(14);
    expect(expected).toBeGreaterThan(14); // the gap day and the 25 h day add segments
    const paths = all(root, `g.${MARK_CLASS.trace} path`);
    expect(paths).toHaveLength(expected);
    const lightness = (p: Element) => {
      const hex = p.getAttribute("stroke")!;
      return (
        parseInt(hex.slice(1, 3), 16) +
        parseInt(hex.slice(3, 5), 16) +
        parseInt(hex.slice(5, 7), 16)
      );
    };
    expect(lightness(paths[0]!)).toBeGreaterThan(lightness(paths[paths.length - 1]!));
    expect(ticks(root, "x").map((t) => t.text)).toEqual([
      "00:00",
      "03:00",
      "06:00",
      "09:00",
      "12:00",
      "15:00",
      "18:00",
      "21:00",
    ]);
  });

  it("puts the target band at the limit ticks in mg/dL too", () => {
    const root = parseSvg(cgmOverlayChart(model, { ...opts(1), labels: overlayLabels }));
    const band = all(root, `g.${MARK_CLASS.targetBand} rect`)[0]!;
    const y = ticks(root, "y");
    expect(num(band, "y")).toBeCloseTo(tick(y, "180").y, 1);
    expect(num(band, "y") + num(band, "height")).toBeCloseTo(tick(y, "70").y, 1);
  });
});

describe("pumpDayChart", () => {
  const model = pumpDay();
  const render = (m: PumpDayModel, unit: GlucoseUnit = 0, locale = "en") =>
    parseSvg(pumpDayChart(m, { ...opts(unit, locale), labels: pumpLabels }));

  it("leaves out the marks' hover titles for print (tooltips: false) and keeps the chart's own title", () => {
    const screen = parseSvg(pumpDayChart(model, { ...opts(), labels: pumpLabels }));
    const print = parseSvg(pumpDayChart(model, { ...opts(), tooltips: false, labels: pumpLabels }));
    expect(all(screen, "title").length).toBeGreaterThan(1);
    expect(all(print, "title").map((e) => e.textContent)).toEqual(["Chart title"]);
    expect(all(print, "path").length).toBe(all(screen, "path").length);
  });

  it("draws the basal rate as a step line (horizontal and vertical moves only)", () => {
    expect(model.basal.steps.length).toBeGreaterThanOrEqual(2);
    const root = render(model);
    const line = all(root, `g.${MARK_CLASS.basal} path`).find(
      (p) => p.parentElement!.getAttribute("fill") === "none",
    );
    expect(line).toBeDefined();
    const v = vertices(line!.getAttribute("d")!);
    expect(v.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < v.length; i++) {
      const [x0, y0] = v[i - 1]!;
      const [x1, y1] = v[i]!;
      expect(x0 === x1 || y0 === y1).toBe(true);
    }
    // The rate rises at 06:00: the line goes up there.
    const ys = new Set(v.map(([, y]) => y));
    expect(ys.size).toBe(2);
  });

  it("draws bolus bars (immediate) and an extended part as long as its display duration", () => {
    expect(model.boluses.map((b) => b.kind)).toEqual(["normal", "extended"]);
    const root = render(model);
    expect(all(root, `g.${MARK_CLASS.bolus}[aria-label="rule"] line`)).toHaveLength(1);
    const rects = all(root, `g.${MARK_CLASS.bolus} rect`);
    expect(rects).toHaveLength(1);
    const x = ticks(root, "x");
    const pxPerMs = (tick(x, "03:00").x - tick(x, "00:00").x) / (3 * H);
    expect(num(rects[0]!, "width")).toBeCloseTo(
      model.boluses[1]!.extended!.displayDurationMs * pxPerMs,
      0,
    );
    expect(all(root, "text").some((t) => ownText(t) === "Lbolus ↑")).toBe(true);
    expect(all(root, `g.${MARK_CLASS.bolus}[aria-label="text"] text`).map(ownText)).toEqual([
      "5.0",
      "2.0",
    ]);
  });

  it("draws no bolus markers when the model says not to", () => {
    const root = render({ ...model, showBolusMarkers: false });
    expect(all(root, `.${MARK_CLASS.bolus}`)).toHaveLength(0);
    expect(all(root, "text").some((t) => ownText(t).includes("Lbolus"))).toBe(false);
    expect(all(root, `g.${MARK_CLASS.basal} path`).length).toBeGreaterThan(0);
  });

  it("marks carbohydrate, meter BG (in the display unit) and alarms", () => {
    const root = render(model, 0, "pl");
    expect(all(root, `g.${MARK_CLASS.carbs}[aria-label="text"] text`).map(ownText)).toEqual(["60"]);
    expect(all(root, `g.${MARK_CLASS.meterBg}[aria-label="text"] text`).map(ownText)).toEqual([
      "8,3",
    ]); // 150 / 18
    const alarms = all(root, `g.${MARK_CLASS.alarms} path`);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]!.querySelector("title")!.textContent).toBe("09:00 Lkind_low_insulin");
    const mgdl = render(model, 1);
    expect(all(mgdl, `g.${MARK_CLASS.meterBg}[aria-label="text"] text`).map(ownText)).toEqual([
      "150",
    ]);
  });

  it("labels the time axis with the local ticks of a 25 h day", () => {
    const long = pumpDay(LONG_DAY);
    const x = ticks(render(long), "x");
    expect(x.map((t) => t.text)).toEqual(
      hourTicks(dayWindow(LONG_DAY, WAW), 3).map((t) => t.label),
    );
    expect(
      (tick(x, "03:00").x - tick(x, "00:00").x) / (tick(x, "06:00").x - tick(x, "03:00").x),
    ).toBeCloseTo(4 / 3, 2);
  });

  it("renders a frame with axes for a day without data", () => {
    const empty = buildPumpDay({ date: "2026-11-20", timeZone: WAW, records: [] });
    expect(empty.hasData).toBe(false);
    const root = render(empty);
    expect(ticks(root, "x").map((t) => t.text)).toEqual([
      "00:00",
      "03:00",
      "06:00",
      "09:00",
      "12:00",
      "15:00",
      "18:00",
      "21:00",
    ]);
    expect(ticks(root, "y").length).toBeGreaterThan(6);
    expect(root.getAttribute("viewBox")).toMatch(/^0 0 720 400$/);
  });
});

describe("bgRangeChart", () => {
  const at = (date: string, hh: number, mgdl: number): BgReadingInput => ({
    time: waw(date, hh),
    mgdl,
  });
  const readings = [
    at("2026-10-24", 8, 50),
    at("2026-10-24", 20, 190),
    at(LONG_DAY, 12, 100),
    at("2026-10-26", 7, 260),
    at("2026-10-26", 22, 65),
  ];
  const model = buildBgRange({
    from: "2026-10-24",
    to: "2026-10-26",
    timeZone: WAW,
    readings,
    limits,
  });

  it("draws one dot per reading in its day's column, coloured by class", () => {
    const root = parseSvg(bgRangeChart(model, { ...opts(), labels: bgLabels }));
    const dots = all(root, `g.${MARK_CLASS.meterBg} circle`);
    const views = model.days.flatMap((d) => d.readings);
    expect(dots).toHaveLength(5);
    expect(dots.map((d) => d.getAttribute("fill"))).toEqual(
      views.map((r) => GLUCOSE_CLASS_COLOR[r.class]),
    );
    const x = ticks(root, "x");
    expect(x.map((t) => t.text)).toEqual(["Oct 24", "Oct 25", "Oct 26"]);
    // 12:00 on the wall clock is the middle of its column, where the date label sits.
    expect(num(dots[2]!, "cx")).toBeCloseTo(tick(x, "Oct 25").x, 1);
    expect(num(dots[0]!, "cx")).toBeLessThan(tick(x, "Oct 24").x);
    expect(num(dots[1]!, "cx")).toBeGreaterThan(tick(x, "Oct 24").x);
    expect(num(dots[1]!, "cx")).toBeLessThan(tick(x, "Oct 25").x);
  });

  it("puts the band at the limit ticks and formats dates with the caller's function", () => {
    const root = parseSvg(
      bgRangeChart(model, {
        ...opts(0, "pl"),
        labels: { ...bgLabels, formatDay: (d) => d.split("-").reverse().slice(0, 2).join(".") },
      }),
    );
    const band = all(root, `g.${MARK_CLASS.targetBand} rect`)[0]!;
    const y = ticks(root, "y");
    expect(num(band, "y")).toBeCloseTo(tick(y, "10,0").y, 1);
    expect(num(band, "y") + num(band, "height")).toBeCloseTo(tick(y, "3,9").y, 1);
    expect(ticks(root, "x").map((t) => t.text)).toEqual(["24.10", "25.10", "26.10"]);
  });
});

describe("every chart", () => {
  const cgm = buildCgmDay({ date: LONG_DAY, timeZone: WAW, readings: longDayReadings(), limits });
  const bg = buildBgRange({
    from: "2026-10-12",
    to: "2026-10-26",
    timeZone: WAW,
    readings: [{ time: waw("2026-10-25", 9), mgdl: 123 }],
    limits,
  });
  const charts: [string, (o: ChartOptions) => string][] = [
    ["pump", (o) => pumpDayChart(pumpDay(), { ...o, labels: pumpLabels })],
    ["cgm", (o) => cgmDayChart(cgm, { ...o, labels: cgmLabels })],
    ["overlay", (o) => cgmOverlayChart(overlayModel(), { ...o, labels: overlayLabels })],
    ["bg", (o) => bgRangeChart(bg, { ...o, labels: bgLabels })],
  ];

  it.each(charts)(
    "%s: is deterministic (same input, same bytes, also after other renders)",
    (_, render) => {
      const first = render(opts(0, "pl"));
      for (const [, other] of charts) other(opts(1, "en"));
      expect(render(opts(0, "pl"))).toBe(first);
    },
  );

  it.each(charts)("%s: is one accessible, viewBox-sized svg without ids", (_, render) => {
    const svg = render({ ...opts(1, "en", "A <title> & more"), width: 800 });
    const root = parseSvg(svg);
    expect(root.getAttribute("role")).toBe("img");
    expect(root.getAttribute("aria-label")).toBe("A <title> & more");
    expect(root.firstElementChild!.tagName.toLowerCase()).toBe("title");
    expect(root.firstElementChild!.textContent).toBe("A <title> & more");
    expect(root.getAttribute("viewBox")).toMatch(/^0 0 800 \d+$/);
    expect(root.getAttribute("width")).toBe("100%");
    expect(root.hasAttribute("height")).toBe(false);
    expect(all(root, "[id]")).toHaveLength(0);
    expect(all(root, "svg")).toHaveLength(0); // no nested svg
    expect(svg.startsWith("<svg")).toBe(true);
    // Also well-formed for an XML parser (a standalone .svg file).
    const xml = new DOMParser().parseFromString(svg, "image/svg+xml");
    expect(xml.documentElement.tagName.toLowerCase()).toBe("svg");
    expect(svg).not.toMatch(/="[^"]*[<>][^"]*"/);
  });

  it.each(charts)(
    "%s: narrow: a narrower, taller viewBox, larger text, fewer x ticks",
    (_, render) => {
      const wide = parseSvg(render(opts(0, "pl")));
      const narrow = parseSvg(render({ ...opts(0, "pl"), narrow: true }));
      const box = (root: Element) => root.getAttribute("viewBox")!.split(" ").map(Number);
      const [, , wideWidth, wideHeight] = box(wide);
      const [, , narrowWidth, narrowHeight] = box(narrow);
      expect(wideWidth).toBe(720);
      expect(narrowWidth).toBe(340);
      expect(narrowHeight).toBeGreaterThan(wideHeight!);
      expect(wide.getAttribute("font-size")).toBe("10");
      expect(narrow.getAttribute("font-size")).toBe("11");
      // No element overrides the root's size.
      expect(all(narrow, "[font-size]").filter((e) => e !== narrow)).toHaveLength(0);
      const xTicks = (root: Element) => ticks(root, "x").filter((t) => t.text !== "");
      expect(xTicks(narrow).length).toBeGreaterThan(1);
      expect(xTicks(narrow).length).toBeLessThanOrEqual(Math.ceil(xTicks(wide).length / 2) + 1);
      expect(xTicks(narrow).length).toBeLessThan(xTicks(wide).length);
      // Labelled ticks at least 40 viewBox px apart: about four characters at 11 px.
      const xs = xTicks(narrow).map((t) => t.x);
      for (let i = 1; i < xs.length; i++) expect(xs[i]! - xs[i - 1]!).toBeGreaterThanOrEqual(40);
      // Coordinates to 0.1 px (the wide chart's to 0.01 px).
      const geometry = ["d", "x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "transform"];
      const decimals = (root: Element) =>
        Math.max(
          ...all(root, "*")
            .flatMap((e) =>
              geometry.flatMap((name) => (e.getAttribute(name) ?? "").match(/\.\d+/g) ?? []),
            )
            .map((d) => d.length - 1),
        );
      expect(decimals(narrow)).toBe(1);
      expect(decimals(wide)).toBe(2);
    },
  );

  it.each(charts)("%s: shows only the given labels, numbers and times", (_, render) => {
    const root = parseSvg(render(opts(0, "pl")));
    const texts = [
      ...all(root, "text").map(ownText),
      ...all(root, "title").map((t) => t.textContent ?? ""),
    ];
    expect(texts.length).toBeGreaterThan(5);
    for (const text of texts) {
      if (text === "Chart title") continue;
      let rest = text;
      for (const label of ALL_LABELS) rest = rest.replaceAll(label, "");
      // Dates are the language's own: Polish short names of October and November.
      for (const month of ["paź", "lis"]) rest = rest.replaceAll(month, "");
      expect(rest, `unexpected text in "${text}"`).toMatch(/^[\d\s.,:\-↑→…]*$/);
    }
  });
});
