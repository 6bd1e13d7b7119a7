import { DOMParser } from "linkedom";
import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import {
  GLUCOSE_CLASS_COLOR,
  MARK_CLASS,
  pumpDayChart,
  pumpRangeChart,
  pumpRangeFacts,
  RANGE_CHART_WIDTH,
  RANGE_MARK_CLASS,
  type PumpRangeChartLabels,
} from "../charts.server";
import { shiftDate, type IsoDate } from "../day";
import type { PumpHistoryRecord } from "../pump-records";
import { BIG_BOLUS_MAX_SHOWN } from "../pump-day";
import { buildPumpReport } from "../pump-report";
import { multiDayTicks, multiDayTickStepMs, type PumpChartGroup } from "../pump-report-layout";
import type { PumpReport } from "../pump-report-model";
import { pumpRecord as rec } from "../test-records";
import type { GlucoseUnit } from "../../domain/glucose-unit";
import { MARGIN_LEFT, MARGIN_RIGHT } from "./render.server";
import {
  all,
  num,
  ownText,
  parseSvg,
  tick,
  ticks,
  translate,
  vertices,
  TEST_PUMP_LABELS,
  type Tick,
} from "./svg-test-support";

const WAW = "Europe/Warsaw";
const NY = "America/New_York";
const H = 3_600_000;
const limits = { low: 70, high: 180 };

const labels: PumpRangeChartLabels = {
  ...TEST_PUMP_LABELS,
  targetRange: "Ltarget",
  bolusMarkersOmitted: (n) => `Lomitted ${n}`,
  summary: (f) => `Lsummary ${JSON.stringify(f)}`,
};

// ---------------------------------------------------------------------------------------------
// Fixtures: real report models from pump records

function local(date: IsoDate, tz: string, hh: number, mm = 0): number {
  return Temporal.PlainDate.from(date).toPlainDateTime({ hour: hh, minute: mm }).toZonedDateTime(tz)
    .epochMilliseconds;
}

interface DayPlan {
  /** Local hours of 5 U boluses (60 U/h for 5 min), each with a 60 g carbohydrate entry 2 min before. */
  readonly boluses?: readonly number[];
  /** No records at all that day. */
  readonly empty?: boolean;
}

/**
 * Basal 0.8 U/h at night, 1.0 U/h 06:00-22:00 (22.4 U a full day), the planned boluses, a pump
 * BG entry of 150 mg/dL at 08:30 and a low-insulin warning at 09:00.
 */
function dayRecords(date: IsoDate, tz: string, plan: DayPlan): PumpHistoryRecord[] {
  if (plan.empty) return [];
  const at = (hh: number, mm = 0) => local(date, tz, hh, mm);
  const out = [
    rec(at(6), { basal: 1 }),
    rec(at(8, 30), { port: 3, type: 0, bg: 150 }),
    rec(at(9), { basal: 1, port: 4, type: 1, urgency: 1 }),
    rec(at(22), { basal: 0.8 }),
  ];
  for (const h of plan.boluses ?? [7, 12]) {
    out.push(
      rec(at(h - 1, 58), { basal: 1, port: 3, type: 1, carbs: 60 }),
      rec(at(h), { basal: 1, bolus: 60 }),
      rec(at(h, 5), { basal: 1 }),
    );
  }
  return out;
}

function report(
  from: IsoDate,
  dayCount: number,
  {
    tz = WAW,
    plan = () => ({}),
    meter = [],
  }: { tz?: string; plan?: (i: number) => DayPlan; meter?: { time: number; mgdl: number }[] } = {},
): PumpReport {
  const dates = Array.from({ length: dayCount }, (_, i) => shiftDate(from, i));
  const records = [
    rec(local(shiftDate(from, -1), tz, 23), { basal: 0.8 }),
    ...dates.flatMap((d, i) => dayRecords(d, tz, plan(i))),
  ];
  const result = buildPumpReport({
    from,
    to: dates[dates.length - 1]!,
    timeZone: tz,
    now: Date.parse("2027-06-01T00:00:00Z"),
    records,
    meterReadings: meter,
    limits,
    setting: { unit: 0, nameStyle: 0 },
  });
  if (result.status !== "ok") throw new Error(`report refused: ${JSON.stringify(result)}`);
  return result.report;
}

/** A group over all the report's days, built as buildPumpReport builds its groups (which hold at most 5). */
function wholeRangeGroup(r: PumpReport): PumpChartGroup {
  const windows = r.days.map((d) => d.window);
  const tickStepMs = multiDayTickStepMs(windows.length);
  const bolusCount = r.days.reduce((n, d) => n + d.boluses.length, 0);
  return {
    dates: r.dates,
    start: r.start,
    end: r.end,
    tickStepMs,
    ticks: multiDayTicks(windows, tickStepMs),
    bolusCount,
    showBolusMarkers: bolusCount <= BIG_BOLUS_MAX_SHOWN,
  };
}

function render(
  r: PumpReport,
  group: PumpChartGroup,
  unit: GlucoseUnit = 0,
  locale = "en",
  title = "Chart title",
): string {
  return pumpRangeChart(r, group, { unit, locale, title, labels });
}

// ---------------------------------------------------------------------------------------------
// SVG reading helpers

/** The stacked panels, top to bottom: events, glucose, insulin. */
function panels(root: Element): Element[] {
  return [...root.children].filter((c) => c.tagName.toLowerCase() === "g");
}

/** Position of an element in the svg: its translate plus its ancestors' (Plot puts dx, dy on the mark's group). */
function position(e: Element): { x: number; y: number } {
  let x = 0;
  let y = 0;
  for (let n: Element | null = e; n; n = n.parentElement) {
    if (!/translate\(/.test(n.getAttribute("transform") ?? "")) continue;
    const t = translate(n);
    x += t.x;
    y += t.y;
  }
  return { x, y };
}

/** x (px) of an instant, from two of the chart's ticks (the scale is linear in time). */
function xAt(group: PumpChartGroup, x: readonly Tick[], time: number): number {
  const [a, b] = [group.ticks[0]!, group.ticks[group.ticks.length - 1]!];
  return x[0]!.x + ((time - a.time) * (x[x.length - 1]!.x - x[0]!.x)) / (b.time - a.time);
}

/** The basal step line's paths (the area under it is the other basal path). */
function basalLines(root: Element): Element[] {
  return all(root, `g.${MARK_CLASS.basal} path`).filter(
    (p) => p.parentElement!.getAttribute("fill") === "none",
  );
}

function expectRealTimeSpacing(group: PumpChartGroup, x: readonly Tick[]): void {
  expect(x.map((t) => t.text)).toEqual(group.ticks.map((t) => t.label));
  const pxPerMs =
    (x[x.length - 1]!.x - x[0]!.x) /
    (group.ticks[group.ticks.length - 1]!.time - group.ticks[0]!.time);
  for (let i = 1; i < x.length; i++) {
    expect(x[i]!.x - x[i - 1]!.x).toBeCloseTo(
      (group.ticks[i]!.time - group.ticks[i - 1]!.time) * pxPerMs,
      1,
    );
  }
}

// ---------------------------------------------------------------------------------------------

describe("pumpRangeChart: time axis", () => {
  it("draws the 6-day chart with 36 ticks every 4 h, as the model gives them", () => {
    const r = report("2026-11-16", 6);
    const group = wholeRangeGroup(r);
    expect(group.tickStepMs).toBe(4 * H);
    const x = ticks(parseSvg(render(r, group)), "x");
    expect(x).toHaveLength(36);
    expect(x.map((t) => t.text)).toEqual(
      Array.from({ length: 6 }, () => [
        "00:00",
        "04:00",
        "08:00",
        "12:00",
        "16:00",
        "20:00",
      ]).flat(),
    );
    expectRealTimeSpacing(group, x);
  });

  it("draws a 5-day group of the report with its 30 ticks of 4 h, a boundary rule per new day and the dates", () => {
    const r = report("2026-11-16", 7);
    expect(r.charts.map((g) => g.dates.length)).toEqual([5, 2]);
    const group = r.charts[0]!;
    const root = parseSvg(render(r, group));
    const x = ticks(root, "x");
    expect(x).toHaveLength(30);
    expectRealTimeSpacing(group, x);
    // The group's span fills the width between the shared margins.
    expect(x[0]!.x).toBeCloseTo(MARGIN_LEFT, 1);
    expect(xAt(group, x, group.end)).toBeCloseTo(RANGE_CHART_WIDTH - MARGIN_RIGHT, 1);
    // Boundaries in every panel, at the 00:00 ticks of days 2-5.
    const midnights = x.filter((t) => t.text === "00:00").slice(1);
    for (const panel of panels(root)) {
      const rules = all(panel, `g.${RANGE_MARK_CLASS.dayBoundary} line`);
      expect(rules.map((l) => num(l, "x1"))).toEqual(midnights.map((t) => expect.closeTo(t.x, 1)));
    }
    const dates = all(root, `g.${RANGE_MARK_CLASS.dayLabel} text`);
    expect(dates.map(ownText)).toEqual([
      "Nov 16, 2026",
      "Nov 17, 2026",
      "Nov 18, 2026",
      "Nov 19, 2026",
      "Nov 20, 2026",
    ]);
    // Each date sits in the middle of its day, below the time labels.
    const timeLabel = position(all(root, `g[aria-label="x-axis tick label"] text`)[0]!);
    expect(position(dates[1]!).x).toBeCloseTo((midnights[0]!.x + midnights[1]!.x) / 2, 0);
    expect(position(dates[0]!).y).toBeGreaterThan(timeLabel.y + 10);
    // The 2-day group: 3 h ticks, one boundary per panel.
    const second = parseSvg(render(r, r.charts[1]!));
    expect(ticks(second, "x")).toHaveLength(16);
    expect(all(panels(second)[2]!, `g.${RANGE_MARK_CLASS.dayBoundary} line`)).toHaveLength(1);
  });

  it.each([
    [WAW, "2026-10-23", "2026-10-25", 25, 5 / 4],
    [NY, "2026-03-06", "2026-03-08", 23, 3 / 4],
  ])(
    "%s: a group over the DST day %s..%s gives it %i h of width and real-time tick spacing",
    (tz, from, dstDay, hours, firstGap) => {
      const r = report(from, 5, { tz });
      const group = r.charts[0]!;
      const dst = r.days.find((d) => d.window.date === dstDay)!;
      expect(dst.window.hours).toBe(hours);
      const root = parseSvg(render(r, group));
      const x = ticks(root, "x");
      expect(x).toHaveLength(group.ticks.length);
      expectRealTimeSpacing(group, x);
      const i = group.ticks.findIndex((t) => t.time === dst.window.start);
      // 00:00-04:00 on that night lasts 5 h (fall back) or 3 h (spring forward).
      expect((x[i + 1]!.x - x[i]!.x) / (x[i + 2]!.x - x[i + 1]!.x)).toBeCloseTo(firstGap, 2);
      const rules = all(panels(root)[2]!, `g.${RANGE_MARK_CLASS.dayBoundary} line`).map((l) =>
        num(l, "x1"),
      );
      const dayWidth = (k: number) => rules[k]! - rules[k - 1]!;
      const k = r.dates.indexOf(dstDay);
      expect(dayWidth(k) / dayWidth(k - 1)).toBeCloseTo(hours / 24, 2);
      // The 12:00 bolus of the DST day is drawn at that day's 12:00 tick.
      const noon = group.ticks.findIndex((t) => t.time === local(dstDay, tz, 12));
      expect(x[noon]!.text).toBe("12:00");
      const bars = all(root, `g.${MARK_CLASS.bolus}[aria-label="rule"] line`).map((l) =>
        num(l, "x1"),
      );
      expect(bars.some((b) => Math.abs(b - x[noon]!.x) < 0.5)).toBe(true);
    },
  );
});

describe("pumpRangeChart: insulin", () => {
  it("draws the basal rate as one step line across midnights, from the group's start to its end", () => {
    const r = report("2026-11-16", 5);
    const group = r.charts[0]!;
    const root = parseSvg(render(r, group));
    const lines = basalLines(root);
    expect(lines).toHaveLength(1);
    const v = vertices(lines[0]!.getAttribute("d")!);
    for (let i = 1; i < v.length; i++)
      expect(v[i - 1]![0] === v[i]![0] || v[i - 1]![1] === v[i]![1]).toBe(true);
    const x = ticks(root, "x");
    expect(v[0]![0]).toBeCloseTo(x[0]!.x, 1);
    expect(v[v.length - 1]![0]).toBeCloseTo(xAt(group, x, group.end), 1);
    expect(new Set(v.map(([, y]) => y)).size).toBe(2); // 0.8 and 1.0 U/h
    // Two rises a day at 06:00 (0.8 -> 1.0), none at midnight (0.8 on both sides).
    const rises = v.filter((p, i) => i > 0 && p[0] === v[i - 1]![0] && p[1] < v[i - 1]![1]);
    expect(rises).toHaveLength(5);
  });

  it("draws every bolus with its units while the group has at most 25", () => {
    const r = report("2026-11-16", 5, { plan: () => ({ boluses: [7, 9, 11, 13, 15] }) });
    const group = r.charts[0]!;
    expect(group.bolusCount).toBe(25);
    expect(group.showBolusMarkers).toBe(true);
    const root = parseSvg(render(r, group, 0, "pl"));
    expect(all(root, `g.${MARK_CLASS.bolus}[aria-label="rule"] line`)).toHaveLength(25);
    expect(all(root, `g.${MARK_CLASS.bolus}[aria-label="text"] text`).map(ownText)).toEqual(
      Array(25).fill("5,0"),
    );
    expect(all(root, "text").some((t) => ownText(t).includes("Lbolus"))).toBe(true);
    expect(all(root, `.${RANGE_MARK_CLASS.bolusOmitted}`)).toHaveLength(0);
  });

  it("leaves bolus markers and their axis out above 25 boluses, and says so", () => {
    const r = report("2026-11-16", 5, {
      plan: (i) => ({ boluses: i === 0 ? [7, 9, 11, 13, 15, 17] : [7, 9, 11, 13, 15] }),
    });
    const group = r.charts[0]!;
    expect(group.bolusCount).toBe(26);
    expect(group.showBolusMarkers).toBe(false);
    const root = parseSvg(render(r, group));
    expect(all(root, `.${MARK_CLASS.bolus}`)).toHaveLength(0);
    expect(all(root, "text").some((t) => ownText(t).includes("Lbolus"))).toBe(false);
    const note = all(root, `g.${RANGE_MARK_CLASS.bolusOmitted} text`);
    expect(note.map(ownText)).toEqual(["Lomitted 26"]);
    expect(panels(root)[2]!.contains(note[0]!)).toBe(true);
    expect(basalLines(root)).toHaveLength(1);
  });
});

describe("pumpRangeChart: glucose, carbohydrate and alarms", () => {
  const meter = [{ time: local("2026-11-17", WAW, 19), mgdl: 60 }];
  const r = report("2026-11-16", 5, { meter });
  const group = r.charts[0]!;

  it.each([
    [0 as GlucoseUnit, "pl", "3,9", "10,0", "8,3", "3,3"],
    [1 as GlucoseUnit, "en", "70", "180", "150", "60"],
  ])(
    "unit %i (%s): target band at the limit ticks, pump BG and meter values in the display unit",
    (unit, locale, lowText, highText, pumpText, meterText) => {
      const root = parseSvg(render(r, group, unit, locale));
      const glucose = panels(root)[1]!;
      const y = ticks(glucose, "y");
      const band = all(glucose, `g.${MARK_CLASS.targetBand} rect`);
      expect(band).toHaveLength(1);
      expect(num(band[0]!, "y")).toBeCloseTo(tick(y, highText).y, 1);
      expect(num(band[0]!, "y") + num(band[0]!, "height")).toBeCloseTo(tick(y, lowText).y, 1);
      expect(band[0]!.querySelector("title")!.textContent).toBe("Ltarget");
      const top = Math.max(...y.map((t) => Number(t.text.replace(",", "."))));
      if (unit === 0) expect(top).toBeLessThan(30);
      else expect(top).toBeGreaterThanOrEqual(300);
      // Five pump BG entries (one a day) and the meter reading, in time order.
      const values = all(glucose, `g.${MARK_CLASS.meterBg}[aria-label="text"] text`).map(ownText);
      expect(values).toEqual([pumpText, pumpText, meterText, pumpText, pumpText, pumpText]);
      const dots = all(glucose, `g.${MARK_CLASS.meterBg} circle`);
      expect(dots.map((d) => d.getAttribute("fill"))).toEqual([
        ...Array(2).fill(GLUCOSE_CLASS_COLOR.inRange),
        GLUCOSE_CLASS_COLOR.low,
        ...Array(3).fill(GLUCOSE_CLASS_COLOR.inRange),
      ]);
    },
  );

  it("draws a day's glucose as the DAILY chart draws it: the same dots, each with its instant, mg/dL and source", () => {
    const dotsOf = (root: Element) =>
      all(root, `g.${MARK_CLASS.meterBg} circle`).map((c) => [
        Number(c.getAttribute("data-time")),
        Number(c.getAttribute("data-mgdl")),
        c.getAttribute("data-source"),
      ]);
    const day = r.days[1]!;
    // 2026-11-17: the pump's BG entry at 08:30 (150 mg/dL) and the meter reading at 19:00 (60 mg/dL).
    const expected = [
      [local("2026-11-17", WAW, 8, 30), 150, "pump"],
      [local("2026-11-17", WAW, 19), 60, "meter"],
    ];
    const screen = dotsOf(
      parseSvg(pumpDayChart(day, { unit: 0, locale: "en", title: "Day", labels })),
    );
    const print = dotsOf(
      parseSvg(
        pumpRangeChart(r, group, {
          unit: 0,
          locale: "en",
          title: "Print",
          tooltips: false,
          labels,
        }),
      ),
    );
    expect(screen).toEqual(expected);
    expect(
      print.filter(
        ([time]) => (time as number) >= day.window.start && (time as number) < day.window.end,
      ),
    ).toEqual(expected);
    expect(print).toHaveLength(6);
  });

  it("marks carbohydrate and alarms with tooltips naming the date", () => {
    const root = parseSvg(render(r, group, 0, "pl"));
    expect(all(root, `g.${MARK_CLASS.carbs}[aria-label="text"] text`).map(ownText)).toEqual(
      Array(10).fill("60"),
    );
    expect(
      all(root, `g.${MARK_CLASS.carbs}[aria-label="dot"] circle`)[2]!.querySelector("title")!
        .textContent,
    ).toBe("17 lis 2026, 06:58 60 Lg");
    const alarms = all(root, `g.${MARK_CLASS.alarms} path`);
    expect(alarms).toHaveLength(5);
    expect(alarms[4]!.querySelector("title")!.textContent).toBe(
      "20 lis 2026, 09:00 Lkind_low_insulin",
    );
    const bolus = all(root, `g.${MARK_CLASS.bolus}[aria-label="rule"] line`)[0]!;
    expect(bolus.querySelector("title")!.textContent).toBe("16 lis 2026, 07:00 5,0 LU");
  });

  it("writes dates with the caller's format", () => {
    const root = parseSvg(
      pumpRangeChart(r, group, {
        unit: 0,
        locale: "pl",
        title: "T",
        labels: { ...labels, formatDay: (d) => d.split("-").reverse().join(".") },
      }),
    );
    expect(all(root, `g.${RANGE_MARK_CLASS.dayLabel} text`).map(ownText)[0]).toBe("16.11.2026");
    expect(all(root, `g.${MARK_CLASS.alarms} path`)[0]!.querySelector("title")!.textContent).toBe(
      "16.11.2026 09:00 Lkind_low_insulin",
    );
  });
});

describe("pumpRangeChart: days without data", () => {
  it("breaks the basal line over an empty day and still draws its span, date and boundaries", () => {
    // The report prints no chart for the empty day (its chart sections); the chart itself can span one.
    const r = report("2026-11-16", 5, { plan: (i) => (i === 2 ? { empty: true } : {}) });
    const group = wholeRangeGroup(r);
    const empty = r.days[2]!;
    expect(empty.hasData).toBe(false);
    const root = parseSvg(render(r, group));
    const x = ticks(root, "x");
    expect(x).toHaveLength(30);
    const lines = basalLines(root);
    expect(lines).toHaveLength(2);
    const [from, to] = [xAt(group, x, empty.window.start), xAt(group, x, empty.window.end)];
    expect(vertices(lines[0]!.getAttribute("d")!).at(-1)![0]).toBeCloseTo(from, 1);
    expect(vertices(lines[1]!.getAttribute("d")!)[0]![0]).toBeCloseTo(to, 1);
    const inside = (e: Element) => num(e, "cx") > from && num(e, "cx") < to;
    expect(all(root, "circle").filter(inside)).toHaveLength(0);
    expect(all(root, `g.${MARK_CLASS.bolus}[aria-label="rule"] line`)).toHaveLength(8);
    expect(empty.window.date).toBe("2026-11-18");
    expect(all(root, `g.${RANGE_MARK_CLASS.dayLabel} text`).map(ownText)[2]).toBe("Nov 18, 2026");
    expect(all(panels(root)[2]!, `g.${RANGE_MARK_CLASS.dayBoundary} line`)).toHaveLength(4);
  });

  it("renders the frame, axes and dates of a group without any data", () => {
    const r = buildPumpReport({
      from: "2026-11-16",
      to: "2026-11-20",
      timeZone: WAW,
      now: Date.parse("2027-01-01T00:00:00Z"),
      records: [],
      limits,
      setting: { unit: 0, nameStyle: 0 },
    });
    if (r.status !== "ok") throw new Error("refused");
    expect(r.report.hasData).toBe(false);
    expect(r.report.charts).toHaveLength(0);
    const group = wholeRangeGroup(r.report);
    const root = parseSvg(render(r.report, group));
    expect(ticks(root, "x")).toHaveLength(30);
    expect(ticks(panels(root)[1]!, "y").length).toBeGreaterThan(3);
    expect(all(root, `g.${RANGE_MARK_CLASS.dayLabel} text`)).toHaveLength(5);
    expect(basalLines(root)).toHaveLength(0);
    expect(all(root, "circle")).toHaveLength(0);
    expect(pumpRangeFacts(r.report, group)).toMatchObject({
      daysWithData: 0,
      basalUnits: 0,
      bolusCount: 0,
      bgCount: 0,
    });
  });

  it("throws when the report lacks a day of the group", () => {
    const r = report("2026-11-16", 5);
    expect(() => render({ ...r, days: r.days.slice(1) }, r.charts[0]!)).toThrow(/2026-11-16/);
  });
});

describe("pumpRangeChart: the svg", () => {
  const meter = [{ time: local("2026-11-18", WAW, 19), mgdl: 210 }];
  const r = report("2026-11-16", 5, { meter });
  const group = r.charts[0]!;

  it("sums the group's days in the facts of its summary", () => {
    expect(pumpRangeFacts(r, group)).toEqual({
      from: "2026-11-16",
      to: "2026-11-20",
      dayCount: 5,
      daysWithData: 5,
      basalUnits: 112, // 22.4 U a day
      bolusUnits: 50,
      bolusCount: 10,
      bolusMarkersShown: true,
      carbCount: 10,
      carbGrams: 600,
      bgCount: 6,
      alarmCount: 5,
    });
  });

  it("is one accessible, viewBox-sized svg: title, summary as <desc>, no ids, well-formed XML", () => {
    const svg = pumpRangeChart(r, group, {
      unit: 1,
      locale: "en",
      title: "A <title> & more",
      labels,
      width: 900,
    });
    const root = parseSvg(svg);
    expect(root.getAttribute("role")).toBe("img");
    expect(root.getAttribute("aria-label")).toBe("A <title> & more");
    const [title, desc] = [...root.children];
    expect(title!.tagName.toLowerCase()).toBe("title");
    expect(title!.textContent).toBe("A <title> & more");
    expect(desc!.tagName.toLowerCase()).toBe("desc");
    expect(desc!.textContent).toBe(labels.summary(pumpRangeFacts(r, group)));
    expect(root.getAttribute("viewBox")).toMatch(/^0 0 900 \d+$/);
    expect(root.getAttribute("width")).toBe("100%");
    expect(root.hasAttribute("height")).toBe(false);
    expect(all(root, "[id]")).toHaveLength(0);
    expect(all(root, "svg")).toHaveLength(0);
    const xml = new DOMParser().parseFromString(svg, "image/svg+xml");
    expect(xml.documentElement.tagName.toLowerCase()).toBe("svg");
    expect(parseSvg(render(r, group)).getAttribute("viewBox")).toMatch(/^0 0 1120 \d+$/);
  });

  it("is deterministic", () => {
    const first = render(r, group, 0, "pl");
    render(r, r.charts[0]!, 1, "en");
    expect(render(r, group, 0, "pl")).toBe(first);
  });

  it("scales its panels to a given height", () => {
    expect(
      parseSvg(
        pumpRangeChart(r, group, { unit: 0, locale: "en", title: "T", labels, height: 600 }),
      ).getAttribute("viewBox"),
    ).toBe("0 0 1120 600");
  });

  it("shows only the given labels, numbers, dates and times", () => {
    const root = parseSvg(render(r, group, 0, "pl"));
    const texts = [
      ...all(root, "text").map(ownText),
      ...all(root, "title").map((t) => t.textContent ?? ""),
    ];
    expect(texts.length).toBeGreaterThan(20);
    const given = [
      ...Object.values(labels).filter((v): v is string => typeof v === "string"),
      ...Object.values(TEST_PUMP_LABELS.alarmKinds),
    ];
    for (const text of texts) {
      if (text === "Chart title") continue;
      let rest = text;
      for (const label of given) rest = rest.replaceAll(label, "");
      // Dates are the language's own: the Polish short name of November.
      rest = rest.replaceAll("lis", "");
      expect(rest, `unexpected text in "${text}"`).toMatch(/^[\d\s.,:/\-↑→…]*$/);
    }
  });
});
